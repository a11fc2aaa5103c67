import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareCatalogEntries,
  compareInt64,
  compareStartDateDesc,
  type CatalogEntry,
} from "../../../src/views/club.ts";
import {
  ascText,
  catalogKey,
  descText,
  int32Key,
  int64Key,
  publicKey,
  startDateDescKey,
} from "../../../src/views/order.ts";
import { comparePublicSummaries, type PublicSummary } from "../../../src/views/public.ts";

const sign = (n: number): number => Math.sign(n);
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
// Few distinct values, so ties on the leading fields happen and the later fields decide.
const text = fc.oneof(
  fc.constantFrom("", "a", "ab", "b", "Ä", "\u{1F600}", "\uE000", "\uFFFF", "a\0"),
  fc.string({ unit: "binary", maxLength: 4 }),
);
const date = fc.option(fc.constantFrom("2026-01-01", "2026-01-02", "2025-12-31", "2026-01-01x"), {
  nil: null,
});
const int64 = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((v) => v.toString()),
  fc.integer({ min: -3, max: 3 }),
);

describe("sort keys", () => {
  it("ascText and descText order text as JavaScript's < does, and in reverse", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(sign(cmp(ascText(a), ascText(b)))).toBe(cmp(a, b));
        expect(sign(cmp(descText(a), descText(b)))).toBe(cmp(b, a));
      }),
    );
  });

  it("int64Key and int32Key order integers, extremes included", () => {
    fc.assert(
      fc.property(int64, int64, (a, b) => {
        expect(sign(cmp(int64Key(a), int64Key(b)))).toBe(compareInt64(a, b));
      }),
    );
    const ints = [-(2 ** 31), -1, 0, 1, 2 ** 31 - 1];
    for (const a of ints) for (const b of ints) expect(sign(cmp(int32Key(a), int32Key(b)))).toBe(sign(a - b));
  });

  it("startDateDescKey puts the newest first and an unknown date last", () => {
    fc.assert(
      fc.property(date, date, (a, b) => {
        expect(sign(cmp(startDateDescKey(a), startDateDescKey(b)))).toBe(compareStartDateDesc(a, b));
      }),
    );
  });

  it("catalogKey and publicKey sort lists exactly as their comparators", () => {
    const entry = fc.record({
      displayOrder: fc.constantFrom(-(2 ** 31), -1, 0, 2, 2 ** 31 - 1),
      startDate: date,
      id: int64,
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), (rows) => {
        const entries = rows.map(
          (r) =>
            ({
              displayOrder: r.displayOrder,
              tags: [],
              tournament: { startDate: r.startDate, tournamentId: r.id },
            }) as unknown as CatalogEntry,
        );
        const byKey = [...entries].sort((a, b) => cmp(catalogKey(a), catalogKey(b)));
        const byComparator = [...entries].sort(compareCatalogEntries);
        expect(byKey.map(catalogKey)).toEqual(byComparator.map(catalogKey));
      }),
    );
    const summary = fc.record({ startDate: date, name: text, id: int64 });
    fc.assert(
      fc.property(fc.array(summary, { maxLength: 12 }), (rows) => {
        const summaries = rows as unknown as PublicSummary[];
        const byKey = [...summaries].sort((a, b) => cmp(publicKey(a), publicKey(b)));
        const byComparator = [...summaries].sort(comparePublicSummaries);
        expect(byKey.map(publicKey)).toEqual(byComparator.map(publicKey));
      }),
    );
  });
});
