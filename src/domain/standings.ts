// Standings after the newest complete round: the source's own table when the store has it for
// that round, else computed from the games (points, then the tournament's tie-break list).
//
// Computed order: points, then each tie-break in turn (higher first; an undefined value last),
// then starting rank (else player number) for display. Players equal on points and on every
// tie-break share a rank, as Swiss-Manager prints them (1, 2, 2, 4).
import type { SourceStandingRow, Tournament } from "./types.ts";
import type { RoundEntry } from "./scoring.ts";
import { isFinalResult } from "./results.ts";
import { parsedTiebreaks } from "./tiebreaks/acronyms.ts";
import { TiebreakEngine } from "./tiebreaks/engine.ts";

export interface StandingsOutcome {
  afterRound: number | null;
  lastUpdatedAt: string;
  tieBreakLabels: string[];
  rows: SourceStandingRow[];
  origin: "source" | "computed";
  warnings: string[];
}

/** A tie-break value as text: as few decimals as needed ("31.5", "0", "7.25"); "" when undefined. */
export function formatTiebreakValue(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return "";
  // Whole and half values (most of them: points, Buchholz sums, ratings) print as they are:
  // toFixed(6) and back gives the same number.
  if (Number.isInteger(value * 2)) return String(value);
  return String(Number(value.toFixed(6)));
}

/**
 * The newest round that has games, all of them with a final result, with no earlier round
 * holding a game that is not final (standings after round 5 would be wrong with a game of round
 * 4 unknown); null when there is none. Rounds without games are ignored.
 */
export function newestCompleteRound(t: Tournament): number | null {
  const withGames = t.rounds.filter((r) => r.games.length > 0).sort((a, b) => a.roundNumber - b.roundNumber);
  let newest: number | null = null;
  for (const r of withGames) {
    if (!r.games.every((g) => isFinalResult(g.result))) break;
    newest = r.roundNumber;
  }
  return newest;
}

/** Why the standings stop before a round that has games: the first game (by board) of the round
 * after the newest complete one whose result was not recognized (Unknown). Pending and adjourned
 * games are the normal state of a live round and are not reported. */
export interface StandingsStop {
  /** The round the standings are after (0: none). */
  afterRound: number;
  round: number;
  board: number;
}

export function standingsStop(t: Tournament): StandingsStop | null {
  const after = newestCompleteRound(t) ?? 0;
  const next = t.rounds
    .filter((r) => r.roundNumber > after && r.games.length > 0)
    .sort((a, b) => a.roundNumber - b.roundNumber)[0];
  const game = next?.games.find((g) => g.result === "Unknown");
  return next && game ? { afterRound: after, round: next.roundNumber, board: game.boardNumber } : null;
}

export interface ComputedRow extends SourceStandingRow {
  /** The numeric tie-break values behind tieBreakValues (null = undefined). */
  tieBreakNumbers: (number | null)[];
}

/** Higher first (lower first when `lowerFirst`, as for Vega's DE positions); undefined last. */
function compareValues(a: number | null, b: number | null, lowerFirst = false): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (Math.abs(a - b) < 1e-9) return 0;
  return lowerFirst ? a - b : b - a;
}

/** Appends `value` to the list under `key`, creating it (no copies: groups can be large). */
function pushTo<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Standings computed from the games of rounds 1..afterRound. O(n log n + n·rounds) in the
 * number of players: per-player values come from maps, ties are split group by group, and the
 * final sort compares precomputed keys.
 */
export function computeStandings(
  t: Tournament,
  afterRound: number,
  /** playerRounds(t, afterRound), when the caller has it already. */
  scheduled?: Map<number, RoundEntry[]>,
): ComputedRow[] {
  const engine = new TiebreakEngine(t, afterRound, scheduled);
  const players = t.players;
  const points = new Map<number, number>();
  const values = new Map<number, (number | null)[]>();
  /** The same values as text (formatTiebreakValue), each formatted once. */
  const texts = new Map<number, string[]>();
  const orderKey = new Map<number, number>();
  for (const p of players) {
    const n = p.sourcePlayerNumber;
    points.set(n, engine.points(n));
    values.set(n, []);
    texts.set(n, []);
    orderKey.set(n, p.startingRank ?? n);
  }

  // Groups of players still tied; each tie-break is computed with the groups it has to break
  // (DE depends on them), then splits them.
  const byPoints = new Map<number, number[]>();
  for (const p of players) pushTo(byPoints, points.get(p.sourcePlayerNumber) ?? 0, p.sourcePlayerNumber);
  let groups: number[][] = [...byPoints.values()];
  const tiebreaks = parsedTiebreaks(t.tiebreaks);
  const lowerFirst = tiebreaks.map((tb) => engine.lowerIsBetter(tb));
  for (const tiebreak of tiebreaks) {
    const v = engine.values(tiebreak, groups);
    const next: number[][] = [];
    for (const g of groups) {
      for (const p of g) {
        const x = v.get(p) ?? null;
        values.get(p)!.push(x);
        texts.get(p)!.push(formatTiebreakValue(x));
      }
      if (g.length === 1) {
        next.push(g);
        continue;
      }
      const split = new Map<string, number[]>();
      for (const p of g) pushTo(split, texts.get(p)!.at(-1)!, p);
      for (const part of split.values()) next.push(part);
    }
    groups = next;
  }

  // One record per player with everything the order compares, so that the sort reads no maps.
  const records = players.map((p) => ({
    player: p,
    points: points.get(p.sourcePlayerNumber) ?? 0,
    values: values.get(p.sourcePlayerNumber)!,
    order: orderKey.get(p.sourcePlayerNumber)!,
  }));
  records.sort((a, b) => {
    if (a.points !== b.points) return b.points - a.points;
    for (let i = 0; i < a.values.length; i++) {
      const c = compareValues(a.values[i]!, b.values[i]!, lowerFirst[i]);
      if (c !== 0) return c;
    }
    return a.order - b.order || a.player.sourcePlayerNumber - b.player.sourcePlayerNumber;
  });
  const sorted = records.map((r) => r.player);

  const rows: ComputedRow[] = [];
  sorted.forEach((p, i) => {
    const nums = values.get(p.sourcePlayerNumber)!;
    const pts = points.get(p.sourcePlayerNumber) ?? 0;
    const prev = rows[i - 1];
    const tiedWithPrev =
      prev !== undefined &&
      prev.points === pts &&
      prev.tieBreakNumbers.every((v, k) => compareValues(v, nums[k]!) === 0);
    rows.push({
      rank: tiedWithPrev ? prev.rank : i + 1,
      sourcePlayerNumber: p.sourcePlayerNumber,
      name: p.name,
      title: p.title,
      internationalRating: p.rating,
      nationalRating: p.nationalRating,
      gender: p.gender,
      type: p.type,
      group: p.group,
      federation: p.federation,
      club: p.club,
      points: pts,
      tieBreakValues: texts.get(p.sourcePlayerNumber)!,
      tieBreakNumbers: nums,
    });
  });
  return rows;
}

export function currentStandings(t: Tournament): StandingsOutcome {
  const afterRound = newestCompleteRound(t);
  if (afterRound === null) {
    return {
      afterRound: null,
      lastUpdatedAt: t.lastScrapedAt,
      tieBreakLabels: [...t.tiebreaks],
      rows: [],
      origin: "computed",
      warnings: [],
    };
  }
  const computed = computeStandings(t, afterRound);
  const source = t.sourceStandings.find((s) => s.afterRound === afterRound);
  if (source) {
    const computedPoints = new Map(computed.map((r) => [r.sourcePlayerNumber, r.points]));
    const warnings: string[] = [];
    for (const row of source.rows) {
      const mine = computedPoints.get(row.sourcePlayerNumber);
      if (row.points !== null && mine !== undefined && mine !== null && Math.abs(mine - row.points) > 1e-9) {
        warnings.push(
          `tournament ${t.externalId}, round ${afterRound}: player ${row.sourcePlayerNumber} (${row.name}) ` +
            `has ${row.points} points in the source's standings but ${mine} from the games`,
        );
      }
    }
    return {
      afterRound,
      lastUpdatedAt: source.retrievedAt,
      tieBreakLabels: [...source.tieBreakLabels],
      rows: source.rows.map((r) => ({ ...r, tieBreakValues: [...r.tieBreakValues] })),
      origin: "source",
      warnings,
    };
  }
  const round = t.rounds.find((r) => r.roundNumber === afterRound)!;
  return {
    afterRound,
    lastUpdatedAt: round.lastScrapedAt,
    tieBreakLabels: [...t.tiebreaks],
    rows: computed.map(({ tieBreakNumbers: _numbers, ...row }) => row),
    origin: "computed",
    warnings: [],
  };
}
