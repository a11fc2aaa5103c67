// A parsed TRF file as a domain Tournament: players, rounds and games (colours, forfeits, byes).
//
// Reading of the round cells:
// - a game is written on both players' records; it becomes one board. Colours come from the
//   records; when neither record gives one (forfeits written with "-"), the lower start number is
//   listed as white. A cell whose opponent does not point back is skipped with a warning.
// - result codes are read with the shared table of src/domain/result-codes.ts (the store's raw
//   results use it too): 1 / 0 / = (and W / L / D, games not rated) are over-the-board results,
//   + and - forfeits, "-"/"-" a double forfeit, "0"/"0" a double loss over the board.
// - without an opponent: U, + and 1 are a pairing-allocated bye, F a full-point bye, H and = a
//   half-point bye; these become bye rows. Z, 0, - and a blank cell mean absent: the player is in
//   no game of that round (it scores as a zero-point bye).
// - an unknown code, or two codes that contradict each other, make the game Unknown; the
//   conversion lists each one by round and board (the import refuses them unless allowed).
// - boards are numbered by the players' scores before the round (higher first), then by the lower
//   start number; bye rows come last. TRF has no board numbers.
import { trfSchedule, type RoundTimes } from "./schedule.ts";
import { timeControlText } from "./time-control.ts";
import {
  DEFAULT_SCORING,
  type ByeKind,
  type Game,
  type GameResult,
  type PairingSystem,
  type Player,
  type Round,
  type Scoring,
  type TiebreakPractice,
  type TiebreakRuleSet,
  type Tournament,
} from "../domain/types.ts";
import { resultDisplayText } from "../domain/results.ts";
import { aloneByeKind, pairResult, standardCodePoints, type PairResult } from "../domain/result-codes.ts";
import { header, type TrfFile, type TrfPlayer, type TrfRoundCell } from "./parse.ts";

export interface TrfConvertOptions {
  externalId: bigint;
  tiebreaks?: string[];
  rules?: TiebreakRuleSet;
  /** The program whose known tie-break practice to follow; default null: the written rules. */
  practice?: TiebreakPractice | null;
  now: string;
  sourceUrl?: string;
  /** Points per outcome (the file's 162 / XXS records); default 1 / ½ / 0. */
  scoring?: Scoring;
  /** Announced start times (`import-trf --round-time`): no TRF record carries them. */
  roundTimes?: RoundTimes;
  /** The number of rounds when the file announces none (`import-trf --rounds`). */
  totalRounds?: number;
}

export interface TrfConversion {
  tournament: Tournament;
  warnings: string[];
  /** Games stored as Unknown (unknown or contradicting codes), by round and board. */
  unknown: UnknownCell[];
}

/** YYYY-MM-DD from the date forms TRF files use ("2025/04/29", "25.02.2011", "28. 07. 2005"). */
export function trfDate(raw: string | null): string | null {
  if (!raw) return null;
  const pad = (n: string) => n.padStart(2, "0");
  let m = /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$/.exec(raw.trim());
  if (m) return valid(`${m[1]}-${pad(m[2]!)}-${pad(m[3]!)}`);
  m = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})$/.exec(raw.trim());
  if (m) return valid(`${m[3]}-${pad(m[2]!)}-${pad(m[1]!)}`);
  return null;
}

function valid(date: string): string | null {
  const [y, mo, d] = date.split("-").map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d
    ? date
    : null;
}

/** Points of a result code for the checks of the file's own totals (1 / ½ / 0). */
export function codePoints(cell: Pick<TrfRoundCell, "code" | "opponent">): number {
  return standardCodePoints(cell.code, cell.opponent !== null);
}

/** A game or bye whose code is unknown, or whose two codes contradict each other. */
export interface UnknownCell {
  round: number;
  /** Board number in the stored round. */
  board: number;
  players: number[];
  codes: string;
  line: number;
  column: number;
}

function pairingSystem(f: TrfFile): PairingSystem {
  const type = (header(f, "092") ?? "").toLowerCase();
  return /round[\s-]*robin|rundenturnier|berger/.test(type) ? "round-robin" : "swiss";
}

export function convertTrf(f: TrfFile, opts: TrfConvertOptions): TrfConversion {
  const warnings: string[] = [];
  const unknown: UnknownCell[] = [];
  const byNumber = new Map<number, TrfPlayer>(f.players.map((p) => [p.startNo, p]));
  const players: Player[] = f.players.map((p) => ({
    sourcePlayerNumber: p.startNo,
    startingRank: p.startNo,
    fideId: p.fideId,
    name: p.name,
    title: p.title,
    rating: p.rating,
    nationalRating: null,
    federation: p.federation,
    club: null,
    gender: p.sex,
    type: null,
    group: null,
  }));

  const runningPoints = new Map<number, number>(f.players.map((p) => [p.startNo, 0]));
  const rounds: Round[] = [];
  for (let r = 1; r <= f.roundColumns; r++) {
    const cells = f.players
      .map((p) => ({ p, cell: p.rounds[r - 1] }))
      .filter((x): x is { p: TrfPlayer; cell: TrfRoundCell } => x.cell !== undefined);
    if (cells.length === 0) continue;
    const pairs: {
      white: number;
      black: number;
      result: PairResult;
      codes: string;
      line: number;
      column: number;
    }[] = [];
    const byes: { player: number; kind: ByeKind | null; code: string; line: number; column: number }[] = [];
    const done = new Set<number>();
    for (const { p, cell } of cells) {
      if (done.has(p.startNo)) continue;
      if (cell.opponent === null) {
        // A zero-point bye and an absence score and count alike: the player is in no game.
        const kind = aloneByeKind(cell.code);
        if (cell.unknownCode !== null)
          byes.push({
            player: p.startNo,
            kind: null,
            code: cell.unknownCode,
            line: p.line,
            column: cell.column + 7,
          });
        else if (kind && kind !== "zero")
          byes.push({ player: p.startNo, kind, code: cell.code!, line: p.line, column: cell.column + 7 });
        done.add(p.startNo);
        continue;
      }
      const other = byNumber.get(cell.opponent)!;
      const back = other.rounds[r - 1];
      if (!back || back.opponent !== p.startNo) {
        warnings.push(
          `${f.fileName}:${p.line}: round ${r}: player ${p.startNo} lists opponent ${cell.opponent}, ` +
            `whose record does not list ${p.startNo} back; the cell is skipped`,
        );
        done.add(p.startNo);
        continue;
      }
      done.add(p.startNo);
      done.add(other.startNo);
      let pWhite: boolean;
      if (cell.colour) pWhite = cell.colour === "w";
      else if (back.colour) pWhite = back.colour === "b";
      else pWhite = p.startNo < other.startNo;
      const [w, b] = pWhite ? [p, other] : [other, p];
      const [wc, bc] = pWhite ? [cell, back] : [back, cell];
      const unknownCode = wc.unknownCode !== null || bc.unknownCode !== null;
      const result = unknownCode ? { result: "Unknown" as const, text: "?" } : pairResult(wc.code, bc.code);
      const codes = `"${wc.unknownCode ?? wc.code ?? " "}"/"${bc.unknownCode ?? bc.code ?? " "}"`;
      pairs.push({
        white: w.startNo,
        black: b.startNo,
        result,
        codes,
        line: p.line,
        column: cell.column + 7,
      });
    }

    const before = (n: number) => runningPoints.get(n) ?? 0;
    pairs.sort(
      (a, b) =>
        Math.max(before(b.white), before(b.black)) - Math.max(before(a.white), before(a.black)) ||
        before(b.white) + before(b.black) - (before(a.white) + before(a.black)) ||
        Math.min(a.white, a.black) - Math.min(b.white, b.black),
    );
    byes.sort((a, b) => a.player - b.player);
    const games: Game[] = [];
    const base = {
      provisionalPoints: null,
      firstSeenAt: opts.now,
      lastSeenAt: opts.now,
      resultChangedAt: null,
    };
    for (const g of pairs) {
      const board = games.length + 1;
      if (g.result.result === "Unknown") {
        unknown.push({
          round: r,
          board,
          players: [g.white, g.black],
          codes: g.codes,
          line: g.line,
          column: g.column,
        });
      }
      games.push({
        ...base,
        // First published by this reading (a re-import keeps or moves it: store/write/update.ts).
        resultChangedAt: g.result.result === "Pending" ? null : opts.now,
        boardNumber: board,
        whitePlayerNumber: g.white,
        blackPlayerNumber: g.black,
        result: g.result.result,
        resultText: g.result.text,
        // The raw text of a known result is its display text, which reads back the same.
        rawResult: g.result.result === "Unknown" ? g.codes : g.result.text,
        byeKind: null,
      });
    }
    for (const b of byes) {
      const board = games.length + 1;
      if (b.kind === null) {
        unknown.push({
          round: r,
          board,
          players: [b.player],
          codes: `"${b.code}"`,
          line: b.line,
          column: b.column,
        });
      }
      const result: GameResult = b.kind === null ? "Unknown" : "Bye";
      const text = resultDisplayText(result, b.kind);
      games.push({
        ...base,
        resultChangedAt: opts.now,
        boardNumber: board,
        whitePlayerNumber: b.player,
        blackPlayerNumber: null,
        result,
        resultText: text,
        rawResult: b.kind === null ? b.code : text,
        byeKind: b.kind,
      });
    }
    for (const { p, cell } of cells) runningPoints.set(p.startNo, before(p.startNo) + codePoints(cell));
    rounds.push({
      roundNumber: r,
      firstScrapedAt: opts.now,
      lastScrapedAt: opts.now,
      lastSourceChangeAt: null,
      games,
    });
  }

  const total = announcedRounds(f) ?? opts.totalRounds ?? null;
  const startDate = trfDate(header(f, "042"));
  const endDate = trfDate(header(f, "052"));
  const name = header(f, "012") ?? f.fileName.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "");
  const tournament: Tournament = {
    externalId: opts.externalId,
    sourceUrl: opts.sourceUrl ?? `file:${f.fileName.replace(/^.*[\\/]/, "")}`,
    name,
    location: header(f, "022"),
    federation: header(f, "032"),
    organizer: null,
    tournamentDirector: null,
    chiefArbiter: header(f, "102"),
    deputyChiefArbiter:
      f.headers
        .get("112")
        ?.filter((v) => v !== "")
        .join(", ") || null,
    arbiters: null,
    // 122 is the arbiter's own words; TRF-2026's encoded 222 is put in words when 122 is absent.
    timeControl: header(f, "122") ?? encodedTimeControl(f),
    tournamentType: header(f, "092"),
    ratingCalculation: null,
    fideEventId: null,
    averageRating: null,
    averageAge: null,
    pairingProgram: null,
    sourceLastUpdated: null,
    sourceCreator: null,
    startDate,
    endDate,
    // Not the rounds in the file: a file cut after round 4 of 6 would read as complete.
    totalRounds: total,
    trackingEnabled: false,
    refreshIntervalSeconds: null,
    nextRefreshAt: null,
    createdAt: opts.now,
    lastScrapedAt: opts.now,
    lastSourceChangeAt: null,
    system: pairingSystem(f),
    tiebreaks: opts.tiebreaks ?? [],
    tiebreakRules: opts.rules ?? "fide-2023",
    tiebreakPractice: opts.practice ?? null,
    scoring: { ...(opts.scoring ?? DEFAULT_SCORING) },
    players,
    rounds,
    schedule: trfSchedule(f, startDate, endDate, opts.roundTimes, total ?? f.roundColumns).filter(
      (r) => total === null || r.roundNumber <= total,
    ),
    sourceStandings: [],
    recaps: [],
  };
  return { tournament, warnings, unknown };
}

/** The number of rounds the file announces (XXR, or TRF-2026's 142), or null. */
export function announcedRounds(f: TrfFile): number | null {
  const n = Number(header(f, "XXR") ?? header(f, "142") ?? NaN);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** Record 222 in words; the code as written when it does not follow TRF-2026's grammar. */
function encodedTimeControl(f: TrfFile): string | null {
  const code = header(f, "222");
  return code === null ? null : (timeControlText(code) ?? code);
}

/** The domain Tournament of a parsed TRF file (warnings dropped; see convertTrf). */
export function trfToTournament(f: TrfFile, opts: TrfConvertOptions): Tournament {
  return convertTrf(f, opts).tournament;
}
