// A stale lib/ is refused, not run. The CLI runs lib/, which `npm run build` compiles from src/;
// in a checkout whose src/ changed since (an edit, a pull, another branch), the old program would
// run as if nothing had changed. So `npm run build` records what it compiled: before tsc runs,
// each source file's size, modification time and SHA-256 go to lib/src-stamp.json.pending, which
// becomes lib/src-stamp.json once tsc succeeded (a failed compile leaves no stamp). At start-up,
// bin/build-api.js compares src/ with the stamp when src/ exists beside lib/ (an installed package
// has no src/, and nothing to compare). The comparison stats the sources (about 140 files) and
// reads only a file whose size or time differs (a checkout that touched without changing it).
// Plain JavaScript, as bin/check-node.js: it runs before lib/ is loaded.
//   node bin/lib-stamp.js before   the build's first step
//   node bin/lib-stamp.js after    its last step, once tsc succeeded
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const STAMP_NAME = "src-stamp.json";
const PENDING_NAME = `${STAMP_NAME}.pending`;

/** The compiled sources under src/ (tsc compiles .ts files only: an editor's swap file is no source). */
function sourceFiles(src) {
  return readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".ts"))
    .map((d) => path.relative(src, path.join(d.parentPath, d.name)).split(path.sep).join("/"))
    .sort();
}

function digest(file) {
  return createHash("sha256").update(readFileSync(file)).digest("base64url");
}

/** The stamp of src/ now: each file's [size, mtime in ms, SHA-256]. */
export function stampOf(src) {
  const files = {};
  for (const rel of sourceFiles(src)) {
    const full = path.join(src, rel);
    const s = statSync(full);
    files[rel] = [s.size, s.mtimeMs, digest(full)];
  }
  return { files };
}

/**
 * Null when lib/ under `root` was compiled from src/ as it is now, or when there is no src/ (an
 * installed package); otherwise what differs, naming one file.
 */
export function staleness(root) {
  const src = path.join(root, "src");
  if (!existsSync(src)) return null;
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(path.join(root, "lib", STAMP_NAME), "utf8")).files;
  } catch {
    return "lib/ has no record of the sources it was compiled from (an interrupted or failed build?)";
  }
  const now = sourceFiles(src);
  for (const rel of now) {
    const r = recorded[rel];
    if (!r) return `src/${rel} is new`;
    const full = path.join(src, rel);
    const s = statSync(full);
    if (s.size === r[0] && s.mtimeMs === r[1]) continue;
    if (s.size !== r[0] || digest(full) !== r[2]) return `src/${rel} changed`;
  }
  const present = new Set(now);
  const gone = Object.keys(recorded).find((rel) => !present.has(rel));
  return gone === undefined ? null : `src/${gone} was removed`;
}

/** The one-line message (and its fix) for a stale lib/. */
export function staleMessage(why) {
  return `build-api: lib/ is older than src/: ${why} since the last \`npm run build\`; fix: run \`npm run build\``;
}

const main =
  process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (main) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const lib = path.join(root, "lib");
  const step = process.argv[2];
  if (step === "before") {
    // Recorded before tsc reads the sources: an edit during the compile makes lib/ stale, as it is.
    mkdirSync(lib, { recursive: true });
    rmSync(path.join(lib, STAMP_NAME), { force: true });
    writeFileSync(path.join(lib, PENDING_NAME), JSON.stringify(stampOf(path.join(root, "src"))));
  } else if (step === "after") {
    renameSync(path.join(lib, PENDING_NAME), path.join(lib, STAMP_NAME));
  } else {
    console.error("usage: node bin/lib-stamp.js before|after");
    process.exit(2);
  }
}
