// The round schedule as people read it: every announced round, in order, with whether it has
// been paired yet. A round is listed when the store schedules it or when it has pairings.
import type { Tournament } from "../types.ts";

export interface ScheduleEntry {
  roundNumber: number;
  date: string | null;
  time: string | null;
  paired: boolean;
}

export function scheduleOf(t: Tournament): ScheduleEntry[] {
  const paired = new Set(t.rounds.filter((r) => r.games.length > 0).map((r) => r.roundNumber));
  const byRound = new Map(t.schedule.map((s) => [s.roundNumber, s]));
  const numbers = [...new Set([...byRound.keys(), ...paired])].sort((a, b) => a - b);
  return numbers.map((n) => ({
    roundNumber: n,
    date: byRound.get(n)?.date ?? null,
    time: byRound.get(n)?.time ?? null,
    paired: paired.has(n),
  }));
}

/** True when a calendar can hold at least one event: some round has a date. */
export function hasCalendar(t: Tournament): boolean {
  return t.schedule.some((s) => s.date !== null);
}
