// Updating a stored tournament in place from a new reading of its source (a TRF file exported
// again after a round): players, rounds and games follow the new reading, and everything else the
// store holds about the tournament (its publication, club catalogs, tags, recaps, source
// standings, private columns) stays. The timestamps keep their meaning in the contract:
//
// - retrieval times move on every reading: the tournament's and each read round's
//   `last_scraped_at`, each read game's `last_seen_at`;
// - change times move only for what changed: a game's `first_seen_at` is the reading that first
//   held its pairing, its `result_changed_at` the reading whose result differed from the one
//   before (a result first published, or corrected; never set while Pending); a round's
//   `last_source_change_at` the last reading that changed its games, the tournament's the last
//   reading that changed anything published.
//
// A game is the same game when its round and both players are (board numbers follow the scores,
// so an earlier correction may renumber boards without making the games new).
import { replaceTeamEvent } from "./teams.ts";
import type { Game, Tournament } from "../../domain/types.ts";
import type { TableName, WritableColumnOf } from "../columns.ts";
import {
  gameRow,
  playerRow,
  roundRow,
  scheduleRow,
  tournamentRow,
  type SqlValue,
  type StoreRow,
  type StoreWriter,
} from "./writer.ts";

/** What a new reading changed, for the import report. Empty lists and false: nothing changed. */
export interface TournamentChanges {
  /** Tournament columns whose value changed (name, dates, tie-breaks ...). */
  tournament: string[];
  players: { added: number[]; changed: number[]; removed: number[] };
  rounds: { added: number[]; changed: number[]; removed: number[] };
  /** The round schedule was replaced by the file's. */
  schedule: boolean;
  /** The team event's rows (teams, members, byes, forfeited matches) were replaced by the file's. */
  teams: boolean;
  games: { added: number; removed: number };
  /** Results of games already stored that changed (a result published, or corrected). */
  results: { round: number; white: number; black: number | null; from: string; to: string }[];
  /** Whether anything published changed (false: only the retrieval times moved). */
  changed: boolean;
}

/** Columns a reading never sets on an existing tournament: when it was first stored, the
 * retrieval and change times (set here), and what an operator decides. */
const NOT_FROM_THE_SOURCE: ReadonlySet<string> = new Set([
  "external_id",
  "created_at",
  "last_scraped_at",
  "last_source_change_at",
  "is_draft",
  "tracking_enabled",
  "refresh_interval_seconds",
  "next_refresh_at",
]);

/** Same stored value? Integers come back as bigint, reals as number, so compare their text. */
function same(a: SqlValue | undefined, b: SqlValue | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) {
    return (a ?? null) === (b ?? null);
  }
  if (Buffer.isBuffer(a) || Buffer.isBuffer(b))
    return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
  return String(a) === String(b);
}

function columnsOf<T extends TableName>(row: StoreRow<T>): WritableColumnOf<T>[] {
  return Object.keys(row) as WritableColumnOf<T>[];
}

function gameKey(round: number | bigint, white: SqlValue, black: SqlValue): string {
  return `${String(round)}:${String(white)}:${String(black)}`;
}

/**
 * Updates tournament `id` to the reading `t` (as convertTrf gives it), at instant `now`. Columns
 * in `keep` (e.g. the tie-breaks when the file names none) and columns the reading leaves empty
 * keep their stored values. The caller runs it inside a transaction.
 */
export function updateTournament(
  w: StoreWriter,
  id: number | bigint,
  t: Tournament,
  now: string,
  keep: ReadonlySet<string> = new Set(),
): TournamentChanges {
  const changes: TournamentChanges = {
    tournament: [],
    players: { added: [], changed: [], removed: [] },
    rounds: { added: [], changed: [], removed: [] },
    schedule: false,
    teams: false,
    games: { added: 0, removed: 0 },
    results: [],
    changed: false,
  };

  // The tournament's own columns.
  const wanted = tournamentRow(t);
  const columns = columnsOf(wanted).filter((c) => !NOT_FROM_THE_SOURCE.has(c) && !keep.has(c));
  const [stored] = w.select("tournaments", columns, { tournament_id: id });
  const set: StoreRow<"tournaments"> = {};
  for (const c of columns) {
    const value = wanted[c];
    if (value === null || value === undefined) continue; // the reading does not say
    if (!same(stored![c], value)) {
      (set as Record<string, SqlValue>)[c] = value;
      changes.tournament.push(c);
    }
  }

  // Players, by source player number.
  const playerColumns = columnsOf(playerRow(id, t.players[0] ?? ({} as never)));
  const storedPlayers = new Map(
    w
      .select("players", playerColumns, { tournament_id: id })
      .map((r) => [Number(r["source_player_number"]), r]),
  );
  for (const p of t.players) {
    const row = playerRow(id, p);
    const old = storedPlayers.get(p.sourcePlayerNumber);
    storedPlayers.delete(p.sourcePlayerNumber);
    if (!old) {
      w.insert("players", row);
      changes.players.added.push(p.sourcePlayerNumber);
      continue;
    }
    const diff: StoreRow<"players"> = {};
    for (const c of playerColumns) {
      if (!same(old[c], row[c])) (diff as Record<string, SqlValue>)[c] = row[c] ?? null;
    }
    if (Object.keys(diff).length > 0) {
      w.update("players", { tournament_id: id, source_player_number: p.sourcePlayerNumber }, diff);
      changes.players.changed.push(p.sourcePlayerNumber);
    }
  }
  for (const n of storedPlayers.keys()) {
    w.delete("players", { tournament_id: id, source_player_number: n });
    changes.players.removed.push(n);
  }

  // Games, matched by round and players; every stored game is rewritten with its carried times.
  const storedGames = new Map(
    w
      .select(
        "games",
        [
          "round_number",
          "board_number",
          "white_player_number",
          "black_player_number",
          "raw_result",
          "result",
          "bye_kind",
          "provisional_points",
          "first_seen_at",
          "result_changed_at",
        ],
        { tournament_id: id },
      )
      .map((g) => [
        gameKey(Number(g["round_number"]), g["white_player_number"]!, g["black_player_number"]!),
        g,
      ]),
  );
  const storedRounds = new Map(
    w
      .select("rounds", ["round_number", "first_scraped_at", "last_source_change_at"], { tournament_id: id })
      .map((r) => [Number(r["round_number"]), r]),
  );
  w.delete("games", { tournament_id: id });
  const roundsChanged = new Set<number>();
  const games: { round: number; game: Game }[] = [];
  for (const r of t.rounds) {
    for (const g of r.games) {
      const key = gameKey(r.roundNumber, g.whitePlayerNumber, g.blackPlayerNumber);
      const old = storedGames.get(key);
      storedGames.delete(key);
      const game: Game = { ...g, firstSeenAt: now, lastSeenAt: now, resultChangedAt: null };
      if (!old) {
        if (g.result !== "Pending") game.resultChangedAt = now;
        changes.games.added++;
        roundsChanged.add(r.roundNumber);
      } else {
        game.firstSeenAt = String(old["first_seen_at"]);
        const resultChanged = !same(old["result"], g.result) || !same(old["raw_result"], g.rawResult);
        if (resultChanged) {
          game.resultChangedAt = g.result === "Pending" ? null : now;
          changes.results.push({
            round: r.roundNumber,
            white: g.whitePlayerNumber!,
            black: g.blackPlayerNumber,
            from: String(old["result"]),
            to: g.result,
          });
        } else {
          game.resultChangedAt = old["result_changed_at"] === null ? null : String(old["result_changed_at"]);
        }
        if (
          resultChanged ||
          !same(old["board_number"], g.boardNumber) ||
          !same(old["bye_kind"], g.byeKind) ||
          !same(old["provisional_points"], g.provisionalPoints)
        ) {
          roundsChanged.add(r.roundNumber);
        }
      }
      games.push({ round: r.roundNumber, game });
    }
  }
  for (const old of storedGames.values()) {
    changes.games.removed++;
    roundsChanged.add(Number(old["round_number"]));
  }

  // Rounds: retrieval time for each read round, change time for the changed ones.
  const readRounds = new Set(t.rounds.map((r) => r.roundNumber));
  for (const [n] of storedRounds) {
    if (readRounds.has(n)) continue;
    w.delete("rounds", { tournament_id: id, round_number: n });
    changes.rounds.removed.push(n);
  }
  for (const r of t.rounds) {
    const old = storedRounds.get(r.roundNumber);
    if (!old) {
      w.insert(
        "rounds",
        roundRow(id, { ...r, firstScrapedAt: now, lastScrapedAt: now, lastSourceChangeAt: now }),
      );
      changes.rounds.added.push(r.roundNumber);
      continue;
    }
    const changed = roundsChanged.has(r.roundNumber);
    if (changed) changes.rounds.changed.push(r.roundNumber);
    w.update(
      "rounds",
      { tournament_id: id, round_number: r.roundNumber },
      { last_scraped_at: now, ...(changed ? { last_source_change_at: now } : {}) },
    );
  }
  for (const { round, game } of games) w.insert("games", gameRow(id, round, game));

  // The schedule (TRF record 132) is replaced when the file gives one that differs; a file
  // without one keeps the stored schedule, as for the tournament's other columns.
  if (t.schedule.length > 0) {
    const text = (r: {
      round_number?: unknown;
      scheduled_date?: unknown;
      scheduled_time?: unknown;
    }): string =>
      `${String(r.round_number)}|${String(r.scheduled_date ?? "")}|${String(r.scheduled_time ?? "")}`;
    const stored = w
      .select("round_schedule", ["round_number", "scheduled_date", "scheduled_time"], { tournament_id: id })
      .map(text)
      .sort();
    const wanted = t.schedule.map((r) => text(scheduleRow(id, r))).sort();
    if (stored.join("\n") !== wanted.join("\n")) {
      w.delete("round_schedule", { tournament_id: id });
      for (const r of t.schedule) w.insert("round_schedule", scheduleRow(id, r));
      changes.schedule = true;
    }
  }

  changes.teams = replaceTeamEvent(w, id, t.team);

  changes.changed =
    changes.teams ||
    changes.tournament.length > 0 ||
    changes.players.added.length + changes.players.changed.length + changes.players.removed.length > 0 ||
    changes.rounds.added.length + changes.rounds.changed.length + changes.rounds.removed.length > 0 ||
    changes.games.added + changes.games.removed + changes.results.length > 0 ||
    changes.schedule;
  w.update(
    "tournaments",
    { tournament_id: id },
    {
      ...set,
      last_scraped_at: now,
      ...(changes.changed ? { last_source_change_at: now } : {}),
    },
  );
  return changes;
}
