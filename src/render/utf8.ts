// The UTF-8 bytes a render worker posts for each file it makes.
const encoder = new TextEncoder();

/** Texts shorter than this go through TextEncoder, which is the faster for them. */
const LONG_TEXT = 1024;

/**
 * Room every long text up to a third of its size is written into first: UTF-8 takes at most three
 * bytes a UTF-16 unit, so such a text always fits. Copying the bytes out to a buffer of their exact
 * size costs less than measuring that size first (Buffer.byteLength walks the text once more).
 */
const SCRATCH = Buffer.allocUnsafeSlow(1 << 20);

/**
 * UTF-8 in an ArrayBuffer of its own (never Buffer's shared pool nor the scratch: each buffer is
 * transferred to the main thread, and detached). Buffer's writer turns a long one-byte string, as
 * every page is (pages/html.ts esc), into UTF-8 about twice as fast as TextEncoder
 * (docs/benchmarks.md, eleventh and twelfth rounds).
 */
export function utf8(text: string): Uint8Array {
  if (text.length < LONG_TEXT) return encoder.encode(text);
  if (text.length * 3 <= SCRATCH.length) {
    const written = SCRATCH.write(text, 0, "utf8");
    return new Uint8Array(SCRATCH.buffer.slice(SCRATCH.byteOffset, SCRATCH.byteOffset + written));
  }
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text, "utf8");
  return bytes;
}
