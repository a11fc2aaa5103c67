// One tournament's files as one buffer: a render worker encodes every file of a tournament into a
// single ArrayBuffer and transfers that (src/render/worker.ts); the main thread takes each file as a
// view of it (src/render/pool.ts). Encoding each file into its own ArrayBuffer and transferring
// hundreds of them cost the worker about twice as much (an allocation, a backing store and a
// transfer per file), for the same bytes.

/** The files of one tournament, in order: file i is bytes[ends[i - 1] ?? 0, ends[i]). */
export interface PackedFiles {
  paths: string[];
  ends: number[];
  /** The UTF-8 bytes of every file, one after the other; its buffer may be longer than `ends`' last. */
  bytes: Uint8Array<ArrayBuffer>;
}

const encoder = new TextEncoder();

/** UTF-8 bytes per UTF-16 unit assumed when sizing the buffer (mostly ASCII); it grows if not. */
const ESTIMATE = 1.05;

/** Encodes the files into one buffer, in their order. */
export function packFiles(files: readonly (readonly [string, string | Uint8Array])[]): PackedFiles {
  let rest = 0;
  for (const [, data] of files) rest += data.length;
  let bytes: Uint8Array<ArrayBuffer> = new Uint8Array(Math.ceil(rest * ESTIMATE) + 64);
  let at = 0;
  const paths: string[] = [];
  const ends: number[] = [];
  /** Makes room for `need` more bytes, and an estimate of the files after this one. */
  const grow = (need: number): void => {
    const wider = new Uint8Array(at + need + Math.ceil(rest * ESTIMATE) + 64);
    wider.set(bytes.subarray(0, at));
    bytes = wider;
  };
  for (const [path, data] of files) {
    rest -= data.length;
    if (typeof data === "string") {
      let text = data;
      for (;;) {
        // Writes what fits, never half a character; the rest goes into a wider buffer.
        const { read, written } = encoder.encodeInto(text, bytes.subarray(at));
        at += written;
        if (read === text.length) break;
        text = text.slice(read);
        grow(text.length * 3);
      }
    } else {
      if (bytes.length - at < data.length) grow(data.length);
      bytes.set(data, at);
      at += data.length;
    }
    paths.push(path);
    ends.push(at);
  }
  return { paths, ends, bytes };
}

/** Each file as a view of the one buffer (no copy). */
export function unpackFiles(packed: PackedFiles): [string, Uint8Array][] {
  const { paths, ends, bytes } = packed;
  const files: [string, Uint8Array][] = [];
  let start = 0;
  for (let i = 0; i < paths.length; i++) {
    const end = ends[i]!;
    files.push([paths[i]!, bytes.subarray(start, end)]);
    start = end;
  }
  return files;
}
