// How values of the JSON views are shown to a person, in the reader's language (a Locale from
// src/i18n). The live script and the club embed get the same tables (serialized into their
// source or the page), so a result reads the same everywhere.
import { TOURNAMENT_STATUSES, type GameResult, type TournamentStatus } from "../domain/types.ts";
import type { MessageKey } from "../i18n/catalog.ts";
import type { Locale } from "../i18n/locale.ts";
import { esc } from "./html.ts";

/** Results as players write them: symbols, the same in every language, but for two words. */
const RESULT_SYMBOL: Record<Exclude<GameResult, "Adjourned" | "Bye">, string> = {
  WhiteWin: "1–0",
  Draw: "½–½",
  BlackWin: "0–1",
  WhiteForfeitWin: "+/−",
  BlackForfeitWin: "−/+",
  DoubleForfeit: "−/−",
  Unplayed: "0–0",
  Pending: "…",
  Unknown: "?",
};

/** The results whose label has a title that says what it means. */
const TITLED = [
  "WhiteForfeitWin",
  "BlackForfeitWin",
  "DoubleForfeit",
  "Unplayed",
  "Pending",
  "Adjourned",
  "Unknown",
] as const satisfies readonly GameResult[];

export const TIEBREAKS = [
  "BH",
  "SB",
  "FB",
  "AOB",
  "DE",
  "WIN",
  "WON",
  "BPG",
  "BWG",
  "GE",
  "REP",
  "PS",
  "KS",
  "ARO",
  "TPR",
  "PTP",
  "APRO",
  "APPO",
] as const;
export const MODIFIERS = ["C1", "C2", "M1", "M2"] as const;
const TITLES = ["GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"] as const;

/** The words of one locale that pages print in every row, plain and escaped once. */
export interface Words {
  resultLabel: Record<GameResult, string>;
  resultTitle: Partial<Record<GameResult, string>>;
  resultLabelHtml: Record<GameResult, string>;
  resultTitleHtml: Partial<Record<GameResult, string>>;
  status: Record<TournamentStatus, string>;
  statusTitle: Record<TournamentStatus, string>;
  tiebreak: Record<string, string>;
  modifier: Record<string, string>;
  title: Record<string, string>;
}

const words = new WeakMap<Locale, Words>();

/** The tables of a locale, made once per locale. */
export function wordsOf(l: Locale): Words {
  let w = words.get(l);
  if (w !== undefined) return w;
  const resultLabel = { ...RESULT_SYMBOL, Adjourned: l.t("result.adjourned"), Bye: l.t("result.bye") };
  const resultTitle = Object.fromEntries(TITLED.map((r) => [r, l.t(`resultTitle.${r}`)]));
  const table = <K extends string>(keys: readonly K[], prefix: string): Record<K, string> =>
    Object.fromEntries(keys.map((k) => [k, l.t(`${prefix}.${k}` as MessageKey)])) as Record<K, string>;
  w = {
    resultLabel,
    resultTitle,
    resultLabelHtml: escTable(resultLabel) as Record<GameResult, string>,
    resultTitleHtml: escTable(resultTitle),
    status: table(TOURNAMENT_STATUSES, "status"),
    statusTitle: table(TOURNAMENT_STATUSES, "statusTitle"),
    tiebreak: table(TIEBREAKS, "tiebreak"),
    modifier: table(MODIFIERS, "modifier"),
    title: table(TITLES, "title"),
  };
  words.set(l, w);
  return w;
}

export function resultLabel(l: Locale, result: GameResult, resultText: string): string {
  return result === "Bye" && resultText ? resultText : wordsOf(l).resultLabel[result];
}

/** esc() of each label of one of our tables, made once: pages print them in every row. */
export function escTable<K extends string>(table: Partial<Record<K, string>>): Partial<Record<K, string>> {
  return Object.fromEntries(
    Object.entries<string | undefined>(table).map(([k, v]) => [k, esc(v!)]),
  ) as Partial<Record<K, string>>;
}

/** esc(resultLabel()): a bye's own text is a store string; the labels are escaped once. */
export function resultLabelHtml(l: Locale, result: GameResult, resultText: string): string {
  return result === "Bye" && resultText ? esc(resultText) : wordsOf(l).resultLabelHtml[result];
}

export function statusBadge(l: Locale, status: TournamentStatus): string {
  const w = wordsOf(l);
  // What each status means, for its badge's title: no badge is left unexplained.
  return `<span class="status status-${esc(status)}" title="${esc(w.statusTitle[status])}">${esc(w.status[status])}</span>`;
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

/** An instant in a <time> element: the locale's date and time in its time zone, with the zone. */
export function formatInstant(l: Locale, iso: string): string {
  return `<time datetime="${esc(iso)}">${esc(l.instant(iso))}</time>`;
}

/** What a tie-break label means: a FIDE acronym with its modifier, or a source's own column. */
export function tiebreakTitle(l: Locale, label: string): string {
  const w = wordsOf(l);
  const [base, modifier] = label.split("-") as [string, string | undefined];
  const name = Object.hasOwn(w.tiebreak, base) ? w.tiebreak[base] : undefined;
  if (name) {
    const m =
      modifier !== undefined && Object.hasOwn(w.modifier, modifier) ? w.modifier[modifier] : undefined;
    return m ? l.t("tiebreak.modified", { name, modifier: m }) : name;
  }
  const tb = /^TB(\d+)$/.exec(label);
  if (tb) return l.t("tiebreak.sourceNumbered", { n: tb[1]! });
  return l.t("tiebreak.sourceNamed", { label });
}

export function titleBadge(l: Locale, title: string | null): string {
  return title ? `<abbr class="title" title="${esc(titleName(l, title))}">${esc(title)}</abbr> ` : "";
}

function titleName(l: Locale, title: string): string {
  const w = wordsOf(l);
  return Object.hasOwn(w.title, title) ? w.title[title]! : l.t("title.other", { title });
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
