// How values of the JSON views are shown to a person. The live script and the club embed get the
// same tables (serialized into their source), so a result reads the same everywhere.
import type { GameResult, TournamentStatus } from "../domain/types.ts";
import { esc } from "./html.ts";

/** Results as players write them. A bye shows its own text ("bye", "bye (½)", ...). */
export const RESULT_LABEL: Record<GameResult, string> = {
  WhiteWin: "1–0",
  Draw: "½–½",
  BlackWin: "0–1",
  WhiteForfeitWin: "+/−",
  BlackForfeitWin: "−/+",
  DoubleForfeit: "−/−",
  Unplayed: "0–0",
  Pending: "…",
  Adjourned: "adj.",
  Unknown: "?",
  Bye: "bye",
};

/** What a result label means, for its title attribute. */
export const RESULT_TITLE: Partial<Record<GameResult, string>> = {
  WhiteForfeitWin: "White wins by forfeit",
  BlackForfeitWin: "Black wins by forfeit",
  DoubleForfeit: "Both players forfeit",
  Unplayed: "Not played",
  Pending: "In play",
  Adjourned: "Adjourned",
  Unknown: "Result not recognized",
};

export function resultLabel(result: GameResult, resultText: string): string {
  return result === "Bye" && resultText ? resultText : RESULT_LABEL[result];
}

/** esc() of each label of one of our tables, made once: pages print them in every row. */
export function escTable<K extends string>(table: Partial<Record<K, string>>): Partial<Record<K, string>> {
  return Object.fromEntries(
    Object.entries<string | undefined>(table).map(([k, v]) => [k, esc(v!)]),
  ) as Partial<Record<K, string>>;
}

const RESULT_LABEL_HTML = escTable(RESULT_LABEL) as Record<GameResult, string>;
export const RESULT_TITLE_HTML = escTable(RESULT_TITLE);

/** esc(resultLabel()): a bye's own text is a store string; the labels are escaped once. */
export function resultLabelHtml(result: GameResult, resultText: string): string {
  return result === "Bye" && resultText ? esc(resultText) : RESULT_LABEL_HTML[result];
}

export const STATUS_LABEL: Record<TournamentStatus, string> = {
  Imported: "Imported",
  Upcoming: "Upcoming",
  Live: "Live",
  ResultsPending: "Results pending",
  AwaitingNextRound: "Awaiting next round",
  UpdateDelayed: "Update delayed",
  Complete: "Complete",
};

/** What each status means, for its badge's title: no badge is left unexplained. */
export const STATUS_TITLE: Record<TournamentStatus, string> = {
  Imported: "Imported once from the results file; not followed round by round",
  Upcoming: "No round is paired yet",
  Live: "A round is being played; results come in as they are known",
  ResultsPending: "A round is being played; no results have come in for a while",
  AwaitingNextRound: "Every result of the newest round is in; the next round is not paired yet",
  UpdateDelayed: "The next update from the organiser is overdue",
  Complete: "Every round has been played",
};

export function statusBadge(status: TournamentStatus): string {
  return `<span class="status status-${esc(status)}" title="${esc(STATUS_TITLE[status])}">${esc(STATUS_LABEL[status])}</span>`;
}

/** Points with a half sign: 5.5 → "5½", 0.5 → "½". Other fractions keep their decimals. */
export function formatPoints(points: number | null): string {
  if (points === null) return "";
  const whole = Math.trunc(points);
  const frac = Math.abs(points - whole);
  if (frac === 0) return String(points);
  if (frac === 0.5) return `${whole === 0 ? (points < 0 ? "−" : "") : whole}½`;
  return String(points);
}

/** esc(formatPoints()): a number's text and "½" pass esc() as they are; only "−½" holds a
 * character to escape (U+2212). */
export function pointsHtml(points: number | null): string {
  const text = formatPoints(points);
  return text.charCodeAt(0) === 0x2212 ? esc(text) : text;
}

// Dates and times have one module of their own (dates.ts); re-exported for the pages' imports.
export { formatDates, formatInstant } from "./dates.ts";

export const TIEBREAK_NAMES: Record<string, string> = {
  BH: "Buchholz: sum of the opponents' points",
  SB: "Sonneborn-Berger: opponents' points weighted by the result against them",
  FB: "Fore Buchholz: Buchholz with the last round counted as draws",
  AOB: "Average Buchholz of the opponents",
  DE: "Direct encounter between the tied players",
  WIN: "Rounds won, played or not",
  WON: "Games won over the board",
  BPG: "Games played with Black",
  BWG: "Games won with Black",
  GE: "Games the player elected to play",
  REP: "Games the player elected to play",
  PS: "Progressive score: sum of the running scores",
  KS: "Koya: points against opponents with at least half the points",
  ARO: "Average rating of the opponents",
  TPR: "Tournament performance rating",
  PTP: "Perfect tournament performance",
  APRO: "Average performance rating of the opponents",
  APPO: "Average perfect performance of the opponents",
};

export const MODIFIERS: Record<string, string> = {
  C1: "without the lowest opponent (Cut-1)",
  C2: "without the two lowest opponents (Cut-2)",
  M1: "without the highest and lowest opponents (Median-1)",
  M2: "without the two highest and two lowest opponents (Median-2)",
};

/** What a tie-break label means: a FIDE acronym with its modifier, or a source's own column. */
export function tiebreakTitle(label: string): string {
  const [base, modifier] = label.split("-") as [string, string | undefined];
  const name = TIEBREAK_NAMES[base];
  if (name) return modifier && MODIFIERS[modifier] ? `${name}, ${MODIFIERS[modifier]}` : name;
  const tb = /^TB(\d+)$/.exec(label);
  if (tb) return `Tie-break ${tb[1]} as published by the results source`;
  return `Tie-break "${label}" as published by the results source`;
}

export function titleBadge(title: string | null): string {
  return title ? `<abbr class="title" title="${esc(titleName(title))}">${esc(title)}</abbr> ` : "";
}

const TITLES: Record<string, string> = {
  GM: "Grandmaster",
  IM: "International Master",
  FM: "FIDE Master",
  CM: "Candidate Master",
  WGM: "Woman Grandmaster",
  WIM: "Woman International Master",
  WFM: "Woman FIDE Master",
  WCM: "Woman Candidate Master",
};

function titleName(title: string): string {
  return TITLES[title] ?? `Title ${title}`;
}

/** A language by its own name ("es" → "Español", "en-GB" → "English (United Kingdom)"), so a
 * reader finds theirs without knowing the codes; the code itself when Intl does not know it. */
export function languageName(code: string): string {
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames([code], { type: "language", fallback: "none" }).of(code);
  } catch {
    name = undefined;
  }
  if (!name) return code;
  return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
}
