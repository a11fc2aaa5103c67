// Issue 5, "no leaks" as a property: fast-check (seeded) generates random stores — clubs enabled or
// disabled; tournaments draft, published, unpublished or club-only; players, rounds, games with
// every kind of result, byes, forfeits and pending boards; draft and published recaps in several
// languages; tags — and plants a random private marker in every private column and in every name
// of what must stay hidden. Each store is built, and for every one of them: the marker appears in
// no file and no path, every emitted JSON file validates against the schema of the route its path
// belongs to, hidden tournaments and clubs have no files, and what is visible is there.
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/build.ts";
import { schemaId } from "../../src/output/jsonschema.ts";
import { NOT_FOUND_FILE } from "../../src/output/problem.ts";
import { hostRules, urlRegExpSource } from "../../src/hosting/rules.ts";
import { SnapshotValidator } from "../../src/output/validate.ts";
import { ROUTES, type Route } from "../../src/routes/table.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";
import { readTree } from "../support/tree.ts";
import { BASE_NOW, storeFromRows, TS, type StoreRows } from "../support/stores.ts";

afterAll(removeTempDirs);

const SEED = 20261122;
const RUNS = 30;
const DAY = 86_400_000;

const LANGUAGES = ["es", "en", "eu", "en-GB", "ast"] as const;
const TAGS = ["open", "junior", "blitz", "rapid-2026"] as const;
const CLUB_SLUGS = ["north-club", "south-club", "east-club"] as const;
const PLAYER_NAMES = ["Ana López", "Björn Ødegård", "Chen Wei", "Dara Ó Briain", "Émile Zola", "Fatma Şahin"];
/** A two-player board: [result column, raw_result column]. */
const PAIR_RESULTS: [string | null, string | null][] = [
  [null, "1 - 0"],
  [null, "0 - 1"],
  [null, "½ - ½"],
  [null, "+ - -"],
  [null, "- - +"],
  [null, "0 - 0"],
  [null, null], // pending: no result yet
  [null, "??"], // not recognized: Unknown
  ["WhiteWin", "1-0"],
  ["Draw", "remis"],
  ["WhiteForfeitWin", null],
  ["BlackForfeitWin", null],
  ["DoubleForfeit", null],
  ["Pending", null],
  ["Adjourned", "adj"],
];
const BYES: { result: string | null; raw: string | null; bye_kind: string | null }[] = [
  { result: null, raw: "bye", bye_kind: null },
  { result: "Bye", raw: null, bye_kind: "pab" },
  { result: "Bye", raw: "bye", bye_kind: "half" },
  { result: "Bye", raw: null, bye_kind: "zero" },
  { result: null, raw: "bye", bye_kind: "full" },
];

interface GenRound {
  /** Sort keys that order the players into pairings. */
  order: number[];
  results: number[];
  bye: number;
  changedHoursAgo: number;
}

interface GenTournament {
  draft: boolean;
  global: boolean;
  /** Catalog memberships by club index (only clubs that exist count). */
  clubs: boolean[];
  players: number;
  rounds: GenRound[];
  extraTotalRounds: number | null;
  startOffsetDays: number;
  lengthDays: number;
  tracking: boolean;
  recaps: { language: number; kind: number; draft: boolean }[];
  globalTags: boolean[];
  clubTags: boolean[];
  standings: boolean;
}

interface GenStore {
  marker: string;
  clubs: boolean[];
  tournaments: GenTournament[];
  externalIds: number[];
}

const roundArb = fc.record({
  order: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 6, maxLength: 6 }),
  results: fc.array(fc.nat(PAIR_RESULTS.length - 1), { minLength: 3, maxLength: 3 }),
  bye: fc.nat(BYES.length - 1),
  changedHoursAgo: fc.integer({ min: 0, max: 72 }),
});

const tournamentArb: fc.Arbitrary<GenTournament> = fc.record({
  draft: fc.boolean(),
  global: fc.boolean(),
  clubs: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  players: fc.integer({ min: 2, max: 6 }),
  rounds: fc.array(roundArb, { maxLength: 3 }),
  extraTotalRounds: fc.option(fc.integer({ min: 0, max: 2 })),
  startOffsetDays: fc.integer({ min: -12, max: 6 }),
  lengthDays: fc.integer({ min: 0, max: 4 }),
  tracking: fc.boolean(),
  recaps: fc.array(
    fc.record({ language: fc.nat(LANGUAGES.length - 1), kind: fc.nat(2), draft: fc.boolean() }),
    { maxLength: 3 },
  ),
  globalTags: fc.array(fc.boolean(), { minLength: TAGS.length, maxLength: TAGS.length }),
  clubTags: fc.array(fc.boolean(), { minLength: TAGS.length, maxLength: TAGS.length }),
  standings: fc.boolean(),
});

const storeArb: fc.Arbitrary<GenStore> = fc.integer({ min: 1, max: 5 }).chain((n) =>
  fc.record({
    // Lowercase letters and digits: the marker also fits in slugs and tags of hidden entities.
    marker: fc.stringMatching(/^[a-z0-9]{8}$/).map((s) => `zq${s}`),
    clubs: fc.array(fc.boolean(), { maxLength: 3 }),
    tournaments: fc.array(tournamentArb, { minLength: n, maxLength: n }),
    externalIds: fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 40 }), { minLength: n, maxLength: n }),
  }),
);

const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");
const date = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

interface Expected {
  /** External ids of tournaments that must have no file. */
  hiddenIds: number[];
  /** Slugs of clubs that must have no file. */
  hiddenSlugs: string[];
  /** External ids published globally. */
  globalIds: number[];
  /** Enabled club slug -> external ids in its catalog. */
  catalogs: Map<string, number[]>;
}

/** The store's rows, and what the snapshot must and must not contain. */
function storeRows(g: GenStore): { rows: StoreRows; expected: Expected } {
  const M = g.marker;
  const rows: Required<StoreRows> = {
    clubs: [],
    tournaments: [],
    players: [],
    rounds: [],
    games: [],
    source_standings: [],
    source_standing_rows: [],
    recaps: [],
    club_tournaments: [],
    club_tournament_tags: [],
    publications: [],
    publication_tags: [],
  };
  const expected: Expected = { hiddenIds: [], hiddenSlugs: [], globalIds: [], catalogs: new Map() };

  g.clubs.forEach((enabled, c) => {
    const slug = enabled ? CLUB_SLUGS[c]! : `${M}-club-${c}`;
    if (enabled) expected.catalogs.set(slug, []);
    else expected.hiddenSlugs.push(slug);
    const shown = (s: string): string => (enabled ? s : `${s} ${M}`);
    rows.clubs.push({
      club_id: c + 1,
      uuid: `00000000-0000-4000-8000-00000000000${c}`,
      slug,
      name: shown(`Club ${c}`),
      description: shown("A chess club"),
      website_url: enabled ? `https://club${c}.example` : `https://${M}.example`,
      contact_email: enabled ? `info@club${c}.example` : `${M}@club.example`,
      default_language: "es",
      enabled: enabled ? 1 : 0,
      internal_notes: `${M} notes of club ${c}`,
    });
  });

  g.tournaments.forEach((t, i) => {
    const id = i + 1;
    const externalId = g.externalIds[i]!;
    const memberships = t.clubs.map((m, c) => m && c < g.clubs.length);
    const inEnabledClub = memberships.some((m, c) => m && g.clubs[c]!);
    const visible = !t.draft && (t.global || inEnabledClub);
    if (!visible) expected.hiddenIds.push(externalId);
    if (visible && t.global) expected.globalIds.push(externalId);
    const shown = (s: string): string => (visible ? s : `${s} ${M}`);

    const start = BASE_NOW + t.startOffsetDays * DAY;
    const rounds = t.rounds.length;
    const total = t.extraTotalRounds === null ? null : Math.max(1, rounds + t.extraTotalRounds);
    rows.tournaments.push({
      tournament_id: id,
      external_id: externalId,
      source_url: visible ? `https://results.example/t/${externalId}` : `https://results.example/${M}`,
      name: shown(`Open ${id}`),
      location: shown("Bilbao"),
      organizer: shown("The federation"),
      chief_arbiter: shown("IA Arbiter"),
      start_date: date(start),
      end_date: date(start + t.lengthDays * DAY),
      total_rounds: total,
      tracking_enabled: t.tracking ? 1 : 0,
      refresh_interval_seconds: t.tracking ? 600 : null,
      next_refresh_at: t.tracking ? iso(BASE_NOW - 3_600_000) : null,
      created_at: TS,
      last_scraped_at: TS,
      is_draft: t.draft ? 1 : 0,
      internal_notes: `${M} notes of tournament ${id}`,
    });
    for (let p = 1; p <= t.players; p++) {
      rows.players.push({
        tournament_id: id,
        source_player_number: p,
        starting_rank: p,
        name: shown(PLAYER_NAMES[(p + i) % PLAYER_NAMES.length]!),
        rating: 1500 + 37 * p,
        club: shown("Club Ajedrez"),
        birth_date: `${M}-birth-${p}`,
        email: `${M}.player${p}@mail.example`,
      });
    }
    t.rounds.forEach((r, k) => {
      const round = k + 1;
      const changed = iso(BASE_NOW - r.changedHoursAgo * 3_600_000);
      rows.rounds.push({
        tournament_id: id,
        round_number: round,
        first_scraped_at: TS,
        last_scraped_at: changed,
        last_source_change_at: changed,
      });
      const order = Array.from({ length: t.players }, (_, p) => p + 1).sort(
        (a, b) => r.order[a - 1]! - r.order[b - 1]! || a - b,
      );
      let board = 1;
      for (let p = 0; p + 1 < order.length; p += 2) {
        const [result, raw] = PAIR_RESULTS[r.results[(p / 2) % r.results.length]!]!;
        rows.games.push({
          tournament_id: id,
          round_number: round,
          board_number: board++,
          white_player_number: order[p]!,
          black_player_number: order[p + 1]!,
          result,
          raw_result: raw,
          first_seen_at: TS,
          last_seen_at: changed,
        });
      }
      if (order.length % 2 === 1) {
        const bye = BYES[r.bye]!;
        rows.games.push({
          tournament_id: id,
          round_number: round,
          board_number: board,
          white_player_number: order.at(-1)!,
          black_player_number: null,
          result: bye.result,
          raw_result: bye.raw,
          bye_kind: bye.bye_kind,
          first_seen_at: TS,
          last_seen_at: changed,
        });
      }
    });
    if (t.standings && rounds > 0) {
      rows.source_standings.push({
        tournament_id: id,
        after_round: 1,
        retrieved_at: TS,
        tie_break_labels: '["BH"]',
      });
      for (let p = 1; p <= t.players; p++) {
        rows.source_standing_rows.push({
          tournament_id: id,
          after_round: 1,
          source_player_number: p,
          rank: p,
          name: shown(`Standing ${p}`),
          points: 1,
          tie_break_values: '["1.5"]',
        });
      }
    }
    t.recaps.forEach((rc, k) => {
      const kind = rounds > 0 ? (["Preview", "Round", "Final"] as const)[rc.kind]! : "Preview";
      const hidden = rc.draft || !visible;
      const text = (s: string): string => (hidden ? `${s} ${M}` : s);
      rows.recaps.push({
        recap_id: id * 10 + k,
        tournament_id: id,
        language: LANGUAGES[rc.language]!,
        kind,
        round_number: kind === "Round" ? 1 : null,
        headline: text(`Headline ${k}`),
        preview: text("Teaser"),
        paragraphs: JSON.stringify([text("First."), text("Second.")]),
        is_draft: rc.draft ? 1 : 0,
        generator: `${M} generator`,
      });
    });
    const tags = (chosen: boolean[], tagVisible: boolean): string[] => [
      ...TAGS.filter((_, k) => chosen[k]),
      ...(tagVisible ? [] : [`${M}-tag`]),
    ];
    if (t.global) {
      rows.publications.push({ tournament_id: id, published_at: `${M} published` });
      for (const tag of tags(t.globalTags, visible)) rows.publication_tags.push({ tournament_id: id, tag });
    }
    memberships.forEach((m, c) => {
      if (!m) return;
      rows.club_tournaments.push({ club_id: c + 1, tournament_id: id, display_order: (id * 7) % 5 });
      const entryVisible = !t.draft && g.clubs[c]!;
      for (const tag of tags(t.clubTags, entryVisible)) {
        rows.club_tournament_tags.push({ club_id: c + 1, tournament_id: id, tag });
      }
      if (entryVisible) expected.catalogs.get(CLUB_SLUGS[c]!)!.push(externalId);
    });
  });
  return { rows, expected };
}

const validator = new SnapshotValidator();
const rules = [
  ...hostRules().paths.map((rule) => ({
    re: new RegExp(urlRegExpSource(rule.url)),
    route: ROUTES.find((r) => r.id === rule.routeId)!,
  })),
  // The answer to an unknown tag: a file of its list's route, reached through the query form only.
  ...hostRules().queries.flatMap((q) =>
    q.fallback
      ? [{ re: new RegExp(urlRegExpSource(q.fallback)), route: ROUTES.find((r) => r.id === q.routeId)! }]
      : [],
  ),
];

/** The route whose path serves `file` (`<url>/index.json`), most specific first. */
function routeOf(file: string): Route | undefined {
  const url = `/${file.slice(0, -"/index.json".length)}`;
  return rules.find((r) => r.re.test(url))?.route;
}

/** Problems of one emitted file: unknown path, bad JSON, schema or contract mismatch. */
function fileProblems(file: string, text: string): string[] {
  if (file === NOT_FOUND_FILE) return validator.check(file, "ProblemResponse", text).map((p) => p.what);
  if (!file.endsWith("/index.json")) return [];
  const route = routeOf(file);
  if (!route) return [`${file} lies on no route`];
  const problems = validator.check(file, schemaId(route.schema), text).map((p) => `${p.where}: ${p.what}`);
  const zod = route.schema.safeParse(JSON.parse(text));
  if (!zod.success) problems.push(`${file}: ${zod.error.message}`);
  return problems;
}

describe("random stores (fast-check, seeded)", () => {
  it(`leak nothing private and emit only valid files (${RUNS} stores)`, async () => {
    const root = tempDir("property");
    let n = 0;
    let visibleSeen = 0;
    let hiddenSeen = 0;
    await fc.assert(
      fc.asyncProperty(storeArb, async (g) => {
        const dir = path.join(root, String(n++));
        const { rows, expected } = storeRows(g);
        const db = storeFromRows(path.join(dir + ".sqlite"), rows);
        const out = path.join(dir, "dist");
        try {
          await build({ db, out, now: BASE_NOW });
          const tree = readTree(out);
          const files = [...tree.keys()];
          // Nothing private anywhere: no content, no path.
          for (const [file, bytes] of tree) {
            expect(file.includes(g.marker), `marker in the path ${file}`).toBe(false);
            expect(bytes.includes(g.marker), `marker in ${file}`).toBe(false);
          }
          // Every emitted JSON file validates.
          const problems = files.flatMap((f) => fileProblems(f, tree.get(f)!.toString("utf8")));
          expect(problems).toEqual([]);
          expect(files.filter((f) => f.endsWith("/index.json")).length).toBeGreaterThan(0);
          // Hidden tournaments and clubs have no files; visible ones have theirs.
          for (const id of expected.hiddenIds) {
            expect(files.filter((f) => f.includes(`/tournaments/${id}/`))).toEqual([]);
          }
          for (const slug of expected.hiddenSlugs) {
            expect(files.filter((f) => f.startsWith(`api/clubs/${slug}/`))).toEqual([]);
          }
          const list = JSON.parse(tree.get("api/public/v1/tournaments/index.json")!.toString("utf8")) as {
            id: number;
          }[];
          expect(list.map((s) => s.id).sort()).toEqual([...expected.globalIds].sort());
          for (const id of expected.globalIds) {
            expect(files).toContain(`api/public/v1/tournaments/${id}/index.json`);
          }
          const catalogDirs = files
            .filter((f) => /^api\/clubs\/[^/]+\/tournaments\/index\.json$/.test(f))
            .map((f) => f.split("/")[2]);
          expect(catalogDirs.sort()).toEqual([...expected.catalogs.keys()].sort());
          for (const [slug, ids] of expected.catalogs) {
            const catalog = JSON.parse(
              tree.get(`api/clubs/${slug}/tournaments/index.json`)!.toString("utf8"),
            ) as { tournaments: { tournament: { tournamentId: number } }[] };
            expect(catalog.tournaments.map((e) => e.tournament.tournamentId).sort()).toEqual([...ids].sort());
            for (const id of ids) expect(files).toContain(`api/clubs/${slug}/tournaments/${id}/index.json`);
          }
          visibleSeen += g.tournaments.length - expected.hiddenIds.length;
          hiddenSeen += expected.hiddenIds.length + expected.hiddenSlugs.length;
        } finally {
          rmSync(dir, { recursive: true, force: true });
          rmSync(`${dir}.sqlite`, { force: true });
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The generator really produced both kinds.
    expect(visibleSeen).toBeGreaterThan(RUNS / 2);
    expect(hiddenSeen).toBeGreaterThan(RUNS / 2);
    expect(readdirSync(root).filter((e) => !e.startsWith("."))).toEqual([]);
  }, 120_000);
});
