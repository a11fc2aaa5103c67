// A text cell whose bytes are not UTF-8, as the reader keeps it for the row check to report, and
// the check that finds where the bytes go bad. Its own file: the cell checks and the byte lookup
// both use it.
/** The bytes of a text cell that are not valid UTF-8 (at most a prefix), and where they go bad. */
export class InvalidUtf8 extends Uint8Array {
  /** Byte offset of the first byte that is not UTF-8. */
  offset = 0;
}

export const REPLACEMENT = "\ufffd";

/** Byte offset of the first invalid sequence in `bytes`, or -1 when they are UTF-8. With `prefix`
 * (the bytes are the start of a longer value) a sequence cut short at the very end is valid. */
export function invalidUtf8Offset(bytes: Uint8Array, prefix = false): number {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: prefix });
    return -1;
  } catch {
    // Walk the lenient decoding: before the first bad byte every character has its own length,
    // and a U+FFFD is a bad byte unless it is stored as EF BF BD.
    const text = new TextDecoder("utf-8").decode(bytes);
    let at = 0;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (ch === REPLACEMENT && !(bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd)) {
        return at;
      }
      at += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
    return at;
  }
}
