// `build-api export`: a plain copy of the live snapshot. `dist` is a symlink into
// `.dist.snapshots/` (so a build can switch it atomically), and tools that copy or archive the
// link itself (`cp -r dist site`, `tar czf site.tgz dist`) get one link, not the site. The copy
// holds regular files only, without the publication's own markers (it is not a live snapshot:
// a build refuses to replace it unless forced).
import { cpSync, existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { BuildError, EXIT } from "../shared/errors.ts";
import { MANIFEST_NAME, MARKER_NAME } from "../publish/index.ts";

export interface ExportReport {
  /** The real directory the snapshot was copied from. */
  from: string;
  out: string;
  files: number;
  bytes: number;
}

export function exportSnapshot(dir: string, out: string): ExportReport {
  let from: string;
  try {
    from = realpathSync(dir);
  } catch {
    throw new BuildError(
      `Cannot export ${dir}: it does not exist.`,
      [
        {
          what: "no snapshot at this path",
          where: dir,
          fix: "build one first: build-api build --db <store> --out dist",
        },
      ],
      EXIT.usage,
    );
  }
  if (!existsSync(path.join(from, MARKER_NAME))) {
    throw new BuildError(
      `Cannot export ${dir}: it is not a snapshot (no ${MARKER_NAME}).`,
      [{ what: "not a snapshot built by build-api", where: from, fix: "pass the --out of a build" }],
      EXIT.usage,
    );
  }
  if (existsSync(out) && (!statSync(out).isDirectory() || readdirSync(out).length > 0)) {
    throw new BuildError(
      `Cannot export into ${out}: it exists and is not an empty directory.`,
      [{ what: "nothing is overwritten", where: out, fix: "choose a new directory" }],
      EXIT.unsafeOutput,
    );
  }
  const resolvedOut = path.resolve(out);
  // Through the links: `dist/exported` is inside the snapshot `dist` points to, and a copy into
  // it would copy itself until the path is too long, leaving the live snapshot polluted.
  const realOut = realLocation(resolvedOut);
  if (realOut === from || realOut.startsWith(from + path.sep)) {
    throw new BuildError(
      `Cannot export into ${out}: it is inside the snapshot it would copy.`,
      [
        {
          what: `${out} is ${realOut}, inside the live snapshot ${from}; nothing was copied`,
          where: out,
          fix: "choose a directory outside the snapshot, e.g. beside it: --out site",
        },
      ],
      EXIT.unsafeOutput,
    );
  }
  let files = 0;
  let bytes = 0;
  cpSync(from, out, {
    recursive: true,
    // A snapshot holds no links (the build writes none); dereference makes sure of regular files.
    dereference: true,
    errorOnExist: true,
    filter: (src) => {
      const name = path.basename(src);
      if (src !== from && (name === MARKER_NAME || name === MANIFEST_NAME)) return false;
      const st = statSync(src);
      if (st.isFile()) {
        files++;
        bytes += st.size;
      }
      return true;
    },
  });
  return { from, out: resolvedOut, files, bytes };
}

/** Where `p` really is: the real path of its nearest existing ancestor, with the rest appended. */
function realLocation(p: string): string {
  const rest: string[] = [];
  let at = p;
  for (;;) {
    try {
      return path.join(realpathSync(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return p;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}
