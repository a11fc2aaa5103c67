// A file's entry in the ledger: its sha256 and size, read into one compact string (the ledger's
// file rows, the staging writer's comparisons, verify).
const SHA256_BYTES = 32;

/** Scratch space for building entry values: a digest and up to 16 digits of a byte count. */
const scratch = Buffer.alloc(SHA256_BYTES + 16);

/**
 * The entry value for a file: its 32 digest bytes as latin1 characters followed by its byte count
 * in decimal. Built through a buffer so it is one flat string of about 40 bytes (a hex digest
 * joined with `${}` would be a tree of three strings of about 170 bytes); equal files give equal
 * values.
 */
export function entryValue(sha256: Uint8Array, bytes: number): string {
  scratch.set(sha256, 0);
  const digits = scratch.write(String(bytes), SHA256_BYTES, "latin1");
  return scratch.toString("latin1", 0, SHA256_BYTES + digits);
}

/** The byte count of an entry value, without decoding its digest. */
export function entryBytes(value: string): number {
  return Number(value.slice(SHA256_BYTES));
}

export function parseEntryValue(value: string): { sha256: string; bytes: number } {
  return {
    sha256: Buffer.from(value.slice(0, SHA256_BYTES), "latin1").toString("hex"),
    bytes: Number(value.slice(SHA256_BYTES)),
  };
}
