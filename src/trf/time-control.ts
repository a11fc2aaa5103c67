// TRF-2026 record 222: the encoded time control ("5400+30", "40/6000+30:900+30", "W300-B240"),
// turned into the words the tournament page shows when the file has no free-text 122 record.
// Grammar: periods joined by ":", each "S" (all moves), "S+I" (with increment), "M/S" (M moves)
// or "M/S+I"; seconds S, moves M, increment I in seconds per move. "Wd[:d]-Bd[:d]" gives White and
// Black their own periods (Armageddon).

function duration(seconds: number): string {
  if (seconds % 3600 === 0 && seconds >= 7200) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

function period(d: string): string | null {
  const m = /^(?:(\d+)\/)?(\d+)(?:\+(\d+))?$/.exec(d);
  if (!m) return null;
  const base = `${m[1] ? `${m[1]} moves in ` : ""}${duration(Number(m[2]))}`;
  return m[3] && Number(m[3]) > 0 ? `${base} + ${m[3]} s per move` : base;
}

function periods(ds: string): string | null {
  const parts = ds.split(":").map(period);
  if (parts.some((p) => p === null)) return null;
  return parts.join(", then ");
}

/** The words for an encoded time control, or null when the code does not follow the grammar. */
export function timeControlText(code: string): string | null {
  const c = code.trim();
  const split = /^W([^-]+)-B(.+)$/.exec(c);
  if (split) {
    const white = periods(split[1]!);
    const black = periods(split[2]!);
    return white && black ? `White ${white}; Black ${black}` : null;
  }
  return c === "" ? null : periods(c);
}
