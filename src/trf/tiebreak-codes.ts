// Tie-break lists written in TRF-2025/2026 files (record 202, e.g. "BH/C1,BH,SB") as C.07
// acronyms ("BH-C1"). A list with a code we cannot map is not used at all: dropping one entry
// would change the meaning of the ones after it.
import { validateTiebreaks } from "../domain/tiebreaks/acronyms.ts";
import { header, type TrfFile } from "./parse.ts";

/**
 * A TRF-2025 tie-break code as a C.07 acronym: "BH/C1" -> "BH-C1", "KS/L+1" -> "KS-L+1". The
 * "/P" modifier (forfeits counted as games against the scheduled opponent) has no acronym here:
 * the code keeps it ("SB-P"), which validation refuses, so the list is not used.
 */
export function trfTiebreakCode(code: string): string {
  return code
    .trim()
    .toUpperCase()
    .split("/")
    .filter((p) => p !== "")
    .join("-");
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
