// `npm run gen-store -- --tournaments <n> [--team-events <k>] --seed <s> --out <file>`: writes a
// synthetic store of any size with realistic shapes, for benchmarks and scale tests. The same
// seed (and --team-events) gives the same rows. --team-events makes k of the n tournaments team
// events (spread over the store): teams, members in board order, matches from board games.
// Statuses are set up relative to the fixed reference time REFERENCE_NOW, so a build with
// `--now 2026-11-22T12:00:00Z` shows all seven of them (from 7 tournaments up).
import { rmSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import Database from "better-sqlite3";
import { createStore } from "../src/store/write/init.ts";
import { StoreWriter } from "../src/store/write/writer.ts";
import type { TournamentStatus } from "../src/domain/types.ts";
import {
  bergerRounds,
  CITIES,
  FEDERATIONS,
  FIRST_NAMES,
  LAST_NAMES,
  pairSwiss,
  playGame,
  RAW_RESULT,
  Rng,
  seedFrom,
  TAGS,
  TIEBREAK_LISTS,
  type Outcome,
  type Pairing,
  type SwissPlayer,
} from "./lib/synthetic.ts";

export const REFERENCE_NOW = "2026-11-22T12:00:00Z";
const NOW = Date.parse(REFERENCE_NOW);
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

/** Status i % 7 is the one tournament i is set up to show. */
const STATUS_CYCLE: readonly TournamentStatus[] = [
  "Complete",
  "Live",
  "AwaitingNextRound",
  "ResultsPending",
  "UpdateDelayed",
  "Upcoming",
  "Imported",
];

/** Round spacing and game length, in minutes: one-day rapid, daily open, weekly club event. */
const SCHEDULES = [
  { gap: 75, duration: 55, timeControl: "15 min + 10 s per move" },
  { gap: 1440, duration: 240, timeControl: "90 min + 30 s per move" },
  { gap: 10080, duration: 210, timeControl: "60 min + 30 s per move" },
] as const;

/** The status tournament `tournamentId` (a generated id, 1 up) is set up to show at REFERENCE_NOW. */
export const statusSetUp = (tournamentId: number): TournamentStatus =>
  STATUS_CYCLE[(tournamentId - 1) % STATUS_CYCLE.length]!;

export interface GenerateOptions {
  tournaments: number;
  seed: string | number;
  out: string;
  /** How many of the tournaments are team events (default 0: the store of earlier seeds). */
  teamEvents?: number;
}

/** The indexes (0 up) of the `k` team events among `n` tournaments, spread evenly. */
export function teamEventIndexes(n: number, k: number): Set<number> {
  return new Set(Array.from({ length: Math.min(k, n) }, (_, j) => Math.floor(((j + 0.5) * n) / k)));
}

export interface GenerateReport {
  tournaments: number;
  players: number;
  games: number;
  milliseconds: number;
  bytes: number;
}

const iso = (ms: number): string =>
  new Date(Math.round(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
const date = (ms: number): string => iso(ms).slice(0, 10);

function uuid(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => rng.int(0, 15).toString(16));
  hex[12] = "4";
  hex[16] = "89ab"[rng.int(0, 3)]!;
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

interface Club {
  id: number;
  enabled: boolean;
  language: string;
  city: string;
  federation: string;
}

function insertClubs(rng: Rng, w: StoreWriter, tournaments: number): Club[] {
  const count = 3 + Math.min(CITIES.length - 3, Math.floor(tournaments / 400));
  const clubs: Club[] = [];
  for (let k = 0; k < count; k++) {
    const city = CITIES[k]!;
    const slug = `${city.city}-chess-club`;
    // The third club is disabled: its catalog must never be published.
    const enabled = k !== 2;
    w.insert("clubs", {
      club_id: k + 1,
      uuid: uuid(rng),
      slug: slug,
      name: `${capitalize(city.city)} Chess Club`,
      description: `Rated tournaments and weekly club nights in ${capitalize(city.city)}.`,
      logo_path: `/logos/${slug}.svg`,
      website_url: `https://${slug}.example`,
      contact_email: `tournaments@${slug}.example`,
      default_language: city.language,
      time_zone: city.timeZone,
      brand_color: `#${rng.int(0, 0xffffff).toString(16).padStart(6, "0")}`,
      enabled: enabled ? 1 : 0,
      internal_notes: `PRIVATE-NOTE-club-${k + 1}`,
    });
    clubs.push({ id: k + 1, enabled, language: city.language, city: city.city, federation: city.federation });
  }
  return clubs;
}

interface RoundPlan {
  start: number;
  /** Games of the newest round that are still unfinished, as a share of its boards. */
  pendingShare: number;
  /** Results of the newest round arrived up to this time. */
  lastChange: number | null;
}

/** The time frame that makes a tournament show `status` at REFERENCE_NOW. */
function plan(rng: Rng, status: TournamentStatus, total: number, gap: number, duration: number) {
  let played = status === "Complete" ? total : status === "Upcoming" ? 0 : rng.int(1, total - 1);
  let tracking = true;
  let interval: number | null = rng.pick([300, 900, 1800, 3600]);
  let nextRefresh: number | null = NOW + rng.int(1, interval / 60) * MINUTE;
  let lastScraped = NOW - rng.int(1, 10) * MINUTE;
  let newestStart: number;
  let pendingShare = 0;
  let lastChange: number | null = null;
  switch (status) {
    case "Complete":
      newestStart = NOW - rng.int(2, 300) * DAY;
      lastScraped = newestStart + (duration + rng.int(30, 1440)) * MINUTE;
      if (rng.chance(0.7)) {
        tracking = false;
        interval = null;
        nextRefresh = null;
      }
      break;
    case "Live":
      newestStart = NOW - Math.round(duration * (0.3 + 0.6 * rng.next())) * MINUTE;
      lastChange = Math.max(newestStart + MINUTE, lastScraped - rng.int(0, 30) * MINUTE);
      lastChange = Math.min(lastChange, lastScraped);
      pendingShare = 0.2 + 0.5 * rng.next();
      break;
    case "ResultsPending":
      newestStart = NOW - (duration + rng.int(7 * 60, 5 * 1440)) * MINUTE;
      lastChange = newestStart + Math.round(duration * 0.8) * MINUTE;
      pendingShare = 0.05 + 0.2 * rng.next();
      break;
    case "AwaitingNextRound":
      newestStart = NOW - rng.int(duration + 15, gap - 1) * MINUTE;
      break;
    case "UpdateDelayed":
      nextRefresh = NOW - rng.int(45, 2 * 1440) * MINUTE;
      lastScraped = nextRefresh - (interval ?? 0) * 1000;
      newestStart = lastScraped - rng.int(10, duration) * MINUTE;
      // Results stop at the last successful scrape; the round may or may not be finished.
      lastChange = lastScraped - rng.int(0, 9) * MINUTE;
      pendingShare = rng.chance(0.6) ? 0.3 + 0.5 * rng.next() : 0;
      break;
    case "Upcoming":
      newestStart = NOW + rng.int(1, 90) * DAY;
      played = 0;
      break;
    case "Imported":
      tracking = false;
      interval = null;
      nextRefresh = null;
      newestStart = NOW - (duration + rng.int(60, 60 * 1440)) * MINUTE;
      lastScraped = Math.min(NOW - MINUTE, newestStart + (duration + 30) * MINUTE);
      break;
  }
  const firstStart = newestStart - Math.max(played - 1, 0) * gap * MINUTE;
  const rounds: RoundPlan[] = [];
  for (let r = 1; r <= played; r++) {
    rounds.push({
      start: firstStart + (r - 1) * gap * MINUTE,
      pendingShare: r === played ? pendingShare : 0,
      lastChange: r === played ? lastChange : null,
    });
  }
  const lastStart = firstStart + (total - 1) * gap * MINUTE;
  // A round that is complete while the event goes on must not look finished by its end date.
  const endDate = status === "Complete" ? date(lastStart) : date(Math.max(lastStart, NOW + DAY));
  return { played, tracking, interval, nextRefresh, lastScraped, rounds, firstStart, endDate };
}

function makePlayers(rng: Rng, count: number, club: Club) {
  const drafts = Array.from({ length: count }, () => {
    const rated = rng.chance(0.9);
    return {
      rating: rated ? rng.normal(1750, 1100, 1000, 2780) : null,
      name: `${rng.pick(LAST_NAMES)}, ${rng.pick(FIRST_NAMES)}`,
      gender: rng.chance(0.2) ? "w" : "m",
      federation: rng.chance(0.75) ? club.federation : rng.pick(FEDERATIONS),
      fideId: rng.chance(0.7) ? rng.int(100_000, 99_999_999) : null,
      birthYear: rng.int(1945, 2018),
    };
  });
  // Starting numbers follow the rating, as pairing programs assign them.
  drafts.sort((a, b) => (b.rating ?? 0) - (a.rating ?? 0));
  return drafts.map((p, i) => {
    const r = p.rating ?? 0;
    const title = r >= 2500 ? "GM" : r >= 2400 ? "IM" : r >= 2300 ? "FM" : r >= 2200 ? "CM" : null;
    const age = 2026 - p.birthYear;
    return {
      ...p,
      number: i + 1,
      title: p.gender === "w" && title !== null && title !== "GM" ? `W${title}` : title,
      type: age < 18 ? `U${age < 12 ? 12 : age < 14 ? 14 : age < 16 ? 16 : 18}` : age >= 65 ? "S65" : null,
      birthDate: `${p.birthYear}-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`,
    };
  });
}

interface GameRow {
  white: number | null;
  black: number | null;
  raw: string;
  result: string | null;
  byeKind: string | null;
  provisional: number | null;
  changedAt: number | null;
}

/** Unfinished results in their different store spellings. */
function unfinished(rng: Rng): Pick<GameRow, "raw" | "result" | "provisional"> {
  const u = rng.next();
  const provisional = rng.chance(0.2) ? 0.5 : null;
  if (u < 0.45) return { raw: "", result: "Pending", provisional };
  if (u < 0.85) return { raw: "", result: null, provisional };
  if (u < 0.95) return { raw: "adj", result: "Adjourned", provisional: null };
  return { raw: "?", result: "Unknown", provisional: null };
}

const TEAM_NAMES = ["Knights", "Rooks", "Bishops", "Pawns", "Castles", "Gambit", "Endgame", "Zugzwang"];

/** A team event's teams: members in board order, and the teams' own Swiss state. */
interface TeamPlan {
  boards: number;
  /** members[t - 1][k - 1]: the starting number of team t's board k. */
  members: number[][];
  teams: SwissPlayer[];
  names: string[];
  /** Rounds in which a team had a bye (its players have no game): pairing-allocated or requested. */
  byes: { round: number; team: number; kind: "pab" | "full" | "half" | "zero" }[];
  /** Matches decided without play (TRF 330): their boards have no game either. */
  forfeits: { round: number; white: number; black: number; result: "+-" | "-+" | "--" }[];
}

/**
 * How often a team event's rounds go unplayed, per team and round (a requested bye, Swiss only:
 * mostly half-point, some zero-point, a few full-point byes) and per match (a forfeited match:
 * one team did not turn up, now and then neither). Board forfeits come from playGame's rates.
 */
const TEAM_BYE_RATE = 0.02;
const MATCH_FORFEIT_RATE = 0.015;

/** Teams drawn from the players (starting numbers by rating): each rating tier, a board, dealt
 * in snake order, so boards are in rating order inside each team and teams are balanced. */
function makeTeams(count: number, boards: number, ratings: (number | null)[]): TeamPlan {
  const members = Array.from({ length: count }, (_, t) =>
    Array.from({ length: boards }, (_, k) => k * count + (k % 2 === 0 ? t : count - 1 - t) + 1),
  );
  const teams = members.map((m, t) => ({
    number: t + 1,
    rating: m.reduce((sum, n) => sum + (ratings[n - 1] ?? 0), 0) / boards,
    score: 0,
    whites: 0,
    opponents: new Set<number>(),
    hadBye: false,
  }));
  // Unique up to 64 teams (8 cities × 8 names); the events have 16 at most.
  const names = members.map(
    (_, t) => `${capitalize(CITIES[t % CITIES.length]!.city)} ${TEAM_NAMES[Math.floor(t / CITIES.length)]!}`,
  );
  return { boards, members, teams, names, byes: [], forfeits: [] };
}

/** A round's team pairings expanded to board pairings: the first-named team has white on odd
 * boards (board 1 first), as team events alternate colours by board. */
function teamRound(
  rng: Rng,
  tp: TeamPlan,
  r: number,
  berger: Pairing[][],
): { matches: Pairing[]; boards: Pairing[] } {
  let matches: Pairing[];
  if (berger.length > 0) matches = berger[r - 1]!;
  else {
    // Requested byes first: those teams are not paired (match points 2 / 1 / 0).
    const present = tp.teams.filter((t) => {
      if (!rng.chance(TEAM_BYE_RATE)) return true;
      const u = rng.next();
      const kind = u < 0.6 ? "half" : u < 0.9 ? "zero" : "full";
      tp.byes.push({ round: r, team: t.number, kind });
      t.score += kind === "full" ? 2 : kind === "half" ? 1 : 0;
      return false;
    });
    const { pairs, bye } = pairSwiss(present);
    matches = pairs;
    if (bye !== null) {
      tp.byes.push({ round: r, team: bye, kind: "pab" });
      tp.teams[bye - 1]!.hadBye = true;
      tp.teams[bye - 1]!.score += 2;
    }
  }
  // Forfeited matches: no board is played; the winner takes the match points.
  matches = matches.filter((m) => {
    if (!rng.chance(MATCH_FORFEIT_RATE)) return true;
    const u = rng.next();
    const result = u < 0.45 ? "+-" : u < 0.9 ? "-+" : "--";
    tp.forfeits.push({ round: r, white: m.white, black: m.black, result });
    if (result === "+-") tp.teams[m.white - 1]!.score += 2;
    if (result === "-+") tp.teams[m.black - 1]!.score += 2;
    tp.teams[m.white - 1]!.opponents.add(m.black);
    tp.teams[m.black - 1]!.opponents.add(m.white);
    return false;
  });
  const boards: Pairing[] = [];
  for (const m of matches) {
    for (let k = 0; k < tp.boards; k++) {
      const a = tp.members[m.white - 1]![k]!;
      const b = tp.members[m.black - 1]![k]!;
      boards.push(k % 2 === 0 ? { white: a, black: b } : { white: b, black: a });
    }
  }
  return { matches, boards };
}

/** Match points (2/1/0) of a round's matches from the finished board games, for the next pairing. */
function scoreMatches(tp: TeamPlan, matches: Pairing[], points: Map<number, number>): void {
  for (const m of matches) {
    const sum = (team: number): number => tp.members[team - 1]!.reduce((s, n) => s + (points.get(n) ?? 0), 0);
    const [w, b] = [sum(m.white), sum(m.black)];
    const white = tp.teams[m.white - 1]!;
    const black = tp.teams[m.black - 1]!;
    white.score += w > b ? 2 : w === b ? 1 : 0;
    black.score += b > w ? 2 : w === b ? 1 : 0;
    white.whites++;
    white.opponents.add(m.black);
    black.opponents.add(m.white);
  }
}

function insertTeams(w: StoreWriter, id: number, tp: TeamPlan, roundRobin: boolean): void {
  w.insert("team_events", {
    tournament_id: id,
    primary_score: "MP",
    match_win: 2,
    match_draw: 1,
    match_loss: 0,
    pab_match_points: null,
    pab_game_points: null,
    team_tiebreaks: JSON.stringify(roundRobin ? ["GP", "EDE", "EMGSB"] : ["GP", "BH:MP", "BH:GP"]),
  });
  tp.members.forEach((members, t) => {
    w.insert("teams", { tournament_id: id, team_number: t + 1, name: tp.names[t]!, short_name: null });
    members.forEach((n, k) =>
      w.insert("team_members", {
        tournament_id: id,
        team_number: t + 1,
        board_order: k + 1,
        source_player_number: n,
      }),
    );
  });
  for (const b of tp.byes)
    w.insert("team_byes", { tournament_id: id, round_number: b.round, team_number: b.team, kind: b.kind });
  for (const f of tp.forfeits)
    w.insert("team_forfeited_matches", {
      tournament_id: id,
      round_number: f.round,
      white_team: f.white,
      black_team: f.black,
      result: f.result,
    });
}

function generateTournament(
  rng: Rng,
  w: StoreWriter,
  i: number,
  clubs: Club[],
  counts: { players: number; games: number },
  team = false,
) {
  const id = i + 1;
  const status = STATUS_CYCLE[i % STATUS_CYCLE.length]!;
  const isDraft = i % 31 === 17;
  const unpublished = !isDraft && i % 37 === 23;
  const club = clubs[i % clubs.length]!;
  const roundRobin = rng.chance(0.2);
  // A team event: 6 to 16 teams (an even count in a round robin) of 4, 6 or 8 boards.
  const teamCount = !team ? 0 : roundRobin ? rng.pick([6, 8, 10]) : rng.int(6, 16);
  const boards = team ? rng.pick([4, 4, 6, 8]) : 0;
  const playerCount = team
    ? teamCount * boards
    : roundRobin
      ? rng.pick([10, 12, 14])
      : 10 + Math.floor(rng.next() ** 2 * 291);
  const entrants = team ? teamCount : playerCount;
  const total = roundRobin ? entrants - 1 : Math.min(rng.int(5, 13), entrants - 1);
  const schedule = rng.pick(SCHEDULES);
  const p = plan(rng, status, total, schedule.gap, schedule.duration);
  const players = makePlayers(rng, playerCount, club);
  const teams = team
    ? makeTeams(
        teamCount,
        boards,
        players.map((pl) => pl.rating),
      )
    : null;
  const ratings = players.map((pl) => pl.rating).filter((r): r is number => r !== null);
  const kind = roundRobin
    ? "Invitational"
    : rng.pick(["Open", "Rapid", "Weekender", "Championship", "Juniors Cup"]);
  const createdAt = Math.min(p.firstStart, p.lastScraped - DAY) - rng.int(1, 30) * DAY;

  // Games first, so that the tournament's last change is known.
  const perRound: GameRow[][] = [];
  const swiss: SwissPlayer[] = players.map((pl) => ({
    number: pl.number,
    rating: pl.rating ?? 0,
    score: 0,
    whites: 0,
    opponents: new Set(),
    hadBye: false,
  }));
  const berger = roundRobin ? bergerRounds(entrants) : [];
  for (let r = 1; r <= p.played; r++) {
    const rp = p.rounds[r - 1]!;
    const rows: GameRow[] = [];
    const absent = new Set<number>();
    let pairs: Pairing[];
    let pab: number | null = null;
    let matches: Pairing[] = [];
    const gamePoints = new Map<number, number>();
    if (teams !== null) {
      // Whole teams are paired (or have a bye, or forfeit the match); every member of a played
      // match plays.
      ({ matches, boards: pairs } = teamRound(rng, teams, r, berger));
    } else if (roundRobin) {
      pairs = berger[r - 1]!;
    } else {
      const present = swiss.filter((s) => {
        if (!rng.chance(0.03)) return true;
        absent.add(s.number);
        return false;
      });
      ({ pairs, bye: pab } = pairSwiss(present));
    }
    const finishedBy = (share: number): number =>
      rp.lastChange !== null
        ? rp.start + Math.round((rp.lastChange - rp.start) * share)
        : rp.start + Math.round(schedule.duration * (0.4 + 0.6 * share)) * MINUTE;
    for (const pair of pairs) {
      if (rp.pendingShare > 0 && (rng.chance(rp.pendingShare) || rows.length === 0)) {
        rows.push({
          white: pair.white,
          black: pair.black,
          byeKind: null,
          changedAt: null,
          ...unfinished(rng),
        });
        continue;
      }
      const outcome: Outcome = playGame(rng, swiss[pair.white - 1]!.rating, swiss[pair.black - 1]!.rating);
      const res = RAW_RESULT[outcome];
      // Some finished results are left for the build to normalize from raw_result.
      const stored =
        outcome.length === 1 && outcome !== "+" && outcome !== "-" && rng.chance(0.05) ? null : res.result;
      rows.push({
        white: pair.white,
        black: pair.black,
        raw: res.raw,
        result: stored,
        byeKind: null,
        provisional: null,
        changedAt: finishedBy(rng.next()),
      });
      const w = swiss[pair.white - 1]!;
      const b = swiss[pair.black - 1]!;
      w.score += res.white;
      b.score += res.black;
      gamePoints.set(pair.white, res.white).set(pair.black, res.black);
      w.whites++;
      w.opponents.add(b.number);
      b.opponents.add(w.number);
    }
    const byeAt = rp.start - 20 * MINUTE;
    if (pab !== null) {
      rows.push({
        white: pab,
        black: null,
        raw: "bye",
        result: "Bye",
        byeKind: "pab",
        provisional: null,
        changedAt: byeAt,
      });
      swiss[pab - 1]!.score += 1;
      swiss[pab - 1]!.hadBye = true;
    }
    for (const number of absent) {
      // Requested half-point byes, zero-point byes, or simply not paired (no row).
      const u = rng.next();
      if (u < 0.5) {
        rows.push({
          white: number,
          black: null,
          raw: "½",
          result: "Bye",
          byeKind: "half",
          provisional: null,
          changedAt: byeAt,
        });
        swiss[number - 1]!.score += 0.5;
      } else if (u < 0.75) {
        rows.push({
          white: number,
          black: null,
          raw: "0",
          result: "Bye",
          byeKind: "zero",
          provisional: null,
          changedAt: byeAt,
        });
      }
    }
    if (teams !== null) scoreMatches(teams, matches, gamePoints);
    perRound.push(rows);
  }

  let lastChange: number | null = null;
  const roundChanges = perRound.map((rows, index) => {
    const rp = p.rounds[index]!;
    const times = rows.map((g) => g.changedAt).filter((t): t is number => t !== null);
    const change = rp.lastChange ?? (times.length > 0 ? Math.max(...times) : rp.start - 20 * MINUTE);
    lastChange = Math.max(lastChange ?? 0, change);
    return change;
  });
  if (p.played === 0) lastChange = Math.min(p.lastScraped, createdAt + rng.int(1, 48) * 60 * MINUTE);

  const externalId = i === 0 ? 2n ** 53n + 1n : BigInt(1_000_000 + i * 13);
  const name = `${capitalize(club.city)} ${kind} 2026 · ${id}`;
  w.insert("tournaments", {
    tournament_id: id,
    external_id: externalId,
    source_url: `https://chess-results.com/tnr${externalId}.aspx?lan=1`,
    name: isDraft ? `DRAFT ${name}` : name,
    location: capitalize(club.city),
    federation: club.federation,
    organizer: `${capitalize(club.city)} Chess Club`,
    tournament_director: rng.pick(LAST_NAMES),
    chief_arbiter: `IA ${rng.pick(LAST_NAMES)}, ${rng.pick(FIRST_NAMES)}`,
    deputy_chief_arbiter: rng.chance(0.4) ? `FA ${rng.pick(LAST_NAMES)}` : null,
    arbiters: null,
    time_control: schedule.timeControl,
    tournament_type: `${team ? "Team" : "Individual"}: ${roundRobin ? "Single Round Robin" : "Swiss-System"}`,
    rating_calculation: rng.chance(0.6) ? "FIDE" : null,
    fide_event_id: rng.chance(0.5) ? rng.int(100_000, 999_999) : null,
    average_rating:
      ratings.length > 0 ? Math.round(ratings.reduce((a, b) => a + b, 0) / ratings.length) : null,
    average_age: null,
    pairing_program: rng.pick(["Swiss-Manager 14.0.0.12", "Vega 8.2", "JaVaFo"]),
    source_last_updated: `Last update ${iso(p.lastScraped)}`,
    source_creator: null,
    start_date: date(p.firstStart),
    end_date: p.endDate,
    total_rounds: total,
    tracking_enabled: p.tracking ? 1 : 0,
    refresh_interval_seconds: p.interval,
    next_refresh_at: p.nextRefresh === null ? null : iso(p.nextRefresh),
    created_at: iso(createdAt),
    last_scraped_at: iso(p.lastScraped),
    last_source_change_at: lastChange === null ? null : iso(lastChange),
    is_draft: isDraft ? 1 : 0,
    pairing_system: roundRobin ? "round-robin" : "swiss",
    tiebreaks: rng.pick(TIEBREAK_LISTS[roundRobin ? "round-robin" : "swiss"]),
    tiebreak_rules: rng.pick(["fide-2023", "fide-2026", "pre-2023"]),
    internal_notes: `PRIVATE-NOTE-t${id}`,
  });

  for (const pl of players) {
    w.insert("players", {
      tournament_id: id,
      source_player_number: pl.number,
      starting_rank: pl.number,
      fide_id: pl.fideId,
      name: pl.name,
      title: pl.title,
      rating: pl.rating,
      national_rating: pl.rating === null ? null : pl.rating - rng.int(0, 60),
      federation: pl.federation,
      club: rng.chance(0.5) ? `${capitalize(club.city)} CC` : null,
      gender: pl.gender,
      player_type: pl.type,
      player_group: rng.chance(0.1) ? "Group B" : null,
      birth_date: pl.birthDate,
      email: rng.chance(0.3) ? `private.player${pl.number}.t${id}@example.invalid` : null,
    });
  }
  counts.players += players.length;
  if (teams !== null) insertTeams(w, id, teams, roundRobin);

  const lastSeen = iso(p.lastScraped);
  if (p.played === 0 && rng.chance(0.3)) {
    // Round 1 announced, pairings not published yet.
    w.insert("rounds", {
      tournament_id: id,
      round_number: 1,
      first_scraped_at: iso(createdAt),
      last_scraped_at: lastSeen,
      last_source_change_at: null,
    });
  }
  perRound.forEach((rows, index) => {
    const r = index + 1;
    const firstSeen = iso(p.rounds[index]!.start - 20 * MINUTE);
    w.insert("rounds", {
      tournament_id: id,
      round_number: r,
      first_scraped_at: firstSeen,
      last_scraped_at: lastSeen,
      last_source_change_at: iso(roundChanges[index]!),
    });
    rows.forEach((g, board) => {
      w.insert("games", {
        tournament_id: id,
        round_number: r,
        board_number: board + 1,
        white_player_number: g.white,
        black_player_number: g.black,
        raw_result: g.raw,
        result: g.result,
        bye_kind: g.byeKind,
        provisional_points: g.provisional,
        first_seen_at: firstSeen,
        last_seen_at: lastSeen,
        result_changed_at: g.changedAt === null ? null : iso(g.changedAt),
      });
    });
    counts.games += rows.length;
  });

  // The source's own standings after the newest complete round, for some tournaments.
  const newestComplete = p.played > 0 && p.rounds[p.played - 1]!.pendingShare === 0;
  if (newestComplete && rng.chance(0.4)) {
    w.insert("source_standings", {
      tournament_id: id,
      after_round: p.played,
      retrieved_at: lastSeen,
      tie_break_labels: JSON.stringify(["TB1", "TB2", "TB3"]),
    });
    const buchholz = (s: SwissPlayer): number =>
      [...s.opponents].reduce((sum, o) => sum + swiss[o - 1]!.score, 0);
    const ranked = [...swiss].sort(
      (a, b) => b.score - a.score || buchholz(b) - buchholz(a) || a.number - b.number,
    );
    ranked.forEach((s, index) => {
      const pl = players[s.number - 1]!;
      const bh = buchholz(s);
      const cut = s.opponents.size > 0 ? Math.min(...[...s.opponents].map((o) => swiss[o - 1]!.score)) : 0;
      w.insert("source_standing_rows", {
        tournament_id: id,
        after_round: p.played,
        source_player_number: s.number,
        rank: index + 1,
        name: pl.name,
        title: pl.title,
        international_rating: pl.rating,
        national_rating: null,
        gender: pl.gender,
        player_type: pl.type,
        player_group: null,
        federation: pl.federation,
        club: null,
        points: s.score,
        tie_break_values: JSON.stringify(["0", (bh - cut).toFixed(1), bh.toFixed(1)]),
      });
    });
  }

  const languages = club.language === "en" ? ["en", "es"] : [club.language, "en"];
  const headline = (lang: string, text: string): string => (lang === "en" ? text : `[${lang}] ${text}`);
  for (const lang of languages) {
    const recap = (kindName: string, round: number | null, text: string, draft = false): void => {
      w.insert("recaps", {
        tournament_id: id,
        language: lang,
        kind: kindName,
        round_number: round,
        headline: headline(lang, text),
        preview: rng.chance(0.7) ? `${name}: ${text.toLowerCase()}` : null,
        paragraphs: JSON.stringify([`${text}.`, `${players.length} players, ${total} rounds.`]),
        is_draft: draft ? 1 : 0,
        generator: `PRIVATE-GENERATOR synthetic seed-run ${id}`,
      });
    };
    recap("Preview", null, `${name} preview`);
    if (p.played > 0) recap("Round", p.played, `Round ${p.played} report`);
    if (status === "Complete") recap("Final", null, `${name} final report`);
    if (rng.chance(0.1)) recap("Round", Math.max(p.played, 1), "Unreviewed draft", true);
  }

  // Where it is published. The first seven are always global so that every status shows.
  if (unpublished) return;
  const global = isDraft || i < 7 || rng.chance(0.85);
  const listed = isDraft || rng.chance(0.6) || !global;
  if (listed) {
    w.insert("club_tournaments", {
      club_id: club.id,
      tournament_id: id,
      display_order: i,
    });
    for (const tag of rng.sample(TAGS, rng.int(0, 2)))
      w.insert("club_tournament_tags", {
        club_id: club.id,
        tournament_id: id,
        tag: tag,
      });
  }
  if (global) {
    w.insert("publications", {
      tournament_id: id,
      published_at: iso(createdAt + rng.int(1, 600) * MINUTE + 17_000),
    });
    for (const tag of rng.sample(TAGS, rng.int(1, 3)))
      w.insert("publication_tags", {
        tournament_id: id,
        tag: tag,
      });
  }
}

/** Writes a synthetic store with `tournaments` tournaments to `out` (replacing it). */
export function generateStore({ tournaments, seed, out, teamEvents = 0 }: GenerateOptions): GenerateReport {
  if (!Number.isInteger(tournaments) || tournaments < 1) {
    throw new Error(`--tournaments must be a positive integer, got ${tournaments}`);
  }
  if (!Number.isInteger(teamEvents) || teamEvents < 0 || teamEvents > tournaments) {
    throw new Error(`--team-events must be a count up to --tournaments, got ${teamEvents}`);
  }
  const team = teamEventIndexes(tournaments, teamEvents);
  const started = performance.now();
  for (const file of [out, `${out}-journal`]) rmSync(file, { force: true });
  createStore(out);
  const db = new Database(out);
  let counts = { players: 0, games: 0 };
  try {
    // A fresh scratch file: durability during generation buys nothing.
    db.pragma("journal_mode = MEMORY");
    db.pragma("synchronous = OFF");
    const w = new StoreWriter(db);
    const rng = new Rng(seedFrom(seed));
    counts = { players: 0, games: 0 };
    const clubs = db.transaction(() => insertClubs(rng, w, tournaments))();
    // One transaction per 100 tournaments keeps memory small and inserts fast.
    const batch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) generateTournament(rng, w, i, clubs, counts, team.has(i));
    });
    for (let from = 0; from < tournaments; from += 100) batch(from, Math.min(from + 100, tournaments));
    db.pragma("journal_mode = DELETE");
  } finally {
    db.close();
  }
  return {
    tournaments,
    ...counts,
    milliseconds: Math.round(performance.now() - started),
    bytes: statSync(out).size,
  };
}

function main(): void {
  const values = scriptArgs(import.meta.url, {
    tournaments: { type: "string", default: "50" },
    seed: { type: "string", default: "1" },
    out: { type: "string" },
    "team-events": { type: "string", default: "0" },
  });
  if (values.out === undefined) exitWithUsage(import.meta.url, "--out <file> is required");
  const tournaments = Number(values.tournaments);
  if (!Number.isInteger(tournaments) || tournaments < 0)
    exitWithUsage(
      import.meta.url,
      `--tournaments expects a count, not ${JSON.stringify(values.tournaments)}`,
    );
  const teamEvents = Number(values["team-events"]);
  if (!Number.isInteger(teamEvents) || teamEvents < 0 || teamEvents > tournaments)
    exitWithUsage(
      import.meta.url,
      `--team-events expects a count up to --tournaments, not ${JSON.stringify(values["team-events"])}`,
    );
  const report = generateStore({ tournaments, seed: values.seed, out: values.out, teamEvents });
  console.log(
    `${values.out}: ${report.tournaments} tournaments, ${report.players} players, ${report.games} games, ` +
      `${(report.bytes / 1e6).toFixed(1)} MB in ${(report.milliseconds / 1000).toFixed(2)} s`,
  );
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main();
}
