// The client's own work in a one-tournament-tick deploy, at any store size, without a server or a
// build: what a tick deploy does beyond its requests and grows with the store. From a real
// snapshot's manifest (its paths, hashes, sizes), a synthetic one k times larger is made (each
// tournament id and club slug copied k times), with its deploy record; one tournament's files are
// then changed, and each step is timed: reading the manifest (deploy/snapshot-files.ts), decoding
// the record, planning, encoding the record. At k = 10 a 2,000-tournament snapshot stands for
// 20,000 tournaments.
//   node scripts/bench-deploy-plan.ts --dir <snapshot of a build> [--times 1,10] [--runs 3]
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { metadataDigest } from "../src/deploy/objects.ts";
import { planDeploy } from "../src/deploy/plan.ts";
import { decodeRecord, encodeRecord } from "../src/deploy/record.ts";
import { readSnapshotFiles, type SnapshotFile } from "../src/deploy/snapshot-files.ts";
import { MANIFEST_NAME } from "../src/publish/manifest.ts";

const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    times: { type: "string", default: "1,10" },
    runs: { type: "string", default: "3" },
  },
});
if (!values.dir) throw new Error("usage: bench-deploy-plan.ts --dir <snapshot> [--times 1,10]");
const base = readSnapshotFiles(values.dir).files;
const runs = Number(values.runs);

/** The snapshot's files k times over: copy c of tournament 123 is 123c (digits appended), of club x is x-cc. */
function scaled(k: number): Map<string, SnapshotFile> {
  if (k === 1) return new Map(base);
  const out = new Map<string, SnapshotFile>();
  for (let c = 0; c < k; c++) {
    for (const [p, f] of base) {
      const q =
        c === 0
          ? p
          : p
              .replace(/(^|\/)(tournaments|feeds|calendar)\/([0-9]+)/g, `$1$2/$3${c}`)
              .replace(/(^|\/)clubs\/([a-z0-9-]+)/g, `$1clubs/$2-c${c}`);
      out.set(q, f);
    }
  }
  return out;
}

/** Writes the manifest as the build does (one canonical entry a line), in chunks: it can pass 512 MB. */
function writeManifestFile(file: string, files: Map<string, SnapshotFile>): void {
  const keys = [...files.keys()].sort();
  const fd = openSync(file, "w");
  writeSync(fd, '{"format":"build-api-manifest","version":1,"files":[\n');
  for (let i = 0; i < keys.length; i += 10_000) {
    const chunk = keys
      .slice(i, i + 10_000)
      .map(
        (p, j) =>
          `{"path":"${p}","sha256":"${files.get(p)!.sha256}","bytes":${files.get(p)!.bytes}}${i + j < keys.length - 1 ? "," : ""}`,
      );
    writeSync(fd, chunk.join("\n") + "\n");
  }
  writeSync(fd, "]}\n");
  closeSync(fd);
}

const ms = (t: number) => `${(performance.now() - t).toFixed(0)} ms`;
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
for (const k of values.times.split(",").map(Number)) {
  const files = scaled(k);
  const dir = mkdtempSync(path.join(tmpdir(), "build-api-plan-"));
  writeManifestFile(path.join(dir, MANIFEST_NAME), files);
  const metadata = metadataDigest();
  const record = encodeRecord({ metadata, files, facts: { links: {}, archived: [] } });
  // One tournament's files change (the first tournament's JSON and pages).
  const id = /tournaments\/([0-9]+)\//.exec(
    [...files.keys()].find((p) => /^api\/public\/v1\/tournaments\/[0-9]+\//.test(p))!,
  )![1];
  const changed = [...files.keys()].filter((p) => p.includes(`tournaments/${id}/`)).slice(0, 20);
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    let snap: ReturnType<typeof readSnapshotFiles>;
    try {
      snap = readSnapshotFiles(dir);
    } catch (e) {
      console.log(
        `x${k}: ${files.size} files: reading the manifest fails after ${ms(t)}: ${(e as Error).message}`,
      );
      break;
    }
    for (const p of changed) snap.files.set(p, { sha256: "0".repeat(64), bytes: 1 });
    const read = ms(t);
    t = performance.now();
    const held = decodeRecord(record)!;
    const decode = ms(t);
    t = performance.now();
    const plan = planDeploy(snap.files, held, new Set(), metadata);
    const planned = ms(t);
    t = performance.now();
    const bytes = encodeRecord({ metadata, files: plan.target, facts: { links: {}, archived: [] } }).length;
    const encode = ms(t);
    console.log(
      `x${k}: ${files.size} files, ${plan.steps.flat().length} to send; read manifest ${read}, decode record ${decode} ` +
        `(${(record.length / 1e6).toFixed(1)} MB), plan ${planned}, encode record ${encode} (${(bytes / 1e6).toFixed(1)} MB)`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
}
