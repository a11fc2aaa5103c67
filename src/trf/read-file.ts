// Reading a TRF file from disk: a regular file only (a FIFO or /dev/zero would block or never
// end), at most MAX_TRF_BYTES, and decoded from UTF-8 or, when it is not valid UTF-8, line by
// line: each line that is valid UTF-8 as UTF-8, each other line from Windows-1252 (the superset
// of Latin-1 that older pairing programs write). A file edited in two programs mixes the two, and
// decoding it whole as either turns the other's names into mojibake ("JosÃ©"). A text holding U+FFFD
// (a character already lost by an earlier conversion) is refused with its line: it would be
// published as "M�ller".
import { closeSync, openSync, readSync } from "node:fs";
import { BuildError, EXIT } from "../shared/errors.ts";
import { regularFile } from "../shared/files.ts";

/** 64 MiB: the largest real event (20,000 players over 99 rounds) is about 25 MB. */
export const MAX_TRF_BYTES = 64 * 1024 * 1024;

export interface TrfText {
  text: string;
  /** "utf-8", "windows-1252", or "mixed" (lines of each). */
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
    const lines = decodeLines(bytes);
    text = lines.text;
    encoding = lines.utf8 > 0 ? "mixed" : "windows-1252";
    const where = lines.latin1.length === 1 ? "line" : "lines";
    const shown = lines.latin1.slice(0, 10).join(", ") + (lines.latin1.length > 10 ? ", …" : "");
    warnings.push(
      lines.utf8 > 0
        ? `${fileName} mixes encodings: ${where} ${shown} (${lines.latin1.length} in all) are not UTF-8 and ` +
            "were read as Windows-1252 (Latin-1), the others as UTF-8; check the names on those lines, " +
            "or export the file as UTF-8"
        : `${fileName} is not UTF-8 (first at line ${lines.latin1[0]}): read as Windows-1252 (Latin-1); ` +
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

/**
 * The text of bytes that are not UTF-8 as a whole, line by line: a line that is UTF-8 as UTF-8,
 * another from Windows-1252. `latin1`: the 1-based numbers of the lines read as Windows-1252;
 * `utf8`: how many lines outside ASCII were read as UTF-8.
 */
function decodeLines(bytes: Uint8Array): { text: string; latin1: number[]; utf8: number } {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const cp1252 = new TextDecoder("windows-1252");
  const parts: string[] = [];
  const latin1: number[] = [];
  let nonAscii = 0;
  let start = 0;
  for (let line = 1; start < bytes.length; line++) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl + 1;
    const chunk = bytes.subarray(start, end);
    try {
      parts.push(utf8.decode(chunk));
      if (chunk.some((b) => b >= 0x80)) nonAscii++;
    } catch {
      parts.push(cp1252.decode(chunk));
      latin1.push(line);
    }
    start = end;
  }
  return { text: parts.join(""), latin1, utf8: nonAscii };
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
