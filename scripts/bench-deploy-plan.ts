// The client's own work in a one-tournament-tick deploy, at any store size, without a server or a
// build: what a tick deploy does beyond its requests. From a real snapshot's bookkeeping
// (ledger/bookkeeping.ts), a copy k times larger is made (each file row copied k times, with the
// tournament ids and club slugs in its path renamed), beside a version directory holding only the
// marker; then one tournament's rows are rewritten as a new generation, as a tick does. Timed, per
// k: the tick deploy's planning (changesSince: the changed rows only; planChanges; the version-3
// record encoded and decoded) and, for contrast, the full comparison the fallback and the previous
// release do (every row read; planDeploy against a version-2 record listing every file, which is
// decoded and encoded). At k = 10 a 2,000-tournament snapshot stands for 20,000 tournaments.
//   node scripts/bench-deploy-plan.ts --dir <snapshot of a build> [--times 1,10] [--runs 3]
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import Database from "better-sqlite3";
import { metadataDigest } from "../src/deploy/objects.ts";
import { planChanges, planDeploy } from "../src/deploy/plan.ts";
import { decodeRecord, encodeRecord } from "../src/deploy/record.ts";
import { readSnapshotChanges, readSnapshotFiles } from "../src/deploy/snapshot-files.ts";
import { BOOKKEEPING_NAME } from "../src/ledger/bookkeeping.ts";
import { inspectTarget, resolveLayout, STORE_MARKER_NAME } from "../src/publish/layout.ts";
import { MARKER_CONTENT, MARKER_NAME } from "../src/publish/manifest.ts";

const values = scriptArgs(import.meta.url, {
  dir: { type: "string" },
  times: { type: "string", default: "1,10" },
  runs: { type: "string", default: "3" },
});
if (!values.dir) exitWithUsage(import.meta.url, "--dir <snapshot> is required");
const layout = resolveLayout(values.dir);
const current = inspectTarget(layout, false);
if (current.kind !== "link" || current.version === undefined)
  throw new Error(`${values.dir} is no published snapshot`);
const version: string = current.version;
const runs = Number(values.runs);
const noFacts = { links: {}, archived: [] };

/** A store of one version (marker only) whose bookkeeping is the real one's rows k times over. */
function scaledStore(k: number): { dir: string; tick: string[]; from: number; log: string } {
  const store = mkdtempSync(path.join(tmpdir(), "build-api-plan-"));
  copyFileSync(path.join(layout.store, STORE_MARKER_NAME), path.join(store, STORE_MARKER_NAME));
  copyFileSync(path.join(layout.store, BOOKKEEPING_NAME), path.join(store, BOOKKEEPING_NAME));
  const db = new Database(path.join(store, BOOKKEEPING_NAME));
  const meta = (k: string) => db.prepare<[string], { v: string }>("SELECT v FROM meta WHERE k = ?").get(k)!.v;
  const from = Number(meta("generation"));
  // Copy c of tournament 123 is 123c (digits appended), of club x is x-cc: paths as SQL text
  // rewrites, in one statement per copy.
  db.function("scale", (p: unknown, c: unknown) =>
    String(p)
      .replace(/(^|\/)(tournaments|feeds|calendar)\/([0-9]+)/g, `$1$2/$3${String(c)}`)
      .replace(/(^|\/)clubs\/([a-z0-9-]+)/g, `$1clubs/$2-c${String(c)}`),
  );
  const copy = db.prepare(
    "INSERT OR IGNORE INTO files (path, owner, sha256, bytes, gen) " +
      "SELECT scale(path, ?), owner || '#' || ?, sha256, bytes, gen FROM files " +
      "WHERE sha256 IS NOT NULL AND instr(owner, '#') = 0",
  );
  db.transaction(() => {
    for (let c = 1; c < k; c++) copy.run(c, c);
  })();
  // The tick: one tournament's JSON and pages (up to 20 files) and the lists get new bytes.
  const id = /tournaments\/([0-9]+)\//.exec(
    db
      .prepare<[], { path: string }>(
        "SELECT path FROM files WHERE path LIKE 'api/public/v1/tournaments/%/index.json' LIMIT 1",
      )
      .get()!.path,
  )![1];
  const tick = db
    .prepare<[string], { path: string }>("SELECT path FROM files WHERE path LIKE ? LIMIT 20")
    .all(`%tournaments/${id}/%`)
    .map((r) => r.path);
  tick.push("api/public/v1/tournaments/index.json");
  const next = from + 1;
  const write = db.prepare("UPDATE files SET sha256 = randomblob(32), gen = ? WHERE path = ?");
  db.transaction(() => {
    for (const p of tick) write.run(next, p);
    db.prepare("UPDATE meta SET v = ? WHERE k = 'generation'").run(String(next));
  })();
  const log = meta("log");
  db.close();
  mkdirSync(path.join(store, version));
  writeFileSync(path.join(store, version, MARKER_NAME), `${MARKER_CONTENT}generation ${next}\n`);
  return { dir: path.join(store, version), tick, from, log };
}

const ms = (t: number) => `${(performance.now() - t).toFixed(0)} ms`;
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
for (const k of values.times.split(",").map(Number)) {
  const s = scaledStore(k);
  const metadata = metadataDigest();
  // The version-2 record of the previous release, as the bucket would hold it before this tick
  // (the tick's files with their older bytes).
  const all = readSnapshotFiles(s.dir).files;
  const before = new Map(all);
  for (const p of s.tick) before.set(p, { sha256: "0".repeat(64), bytes: 1 });
  const v2 = encodeRecord({ metadata, files: before, facts: noFacts });
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    const c = readSnapshotChanges(s.dir, { log: s.log, generation: s.from }, []);
    const read = ms(t);
    t = performance.now();
    const plan = planChanges({
      written: c.changes!.written,
      removed: c.changes!.removed,
      unknown: new Map(),
      suspects: new Map(),
      facts: noFacts,
    });
    const planned = ms(t);
    t = performance.now();
    const record = encodeRecord({ metadata, at: c.to, facts: noFacts });
    decodeRecord(record);
    const rec = ms(t);
    console.log(
      `x${k}: ${all.size} files; tick deploy: ${c.rowsRead} rows read ${read}, ${plan.steps.flat().length} to send, ` +
        `plan ${planned}, record encode+decode ${rec} (${record.length} bytes)`,
    );
    t = performance.now();
    const snap = readSnapshotFiles(s.dir);
    const readAll = ms(t);
    t = performance.now();
    const held = decodeRecord(v2)!;
    const decode = ms(t);
    t = performance.now();
    const full = planDeploy(snap.files, held, new Set(), metadata);
    const fullPlan = ms(t);
    t = performance.now();
    const bytes = encodeRecord({ metadata, files: full.target, facts: noFacts }).length;
    const encode = ms(t);
    console.log(
      `x${k}:   full comparison: ${snap.files.size} rows read ${readAll}, ${full.steps.flat().length} to send, ` +
        `v2 record decode ${decode} (${(v2.length / 1e6).toFixed(1)} MB), plan ${fullPlan}, encode ${encode} (${(bytes / 1e6).toFixed(1)} MB)`,
    );
  }
  rmSync(path.dirname(s.dir), { recursive: true, force: true });
}
