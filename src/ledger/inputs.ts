// The whole-snapshot up-to-date check: cheap enough to run before the heavy modules load, so a
// no-change rebuild costs little more than starting Node. Only node:* and the manifest reader.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { StatusOptions } from "../domain/status.ts";
import { programFiles } from "./program-files.ts";
import { sha256 } from "./state.ts";
import { currentStoreKey } from "../store/read/revisions.ts";
import { packageVersion } from "../shared/version.ts";

/**
 * What a snapshot was built from, written at its root. The output is a pure function of the
 * store's bytes, build-api's version, the options and the build instant; the instant matters only
 * through the statuses, which stay the same for every instant in [validFrom, validUntil).
 */
export const INPUTS_FILE = "_build-api.json";

export interface Inputs {
  version: string;
  /** sha256 of build-api's own sources and schemas: a changed program rebuilds even at the same version. */
  code: string;
  /** The store's state (store/read/revisions.ts storeKeyOf: the store-wide revisions' counts and stamps,
   * and the file's identity and times); null when it cannot be named cheaply. */
  store: string | null;
  statusOptions: StatusOptions;
  skipInvalid: boolean;
  /** Items per page of a long list (routes/pagination.ts): it decides which list files exist. */
  pageSize: number;
  /** The base path every URL is made under (routes/urls.ts href); absent for the root, so a
   * root build's record and keys are the same bytes as before the option existed. */
  basePath?: string;
  /** The language of the pages, feeds and calendars (build --language); absent for English, so an
   * English build's record and keys are the same bytes as before the option existed. */
  language?: string;
  /** The origin the snapshot is served at (build --origin); absent without one. */
  origin?: string;
  /**
   * What the build read of a store that keeps trusted revisions: the file (the sha256 of its
   * identity), the count of its changes, its clubs' token (a digest: keyed-ids.ts clubsDigest) and the
   * fingerprints' common part. A
   * later build of the same file with the same clubs and program looks only at the tournaments
   * changed since, and checks only those (render/snapshot.ts). Never part of the up-to-date
   * comparison.
   */
  checked?: StoreChecked;
}

export interface StoreChecked {
  store: string;
  all: string;
  /** The clubs revision token's digest (keyed-ids.ts clubsDigest): its stamp keys the ledger. */
  clubs: string;
  /** The fingerprints' common part: the program, the clubs' key and the languages (a sha256). */
  base: string;
}

/**
 * What a record says its build read of the store whose file is `identity` (revisions.ts
 * fileIdentity): the count of changes, the clubs' token (its digest) and the fingerprints' common part; null
 * when the record names another file or holds nothing usable.
 */
export function checkedOf(
  checked: StoreChecked | undefined,
  identity: string,
): { since: bigint; clubs: string; base: string } | null {
  if (checked === undefined || typeof checked.base !== "string" || !/^\d+$/.test(checked.all)) return null;
  if (checked.store !== sha256(identity)) return null;
  return { since: BigInt(checked.all), clubs: checked.clubs, base: checked.base };
}

/** The build instants [from, until) that give the same bytes; JSON writes an infinite bound as null. */
export interface RecordedWindow {
  validFrom: number | null;
  validUntil: number | null;
}

/** The record: the inputs and the build's report, whose window says how long it stays up to date. */
export interface InputsRecord<R extends RecordedWindow = RecordedWindow> extends Inputs {
  render: R;
}

/** The text of the record, as the build writes it at the snapshot's root. */
export function recordText(inputs: Inputs, render: RecordedWindow): string {
  return JSON.stringify({ ...inputs, render }, null, 2) + "\n";
}

// The package root and the folder of the program that runs: src/ in the repository (tests),
// lib/ when compiled or installed. Paths come from fileURLToPath: a URL's pathname is
// percent-encoded, and a root holding a space or a non-ASCII letter would match nothing.
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PROGRAM_DIR = path.basename(fileURLToPath(new URL("../", import.meta.url)));

/** The hash of the program's own files: a changed program never counts as up to date. */
export function codeFingerprint(root = ROOT, programDir = PROGRAM_DIR): string {
  const hash = createHash("sha256");
  const files = programFiles(root, programDir);
  if (!files.some((f) => f.startsWith(`${programDir}/`))) {
    throw new Error(
      `no program file found under ${path.join(root, programDir)}: cannot fingerprint the code`,
    );
  }
  for (const f of files.sort()) {
    hash.update(`${f}\0`);
    hash.update(readFileSync(path.join(root, f)));
  }
  return hash.digest("hex");
}

export function readRecord<R extends RecordedWindow = RecordedWindow>(out: string): InputsRecord<R> | null {
  try {
    return JSON.parse(readFileSync(path.join(out, INPUTS_FILE), "utf8")) as InputsRecord<R>;
  } catch {
    return null;
  }
}

export function upToDate(previous: InputsRecord | null, inputs: Inputs | null, now: number): boolean {
  if (!previous || !inputs || inputs.store === null) return false;
  const { version, code, store, statusOptions, skipInvalid, pageSize, basePath, language, origin } = previous;
  const same =
    JSON.stringify({
      version,
      code,
      store,
      statusOptions,
      skipInvalid,
      pageSize,
      basePath,
      language,
      origin,
    }) === JSON.stringify(inputs);
  return (
    same && (previous.render.validFrom ?? -Infinity) <= now && now < (previous.render.validUntil ?? Infinity)
  );
}

/** The key of the program and options: what every tournament's fingerprint starts from. */
export function programKey(inputs: Inputs): string {
  const { version, code, statusOptions, skipInvalid, pageSize, basePath, language, origin } = inputs;
  return createHash("sha256")
    .update(
      JSON.stringify({ version, code, statusOptions, skipInvalid, pageSize, basePath, language, origin }),
    )
    .digest("hex");
}

/** The inputs of a build now, or null when the store cannot be read (openStore reports why). */
export function currentInputs(
  db: string,
  statusOptions: StatusOptions,
  skipInvalid: boolean,
  pageSize: number,
  basePath = "",
  language = "en",
  origin = "",
): Inputs | null {
  try {
    return {
      version: packageVersion(),
      code: codeFingerprint(),
      store: currentStoreKey(db),
      statusOptions,
      skipInvalid,
      pageSize,
      ...(basePath && { basePath }),
      ...(language !== "en" && { language }),
      ...(origin && { origin }),
    };
  } catch {
    return null;
  }
}
