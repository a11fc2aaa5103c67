// Every build-api command that the README and the guide (docs/guide/*.md) show in a ```sh block
// runs as written. Each document is followed as a reader follows it: its blocks in order, in one
// fresh directory that plays the repository root (with data/ and, for the TRF examples, an
// event.trf). `build-api`, `npx build-api` and `node bin/build-api.js` are the same program; a
// preview gets `--port 0` appended (the last --port wins), so that parallel runs never compete for
// port 3000, is asked for one endpoint and stopped. A deploy goes to a local S3-compatible server
// holding the bucket it names (its address and path-style addressing appended, as --port is).
import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { program } from "../../../src/cli/program.ts";
import { CLI, REPO_ROOT, runCli } from "../../support/run.ts";
import { S3_ENV, startS3, type LocalS3 } from "../../support/s3-server.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

/** The documents whose commands are run: the README, then every page of the guide. */
const GUIDE = path.join(REPO_ROOT, "docs", "guide");
const DOCUMENTS = [
  "README.md",
  ...readdirSync(GUIDE)
    .filter((n) => n.endsWith(".md"))
    .sort()
    .map((n) => `docs/guide/${n}`),
];
const TEC = path.resolve(import.meta.dirname, "../../fixtures/trf/fide-tec-2023-swiss16.trf");

/** Words of one shell command line: double and single quotes, no expansion (the docs use none). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m; (m = re.exec(line));) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** The build-api commands of each ```sh block, as argument lists (continuations joined). */
function readmeCommands(markdown: string): string[][][] {
  const blocks: string[][][] = [];
  for (const [, body] of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const commands: string[][] = [];
    for (const raw of body!.replace(/\\\n\s*/g, " ").split("\n")) {
      const line = raw.replace(/\s+#.*$/, "").trim();
      const m = /^(?:npx build-api|node bin\/build-api\.js|build-api)\s+(.*)$/.exec(line);
      if (m) commands.push(words(m[1]!));
    }
    if (commands.length > 0) blocks.push(commands);
  }
  return blocks;
}

async function previewOnce(args: string[], cwd: string): Promise<number> {
  const child = spawn(process.execPath, [CLI, ...args, "--port", "0"], {
    cwd,
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let err = "";
      child.stderr.setEncoding("utf8").on("data", (d: string) => {
        err += d;
        const m = /at (http:\/\/[\d.]+:\d+)\//.exec(err);
        if (m) resolve(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`preview exited ${code}: ${err}`)));
    });
    return (await fetch(`${base}/api/public/v1/tournaments`)).status;
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
}

const s3s: LocalS3[] = [];
afterAll(async () => {
  for (const s of s3s) await s.close();
  removeTempDirs();
});

/** `deploy` or `publish` against a local S3 server; a `> file` at the end gets the stdout. */
async function deployOnce(written: string[], cwd: string): Promise<void> {
  const to = written.indexOf(">");
  const args = to < 0 ? written : written.slice(0, to);
  const bucket = args[args.indexOf("--bucket") + 1]!;
  const s3 = await startS3(bucket);
  s3s.push(s3);
  const r = await runCli([...args, "--endpoint", s3.endpoint, "--path-style"], {
    cwd,
    env: { ...process.env, ...S3_ENV },
  });
  expect(r.code, `build-api ${written.join(" ")}\n${r.stderr}`).toBe(0);
  if (to >= 0) writeFileSync(path.join(cwd, written[to + 1]!), r.stdout);
  expect((await s3.list()).length, "objects in the bucket").toBeGreaterThan(0);
}

describe("the build-api commands of the README and the guide", () => {
  const documents = DOCUMENTS.map(
    (doc) => [doc, readmeCommands(readFileSync(path.join(REPO_ROOT, doc), "utf8"))] as const,
  );
  const all = documents.flatMap(([, blocks]) => blocks.flat());

  it("are found: every command of the CLI is shown at least once", () => {
    expect(all.length).toBeGreaterThan(0);
    const commands = program.commands.map((c) => c.name()).filter((n) => n !== "help");
    expect(new Set(all.map((args) => args[0]))).toEqual(new Set(commands));
    expect(all.some((a) => a[0] === "init-store" && a.includes("--sample"))).toBe(true);
    expect(all.some((a) => a[0] === "import-trf" && a.includes("--club"))).toBe(true);
    // The README's own start outside the repository is among them.
    expect(documents[0]![1].length).toBeGreaterThan(0);
  });

  it("the README's TRF example names a file of the repository", () => {
    const imports = documents[0]![1].flat().filter((a) => a[0] === "import-trf");
    expect(imports.length).toBeGreaterThan(0);
    for (const args of imports) expect(existsSync(path.join(REPO_ROOT, args[1]!)), args[1]).toBe(true);
  });

  it("the README's count of the sample build's files is the build's", async () => {
    const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const claimed = /The sample build writes ([\d,]+)\s+files/.exec(readme)?.[1];
    expect(claimed, "the README states the sample build's file count").toBeDefined();
    const cwd = tempDir("readme-figures");
    expect((await runCli(["init-store", "--sample", "s.sqlite"], { cwd })).code).toBe(0);
    const r = await runCli(["build", "--db", "s.sqlite", "--out", "dist", "--now", "2026-11-22T12:00:00Z"], {
      cwd,
    });
    expect(r.code, r.stderr).toBe(0);
    const built = /built dist: 8 tournaments, (\d+) files/.exec(r.stderr)?.[1];
    expect(Number(claimed!.replace(/,/g, ""))).toBe(Number(built));
  });

  it.each(documents.filter(([, blocks]) => blocks.length > 0))(
    "%s: run as written, block by block, on a fresh directory",
    async (_doc, blocks) => {
      const cwd = tempDir("readme");
      mkdirSync(path.join(cwd, "data"));
      copyFileSync(TEC, path.join(cwd, "event.trf"));
      for (const commands of blocks) {
        for (const args of commands) {
          // The TRF file of the repository that an import names is there as in a clone (only
          // inputs: a store a command creates may also lie in a developer's clone, git-ignored).
          for (const a of args[0] === "import-trf" ? args.slice(1) : []) {
            const inRepo = path.join(REPO_ROOT, a);
            if (a.includes("/") && existsSync(inRepo) && statSync(inRepo).isFile()) {
              mkdirSync(path.join(cwd, path.dirname(a)), { recursive: true });
              copyFileSync(inRepo, path.join(cwd, a));
            }
          }
          if (args[0] === "preview") {
            expect(await previewOnce(args, cwd), args.join(" ")).toBe(200);
            continue;
          }
          if (args[0] === "deploy" || args[0] === "publish") {
            await deployOnce(args, cwd);
            continue;
          }
          const r = await runCli(args, { cwd });
          expect(r.code, `build-api ${args.join(" ")}\n${r.stderr}`).toBe(0);
        }
      }
    },
  );
});
