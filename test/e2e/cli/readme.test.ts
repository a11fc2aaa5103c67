// Every build-api command that the README shows in a ```sh block runs as written, block by block,
// each block in a fresh directory that plays the repository root (with data/ and, for the TRF
// example, an event.trf). `build-api`, `npx build-api` and `node bin/build-api.js` are the same
// program; a preview gets `--port 0` appended (the last --port wins), so that parallel runs never
// compete for port 3000, is asked for one endpoint and stopped.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const README = readFileSync(path.resolve(import.meta.dirname, "../../..", "README.md"), "utf8");
const TEC = path.resolve(import.meta.dirname, "../../fixtures/trf/fide-tec-2023-swiss16.trf");

/** Words of one shell command line: double and single quotes, no expansion (the README uses none). */
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

afterAll(removeTempDirs);

describe("the README's build-api commands", () => {
  const blocks = readmeCommands(README);

  it("are found: every command of the CLI is shown at least once", () => {
    const shown = new Set(blocks.flat().map((args) => args[0]));
    expect(shown).toEqual(new Set(["init-store", "add-club", "import-trf", "build", "preview"]));
    expect(blocks.flat().some((a) => a[0] === "init-store" && a.includes("--sample"))).toBe(true);
    expect(blocks.flat().some((a) => a[0] === "import-trf" && a.includes("--club"))).toBe(true);
  });

  it("run as written on a fresh store, block by block", async () => {
    for (const commands of blocks) {
      const cwd = tempDir("readme");
      mkdirSync(path.join(cwd, "data"));
      copyFileSync(TEC, path.join(cwd, "event.trf"));
      for (const args of commands) {
        if (args[0] === "preview") {
          expect(await previewOnce(args, cwd), args.join(" ")).toBe(200);
          continue;
        }
        const r = await runCli(args, { cwd });
        expect(r.code, `build-api ${args.join(" ")}\n${r.stderr}`).toBe(0);
      }
    }
  });
});
