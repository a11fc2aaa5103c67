// The UTF-8 bytes a render worker posts for each file it makes.
const encoder = new TextEncoder();

/** Texts shorter than this go through TextEncoder, which is the faster for them. */
const LONG_TEXT = 1024;

/**
 * UTF-8 in an ArrayBuffer of its own (never Buffer's shared pool: each buffer is transferred to
 * the main thread, and detached). Buffer's writer turns a long one-byte string, as every page is
 * (pages/html.ts esc), into UTF-8 about twice as fast as TextEncoder (docs/benchmarks.md, eleventh
 * round).
 */
export function utf8(text: string): Uint8Array {
  if (text.length < LONG_TEXT) return encoder.encode(text);
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text, "utf8");
  return bytes;
}
