// The report's sums over every tournament of a snapshot: the render stage defines what they mean
// (render/tournament-index.ts), the bookkeeping computes them (publish/tournament-index.ts).

/** The report's sums over every tournament of the snapshot. */
export interface IndexTotals {
  tournaments: number;
  files: number;
  unknownResults: number;
  /** Warnings, and standings that stop early, of every tournament. */
  warnings: number;
  standingsStops: number;
  validFrom: number;
  validUntil: number;
}
