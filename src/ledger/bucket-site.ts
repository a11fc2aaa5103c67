// The ledger's second site: a ledger that lives in a bucket (docs/design/ledger.md, "A ledger in a
// bucket"). The bucket holds an index object (the SQLite file less the groups' rows, and the inputs
// record, packed together and gzipped, so that one conditional put advances both at once) and one
// object per group (ledger-groups.ts), which the deploy layer loads into the copy when a tick reads them. A build works on a private working
// copy (this site's `open`), exactly as beside a snapshot; the I/O with the bucket is the deploy
// layer's (deploy/publish-ledger.ts). Nothing here reads a row: the site ships the file whole, so
// it stays the same whatever columns the ledger's rows have.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { Bookkeeping, BOOKKEEPING_NAME } from "./bookkeeping.ts";
import { INPUTS_FILE } from "./inputs.ts";
import { cutIndex } from "./ledger-groups.ts";
import type { LedgerSite } from "./port.ts";

/**
 * The packed object's first bytes: its format (a reader of another one starts anew). Format 2 (the
 * players in 4,096 fixed groups, the records whole in the index) is still read: the next run
 * converts it (deploy/ledger-objects.ts), and older programs refuse format 3.
 */
const MAGIC = Buffer.from("build-api-ledger 3\n", "latin1");
const READ_MAGICS = [MAGIC, Buffer.from("build-api-ledger 2\n", "latin1")];

/** What a packed ledger holds: the database file and the inputs record (either may be missing). */
export interface PackedLedger {
  database?: Buffer;
  inputs?: Buffer;
}

/** A working directory holding one ledger copy: `<dir>/bookkeeping.sqlite` and the inputs record. */
export function workingCopy(dir: string): Omit<LedgerSite, "open"> & {
  open(): Bookkeeping;
  /** The inputs record's path in the copy (build's `readRecord` reads it from `dir`). */
  readonly dir: string;
  /** Packs the copy's index for the bucket; the ledger must be closed (its WAL merged into the file). */
  pack(): Buffer;
  /** Replaces the copy with a packed one (undefined: an empty copy); false when not of this format. */
  unpack(bytes: Buffer | undefined): boolean;
} {
  const file = path.join(dir, BOOKKEEPING_NAME);
  const inputs = path.join(dir, INPUTS_FILE);
  return {
    name: file,
    dir,
    exists: () => existsSync(file),
    open: () => Bookkeeping.open(dir),
    openReadOnly: () => Bookkeeping.openReader(dir),
    pack: () =>
      packLedger({
        ...(existsSync(file) && { database: indexOf(file) }),
        ...(existsSync(inputs) && { inputs: readFileSync(inputs) }),
      }),
    unpack(bytes) {
      for (const f of [file, `${file}-wal`, `${file}-shm`, inputs]) rmSync(f, { force: true });
      mkdirSync(dir, { recursive: true });
      if (bytes === undefined) return true;
      const packed = unpackLedger(bytes);
      if (!packed) return false;
      if (packed.database) writeFileSync(file, packed.database);
      if (packed.inputs) writeFileSync(inputs, packed.inputs);
      return true;
    },
  };
}

/** The index cut from a copy of the closed database `file` (ledger-groups.ts cutIndex). */
function indexOf(file: string): Buffer {
  const copy = `${file}.index`;
  copyFileSync(file, copy);
  try {
    const db = new Database(copy);
    try {
      cutIndex(db);
    } finally {
      db.close();
    }
    return readFileSync(copy);
  } finally {
    rmSync(copy, { force: true });
  }
}

/** MAGIC, then two parts, each a decimal length line and its bytes; gzip level 6. */
export function packLedger(p: PackedLedger): Buffer {
  const parts = [p.database, p.inputs].flatMap((b) => {
    const bytes = b ?? Buffer.alloc(0);
    return [Buffer.from(`${b === undefined ? -1 : bytes.length}\n`, "latin1"), bytes];
  });
  return gzipSync(Buffer.concat([MAGIC, ...parts]));
}

/** The parts of a packed ledger; undefined when the bytes are not one (another format, damaged). */
export function unpackLedger(gz: Uint8Array): PackedLedger | undefined {
  let raw: Buffer;
  try {
    raw = gunzipSync(gz);
  } catch {
    return undefined;
  }
  if (!READ_MAGICS.some((m) => raw.subarray(0, m.length).equals(m))) return undefined;
  let at = MAGIC.length;
  const part = (): Buffer | undefined | null => {
    const nl = raw.indexOf(0x0a, at);
    if (nl < 0) return null;
    const n = Number(raw.toString("latin1", at, nl));
    at = nl + 1;
    if (n === -1) return undefined;
    if (!Number.isInteger(n) || n < 0 || at + n > raw.length) return null;
    const bytes = raw.subarray(at, at + n);
    at += n;
    return bytes;
  };
  const database = part();
  const inputs = part();
  if (database === null || inputs === null || at !== raw.length) return undefined;
  return { ...(database && { database }), ...(inputs && { inputs }) };
}
