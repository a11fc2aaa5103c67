// Checks the points and ranks a TRF file declares against the standings computed from its games.
// A declared rank is reproduced when it lies in the block of positions the computed order allows:
// after every ranked player the computation puts strictly ahead, and no later than the last player
// tied with it. That accepts both shared ranks (Swiss-Manager) and distinct positions for fully
// tied players (Vega), and ignores players the file leaves unranked (e.g. withdrawn).
import type { Tournament } from "../domain/types.ts";
import { computeStandings, type ComputedRow } from "../domain/standings.ts";
import type { TrfFile } from "./parse.ts";

export interface DeclaredMismatch {
  player: number;
  name: string;
  field: "points" | "rank";
  declared: number;
  /** Computed points, or the allowed rank block "best-worst". */
  computed: string;
}

function compareRows(a: ComputedRow, b: ComputedRow): number {
  if (Math.abs((a.points ?? 0) - (b.points ?? 0)) > 1e-9) return (b.points ?? 0) - (a.points ?? 0);
  for (let i = 0; i < a.tieBreakNumbers.length; i++) {
    const x = a.tieBreakNumbers[i] ?? -Infinity;
    const y = b.tieBreakNumbers[i] ?? -Infinity;
    if (x !== y && !(Math.abs(x - y) < 1e-9)) return y - x;
  }
  return 0;
}

/** The positions a player may hold among `ranked` players given the computed order. */
export function rankWindow(
  rows: readonly ComputedRow[],
  player: number,
  ranked: ReadonlySet<number>,
  points?: ReadonlyMap<number, number>,
): { best: number; worst: number } {
  const withPoints = (r: ComputedRow): ComputedRow =>
    points?.has(r.sourcePlayerNumber) ? { ...r, points: points.get(r.sourcePlayerNumber)! } : r;
  const me = withPoints(rows.find((r) => r.sourcePlayerNumber === player)!);
  let ahead = 0;
  let tiedOrAhead = 0;
  for (const row of rows) {
    if (!ranked.has(row.sourcePlayerNumber)) continue;
    const c = compareRows(withPoints(row), me);
    if (c < 0) ahead++;
    if (c <= 0) tiedOrAhead++;
  }
  return { best: ahead + 1, worst: tiedOrAhead };
}

export function checkDeclaredStandings(
  f: TrfFile,
  t: Tournament,
): { afterRound: number | null; mismatches: DeclaredMismatch[] } {
  const played = t.rounds.filter((r) => r.games.length > 0).map((r) => r.roundNumber);
  if (played.length === 0) return { afterRound: null, mismatches: [] };
  const afterRound = Math.max(...played);
  const rows = computeStandings(t, afterRound);
  const byNumber = new Map(rows.map((r) => [r.sourcePlayerNumber, r]));
  const ranked = new Set(f.players.filter((p) => p.rank !== null).map((p) => p.startNo));
  const mismatches: DeclaredMismatch[] = [];
  for (const p of f.players) {
    const row = byNumber.get(p.startNo)!;
    if (p.points !== null && Math.abs((row.points ?? 0) - p.points) > 1e-9) {
      mismatches.push({
        player: p.startNo,
        name: p.name,
        field: "points",
        declared: p.points,
        computed: String(row.points),
      });
    }
    if (p.rank !== null) {
      const w = rankWindow(rows, p.startNo, ranked);
      if (p.rank < w.best || p.rank > w.worst) {
        mismatches.push({
          player: p.startNo,
          name: p.name,
          field: "rank",
          declared: p.rank,
          computed: w.best === w.worst ? String(w.best) : `${w.best}-${w.worst}`,
        });
      }
    }
  }
  return { afterRound, mismatches };
}
