// Runs one `publishToBucket` in its own process, as a runner does: a streamed publication blocks
// its main thread while the upload thread catches up, so the local S3 server (and its
// conditional-write front) must live in another process than the publication, here the test's.
// Usage: node child-publish.ts '<json>', the JSON: { options, killAtBatch?, sample? }:
//   options     publishToBucket's options (plain data);
//   killAtBatch SIGKILL this process once that many streamed batches were sent;
//   sample      the options' tmpDir: at each streamed batch, the bytes of the rendered files the run
//               holds there (its spool and out folders; not the ledger's copy) are sampled.
// Prints the report as JSON (with `sampledBytes`) on stdout.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { publishToBucket, type PublishToBucketOptions } from "../../src/cli/publish.ts";

const { options, killAtBatch, sample } = JSON.parse(process.argv[2]!) as {
  options: PublishToBucketOptions;
  killAtBatch?: number;
  sample?: string;
};

function bytesUnder(dir: string): number {
  let n = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (!e.isFile()) continue;
    try {
      n += statSync(path.join(e.parentPath, e.name)).size;
    } catch {
      // Sent and deleted meanwhile.
    }
  }
  return n;
}

let sampledBytes = 0;
let batches = 0;
const report = await publishToBucket({
  ...options,
  onStep: (_done, total) => {
    if (total !== 0) return;
    for (const run of sample ? readdirSync(sample) : []) {
      const held = bytesUnder(path.join(sample!, run, "spool")) + bytesUnder(path.join(sample!, run, "out"));
      sampledBytes = Math.max(sampledBytes, held);
    }
    if (++batches === killAtBatch) process.kill(process.pid, "SIGKILL");
  },
});
process.stdout.write(JSON.stringify({ ...report, sampledBytes }));
