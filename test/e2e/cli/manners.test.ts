// How the CLI talks to a person: unknown options named as such, required options marked, one-line
// usage errors with a pointer to the help, a busy port said plainly, counts in the right number.
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { sampleStoreV3 } from "../../support/old-stores.ts";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";
import { STORE_SCHEMA_VERSION } from "../../../src/store/schema.ts";

const TEC = path.resolve(import.meta.dirname, "../../fixtures/trf/fide-tec-2023-swiss16.trf");
const NOW = "2026-11-22T12:00:00Z";

let dir: string;
let sample: string;

beforeAll(async () => {
  dir = tempDir("cli-manners");
  sample = path.join(dir, "sample.sqlite");
  const r = await runCli(["init-store", "--sample", sample]);
  expect(r.code, r.stderr).toBe(0);
});

afterAll(removeTempDirs);

/** Output as lines. */
const lines = (s: string): string[] => s.trimEnd().split("\n");

describe("usage errors", () => {
  it("names an unknown option as unknown, even when a required option is missing too", async () => {
    for (const args of [
      ["build", "--bogus"],
      ["build", "--db", sample, "--out", path.join(dir, "x"), "--bogus"],
    ]) {
      const r = await runCli(args);
      expect(r.code).toBe(EXIT.usage);
      expect(lines(r.stderr)).toEqual(["error: unknown option '--bogus'", "(see 'build-api build --help')"]);
      expect(r.stdout).toBe("");
    }
  });

  it("names the languages with a catalog when --language names another", async () => {
    const r = await runCli(["build", "--db", sample, "--out", path.join(dir, "x"), "--language", "eu"]);
    expect(r.code).toBe(EXIT.usage);
    expect(lines(r.stderr)).toEqual([
      `error: option '--language <code>' argument 'eu' is invalid. no catalog for "eu"; expected one of en, es, fr, de, pt`,
      "(see 'build-api build --help')",
    ]);
  });

  it("refuses an --origin that is not a scheme and host, saying what one looks like", async () => {
    for (const bad of [
      "results.example.org",
      "ftp://results.example.org",
      "https://results.example.org/chess/",
    ]) {
      const r = await runCli(["build", "--db", sample, "--out", path.join(dir, "x"), "--origin", bad]);
      expect(r.code, bad).toBe(EXIT.usage);
      expect(lines(r.stderr), bad).toEqual([
        `error: option '--origin <url>' argument '${bad}' is invalid. "${bad}" is not an origin; expected the scheme and host the snapshot is served at, such as https://results.example.org (its path goes in --base-path)`,
        "(see 'build-api build --help')",
      ]);
    }
  });

  it("says which required option is missing, in one line and a hint, not the whole help", async () => {
    const r = await runCli(["build", "--db", sample]);
    expect(r.code).toBe(EXIT.usage);
    expect(lines(r.stderr)).toEqual([
      "error: required option '--out <dir>' not specified",
      "(see 'build-api build --help')",
    ]);
    const trf = await runCli(["import-trf", TEC, "--db", sample]);
    expect(lines(trf.stderr)).toEqual([
      "error: required option '--id <externalId>' not specified",
      "(see 'build-api import-trf --help')",
    ]);
    const value = await runCli(["build", "--db", sample, "--out", "x", "--now", "yesterday"]);
    expect(value.code).toBe(EXIT.usage);
    expect(lines(value.stderr)).toHaveLength(2);
    expect(value.stderr).toContain("'--now <time>' argument 'yesterday' is invalid");
    const command = await runCli(["bulid"]);
    expect(command.code).toBe(EXIT.usage);
    expect(lines(command.stderr)[0]).toMatch(/^error: unknown command 'bulid'/);
    expect(lines(command.stderr).at(-1)).toBe("(see 'build-api --help')");
    expect(command.stderr).not.toContain("Usage:");
  });

  it("marks the required options in --help, and only those", async () => {
    const expected: Record<string, string[]> = {
      build: ["--db", "--out"],
      // --source-url is needed for a new tournament only (a re-import keeps the stored one).
      "import-trf": ["--db", "--id"],
      "add-club": ["--db", "--name"],
      preview: [],
      "init-store": [],
    };
    for (const [command, required] of Object.entries(expected)) {
      const r = await runCli([command, "--help"]);
      expect(r.code).toBe(0);
      const marked = r.stdout
        .split("\n")
        .filter((l) => l.includes("(required)"))
        .map((l) => /^\s+(--[\w-]+)/.exec(l)?.[1]);
      expect(marked, command).toEqual(required);
      // The usage line names them too.
      const usage = r.stdout.split("\n")[0]!;
      for (const flag of required) expect(usage, command).toContain(` ${flag} <`);
    }
  });
});

describe("preview on a port already in use", () => {
  let blocker: Server;
  let port: number;

  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    port = (blocker.address() as { port: number }).port;
  });

  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it("says so with exit 2, without a stack trace", async () => {
    const dist = path.join(dir, "dist");
    const built = await runCli(["build", "--db", sample, "--out", dist, "--now", NOW]);
    expect(built.code, built.stderr).toBe(0);
    const r = await runCli(["preview", "--dir", dist, "--port", String(port)]);
    expect(r.code).toBe(EXIT.usage);
    expect(lines(r.stderr)[0]).toBe(
      `build-api: cannot listen on 127.0.0.1:${port}: the port is already in use.`,
    );
    expect(r.stderr).toContain("--port");
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });
  it("with --watch, says so before building: the snapshot in --dir is left as it was", async () => {
    const dist = path.join(dir, "watched");
    const r = await runCli(["preview", "--watch", "--db", sample, "--dir", dist, "--port", String(port)]);
    expect(r.code, r.stderr).toBe(EXIT.usage);
    expect(lines(r.stderr)[0]).toBe(
      `build-api: cannot listen on 127.0.0.1:${port}: the port is already in use.`,
    );
    // No build ran: nothing was written at --dir (before, the build replaced it, then failed).
    expect(existsSync(dist)).toBe(false);
    expect(r.stderr).not.toMatch(/built|internal error/);
  });
});

describe("counts", () => {
  it("says 1 tournament and 8 tournaments", async () => {
    const one = path.join(dir, "one.sqlite");
    expect((await runCli(["init-store", one])).code).toBe(0);
    const imported = await runCli([
      "import-trf",
      TEC,
      "--db",
      one,
      "--id",
      "31",
      "--source-url",
      "https://example.org/31",
      "--publish",
      "--now",
      NOW,
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    const r = await runCli(["build", "--db", one, "--out", path.join(dir, "one"), "--now", NOW]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/built \S+: 1 tournament, \d+ files \(\d+ written, 0 unchanged, 0 removed\)/);
    const eight = await runCli(["build", "--db", sample, "--out", path.join(dir, "eight"), "--now", NOW]);
    expect(eight.stderr).toMatch(/built \S+: 8 tournaments, \d+ files/);
  });
});

describe("add-club", () => {
  it("adds a club that import-trf --club then publishes into, and refuses bad or taken values", async () => {
    const db = path.join(dir, "clubs.sqlite");
    expect((await runCli(["init-store", db])).code).toBe(0);
    const added = await runCli([
      "add-club",
      "riverside",
      "--db",
      db,
      "--name",
      "Riverside Chess Club",
      "--uuid",
      "2f1e6a4c-8b7d-4c1e-9a2b-3c4d5e6f7a8b",
      "--time-zone",
      "Australia/Melbourne",
      "--default-language",
      "en",
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain("added club riverside (2f1e6a4c-8b7d-4c1e-9a2b-3c4d5e6f7a8b)");
    const taken = await runCli(["add-club", "riverside", "--db", db, "--name", "Again"]);
    expect(taken.code).toBe(EXIT.usage);
    expect(taken.stderr).toContain("already exists");
    const bad = await runCli([
      "add-club",
      "Not A Slug",
      "--db",
      db,
      "--name",
      "X",
      "--website-url",
      "ftp://x",
    ]);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toContain("slug pattern");
    expect(bad.stderr).toContain("--website-url");
    const missing = await runCli(["add-club", "x", "--db", path.join(dir, "nope.sqlite"), "--name", "X"]);
    expect(missing.code).toBe(EXIT.storeUnreadable);

    const imported = await runCli([
      "import-trf",
      TEC,
      "--db",
      db,
      "--id",
      "77",
      "--source-url",
      "https://example.org/77",
      "--club",
      "riverside",
      "--now",
      NOW,
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    const out = path.join(dir, "clubs-dist");
    const built = await runCli(["build", "--db", db, "--out", out, "--now", NOW]);
    expect(built.code, built.stderr).toBe(0);
    const { readFileSync } = await import("node:fs");
    const catalog = JSON.parse(
      readFileSync(path.join(out, "api/clubs/riverside/tournaments/index.json"), "utf8"),
    );
    expect(catalog).toMatchObject({
      clubId: "2f1e6a4c-8b7d-4c1e-9a2b-3c4d5e6f7a8b",
      name: "Riverside Chess Club",
      timeZone: "Australia/Melbourne",
      tournaments: [{ tournament: { tournamentId: 77 } }],
    });
  });

  it("refuses a store of an older schema version with exit 4 and the upgrade-store command", async () => {
    const db = path.join(dir, "v3.sqlite");
    sampleStoreV3(db);
    const r = await runCli(["add-club", "riverside", "--db", db, "--name", "Riverside"]);
    expect(r.code, r.stderr).toBe(EXIT.storeSchema);
    expect(r.stderr).toContain(
      `Cannot add the club to ${db}: store schema version 3, expected ${STORE_SCHEMA_VERSION}.`,
    );
    expect(r.stderr).toContain(`run \`build-api upgrade-store ${db}\` first`);
    expect((await runCli(["upgrade-store", db])).code).toBe(0);
    const again = await runCli(["add-club", "riverside", "--db", db, "--name", "Riverside"]);
    expect(again.code, again.stderr).toBe(0);
  });
});
