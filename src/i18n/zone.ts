// A wall-clock time in a time zone as an instant: a round starts at 09:30 at the venue, and the
// pages, calendars and feeds say that instant with its zone named. Plain Intl (the zone's offset
// at that moment), no time zone database of our own.

const DAY_MS = 86_400_000;
const offsets = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at the instant `ms`, in milliseconds (Europe/Paris in winter: +1 h). */
function offsetAt(timeZone: string, ms: number): number {
  let f = offsets.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    offsets.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, x.value]));
  const wall = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant (epoch ms) at which the clocks of `timeZone` show `date` (YYYY-MM-DD) at `time`
 * (HH:MM). A time the clocks skip (spring forward) is read with the offset before the change, a
 * time they show twice (fall back) as its first showing.
 */
export function zonedInstant(date: string, time: string, timeZone: string): number {
  const wall = Date.parse(`${date}T${time}:00Z`);
  // The offsets a day before and after cover any change of the clocks near that time.
  const before = offsetAt(timeZone, wall - DAY_MS);
  const after = offsetAt(timeZone, wall + DAY_MS);
  const shown = [wall - before, wall - after].filter((t) => offsetAt(timeZone, t) === wall - t);
  return shown.length > 0 ? Math.min(...shown) : wall - before;
}
