// A parsed TRF file as a domain Tournament: players, rounds and games (colours, forfeits, byes).
//
// Reading of the round cells:
// - a game is written on both players' records; it becomes one board. Colours come from the
//   records; when neither record gives one (forfeits written with "-"), the lower start number is
//   listed as white. A cell whose opponent does not point back is skipped with a warning.
// - result codes 1 / 0 / = (and W / L / D, games not rated) are over-the-board results; + and -
//   are forfeits (both "-" is a double forfeit).
// - without an opponent: U and + are a pairing-allocated bye, F a full-point bye, H and = a
//   half-point bye, 1 a pairing-allocated bye; these become bye rows. Z, 0, - and a blank cell
//   mean absent: the player is in no game of that round (it scores as a zero-point bye).
// - boards are numbered by the players' scores before the round (higher first), then by the lower
//   start number; bye rows come last. TRF has no board numbers.
import {
  DEFAULT_SCORING,
  type ByeKind,
  type Game,
  type GameResult,
  type PairingSystem,
  type Player,
  type Round,
  type TiebreakRuleSet,
  type Tournament,
} from "../domain/types.ts";
import { resultDisplayText } from "../domain/results.ts";
import { header, type TrfFile, type TrfPlayer, type TrfRoundCell } from "./parse.ts";

export interface TrfConvertOptions {
  externalId: bigint;
  tiebreaks?: string[];
  rules?: TiebreakRuleSet;
  now: string;
  sourceUrl?: string;
}

export interface TrfConversion {
  tournament: Tournament;
  warnings: string[];
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
export function codePoints(code: TrfRoundCell["code"]): number {
  switch (code) {
    case "1":
    case "+":
    case "W":
    case "F":
    case "U":
      return 1;
    case "=":
    case "D":
    case "H":
      return 0.5;
    default:
      return 0;
  }
}

function byeKindOf(code: TrfRoundCell["code"]): ByeKind | null {
  switch (code) {
    case "U":
    case "+":
    case "1":
    case "W":
      return "pab";
    case "F":
      return "full";
    case "H":
    case "=":
    case "D":
      return "half";
    default:
      return null; // Z, 0, -, L, blank: absent
  }
}

type Outcome = "win" | "loss" | "draw" | "forfeitWin" | "forfeitLoss" | null;

function outcomeOf(code: TrfRoundCell["code"]): Outcome {
  switch (code) {
    case "1":
    case "W":
      return "win";
    case "0":
    case "L":
      return "loss";
    case "=":
    case "D":
      return "draw";
    case "+":
      return "forfeitWin";
    case "-":
      return "forfeitLoss";
    default:
      return null;
  }
}

/** The game result for white's and black's codes; null when they contradict each other. */
function gameResult(white: Outcome, black: Outcome): GameResult | null {
  const key = `${white}/${black}`;
  const table: Record<string, GameResult> = {
    "win/loss": "WhiteWin",
    "loss/win": "BlackWin",
    "draw/draw": "Draw",
    "forfeitWin/forfeitLoss": "WhiteForfeitWin",
    "forfeitLoss/forfeitWin": "BlackForfeitWin",
    "forfeitLoss/forfeitLoss": "DoubleForfeit",
    "null/null": "Pending",
    // One side only written: take it.
    "win/null": "WhiteWin",
    "loss/null": "BlackWin",
    "draw/null": "Draw",
    "null/win": "BlackWin",
    "null/loss": "WhiteWin",
    "null/draw": "Draw",
    "forfeitWin/null": "WhiteForfeitWin",
    "null/forfeitWin": "BlackForfeitWin",
  };
  return table[key] ?? null;
}

function pairingSystem(f: TrfFile): PairingSystem {
  const type = (header(f, "092") ?? "").toLowerCase();
  return /round[\s-]*robin|rundenturnier|berger/.test(type) ? "round-robin" : "swiss";
}

export function convertTrf(f: TrfFile, opts: TrfConvertOptions): TrfConversion {
  const warnings: string[] = [];
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
    const pairs: { white: number; black: number; result: GameResult }[] = [];
    const byes: { player: number; kind: ByeKind }[] = [];
    const done = new Set<number>();
    for (const { p, cell } of cells) {
      if (done.has(p.startNo)) continue;
      if (cell.opponent === null) {
        const kind = byeKindOf(cell.code);
        if (kind) byes.push({ player: p.startNo, kind });
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
      const result = gameResult(outcomeOf(wc.code), outcomeOf(bc.code));
      if (!result) {
        warnings.push(
          `${f.fileName}:${p.line}: round ${r}: players ${w.startNo} and ${b.startNo} have contradicting ` +
            `result codes "${wc.code ?? " "}" and "${bc.code ?? " "}"; the game is stored as Unknown`,
        );
      }
      pairs.push({ white: w.startNo, black: b.startNo, result: result ?? "Unknown" });
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
      const text = resultDisplayText(g.result, null);
      games.push({
        ...base,
        boardNumber: games.length + 1,
        whitePlayerNumber: g.white,
        blackPlayerNumber: g.black,
        result: g.result,
        resultText: text,
        rawResult: text,
        byeKind: null,
      });
    }
    for (const b of byes) {
      const text = resultDisplayText("Bye", b.kind);
      games.push({
        ...base,
        boardNumber: games.length + 1,
        whitePlayerNumber: b.player,
        blackPlayerNumber: null,
        result: "Bye",
        resultText: text,
        rawResult: text,
        byeKind: b.kind,
      });
    }
    for (const { p, cell } of cells) runningPoints.set(p.startNo, before(p.startNo) + codePoints(cell.code));
    rounds.push({
      roundNumber: r,
      firstScrapedAt: opts.now,
      lastScrapedAt: opts.now,
      lastSourceChangeAt: null,
      games,
    });
  }

  const declaredRounds = Number(header(f, "XXR") ?? header(f, "142") ?? NaN);
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
    timeControl: header(f, "122"),
    tournamentType: header(f, "092"),
    ratingCalculation: null,
    fideEventId: null,
    averageRating: null,
    averageAge: null,
    pairingProgram: null,
    sourceLastUpdated: null,
    sourceCreator: null,
    startDate: trfDate(header(f, "042")),
    endDate: trfDate(header(f, "052")),
    totalRounds:
      Number.isFinite(declaredRounds) && declaredRounds > 0 ? declaredRounds : f.roundColumns || null,
    trackingEnabled: false,
    refreshIntervalSeconds: null,
    nextRefreshAt: null,
    createdAt: opts.now,
    lastScrapedAt: opts.now,
    lastSourceChangeAt: null,
    system: pairingSystem(f),
    tiebreaks: opts.tiebreaks ?? [],
    tiebreakRules: opts.rules ?? "fide-2023",
    scoring: { ...DEFAULT_SCORING },
    players,
    rounds,
    sourceStandings: [],
    recaps: [],
  };
  return { tournament, warnings };
}

/** The domain Tournament of a parsed TRF file (warnings dropped; see convertTrf). */
export function trfToTournament(f: TrfFile, opts: TrfConvertOptions): Tournament {
  return convertTrf(f, opts).tournament;
}
