// The files of build-api's own program that the up-to-date check fingerprints, listed with
// node:fs alone: a no-change rebuild should cost little more than starting Node, and a glob
// library would take longer to load than the listing takes.
import { readdirSync, type Dirent } from "node:fs";
import path from "node:path";

function visible(entry: Dirent): boolean {
  return entry.isFile() && !entry.name.startsWith(".");
}

/**
 * Relative paths, with "/" separators, of `<programDir>/**\/*.{js,ts}`, `bin/*`, `schema/*` and
 * `package.json` under `root`; dotfiles and files under dot-directories are left out.
 */
export function programFiles(root: string, programDir: string): string[] {
  const files: string[] = [];
  const list = (dir: string, recursive: boolean, keep: (name: string) => boolean): void => {
    const top = path.join(root, dir, path.sep);
    let entries: Dirent[];
    try {
      entries = readdirSync(top, { withFileTypes: true, recursive });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!visible(entry) || !keep(entry.name)) continue;
      // parentPath is `top` or below it; `top` ends with a separator.
      const sub = entry.parentPath.length > top.length ? entry.parentPath.slice(top.length) : "";
      const rel = [dir === "." ? "" : dir, ...sub.split(path.sep), entry.name].filter(Boolean);
      if (rel.some((segment) => segment.startsWith("."))) continue;
      files.push(rel.join("/"));
    }
  };
  list(programDir, true, (name) => name.endsWith(".js") || name.endsWith(".ts"));
  list("bin", false, () => true);
  list("schema", false, () => true);
  list(".", false, (name) => name === "package.json");
  return files;
}
