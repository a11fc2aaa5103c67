// The CLI's main thread keeps V8's young generation at its initial size however it is started
// (bin/young-generation.js, imported first by bin/build-api.js): a full build at M peaked at 353
// MiB with V8's default growth (docs/design/memory.md). Each case runs a fresh Node that allocates
// like the main thread of a build (fast, much of it surviving) and reports the new space's size.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../../bin/", import.meta.url));

/** The new space's size (MiB) after a surviving-heavy allocation, in a fresh `node`, with `setup` first. */
function newSpaceMib(setup: string): number {
  const code = `${setup}
    const v8 = await import("node:v8");
    const keep = new Map();
    for (let i = 0; i < 1e6; i++) if (i % 3 === 0) keep.set("k" + i, { p: "p" + i, i });
    const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === "new_space");
    console.log(s.space_size / 2 ** 20);`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  return Number(r.stdout.trim());
}

describe("bin/young-generation.js", () => {
  // Held near its initial 2 MiB; V8 may add a page in a scavenge (2.5 MiB seen on Node 24 under a
  // loaded CI), while its default grows the space to 16-64 MiB on the same allocation.
  it("keeps the young generation near its initial size where V8's default grows it", () => {
    const url = pathToFileURL(path.join(BIN, "young-generation.js")).href;
    expect(newSpaceMib(`await import(${JSON.stringify(url)});`)).toBeLessThanOrEqual(4);
    expect(newSpaceMib("")).toBeGreaterThanOrEqual(16);
  });

  // The growth factor is process-wide: a render worker must not inherit 1 MiB semi-spaces, which
  // made it scavenge after every MiB it rendered (src/render/pool.ts, WORKER_SEMI_SPACE_MIB).
  it("leaves a render worker a young generation of WORKER_SEMI_SPACE_MIB semi-spaces", () => {
    const young = pathToFileURL(path.join(BIN, "young-generation.js")).href;
    const pool = pathToFileURL(path.join(BIN, "../src/render/pool.ts")).href;
    const worker = `import v8 from "node:v8"; import { parentPort } from "node:worker_threads";
      const keep = new Map();
      for (let i = 0; i < 1e6; i++) if (i % 3 === 0) keep.set("k" + i, { p: "p" + i, i });
      const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === "new_space");
      parentPort.postMessage(s.space_size / 2 ** 20);`;
    const code = `await import(${JSON.stringify(young)});
      const { startWorker, WORKER_SEMI_SPACE_MIB } = await import(${JSON.stringify(pool)});
      const w = startWorker(new URL("data:text/javascript," + encodeURIComponent(${JSON.stringify(worker)})), {});
      const mib = await new Promise((resolve, reject) => { w.once("message", resolve); w.once("error", reject); });
      await w.terminate();
      const v8 = await import("node:v8");
      const main = v8.getHeapSpaceStatistics().find((x) => x.space_name === "new_space").space_size / 2 ** 20;
      console.log(JSON.stringify({ mib, semi: WORKER_SEMI_SPACE_MIB, main }));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    const { mib, semi, main } = JSON.parse(r.stdout) as { mib: number; semi: number; main: number };
    expect(semi).toBeGreaterThan(1);
    // Two semi-spaces of `semi` MiB, allowing a page more; the main thread's stays at its own size.
    expect(mib).toBeGreaterThanOrEqual(2 * semi);
    expect(mib).toBeLessThanOrEqual(2 * semi + 1);
    expect(main).toBeLessThan(2 * semi);
  });

  it("is imported by bin/build-api.js before the CLI loads", () => {
    const text = readFileSync(path.join(BIN, "build-api.js"), "utf8");
    const at = text.indexOf('import "./young-generation.js";');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(text.indexOf("../lib/cli.js"));
  });
});
