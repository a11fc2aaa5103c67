// `npm run sample [-- --out data/sample.sqlite]`: builds the embedded sample store from the
// committed text data/sample.sql. The file is recreated from scratch each time so that the
// same SQL always gives the same store.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { scriptArgs } from "./lib/args.ts";
import { createSampleStore } from "../src/store/write/init.ts";

export const SAMPLE_SQL_PATH = fileURLToPath(new URL("../data/sample.sql", import.meta.url));
export const DEFAULT_SAMPLE_OUT = "data/sample.sqlite";

/** Deletes `out` if present, creates an empty store there and loads the sample SQL into it. */
export function buildSample(out: string, sqlPath: string = SAMPLE_SQL_PATH): void {
  // A leftover journal from an interrupted run would be replayed into the new file.
  for (const file of [out, `${out}-journal`, `${out}-wal`, `${out}-shm`]) rmSync(file, { force: true });
  // The same code as `build-api init-store --sample`, so both give the same bytes.
  createSampleStore(out, sqlPath);
}

function main(): void {
  const { out } = scriptArgs(import.meta.url, { out: { type: "string", default: DEFAULT_SAMPLE_OUT } });
  buildSample(out);
  console.log(`sample store written to ${out}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main();
}
