// Tie-break lists written in TRF-2025/2026 files (record 202, e.g. "BH/C1,BH,SB") as C.07
// acronyms ("BH-C1"). A list with a code we cannot map is not used at all: dropping one entry
// would change the meaning of the ones after it.
import { validateTiebreaks } from "../domain/tiebreaks.ts";
import { header, type TrfFile } from "./parse.ts";

export function trfTiebreakCode(code: string): string {
  // "BH/C1/P" -> "BH-C1": the modifier joins with a dash; "/P" (points as they count) is dropped.
  const parts = code
    .trim()
    .toUpperCase()
    .split("/")
    .filter((p) => p !== "" && p !== "P");
  return parts.join("-");
}

export function tiebreaksFromTrfHeader(f: TrfFile): { tiebreaks: string[]; warnings: string[] } {
  const raw = header(f, "202");
  if (raw === null) return { tiebreaks: [], warnings: [] };
  const list = raw
    .split(/[,;\s]+/)
    .filter((c) => c !== "")
    .map(trfTiebreakCode);
  const problems = validateTiebreaks(list);
  if (problems.length > 0) {
    return {
      tiebreaks: [],
      warnings: [`the file's tie-break list (202 "${raw}") is not used: ${problems.join("; ")}`],
    };
  }
  return { tiebreaks: list, warnings: [] };
}
