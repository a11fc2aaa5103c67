// TRF record 132: the date each round is played, one per round column ("YY/MM/DD"; files also
// write "." or "-" and four-digit years). A date that is not a real calendar date, or that falls
// outside the tournament's own dates (042..052) when the file gives them, is left out: some
// exports write the fields in another order (ICU files: "11.25.02" for 25 February 2011), and a
// round shown on a wrong day is worse than one shown as not announced.
import type { ScheduledRound } from "../domain/types.ts";
import type { TrfFile } from "./parse.ts";

function realDate(y: number, m: number, d: number): string | null {
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** One 132 field as a date, or null. Two-digit years are 2000..2069 and 1970..1999. */
export function roundDate(field: string): string | null {
  const m = /^(\d{2}|\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$/.exec(field.trim());
  if (!m) return null;
  let y = Number(m[1]);
  if (m[1]!.length === 2) y += y < 70 ? 2000 : 1900;
  return realDate(y, Number(m[2]), Number(m[3]));
}

/** The rounds of record 132 with a date the checks above accept; times are not in TRF-16. */
export function trfSchedule(f: TrfFile, startDate: string | null, endDate: string | null): ScheduledRound[] {
  const value = f.headers.get("132")?.find((v) => v !== "");
  if (!value) return [];
  const out: ScheduledRound[] = [];
  value.split(/\s+/).forEach((field, i) => {
    const date = roundDate(field);
    if (date === null) return;
    if (startDate !== null && date < startDate) return;
    if (endDate !== null && date > endDate) return;
    out.push({ roundNumber: i + 1, date, time: null });
  });
  return out;
}
