// TRF record 132: the date each round is played. TRF-2026 gives each round a fixed field
// ("YY/MM/DD" at columns 92-99 for round 1, 102-109 for round 2, ...), so a round whose date is
// not yet known is a blank field and the rounds after it keep their columns; older exports write
// the dates in order with any spacing, "." or "-" and four-digit years, read in file order. A date
// that is not a real calendar date, or that falls outside the tournament's own dates (042..052)
// when the file gives them, is left out: some exports write the fields in another order (ICU
// files: "11.25.02" for 25 February 2011), and a round shown on a wrong day is worse than one
// shown as not announced.
//
// Start times: no TRF record carries them (TRF-16 and TRF-2026 alike: 132 holds dates only, and
// 222 is the time control, how long a game may last, not when it starts). The operator gives the
// announced start times with `import-trf --round-time` (parseRoundTimes below).
import type { ScheduledRound } from "../domain/types.ts";
import { BuildError, EXIT } from "../shared/errors.ts";
import type { TrfFile } from "./parse.ts";

const FIRST_FIELD = 91; // 0-based index of column 92
const FIELD_STEP = 10;

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

/** The 132 fields with their round numbers: by TRF-2026 column when every field starts on a
 * round's column, else in file order (1, 2, 3 ...). */
export function roundDateFields(line: string): { round: number; field: string }[] {
  const tokens = [...line.slice(4).matchAll(/\S+/g)].map((m) => ({ at: m.index + 4, field: m[0] }));
  const columned =
    tokens.length > 0 &&
    tokens.every(
      (t) => t.at >= FIRST_FIELD && (t.at - FIRST_FIELD) % FIELD_STEP === 0 && t.field.length <= 8,
    );
  return tokens.map((t, i) => ({
    round: columned ? (t.at - FIRST_FIELD) / FIELD_STEP + 1 : i + 1,
    field: t.field,
  }));
}

/** The import's human text about record 132 and --round-time, in one place. */
export const SCHEDULE_TEXT = {
  unread: (where: string, fields: string[]) =>
    `${where}: record 132: ${fields.map((f) => `"${f}"`).join(", ")} ` +
    `${fields.length === 1 ? "is not a round date" : "are not round dates"} (YY/MM/DD, within the ` +
    "event's dates 042..052), so those rounds show no date; write the dates as YY/MM/DD from column 92, " +
    "10 columns apart (TRF-2026), or give them in the arbiter's program and export again",
  timeDropped: (round: number) =>
    `--round-time: round ${round} has no date in record 132; its time is not stored`,
  timesDropped:
    "--round-time: the file gives no round dates it can read (record 132) and is not a one-day event (042 = 052), " +
    "so the times are not stored; give the dates in record 132",
} as const;

/** The fields of record 132 the checks below leave out, each as written. */
function unreadFields(line: string, fromRaw: boolean, start: string | null, end: string | null): string[] {
  const fields = fromRaw ? roundDateFields(line) : roundDateFields(`132 ${line}`);
  return fields
    .filter(({ field }) => {
      const date = roundDate(field);
      return date === null || (start !== null && date < start) || (end !== null && date > end);
    })
    .map(({ field }) => field);
}

/** Warnings about record 132: fields that are not read as dates, named by line. */
export function scheduleWarnings(f: TrfFile, startDate: string | null, endDate: string | null): string[] {
  const line = f.roundDatesLine ?? null;
  if (line === null) return [];
  const unread = unreadFields(line, true, startDate, endDate);
  if (unread.length === 0) return [];
  return [SCHEDULE_TEXT.unread(`${f.fileName}:${f.roundDatesLineNo ?? 1}`, unread)];
}

/** The rounds of record 132 with a date the checks above accept, each with its start time from
 * `times` (the operator's, never the file's: see the top of this file), else none. A one-day
 * event (042 = 052) without record 132 plays every round (1..`rounds`) on its one day. */
export function trfSchedule(
  f: TrfFile,
  startDate: string | null,
  endDate: string | null,
  times: RoundTimes = NO_TIMES,
  rounds = 0,
): ScheduledRound[] {
  const line = f.roundDatesLine ?? f.headers.get("132")?.find((v) => v !== "") ?? null;
  if (line === null) return oneDay(startDate, endDate, times, rounds);
  // A TrfFile made without the raw line (tests build them by hand) holds the trimmed value.
  const fields = f.roundDatesLine ? roundDateFields(line) : roundDateFields(`132 ${line}`);
  const out: ScheduledRound[] = [];
  for (const { round, field } of fields) {
    const date = roundDate(field);
    if (date === null) continue;
    if (startDate !== null && date < startDate) continue;
    if (endDate !== null && date > endDate) continue;
    out.push({ roundNumber: round, date, time: times.byRound.get(round) ?? times.all });
  }
  return out;
}

/** Every round on the event's one day, when it has one and the operator gave times. */
function oneDay(
  start: string | null,
  end: string | null,
  times: RoundTimes,
  rounds: number,
): ScheduledRound[] {
  if (start === null || start !== end || (times.all === null && times.byRound.size === 0)) return [];
  return Array.from({ length: rounds }, (_, i) => ({
    roundNumber: i + 1,
    date: start,
    time: times.byRound.get(i + 1) ?? times.all,
  }));
}

/** Start times given by the operator: one for every round, and per-round exceptions. */
export interface RoundTimes {
  all: string | null;
  byRound: ReadonlyMap<number, string>;
}

export const NO_TIMES: RoundTimes = { all: null, byRound: new Map() };

function usage(what: string): never {
  throw new BuildError(
    `Cannot read --round-time: ${what}.`,
    [
      {
        what,
        where: "--round-time",
        fix: 'give HH:MM (24 h, the venue\'s local time) for every round, and ROUND=HH:MM for a round that starts at another time, comma separated: "18:30,7=10:00"',
      },
    ],
    EXIT.usage,
  );
}

function localTime(raw: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(raw.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) usage(`"${raw}" is not a time HH:MM (00:00 to 23:59)`);
  return `${m[1]!.padStart(2, "0")}:${m[2]}`;
}

/** `--round-time` as given: "18:30", "1=18:30,7=10:00" or both ("18:30,7=10:00"). */
export function parseRoundTimes(spec: string): RoundTimes {
  let all: string | null = null;
  const byRound = new Map<number, string>();
  for (const part of spec.split(",").map((s) => s.trim())) {
    if (part === "") usage("an empty entry");
    const eq = part.indexOf("=");
    if (eq < 0) {
      if (all !== null) usage(`two times for every round ("${all}" and "${part}")`);
      all = localTime(part);
      continue;
    }
    const round = part.slice(0, eq).trim();
    if (!/^[1-9]\d?$/.test(round)) usage(`"${round}" is not a round number (1 to 99)`);
    if (byRound.has(Number(round))) usage(`round ${round} is given twice`);
    byRound.set(Number(round), localTime(part.slice(eq + 1)));
  }
  return { all, byRound };
}
