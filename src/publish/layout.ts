// Where a snapshot lives on disk, which output paths are safe to replace, and how the leftovers of
// an interrupted build are recognised and cleared. See publish.ts for the whole design.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { BuildError, EXIT } from "../errors.ts";
import { MARKER_NAME } from "./manifest.ts";

/** Marks the versions directory as build-api's own, so cleanup never empties a stranger's folder. */
export const STORE_MARKER_NAME = ".build-api-snapshots";
const VERSION = /^[0-9]+$/;

export interface Layout {
  /** The output path the user named, with its parent resolved through symlinks. */
  target: string;
  parent: string;
  /** `<parent>/.<name>.snapshots`: complete versions, staging dirs, temporary links. */
  store: string;
  /** `<parent>/.<name>.lock` */
  lockPath: string;
  /** `<store>/migrating`: names the version an old real directory is being moved to. */
  journal: string;
  /** What `target` holds in a symlink that is ours: `.<name>.snapshots/<version>`. */
  linkText(version: string): string;
}

/** What is at the target path now. */
export type Current =
  | { kind: "none" }
  /** Our symlink to `<store>/<version>`; `dir` is undefined when that version is missing. */
  | { kind: "link"; version: string; dir: string | undefined }
  /** A symlink we did not make (only replaced with force; what it points to is never touched). */
  | { kind: "foreign-link" }
  /** A real directory: from an older build (marker), empty, or replaced with force. */
  | { kind: "dir"; dir: string; marked: boolean };

function unsafe(target: string, what: string, fix?: string): BuildError {
  return new BuildError(
    `Refusing to publish to ${target}.`,
    [{ what, where: target, fix }],
    EXIT.unsafeOutput,
  );
}

function isSameOrAncestor(ancestor: string, p: string): boolean {
  const rel = path.relative(ancestor, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Checks that would make any replacement wrong; `force` does not lift them. */
function refuseForbidden(target: string): void {
  if (path.parse(target).root === target) throw unsafe(target, "it is the file system root");
  const home = realOrSelf(homedir());
  if (isSameOrAncestor(target, home)) throw unsafe(target, "it is the home directory or contains it");
  if (isSameOrAncestor(target, realOrSelf(process.cwd()))) {
    throw unsafe(target, "it is the current directory or contains it", "choose a subdirectory such as dist");
  }
  if (existsSync(path.join(target, ".git"))) {
    throw unsafe(target, "it contains .git (a repository root)", "choose a subdirectory such as dist");
  }
}

/** Resolves `outDir`, creates its parent, and applies the checks that do not depend on force. */
export function resolveLayout(outDir: string): Layout {
  refuseForbidden(path.resolve(outDir));
  const parentGiven = path.dirname(path.resolve(outDir));
  mkdirSync(parentGiven, { recursive: true });
  const parent = realpathSync(parentGiven);
  const name = path.basename(path.resolve(outDir));
  const target = path.join(parent, name);
  refuseForbidden(target);
  const storeName = `.${name}.snapshots`;
  const store = path.join(parent, storeName);
  return {
    target,
    parent,
    store,
    lockPath: path.join(parent, `.${name}.lock`),
    journal: path.join(store, "migrating"),
    linkText: (version) => `${storeName}/${version}`,
  };
}

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

function isFile(p: string): boolean {
  return lstatOrUndefined(p)?.isFile() ?? false;
}

/** Inspects the target (under the lock) and refuses what must not be replaced. */
export function inspectTarget(layout: Layout, force: boolean): Current {
  const { target } = layout;
  const st = lstatOrUndefined(target);
  if (!st) return { kind: "none" };
  if (st.isSymbolicLink()) {
    const text = readlinkSync(target);
    const version = text.slice(text.lastIndexOf("/") + 1);
    if (text === layout.linkText(version) && VERSION.test(version)) {
      const dir = path.join(layout.store, version);
      return { kind: "link", version, dir: isFile(path.join(dir, MARKER_NAME)) ? dir : undefined };
    }
    if (!force) {
      throw unsafe(
        target,
        `it is a symlink to ${text} that build-api did not create`,
        "pass --force to replace the link",
      );
    }
    return { kind: "foreign-link" };
  }
  if (!st.isDirectory()) throw unsafe(target, "it exists and is not a directory");
  refuseForbidden(target);
  const marked = isFile(path.join(target, MARKER_NAME));
  if (!marked && readdirSync(target).length > 0 && !force) {
    throw unsafe(
      target,
      `it is a non-empty directory without the snapshot marker ${MARKER_NAME}`,
      "choose an empty or new directory, or pass --force to replace it",
    );
  }
  return { kind: "dir", dir: target, marked };
}

/** Refuses a versions directory that is not ours. Returns false when it does not exist yet. */
function checkStore(layout: Layout, force: boolean): boolean {
  const st = lstatOrUndefined(layout.store);
  if (!st) return false;
  if (!st.isDirectory())
    throw unsafe(layout.store, "it is needed for snapshot versions but is not a directory");
  if (!isFile(path.join(layout.store, STORE_MARKER_NAME)) && readdirSync(layout.store).length > 0 && !force) {
    throw unsafe(
      layout.store,
      `it is needed for snapshot versions but holds other files (no ${STORE_MARKER_NAME})`,
      "move it away, or pass --force",
    );
  }
  return true;
}

export function ensureStore(layout: Layout, force: boolean): void {
  if (!checkStore(layout, force)) mkdirSync(layout.store);
  // An empty store dir (a build killed right after mkdir) is adopted by writing the marker now.
  if (!isFile(path.join(layout.store, STORE_MARKER_NAME))) {
    writeFileSync(path.join(layout.store, STORE_MARKER_NAME), "build-api snapshot versions\n");
  }
}

/**
 * Finishes an interrupted migration from a real directory: if a build died between moving the old
 * directory into the store and putting the link in its place, the target is missing, and the
 * journal names where the old snapshot went. Put a link to it back.
 */
export function recoverMigration(layout: Layout, force: boolean): void {
  if (!checkStore(layout, force) || !isFile(layout.journal)) return;
  const version = readFileSync(layout.journal, "utf8").trim();
  // No marker check: whatever was at the target (even a directory replaced with force) goes back.
  if (
    VERSION.test(version) &&
    !lstatOrUndefined(layout.target) &&
    lstatOrUndefined(path.join(layout.store, version))?.isDirectory()
  ) {
    const tmp = path.join(layout.store, `link-recover-${process.pid}`);
    rmSync(tmp, { force: true });
    symlinkSync(layout.linkText(version), tmp);
    renameSync(tmp, layout.target);
  }
  unlinkSync(layout.journal);
}

/**
 * Removes what interrupted builds left in the store: staging dirs, temporary links, and versions
 * the target no longer points to. Only names build-api creates are touched. Call under the lock.
 */
export function removeLeftovers(layout: Layout, keepVersion: string | undefined): void {
  for (const entry of readdirSync(layout.store)) {
    const ours = entry.startsWith("staging-") || entry.startsWith("link-") || VERSION.test(entry);
    if (ours && entry !== keepVersion)
      rmSync(path.join(layout.store, entry), { recursive: true, force: true });
  }
}

/** One more than the highest version number in the store. */
export function nextVersion(layout: Layout): number {
  let max = 0;
  for (const entry of readdirSync(layout.store)) {
    if (VERSION.test(entry)) max = Math.max(max, Number(entry));
  }
  return max + 1;
}
