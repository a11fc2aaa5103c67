// Team tie-break acronyms, as FIDE C.07 (2024 text) and TRF-2026 write them: `BH:MP` (Buchholz on
// match points), `BH:GP/C1` (on game points, Cut-1), `EMGSB/C1` (extended Sonneborn-Berger:
// opponent's MP times own GP), `SSSC`, `EDE` (extended direct encounter), `MP`, `GP`, `MPvGP`.
// The modifier may also follow a hyphen (`BH:MP-C1`), as individual acronyms write it.
import type { PrimaryScore } from "./types.ts";

export type TeamTiebreakKind = "MP" | "GP" | "BH" | "ESB" | "SSSC" | "EDE";
export type TeamModifier = "C1" | "C2" | "M1" | "M2";

export interface TeamTiebreak {
  acronym: string;
  kind: TeamTiebreakKind;
  /** BH: the score summed; ESB: the opponents' score (first letter after E). */
  opponentScore: PrimaryScore | null;
  /** ESB: the team's own score in each match (second letter). */
  ownScore: PrimaryScore | null;
  modifier: TeamModifier | null;
}

const PATTERN = /^(MPvGP|GPvMP|MP|GP|SSSC|EDE|DE|BH(?::(MP|GP))?|E(M|G)(M|G)SB)(?:[/-](C1|C2|M1|M2))?$/;

/** Parses one acronym; a string says what is wrong with it. Bare `BH` sums the primary score. */
export function parseTeamTiebreak(acronym: string, primary: PrimaryScore): TeamTiebreak | string {
  const m = PATTERN.exec(acronym.trim());
  if (!m) {
    return (
      `"${acronym}" is not a team tie-break: use MP, GP, BH:MP, BH:GP, EMMSB, EMGSB, EGMSB, EGGSB, ` +
      "SSSC or EDE, with an optional /C1, /C2, /M1 or /M2"
    );
  }
  const [, head, bhScore, opp, own, modifier] = m;
  const base = { acronym: acronym.trim(), modifier: (modifier ?? null) as TeamModifier | null };
  const secondary: PrimaryScore = primary === "MP" ? "GP" : "MP";
  if (head!.startsWith("BH")) {
    return {
      ...base,
      kind: "BH",
      opponentScore: (bhScore as PrimaryScore | undefined) ?? primary,
      ownScore: null,
    };
  }
  if (opp !== undefined) {
    const kind = "ESB";
    return { ...base, kind, opponentScore: `${opp}P` as PrimaryScore, ownScore: `${own}P` as PrimaryScore };
  }
  if (modifier) return `"${acronym}": ${head} takes no modifier`;
  if (head === "MPvGP" || head === "GPvMP")
    return { ...base, kind: secondary, opponentScore: null, ownScore: null };
  if (head === "DE") return { ...base, kind: "EDE", opponentScore: null, ownScore: null };
  return { ...base, kind: head as TeamTiebreakKind, opponentScore: null, ownScore: null };
}

/** Every problem of a list of team acronyms (empty when all are valid). */
export function validateTeamTiebreaks(list: readonly string[], primary: PrimaryScore): string[] {
  return list.flatMap((a) => {
    const p = parseTeamTiebreak(a, primary);
    return typeof p === "string" ? [p] : [];
  });
}
