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

/**
 * The positions each of the `ranked` players may hold given the computed order (rows as
 * computeStandings sorts them): a block of players equal on points and every tie-break may come
 * in any order. One pass over the rows.
 */
export function rankWindows(
  rows: readonly ComputedRow[],
  ranked: ReadonlySet<number>,
): Map<number, { best: number; worst: number }> {
  const list = rows.filter((r) => ranked.has(r.sourcePlayerNumber));
  const out = new Map<number, { best: number; worst: number }>();
  for (let i = 0; i < list.length;) {
    let j = i + 1;
    while (j < list.length && compareRows(list[i]!, list[j]!) === 0) j++;
    for (let k = i; k < j; k++) out.set(list[k]!.sourcePlayerNumber, { best: i + 1, worst: j });
    i = j;
  }
  return out;
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
  const windows = rankWindows(rows, ranked);
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
      const w = windows.get(p.startNo)!;
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
