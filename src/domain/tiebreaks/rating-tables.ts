// The two conversion tables of the FIDE Rating Regulations (B.02 8.1), used by the rating-based
// tie-breaks (TPR, APRO, PTP, APPO). Data, not code: values as FIDE publishes them.

// 8.1.1: rating difference dp for a fractional score p >= 0.50, indexed by round(p * 100) - 50.
const DP_FROM_50: readonly number[] = [
  0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166, 175, 184,
  193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401, 422, 444, 470,
  501, 538, 589, 677, 800,
];

/** Rounds to two decimals, halves up (0.375 -> 0.38), as the tables are read. */
export function roundTo2(x: number): number {
  return Math.floor(x * 100 + 0.5 + 1e-9) / 100;
}

/** Rating difference for a fractional score (B.02 8.1.1); p is rounded to two decimals first. */
export function ratingDifference(p: number): number {
  const hundredths = Math.round(roundTo2(p) * 100);
  if (hundredths >= 50) return DP_FROM_50[Math.min(hundredths, 100) - 50]!;
  return -DP_FROM_50[Math.min(100 - hundredths, 100) - 50]!;
}

// 8.1.2: upper bounds of the rating-difference ranges; bound i gives the expected score 0.50 + i/100.
const DIFF_UPPER_BOUNDS: readonly number[] = [
  3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162, 170, 179,
  188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374, 391, 411, 432, 456,
  484, 517, 559, 619, 735,
];

/** Expected score of the higher-rated side for a rating difference d >= 0 (B.02 8.1.2). */
function expectedHigh(d: number): number {
  for (let i = 0; i < DIFF_UPPER_BOUNDS.length; i++) {
    if (d <= DIFF_UPPER_BOUNDS[i]!) return (50 + i) / 100;
  }
  return 1;
}

/** Expected score of a player rated `own` against `opponent` (no ±400 cap). */
export function expectedScore(own: number, opponent: number): number {
  const d = Math.round(own - opponent);
  return d >= 0 ? expectedHigh(d) : roundTo2(1 - expectedHigh(-d));
}
