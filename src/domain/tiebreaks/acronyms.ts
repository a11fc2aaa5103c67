// Tie-break acronyms: parsing ("BH-C1", "KS-L+1"), the modifiers each tie-break takes, and the
// validated lists a tournament carries (parsed once, kept by list).
export type Modifier = "C1" | "C2" | "M1" | "M2" | "L";

const SUPPORTED: Record<string, readonly Modifier[]> = {
  BH: ["C1", "C2", "M1", "M2"],
  SB: ["C1", "C2", "M1", "M2"],
  FB: ["C1", "C2", "M1", "M2"],
  ARO: ["C1", "C2", "M1", "M2"],
  PS: ["C1", "C2"],
  AOB: [],
  DE: [],
  WIN: [],
  WON: [],
  BPG: [],
  BWG: [],
  GE: [],
  REP: [],
  KS: ["L"],
  TPR: [],
  PTP: [],
  APRO: [],
  APPO: [],
};

export interface ParsedTiebreak {
  acronym: string;
  base: string;
  modifier: Modifier | null;
  /** KS-L: the Koya limit, in percent of the maximum possible score (default 50). */
  limit: number | null;
  /** KS-L+n / KS-L-n (C.07 14.5): the limit moved by n half points (a half of a win's points). */
  limitSteps: number | null;
}

const ACRONYM = /^([A-Z]+)(?:-(C1|C2|M1|M2|L(?:([+-]\d{1,2})|(\d{1,3}))))?$/;

export function parseTiebreak(acronym: string): ParsedTiebreak | string {
  const m = ACRONYM.exec(acronym.trim());
  if (!m) return `"${acronym}" is not a tie-break acronym (expected e.g. BH, BH-C1, SB, DE, KS-L+1)`;
  const base = m[1]!;
  const isLimit = m[3] !== undefined || m[4] !== undefined;
  const modifier = (isLimit ? "L" : (m[2] ?? null)) as Modifier | null;
  const limitSteps = m[3] !== undefined ? Number(m[3]) : null;
  const limit = m[4] !== undefined ? Number(m[4]) : null;
  if (limit !== null && (limit < 1 || limit > 100)) {
    return `the limit of "${acronym}" must be a percentage from 1 to 100 (e.g. KS-L60) or half points (e.g. KS-L+1)`;
  }
  const allowed = SUPPORTED[base];
  if (!allowed) {
    return `unknown tie-break "${acronym}"; supported: ${Object.keys(SUPPORTED).join(", ")}`;
  }
  if (modifier && !allowed.includes(modifier)) {
    return allowed.length === 0
      ? `tie-break "${base}" takes no modifier ("${acronym}")`
      : `tie-break "${base}" takes the modifiers ${allowed.join(", ")}, not ${modifier}`;
  }
  return { acronym, base, modifier, limit, limitSteps };
}

/**
 * Parsed forms of the lists validateTiebreaks accepted, by list. The store reader validates each
 * tournament's list once; the engine takes the parsed form from here and never parses it again.
 */
const PARSED_LISTS = new WeakMap<readonly string[], readonly ParsedTiebreak[]>();

/** Problems with a tie-break list, one message per bad entry; empty when the list is valid. A
 * valid list keeps its parsed form (see parsedTiebreaks). */
export function validateTiebreaks(list: readonly string[]): string[] {
  const problems: string[] = [];
  const parsed: ParsedTiebreak[] = [];
  for (const acronym of list) {
    const result = parseTiebreak(acronym);
    if (typeof result === "string") problems.push(result);
    else parsed.push(result);
  }
  if (problems.length === 0) PARSED_LISTS.set(list, parsed);
  return problems;
}

/**
 * The parsed form of a tournament's tie-break list: the one validateTiebreaks kept, else parsed
 * now (and kept). Throws on an invalid list (the store reader refuses those before).
 */
export function parsedTiebreaks(list: readonly string[]): readonly ParsedTiebreak[] {
  const kept = PARSED_LISTS.get(list);
  // Still the same entries (a Tournament is not changed after it is read; this only guards it).
  if (kept && kept.length === list.length && kept.every((p, i) => p.acronym === list[i])) return kept;
  const problems = validateTiebreaks(list);
  if (problems.length > 0) throw new Error(problems.join("; "));
  return PARSED_LISTS.get(list)!;
}
