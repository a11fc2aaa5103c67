// Compares a standings table (as the standings endpoint serves it) with a published one: the
// `<stem>.expected.json` files of the real-data set. Used by the real-data test; kept here so the
// same comparison can run on the output of a full build.
//
// Rules of the comparison:
// - points: exactly;
// - tie-breaks: to the printed decimals; sources that round one-decimal columns inconsistently
//   (Vega) are compared within half a unit of the last printed decimal (`tolerance`);
// - ranks: a published rank is reproduced when it lies in the block of positions the computed
//   order allows among the published-ranked players (see rankWindows in check.ts): shared ranks,
//   Vega's distinct positions for full ties, and unranked (withdrawn) players are all accepted.
// Each departure from these rules must be listed explicitly in `KnownDepartures`, with its reason.

export interface ExpectedRow {
  startNo: number;
  name: string;
  rank: number | null;
  points: number;
  tiebreaks: (number | null)[];
}

export interface ExpectedFile {
  event: string;
  software: string;
  system: "swiss" | "round-robin";
  rules: "fide-2023" | "fide-2026" | "pre-2023" | "unknown";
  rounds: number;
  tiebreaks: string[];
  decimals: number;
  rows: ExpectedRow[];
}

export interface StandingsRowLike {
  sourcePlayerNumber: number;
  rank: number;
  points: number | null;
  tieBreakValues: string[];
}

export interface KnownDepartures {
  /** Why the entries below differ; stated once per file. */
  reason: string;
  /**
   * Points the file declares beyond what its result codes give (byes the file does not encode),
   * per start number. Points are compared as computed + this; ranks use the declared points.
   */
  unencodedByePoints?: Record<number, number>;
  /** When set, ranks are not compared for the file, for this reason. */
  ranksNotComparable?: string;
}

export interface ComparisonResult {
  /** Values compared per field ("points", "rank", or a tie-break acronym). */
  compared: Record<string, number>;
  /** Values that matched only through a listed departure. */
  departed: Record<string, number>;
  failures: string[];
}

function parseValue(text: string | undefined): number | null {
  if (text === undefined || text.trim() === "") return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** Half a unit of the last printed decimal for sources that round inconsistently, else exact. */
export function toleranceFor(expected: ExpectedFile): number {
  return expected.software === "Vega" ? 0.5 * 10 ** -expected.decimals + 1e-9 : 1e-9;
}

export function compareWithExpected(
  expected: ExpectedFile,
  rows: readonly StandingsRowLike[],
  departures: KnownDepartures | null,
): ComparisonResult {
  const compared: Record<string, number> = {};
  const departed: Record<string, number> = {};
  const failures: string[] = [];
  const count = (bucket: Record<string, number>, field: string) => (bucket[field] = (bucket[field] ?? 0) + 1);
  const byNumber = new Map(rows.map((r) => [r.sourcePlayerNumber, r]));
  const extra = departures?.unencodedByePoints ?? {};
  const tolerance = toleranceFor(expected);

  // The key every row is ordered by: points (with documented unencoded byes), then tie-breaks.
  const key = (r: StandingsRowLike): number[] => [
    (r.points ?? 0) + (extra[r.sourcePlayerNumber] ?? 0),
    ...r.tieBreakValues.map((v) => parseValue(v) ?? -Infinity),
  ];
  const compareKeys = (a: number[], b: number[]): number => {
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i] && !(Math.abs(a[i]! - b[i]!) < 1e-9)) return b[i]! - a[i]!;
    }
    return 0;
  };
  const ranked = expected.rows.filter((e) => e.rank !== null).map((e) => byNumber.get(e.startNo));

  for (const e of expected.rows) {
    const row = byNumber.get(e.startNo);
    if (!row) {
      failures.push(`player ${e.startNo} (${e.name}) is missing from the standings`);
      continue;
    }
    const who = `player ${e.startNo} (${e.name})`;
    const bye = extra[e.startNo];
    const points = (row.points ?? 0) + (bye ?? 0);
    count(compared, "points");
    if (bye !== undefined) count(departed, "points");
    if (Math.abs(points - e.points) > 1e-9) failures.push(`${who}: points ${points}, expected ${e.points}`);

    expected.tiebreaks.forEach((acronym, i) => {
      const want = e.tiebreaks[i] ?? null;
      const got = parseValue(row.tieBreakValues[i]);
      count(compared, acronym);
      const ok = want === null ? got === null : got !== null && Math.abs(got - want) <= tolerance;
      if (!ok) failures.push(`${who}: ${acronym} ${got ?? "undefined"}, expected ${want ?? "undefined"}`);
    });

    if (e.rank === null) continue;
    if (departures?.ranksNotComparable) {
      count(departed, "rank");
      continue;
    }
    const mine = key(row);
    let ahead = 0;
    let tiedOrAhead = 0;
    for (const other of ranked) {
      if (!other) continue;
      const c = compareKeys(key(other), mine);
      if (c < 0) ahead++;
      if (c <= 0) tiedOrAhead++;
    }
    count(compared, "rank");
    if (e.rank < ahead + 1 || e.rank > tiedOrAhead) {
      failures.push(`${who}: rank ${e.rank} outside the computed block ${ahead + 1}-${tiedOrAhead}`);
    }
  }
  return { compared, departed, failures };
}
