// A stale lib/ is refused, not run. The CLI runs lib/, which `npm run build` compiles from src/;
// in a checkout whose src/ changed since (an edit, a pull, another branch), the old program would
// run as if nothing had changed. So `npm run build` records what it compiled: before tsc runs,
// each source file's size, modification time and SHA-256 go to lib/src-stamp.json.pending, which
// becomes lib/src-stamp.json once tsc succeeded (a failed compile leaves no stamp). At start-up,
// bin/build-api.js compares src/ with the stamp when src/ exists beside lib/ (an installed package
// has no src/, and nothing to compare). The comparison stats the recorded folders and files
// (about 160) without listing them, and reads only what moved (a checkout that touched a file
// without changing it).
// Plain JavaScript, as bin/check-node.js: it runs before lib/ is loaded.
//   node bin/lib-stamp.js before   the build's first step
//   node bin/lib-stamp.js after    its last step, once tsc succeeded
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
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const STAMP_NAME = "src-stamp.json";
const PENDING_NAME = `${STAMP_NAME}.pending`;

/** The entries of one folder of src/: its .ts files and its folders, as paths relative to src/. */
function entries(src, rel) {
  const files = [];
  const dirs = [];
  for (const d of readdirSync(path.join(src, rel), { withFileTypes: true })) {
    const child = rel === "" ? d.name : `${rel}/${d.name}`;
    // tsc compiles .ts files only: an editor's swap file is no source.
    if (d.isFile() && d.name.endsWith(".ts")) files.push(child);
    else if (d.isDirectory()) dirs.push(child);
  }
  return { files, dirs };
}

function digest(file) {
  // Loaded only when a file must be read: node:crypto costs milliseconds at every start-up.
  const { createHash } = createRequire(import.meta.url)("node:crypto");
  return createHash("sha256").update(readFileSync(file)).digest("base64url");
}

/**
 * The stamp of src/ now: each folder's modification time (a file added or removed changes it)
 * and each file's [size, mtime in ms, SHA-256].
 */
export function stampOf(src) {
  const dirs = {};
  const files = {};
  const walk = (rel) => {
    dirs[rel] = statSync(path.join(src, rel)).mtimeMs;
    const e = entries(src, rel);
    for (const f of e.files) {
      const full = path.join(src, f);
      const s = statSync(full);
      files[f] = [s.size, s.mtimeMs, digest(full)];
    }
    for (const d of e.dirs) walk(d);
  };
  walk("");
  return { dirs, files };
}

/**
 * Null when lib/ under `root` was compiled from src/ as it is now, or when there is no src/ (an
 * installed package); otherwise what differs, naming one file. Cheap when nothing changed: one
 * stat per recorded folder and file, no listing; a folder whose time moved is listed, a file
 * whose size or time moved is read.
 */
export function staleness(root) {
  const src = path.join(root, "src");
  if (!existsSync(src)) return null;
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(root, "lib", STAMP_NAME), "utf8"));
  } catch {
    return "lib/ has no record of the sources it was compiled from (an interrupted or failed build?)";
  }
  const { dirs, files } = stamp;
  if (!dirs || !files) return "lib/ has no record of the sources it was compiled from";
  for (const [rel, mtimeMs] of Object.entries(dirs)) {
    let now;
    try {
      now = statSync(path.join(src, rel)).mtimeMs;
    } catch {
      return `src/${rel} was removed`;
    }
    if (now === mtimeMs) continue;
    const e = entries(src, rel);
    const added = [...e.files.filter((f) => !(f in files)), ...e.dirs.filter((d) => !(d in dirs))];
    if (added.length > 0) return `src/${added[0]} is new`;
  }
  for (const [rel, [size, mtimeMs, hash]] of Object.entries(files)) {
    const full = path.join(src, rel);
    let s;
    try {
      s = statSync(full);
    } catch {
      return `src/${rel} was removed`;
    }
    if (s.size === size && s.mtimeMs === mtimeMs) continue;
    if (s.size !== size || digest(full) !== hash) return `src/${rel} changed`;
  }
  return null;
}

/** The one-line message (and its fix) for a stale lib/. */
export function staleMessage(why) {
  return `build-api: lib/ is older than src/: ${why} since the last \`npm run build\`; fix: run \`npm run build\``;
}

const main =
  process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (main) {
  const root = fileURLToPath(new globalThis.URL("..", import.meta.url));
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
