import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_STATUS_OPTIONS,
  deriveStatus,
  playerFeedsOpen,
  statusWindow,
  type StatusInput,
} from "../../../src/domain/status.ts";
import { TOURNAMENT_STATUSES, type TournamentStatus } from "../../../src/domain/types.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const at = (iso: string) => iso;
const base: StatusInput = {
  trackingEnabled: true,
  nextRefreshAt: at("2026-11-22T12:10:00Z"),
  startDate: "2026-11-20",
  endDate: "2026-11-24",
  totalRounds: 7,
  newestRound: { roundNumber: 3, complete: false, changedAt: at("2026-11-22T11:00:00Z") },
};

const cases: [string, Partial<StatusInput>, TournamentStatus][] = [
  [
    "final round paired and complete",
    { newestRound: { roundNumber: 7, complete: true, changedAt: at("2026-11-22T11:00:00Z") } },
    "Complete",
  ],
  [
    "final round complete beats an overdue refresh",
    {
      nextRefreshAt: at("2026-11-20T00:00:00Z"),
      newestRound: { roundNumber: 7, complete: true, changedAt: at("2026-11-20T00:00:00Z") },
    },
    "Complete",
  ],
  [
    "end date past, newest round complete, total unknown",
    {
      endDate: "2026-11-21",
      totalRounds: null,
      newestRound: { roundNumber: 5, complete: true, changedAt: at("2026-11-21T20:00:00Z") },
    },
    "Complete",
  ],
  [
    "end date past but the announced last round not reached: never Complete",
    {
      endDate: "2026-11-21",
      nextRefreshAt: null,
      newestRound: { roundNumber: 5, complete: true, changedAt: at("2026-11-21T20:00:00Z") },
    },
    "AwaitingNextRound",
  ],
  [
    "not followed, end date past, round 4 of 9: Imported, not Complete",
    {
      trackingEnabled: false,
      nextRefreshAt: null,
      endDate: "2026-11-01",
      totalRounds: 9,
      newestRound: { roundNumber: 4, complete: true, changedAt: at("2026-10-21T20:00:00Z") },
    },
    "Imported",
  ],
  [
    "end date is today: not past yet",
    {
      endDate: "2026-11-22",
      newestRound: { roundNumber: 5, complete: true, changedAt: at("2026-11-22T11:00:00Z") },
    },
    "AwaitingNextRound",
  ],
  [
    "final round with a pending game",
    { newestRound: { roundNumber: 7, complete: false, changedAt: at("2026-11-22T11:00:00Z") } },
    "Live",
  ],
  [
    "refresh overdue by more than the grace period",
    { nextRefreshAt: at("2026-11-22T11:29:59Z") },
    "UpdateDelayed",
  ],
  ["refresh overdue by exactly the grace period", { nextRefreshAt: at("2026-11-22T11:30:00Z") }, "Live"],
  [
    "no pairings, start in the future, tracking off",
    { trackingEnabled: false, nextRefreshAt: null, startDate: "2026-12-01", newestRound: null },
    "Upcoming",
  ],
  [
    "no pairings, start unknown, tracking off",
    { trackingEnabled: false, nextRefreshAt: null, startDate: null, newestRound: null },
    "Upcoming",
  ],
  ["no pairings, start past, tracking on", { startDate: "2026-11-01", newestRound: null }, "Upcoming"],
  [
    "no pairings, start past, tracking off",
    { trackingEnabled: false, nextRefreshAt: null, startDate: "2026-11-01", newestRound: null },
    "Imported",
  ],
  ["tracking off with rounds", { trackingEnabled: false, nextRefreshAt: null }, "Imported"],
  [
    "tracking off ignores nextRefreshAt",
    { trackingEnabled: false, nextRefreshAt: at("2026-01-01T00:00:00Z") },
    "Imported",
  ],
  [
    "unfinished round changed within the window",
    { newestRound: { roundNumber: 3, complete: false, changedAt: at("2026-11-22T06:00:00Z") } },
    "Live",
  ],
  [
    "unfinished round, window passed",
    { newestRound: { roundNumber: 3, complete: false, changedAt: at("2026-11-22T05:59:59Z") } },
    "ResultsPending",
  ],
  [
    "complete round, more to come",
    { newestRound: { roundNumber: 3, complete: true, changedAt: at("2026-11-22T11:00:00Z") } },
    "AwaitingNextRound",
  ],
  [
    "complete round, total unknown",
    {
      totalRounds: null,
      newestRound: { roundNumber: 3, complete: true, changedAt: at("2026-11-22T11:00:00Z") },
    },
    "AwaitingNextRound",
  ],
  ["tracking on, nextRefreshAt unknown, unfinished", { nextRefreshAt: null }, "Live"],
];

describe("deriveStatus: the status table, first match wins", () => {
  it.each(cases)("%s", (_name, patch, expected) => {
    expect(deriveStatus({ ...base, ...patch }, NOW)).toBe(expected);
  });

  it("honours the thresholds passed in", () => {
    const input = { ...base, nextRefreshAt: at("2026-11-22T11:50:00Z") };
    expect(deriveStatus(input, NOW)).toBe("Live");
    expect(deriveStatus(input, NOW, { ...DEFAULT_STATUS_OPTIONS, graceMs: 5 * 60_000 })).toBe(
      "UpdateDelayed",
    );
    const stale = {
      ...base,
      newestRound: { roundNumber: 3, complete: false, changedAt: at("2026-11-22T10:00:00Z") },
    };
    expect(deriveStatus(stale, NOW, { ...DEFAULT_STATUS_OPTIONS, resultsWindowMs: 3_600_000 })).toBe(
      "ResultsPending",
    );
  });
});

// An independent reading of the table: each row as a predicate over the same input.
const DAY = 86_400_000;
const past = (d: string | null, now: number) => d !== null && Date.parse(d) + DAY <= now;
const rows: [TournamentStatus, (i: StatusInput, now: number) => boolean][] = [
  [
    "Complete",
    (i, now) => {
      const r = i.newestRound;
      return (
        r !== null &&
        r.complete &&
        ((i.totalRounds !== null && r.roundNumber >= i.totalRounds) ||
          (i.totalRounds === null && past(i.endDate, now)))
      );
    },
  ],
  [
    "UpdateDelayed",
    (i, now) =>
      i.trackingEnabled && i.nextRefreshAt !== null && now - Date.parse(i.nextRefreshAt) > 30 * 60_000,
  ],
  ["Upcoming", (i, now) => i.newestRound === null && (!past(i.startDate, now) || i.trackingEnabled)],
  ["Imported", (i) => !i.trackingEnabled],
  [
    "Live",
    (i, now) =>
      i.newestRound !== null &&
      !i.newestRound.complete &&
      now - Date.parse(i.newestRound.changedAt) <= 6 * 3_600_000,
  ],
  ["ResultsPending", (i) => i.newestRound !== null && !i.newestRound.complete],
  [
    "AwaitingNextRound",
    (i) =>
      i.newestRound !== null &&
      i.newestRound.complete &&
      (i.totalRounds === null || i.newestRound.roundNumber < i.totalRounds),
  ],
];

// Random status inputs over one year, for the property tests.
const time = fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2027-01-01T00:00:00Z") });
const iso = time.map((t) => new Date(t).toISOString());
const day = time.map((t) => new Date(t).toISOString().slice(0, 10));
const input: fc.Arbitrary<StatusInput> = fc.record({
  trackingEnabled: fc.boolean(),
  nextRefreshAt: fc.option(iso),
  startDate: fc.option(day),
  endDate: fc.option(day),
  totalRounds: fc.option(fc.integer({ min: 1, max: 13 })),
  newestRound: fc.option(
    fc.record({ roundNumber: fc.integer({ min: 1, max: 13 }), complete: fc.boolean(), changedAt: iso }),
  ),
});

describe("deriveStatus: every input gets exactly one status", () => {
  it("is one of the seven values and the first row of the table that matches", () => {
    fc.assert(
      fc.property(input, time, (i, now) => {
        const status = deriveStatus(i, now);
        expect(TOURNAMENT_STATUSES).toContain(status);
        const first = rows.find(([, matches]) => matches(i, now));
        expect(first, "some row of the table matches every input").toBeDefined();
        expect(status).toBe(first![0]);
      }),
      { seed: 20261122, numRuns: 5000 },
    );
  });
});

describe("statusWindow: the instants around now with the same status", () => {
  it("contains now, and the status is the same at both ends and inside", () => {
    fc.assert(
      fc.property(input, time, fc.double({ min: 0, max: 1, noNaN: true }), (i, now, f) => {
        const w = statusWindow(i, now);
        expect(w.from).toBeLessThanOrEqual(now);
        expect(w.until).toBeGreaterThan(now);
        const status = deriveStatus(i, now);
        // Any instant inside the window (both ends of it included where finite) has the same status.
        const lo = Number.isFinite(w.from) ? w.from : now - 400 * 86_400_000;
        const hi = Number.isFinite(w.until) ? w.until - 1 : now + 400 * 86_400_000;
        expect(deriveStatus(i, lo)).toBe(status);
        expect(deriveStatus(i, hi)).toBe(status);
        expect(deriveStatus(i, Math.floor(lo + (hi - lo) * f))).toBe(status);
        // Nor does whether the players have feeds change inside it.
        const feeds = playerFeedsOpen(i, status, now);
        expect(playerFeedsOpen(i, deriveStatus(i, lo), lo)).toBe(feeds);
        expect(playerFeedsOpen(i, deriveStatus(i, hi), hi)).toBe(feeds);
      }),
      { seed: 7, numRuns: 3000 },
    );
  });

  it("ends when the refresh becomes overdue", () => {
    const w = statusWindow(base, NOW);
    expect(w.until).toBe(Date.parse("2026-11-22T12:40:00Z") + 1);
    expect(deriveStatus(base, w.until)).toBe("UpdateDelayed");
    expect(deriveStatus(base, w.until - 1)).toBe("Live");
  });
});

describe("playerFeedsOpen: each player's feeds only where people follow", () => {
  const done = {
    ...base,
    newestRound: { roundNumber: 7, complete: true, changedAt: at("2026-11-24T18:00:00Z") },
  };
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`);

  it("never for an event that is not followed", () => {
    expect(playerFeedsOpen({ ...base, trackingEnabled: false }, "Imported", NOW)).toBe(false);
  });

  it("while a followed event is on, whatever its status but Complete", () => {
    for (const s of TOURNAMENT_STATUSES.filter((x) => x !== "Complete"))
      expect(playerFeedsOpen(base, s, NOW), s).toBe(true);
  });

  it("a week past the end date once Complete, then no more; without one, a week past the last change", () => {
    expect(deriveStatus(done, day("2026-11-25"))).toBe("Complete");
    expect(playerFeedsOpen(done, "Complete", day("2026-11-25"))).toBe(true);
    expect(playerFeedsOpen(done, "Complete", day("2026-12-02") - 1)).toBe(true);
    expect(playerFeedsOpen(done, "Complete", day("2026-12-02"))).toBe(false);
    const noEnd = { ...done, endDate: null };
    expect(playerFeedsOpen(noEnd, "Complete", Date.parse("2026-12-01T17:59:59Z"))).toBe(true);
    expect(playerFeedsOpen(noEnd, "Complete", Date.parse("2026-12-01T18:00:00Z"))).toBe(false);
    expect(statusWindow(noEnd, day("2026-11-30")).until).toBe(Date.parse("2026-12-01T18:00:00Z"));
    // The window of the status ends where the feeds go, so a tick then drops them.
    expect(statusWindow(done, day("2026-11-30")).until).toBe(day("2026-12-02"));
  });
});
