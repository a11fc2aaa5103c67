// /feeds/all.atom is bounded: the newest `limit` (page size) entries, sorted as without the cap.
import { describe, expect, it } from "vitest";
import { snapshotFeed } from "../../../src/pages/feed-files.ts";
import { siteUrls } from "../../../src/pages/links.ts";
import type { PublicSummary } from "../../../src/views/public.ts";
import { localeOf } from "../../../src/i18n/locale.ts";

const EN = localeOf("en");

/** Tournament i changed at hour i of the day: the higher the id, the newer its entry. */
const summary = (id: number, o: Partial<PublicSummary> = {}): PublicSummary => ({
  id,
  name: `Open ${id}`,
  location: null,
  startDate: "2026-01-10",
  endDate: null,
  status: "Complete",
  currentRound: 5,
  totalRounds: 5,
  playerCount: 10,
  lastScrapedAt: "2026-02-02T00:00:00Z",
  lastSourceChangeAt: `2026-02-01T${String(id).padStart(2, "0")}:00:00Z`,
  tags: [],
  ...o,
});
const SIX = [3, 1, 6, 2, 5, 4].map((id) => summary(id));
// One tournament not yet paired has no entry at all.
const LIST = [...SIX, summary(7, { status: "Upcoming", currentRound: null })];
const urls = siteUrls("");

const entryLinks = (atom: string): string[] =>
  atom
    .split("<entry>")
    .slice(1)
    .map((e) => /href="([^"]+)"/.exec(e)![1]!);
const feedUpdated = (atom: string): string => /<\/title>\n {2}<updated>([^<]+)<\/updated>/.exec(atom)![1]!;

describe("the snapshot feed", () => {
  it("keeps the newest `limit` entries, newest first", () => {
    const [file, atom] = snapshotFeed(EN, LIST, urls, 2);
    expect(file).toBe("feeds/all.atom");
    expect(atom.match(/<entry>/g)).toHaveLength(2);
    expect(entryLinks(atom)).toEqual(["/tournaments/6/standings/", "/tournaments/5/standings/"]);
    // The feed's instant is still its newest retrieval or entry.
    expect(feedUpdated(atom)).toBe("2026-02-02T00:00:00Z");
  });

  it("is the same bytes at any limit of at least the number of entries", () => {
    const whole = snapshotFeed(EN, LIST, urls, 6)[1];
    expect(whole.match(/<entry>/g)).toHaveLength(6);
    expect(entryLinks(whole).map((l) => Number(/\d+/.exec(l)![0]))).toEqual([6, 5, 4, 3, 2, 1]);
    for (const limit of [7, 1000]) expect(snapshotFeed(EN, LIST, urls, limit)[1]).toBe(whole);
    expect(snapshotFeed(EN, LIST, urls, 5)[1]).not.toBe(whole);
  });
});
