// The round schedule (store version 3) as the reader checks and hands it over.
import { afterAll, describe, expect, it } from "vitest";
import { IDS, insert, makeStore, tournamentProblems, withStore } from "../../support/stores.ts";
import { removeTempDirs } from "../../support/temp.ts";

afterAll(removeTempDirs);

const row = (round: number, date: string | null, time: string | null) => ({
  tournament_id: IDS.published,
  round_number: round,
  scheduled_date: date,
  scheduled_time: time,
});

describe("round_schedule", () => {
  it("reaches the domain by round, dates and times as stored, either may be NULL", () => {
    const file = makeStore((db) => {
      insert(db, "round_schedule", row(2, "2026-11-21", null));
      insert(db, "round_schedule", row(1, "2026-11-20", "18:30"));
      insert(db, "round_schedule", row(3, null, null));
    });
    const t = withStore(file, (store) => store.loadTournament(IDS.published).value!.tournament);
    expect(t.schedule).toEqual([
      { roundNumber: 1, date: "2026-11-20", time: "18:30" },
      { roundNumber: 2, date: "2026-11-21", time: null },
      { roundNumber: 3, date: null, time: null },
    ]);
  });

  it("refuses a time that is not HH:MM, a date that is not a date, and a round beyond the tournament", () => {
    const problems = tournamentProblems((db) => {
      insert(db, "round_schedule", row(1, "2026-02-30", "18:30"));
      insert(db, "round_schedule", row(2, "2026-11-21", "25:00"));
      insert(db, "round_schedule", row(99, null, null));
    });
    expect(problems.join("\n")).toMatch(/round_schedule.*round_number=1\), column scheduled_date/);
    expect(problems.join("\n")).toMatch(/round_schedule.*round_number=2\), column scheduled_time.*HH:MM/);
    expect(problems.join("\n")).toMatch(/round 99 is scheduled beyond total_rounds/);
  });
});
