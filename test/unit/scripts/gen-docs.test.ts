// docs/reference/ is generated from the code (scripts/reference-docs.ts): the checked-in files
// must be exactly what the generator writes now, so a new command, option, route, cache lifetime
// or exit code cannot ship with a stale reference. The failure names the command that fixes it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  cliReference,
  endpointReference,
  exitCodeReference,
  REFERENCE_DIR,
  referenceDocs,
  REGENERATE,
} from "../../../scripts/reference-docs.ts";
import { program } from "../../../src/cli/program.ts";
import { ENDPOINTS, PAGE_ROUTES } from "../../../src/routes/urls.ts";
import { EXIT, EXIT_MEANINGS } from "../../../src/shared/errors.ts";

describe("docs/reference/", () => {
  it(`is up to date with the code (run ${REGENERATE})`, async () => {
    const expected = await referenceDocs();
    const onDisk = existsSync(REFERENCE_DIR)
      ? readdirSync(REFERENCE_DIR)
          .filter((n) => n.endsWith(".md"))
          .sort()
      : [];
    expect(onDisk, `docs/reference/ holds other files than the generator writes: run ${REGENERATE}`).toEqual(
      [...expected.keys()].sort(),
    );
    for (const [name, text] of expected) {
      const stale = `docs/reference/${name} is stale: run ${REGENERATE} and commit the result`;
      expect(readFileSync(path.join(REFERENCE_DIR, name), "utf8"), stale).toBe(text);
    }
  });
});

describe("the generated references", () => {
  it("show the help of every command the program defines, and nothing else", () => {
    const md = cliReference();
    const names = program.commands.map((c) => c.name()).filter((n) => n !== "help");
    expect(names.length).toBeGreaterThanOrEqual(6);
    expect([...md.matchAll(/^## build-api (\S+)$/gm)].map((m) => m[1])).toEqual(names);
    for (const c of program.commands.filter((c) => c.name() !== "help")) {
      for (const o of c.options) expect(md, `${c.name()} ${o.long}`).toContain(o.long!);
    }
  });

  it("list every endpoint and page of the route table once, and follow a change in it", () => {
    const md = endpointReference();
    for (const e of ENDPOINTS) {
      const row = new RegExp(`^\\| ${e.n} \\| \`${e.path.replace(/[{}/]/g, "\\$&")}\` \\|`, "m");
      expect(md, e.id).toMatch(row);
    }
    for (const p of PAGE_ROUTES) expect(md, p.id).toContain(`| ${p.id} | \`${p.path}\` |`);
    // Generated, not copied: a changed route changes the text.
    const saved = ENDPOINTS[0]!.summary;
    try {
      (ENDPOINTS[0] as { summary: string }).summary = "a summary changed for this test";
      expect(endpointReference()).toContain("a summary changed for this test");
    } finally {
      (ENDPOINTS[0] as { summary: string }).summary = saved;
    }
  });

  it("give every exit code its meaning, in order", () => {
    const md = exitCodeReference();
    const codes = [...md.matchAll(/^\| (\d+) \| `(\w+)` \| (.+) \|$/gm)];
    expect(codes.map((m) => Number(m[1]))).toEqual(Object.values(EXIT).sort((a, b) => a - b));
    for (const m of codes) expect(m[3]).toBe(EXIT_MEANINGS[m[2] as keyof typeof EXIT]);
  });
});
