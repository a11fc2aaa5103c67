// Where a snapshot lives on disk, which output paths are safe to replace, and how the leftovers of
// an interrupted build are recognised and cleared. See publish.ts for the whole design.
import { homedir } from "node:os";
import path from "node:path";
import { BuildError, EXIT } from "../shared/errors.ts";
import { io } from "./io.ts";
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

export function unsafe(target: string, what: string, fix?: string): BuildError {
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
    return io.realpathSync(p);
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
  if (io.existsSync(path.join(target, ".git"))) {
    throw unsafe(target, "it contains .git (a repository root)", "choose a subdirectory such as dist");
  }
}

/** Resolves `outDir`, creates its parent, and applies the checks that do not depend on force. */
export function resolveLayout(outDir: string): Layout {
  refuseForbidden(path.resolve(outDir));
  const parentGiven = path.dirname(path.resolve(outDir));
  io.mkdirSync(parentGiven, { recursive: true });
  const parent = io.realpathSync(parentGiven);
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
    return io.lstatSync(p);
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
    const text = io.readlinkSync(target);
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
  if (!marked && io.readdirSync(target).length > 0 && !force) {
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
  if (
    !isFile(path.join(layout.store, STORE_MARKER_NAME)) &&
    io.readdirSync(layout.store).length > 0 &&
    !force
  ) {
    throw unsafe(
      layout.store,
      `it is needed for snapshot versions but holds other files (no ${STORE_MARKER_NAME})`,
      "move it away, or pass --force",
    );
  }
  return true;
}

export function ensureStore(layout: Layout, force: boolean): void {
  if (!checkStore(layout, force)) io.mkdirSync(layout.store);
  // An empty store dir (a build killed right after mkdir) is adopted by writing the marker now.
  if (!isFile(path.join(layout.store, STORE_MARKER_NAME))) {
    io.writeFileSync(path.join(layout.store, STORE_MARKER_NAME), "build-api snapshot versions\n");
  }
}

/**
 * Finishes an interrupted migration from a real directory: if a build died between moving the old
 * directory into the store and putting the link in its place, the target is missing, and the
 * journal names where the old snapshot went. Put a link to it back.
 */
export function recoverMigration(layout: Layout, force: boolean): void {
  if (!checkStore(layout, force) || !isFile(layout.journal)) return;
  const version = io.readFileSync(layout.journal, "utf8").trim();
  // No marker check: whatever was at the target (even a directory replaced with force) goes back.
  if (
    VERSION.test(version) &&
    !lstatOrUndefined(layout.target) &&
    lstatOrUndefined(path.join(layout.store, version))?.isDirectory()
  ) {
    const tmp = path.join(layout.store, `link-recover-${process.pid}`);
    io.rmSync(tmp, { force: true });
    io.symlinkSync(layout.linkText(version), tmp);
    io.renameSync(tmp, layout.target);
  }
  io.unlinkSync(layout.journal);
}

/** What the two version directories are, read from `<store>/pair.json`. */
export interface Pair {
  /** The two versions: the live one and the stale one, in either order. */
  buffers: string[];
  /** Paths (besides the bookkeeping files) whose entry may differ between them; "all": unknown. */
  differ: string[] | "all";
}

const PAIR_FORMAT = "build-api-pair";

export function pairPath(layout: Layout): string {
  return path.join(layout.store, "pair.json");
}

/** The pair record, or undefined when it is missing or not exactly what writePair writes. */
export function readPair(layout: Layout): Pair | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(io.readFileSync(pairPath(layout), "utf8") as string);
  } catch {
    return undefined;
  }
  const p = parsed as { format?: unknown; buffers?: unknown; differ?: unknown };
  if (p.format !== PAIR_FORMAT || !Array.isArray(p.buffers) || p.buffers.length !== 2) return undefined;
  if (!p.buffers.every((b) => typeof b === "string" && VERSION.test(b))) return undefined;
  const differ = p.differ;
  if (differ !== "all" && !(Array.isArray(differ) && differ.every((d) => typeof d === "string")))
    return undefined;
  return { buffers: p.buffers as string[], differ: differ as string[] | "all" };
}

/** Replaces the pair record in one rename; `undefined` removes it (the relation is unknown). */
export function writePair(layout: Layout, pair: Pair | undefined): void {
  const file = pairPath(layout);
  if (pair === undefined) {
    io.rmSync(file, { force: true });
    return;
  }
  const tmp = `${file}.tmp`;
  io.writeFileSync(tmp, JSON.stringify({ format: PAIR_FORMAT, ...pair }) + "\n");
  io.renameSync(tmp, file);
}

/** The version a build updates: the live version's partner, or one adopted or made anew. */
export interface Stale {
  version: string;
  /** Paths where it may differ from the live version; "all": compare every file. */
  differ: string[] | "all";
}

function versions(layout: Layout): string[] {
  return io
    .readdirSync(layout.store)
    .filter((e) => VERSION.test(e) && lstatOrUndefined(path.join(layout.store, e))?.isDirectory());
}

export function chooseStale(layout: Layout, liveVersion: string | undefined): Stale {
  const others = versions(layout).filter((v) => v !== liveVersion);
  const pair = readPair(layout);
  if (pair && liveVersion !== undefined && pair.buffers.includes(liveVersion)) {
    const partner = pair.buffers.find((b) => b !== liveVersion);
    if (
      partner !== undefined &&
      others.includes(partner) &&
      isFile(path.join(layout.store, partner, MARKER_NAME))
    ) {
      return { version: partner, differ: pair.differ };
    }
  }
  // Adopt the newest other version of ours (compared file by file), or start a new one.
  const ours = others.filter((v) => isFile(path.join(layout.store, v, MARKER_NAME)));
  if (ours.length > 0) return { version: String(Math.max(...ours.map(Number))), differ: "all" };
  return { version: String(nextVersion(layout)), differ: "all" };
}

/**
 * Removes what interrupted builds left in the store: staging dirs, temporary links and files, and
 * versions other than the two in use. Only names build-api creates are touched, and a directory
 * holding a repository or a protected path is left alone. Failures are warnings: a leftover never
 * blocks a build. Call under the lock.
 */
export function removeLeftovers(layout: Layout, keep: Array<string | undefined>, guard: Guard): string[] {
  const warnings: string[] = [];
  for (const entry of io.readdirSync(layout.store)) {
    const ours =
      /^(staging|link|incoming|tmp|trash)-/.test(entry) || entry === "pair.json.tmp" || VERSION.test(entry);
    if (!ours || keep.includes(entry)) continue;
    const abs = path.join(layout.store, entry);
    const found = guard.find(abs);
    if (found) {
      warnings.push(`left ${abs} in place: ${found}`);
      continue;
    }
    try {
      io.rmSync(abs, { recursive: true, force: true });
    } catch (e) {
      warnings.push(`could not remove the leftover ${abs}: ${(e as Error).message}`);
    }
  }
  return warnings;
}

/** Paths a build must never delete: repositories, the input store, the current directory. */
export class Guard {
  private readonly protectedPaths: string[];
  private readonly cwd = realOrSelf(process.cwd());

  constructor(protectedPaths: readonly string[]) {
    this.protectedPaths = protectedPaths.map((p) => realOrSelf(path.resolve(p)));
  }

  /** Refuses when a protected path lies inside one of `dirs` (the output, the store). */
  checkOutside(dirs: string[]): void {
    for (const p of this.protectedPaths) {
      for (const dir of dirs) {
        if (isSameOrAncestor(dir, p)) {
          throw unsafe(
            dir,
            `it holds ${p}, which a build must not delete (the input store)`,
            "move the store out of the output directory, or choose another --out",
          );
        }
      }
    }
  }

  /** Why `dir` must not be deleted (a .git inside, a protected path, the current directory), or undefined. */
  find(dir: string): string | undefined {
    const real = realOrSelf(dir);
    if (isSameOrAncestor(real, this.cwd)) return "it contains the current directory";
    for (const p of this.protectedPaths) if (isSameOrAncestor(real, p)) return `it contains ${p}`;
    const stack = [dir];
    while (stack.length > 0) {
      const d = stack.pop()!;
      let entries: import("node:fs").Dirent[];
      try {
        entries = io.readdirSync(d, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (e.name === ".git") return `it contains a repository (${path.join(d, e.name)})`;
        if (e.isDirectory()) stack.push(path.join(d, e.name));
      }
    }
    return undefined;
  }
}

/** One more than the highest version number in the store. */
export function nextVersion(layout: Layout): number {
  let max = 0;
  for (const entry of io.readdirSync(layout.store)) {
    if (VERSION.test(entry)) max = Math.max(max, Number(entry));
  }
  return max + 1;
}
