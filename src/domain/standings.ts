// Standings after the newest complete round: the source's own table when the store has it for
// that round, else computed from the games (points, then the tournament's tie-break list).
//
// Computed order: points, then each tie-break in turn (higher first; an undefined value last),
// then starting rank (else player number) for display. Players equal on points and on every
// tie-break share a rank, as Swiss-Manager prints them (1, 2, 2, 4). A team event under
// `--practice swiss-manager` follows that program's individual ranking instead
// (teams/board-order.ts).
import type { Player, SourceStandingRow, Tournament } from "./types.ts";
import { roundsUpTo, type RoundEntry } from "./scoring.ts";
import { isFinalResult } from "./results.ts";
import { parsedTiebreaks } from "./tiebreaks/acronyms.ts";
import { TiebreakEngine } from "./tiebreaks/engine.ts";
import { boardOrderKeys, compareBoardOrder, followsBoardOrder } from "./teams/board-order.ts";

export interface StandingsOutcome {
  afterRound: number | null;
  lastUpdatedAt: string;
  tieBreakLabels: string[];
  rows: SourceStandingRow[];
  origin: "source" | "computed";
  warnings: string[];
}

/** Texts of the half values 0, 0.5, ... 4095.5 (most values: points, sums, ratings), made once. */
const HALVES: (string | undefined)[] = new Array<string | undefined>(8192);

/** A tie-break value as text: as few decimals as needed ("31.5", "0", "7.25"); "" when undefined. */
export function formatTiebreakValue(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return "";
  // Whole and half values (most of them: points, Buchholz sums, ratings) print as they are:
  // toFixed(6) and back gives the same number.
  const twice = value * 2;
  if (Number.isInteger(twice)) {
    return twice >= 0 && twice < HALVES.length ? (HALVES[twice] ??= String(value)) : String(value);
  }
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
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** What the order reads of one player number: points, tie-break values and their texts. */
interface Tally {
  player: number;
  points: number;
  values: (number | null)[];
  /** The same values as text (formatTiebreakValue), each formatted once. */
  texts: string[];
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
  return rankedRows(t, afterRound, scheduled, true) as ComputedRow[];
}

/**
 * computeStandings' rows; without their tieBreakNumbers when `numbers` is false (the tables
 * that are published drop them: no copy of each row to take them out).
 */
export function rankedRows(
  t: Tournament,
  afterRound: number,
  scheduled: Map<number, RoundEntry[]> | undefined,
  numbers: boolean,
): SourceStandingRow[] {
  const engine = new TiebreakEngine(t, afterRound, scheduled);
  const players = t.players;
  const tallies = new Map<number, Tally>();
  // Groups of players still tied; each tie-break is computed with the groups it has to break
  // (DE depends on them), then splits them.
  const byPoints = new Map<number, Tally[]>();
  // One record per player with everything the order compares, so that the sort reads no maps.
  const records: { player: Player; tally: Tally; order: number }[] = [];
  for (const p of players) {
    const n = p.sourcePlayerNumber;
    let tally = tallies.get(n);
    if (!tally) tallies.set(n, (tally = { player: n, points: engine.points(n), values: [], texts: [] }));
    pushTo(byPoints, tally.points, tally);
    records.push({ player: p, tally, order: p.startingRank ?? n });
  }
  let groups: Tally[][] = [...byPoints.values()];
  const tiebreaks = parsedTiebreaks(t.tiebreaks);
  const lowerFirst = tiebreaks.map((tb) => engine.lowerIsBetter(tb));
  for (const tiebreak of tiebreaks) {
    const v = engine.dependsOnGroups(tiebreak)
      ? engine.values(
          tiebreak,
          groups.map((g) => g.map((x) => x.player)),
        )
      : engine.valuesOfAll(tiebreak);
    const next: Tally[][] = [];
    for (const g of groups) {
      let same = true;
      let first = "";
      for (let i = 0; i < g.length; i++) {
        const tally = g[i]!;
        const x = v.get(tally.player) ?? null;
        const text = formatTiebreakValue(x);
        tally.values.push(x);
        tally.texts.push(text);
        if (i === 0) first = text;
        else if (text !== first) same = false;
      }
      // A group the tie-break does not split (a single player too) is kept as it is.
      if (same) {
        next.push(g);
        continue;
      }
      const split = new Map<string, Tally[]>();
      for (const tally of g) pushTo(split, tally.texts.at(-1)!, tally);
      for (const part of split.values()) next.push(part);
    }
    groups = next;
  }

  // Swiss-Manager's individual ranking of a team event: after points, the share over the rounds
  // lined up and the board, then the first tie-break only (teams/board-order.ts); no shared ranks.
  const boardOrder = followsBoardOrder(t.team, t.tiebreakPractice);
  const keys = boardOrder ? boardOrderKeys(t.team!, engine.scheduled()) : null;
  const compared = keys ? Math.min(1, tiebreaks.length) : tiebreaks.length;
  records.sort((a, b) => {
    if (a.tally.points !== b.tally.points) return b.tally.points - a.tally.points;
    if (keys) {
      const c = compareBoardOrder(keys.get(a.tally.player)!, keys.get(b.tally.player)!);
      if (c !== 0) return c;
    }
    const x = a.tally.values;
    const y = b.tally.values;
    for (let i = 0; i < compared; i++) {
      const c = compareValues(x[i]!, y[i]!, lowerFirst[i]);
      if (c !== 0) return c;
    }
    return a.order - b.order || a.player.sourcePlayerNumber - b.player.sourcePlayerNumber;
  });

  const rows: SourceStandingRow[] = new Array<SourceStandingRow>(records.length);
  let prev: Tally | null = null;
  let prevRank = 0;
  for (let i = 0; i < records.length; i++) {
    const { player: p, tally } = records[i]!;
    const nums = tally.values;
    const tiedWithPrev =
      !boardOrder &&
      prev !== null &&
      prev.points === tally.points &&
      prev.values.every((v, k) => compareValues(v, nums[k]!) === 0);
    const rank = tiedWithPrev ? prevRank : i + 1;
    const row: SourceStandingRow = {
      rank,
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
      points: tally.points,
      tieBreakValues: tally.texts,
    };
    if (numbers) (row as ComputedRow).tieBreakNumbers = nums;
    rows[i] = row;
    prev = tally;
    prevRank = rank;
  }
  return rows;
}

export function currentStandings(
  t: Tournament,
  /** playerRounds(t, m) for some m >= the newest complete round, when the caller has it. */
  entries?: ReadonlyMap<number, RoundEntry[]>,
): StandingsOutcome {
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
  // Published without the numbers behind the texts.
  const computed = rankedRows(t, afterRound, entries && roundsUpTo(entries, afterRound), false);
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
    rows: computed,
    origin: "computed",
    warnings: [],
  };
}
