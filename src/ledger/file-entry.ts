// A file's entry in the ledger: the sha256 of its bytes and their count, as the ledger's rows hold
// them (a BLOB and an INTEGER) and the staging writer, verify and deploy compare them.

/** What the ledger knows of one file's bytes. */
export interface FileEntry {
  /** The 32 bytes of the sha256 digest. */
  readonly sha256: Uint8Array;
  readonly bytes: number;
}

/** Whether `e` describes bytes with this digest and size. */
export function entryIs(e: FileEntry, sha256: Uint8Array, bytes: number): boolean {
  return e.bytes === bytes && Buffer.compare(e.sha256, sha256) === 0;
}

/** The entry with its digest in hex, as deploy's plans and verify's messages write it. */
export function entryHex(e: FileEntry): { sha256: string; bytes: number } {
  return {
    sha256: Buffer.from(e.sha256.buffer, e.sha256.byteOffset, e.sha256.byteLength).toString("hex"),
    bytes: e.bytes,
  };
}
