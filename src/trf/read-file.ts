// Reading a TRF file from disk: a regular file only (a FIFO or /dev/zero would block or never
// end), at most MAX_TRF_BYTES, and decoded from UTF-8 or, when it is not valid UTF-8, from
// Windows-1252 (the superset of Latin-1 that older pairing programs write). A text holding U+FFFD
// (a character already lost by an earlier conversion) is refused with its line: it would be
// published as "M�ller".
import { closeSync, openSync, readSync } from "node:fs";
import { BuildError, EXIT } from "../shared/errors.ts";
import { regularFile } from "../shared/files.ts";

/** 64 MiB: the largest real event (20,000 players over 99 rounds) is about 25 MB. */
export const MAX_TRF_BYTES = 64 * 1024 * 1024;

export interface TrfText {
  text: string;
  /** "utf-8" or "windows-1252". */
  encoding: string;
  /** Said when the file was converted. */
  warnings: string[];
}

/** Decodes the bytes of a TRF file; throws a BuildError naming the line of a U+FFFD. */
export function decodeTrf(bytes: Uint8Array, fileName: string): TrfText {
  let text: string;
  let encoding = "utf-8";
  const warnings: string[] = [];
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    encoding = "windows-1252";
    text = new TextDecoder("windows-1252").decode(bytes);
    const line = lineOfFirstInvalidUtf8(bytes);
    warnings.push(
      `${fileName} is not UTF-8 (first at line ${line}): read as Windows-1252 (Latin-1); ` +
        "check the names, or export the file as UTF-8",
    );
  }
  const lost = text.indexOf("\ufffd");
  if (lost >= 0) {
    const line = text.slice(0, lost).split(/\r?\n|\r/).length;
    throw new BuildError(
      `Cannot import the TRF file ${fileName}: it holds U+FFFD, a character lost in an earlier conversion.`,
      [
        {
          what: "the replacement character U+FFFD (shown as �) stands where a letter was",
          where: `${fileName}:${line}`,
          fix: "export the file again from the pairing program (UTF-8 or Windows-1252), or correct the name",
        },
      ],
      EXIT.trf,
    );
  }
  return { text, encoding, warnings };
}

/** The 1-based line of the first byte sequence that is not UTF-8. */
function lineOfFirstInvalidUtf8(bytes: Uint8Array): number {
  let line = 1;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      try {
        decoder.decode(bytes.subarray(start, i));
      } catch {
        return line;
      }
      line++;
      start = i + 1;
    }
  }
  return line;
}

/** Reads and decodes a TRF file, refusing what is not a regular file or is too large. */
export function readTrfFile(file: string, fileName: string): TrfText {
  const st = regularFile(file, "the TRF file", EXIT.usage, "pass the path of a .trf file");
  const tooLarge = (size: string) =>
    new BuildError(
      `Cannot import the TRF file ${fileName}: it is larger than ${MAX_TRF_BYTES / 1024 / 1024} MiB.`,
      [
        {
          what: `the file holds ${size}; a TRF file of the largest real event is about 25 MB`,
          where: file,
          fix: "pass the TRF export of one tournament",
        },
      ],
      EXIT.trf,
    );
  if (st.size > MAX_TRF_BYTES) throw tooLarge(`${st.size} bytes`);
  // Read at most one byte past the cap: a file that grows while it is read is bounded too.
  const buf = Buffer.allocUnsafe(Math.min(st.size, MAX_TRF_BYTES) + 1);
  const fd = openSync(file, "r");
  let n = 0;
  try {
    for (let got; n < buf.length && (got = readSync(fd, buf, n, buf.length - n, null)) > 0;) n += got;
  } finally {
    closeSync(fd);
  }
  if (n > MAX_TRF_BYTES) throw tooLarge(`more than ${MAX_TRF_BYTES} bytes`);
  return decodeTrf(buf.subarray(0, n), fileName);
}
