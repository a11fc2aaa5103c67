// Random edits of a store for the incremental tests (fast-check arbitraries and their writes):
// players renamed, results changed, tournaments unpublished, published, drafted, tagged, recapped,
// deleted or given a new external id, clubs renamed, moved or disabled, catalogs changed, private
// columns edited. Each edit picks its row by index among the rows there are, so any sequence
// applies to any store.
import type Database from "better-sqlite3";
import fc from "fast-check";

export type Edit =
  | { kind: "renamePlayer"; k: number; name: string }
  | { kind: "result"; k: number; raw: string }
  | { kind: "unpublish"; k: number }
  | { kind: "publish"; k: number }
  | { kind: "draft"; k: number }
  | { kind: "tag"; k: number; tag: string }
  | { kind: "recap"; k: number; language: string }
  | { kind: "club"; k: number; change: "enabled" | "name" | "slug" }
  | { kind: "catalog"; k: number; club: number }
  | { kind: "private"; k: number }
  | { kind: "externalId"; k: number }
  | { kind: "delete"; k: number };

export const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant("renamePlayer" as const),
    k: fc.nat(400),
    name: fc.constantFrom("Zoë Ñúñez", "Otto Renamed", "Li Na"),
  }),
  fc.record({
    kind: fc.constant("result" as const),
    k: fc.nat(400),
    raw: fc.constantFrom("1 - 0", "0 - 1", "½ - ½"),
  }),
  fc.record({ kind: fc.constant("unpublish" as const), k: fc.nat(20) }),
  fc.record({ kind: fc.constant("publish" as const), k: fc.nat(20) }),
  fc.record({ kind: fc.constant("draft" as const), k: fc.nat(20) }),
  fc.record({
    kind: fc.constant("tag" as const),
    k: fc.nat(20),
    tag: fc.constantFrom("open", "junior", "blitz"),
  }),
  fc.record({
    kind: fc.constant("recap" as const),
    k: fc.nat(20),
    language: fc.constantFrom("es", "en", "fr"),
  }),
  fc.record({
    kind: fc.constant("club" as const),
    k: fc.nat(5),
    change: fc.constantFrom("enabled" as const, "name" as const, "slug" as const),
  }),
  fc.record({ kind: fc.constant("catalog" as const), k: fc.nat(20), club: fc.nat(5) }),
  fc.record({ kind: fc.constant("private" as const), k: fc.nat(20) }),
  fc.record({ kind: fc.constant("externalId" as const), k: fc.nat(20) }),
  fc.record({ kind: fc.constant("delete" as const), k: fc.nat(20) }),
);

function nth<T>(db: Database.Database, sql: string, k: number): T | undefined {
  const rows = db.prepare(sql).all() as T[];
  return rows.length ? rows[k % rows.length] : undefined;
}

let serial = 0;

/** A tournament's rows, children first (foreign keys are on). */
const DELETE_ORDER = [
  "source_standing_rows",
  "source_standings",
  "games",
  "round_schedule",
  "rounds",
  "recaps",
  "players",
  "club_tournament_tags",
  "club_tournaments",
  "publication_tags",
  "publications",
  "tournaments",
];
export function apply(db: Database.Database, e: Edit): void {
  const tournament = () =>
    nth<{ id: number }>(db, "SELECT tournament_id AS id FROM tournaments ORDER BY 1", e.k)!.id;
  switch (e.kind) {
    case "renamePlayer": {
      const p = nth<{ t: number; n: number }>(
        db,
        "SELECT tournament_id AS t, source_player_number AS n FROM players ORDER BY 1, 2",
        e.k,
      )!;
      db.prepare("UPDATE players SET name = ? WHERE tournament_id = ? AND source_player_number = ?").run(
        `${e.name} ${++serial}`,
        p.t,
        p.n,
      );
      return;
    }
    case "result": {
      const g = nth<{ t: number; r: number; b: number }>(
        db,
        `SELECT tournament_id AS t, round_number AS r, board_number AS b FROM games
         WHERE white_player_number IS NOT NULL AND black_player_number IS NOT NULL ORDER BY 1, 2, 3`,
        e.k,
      )!;
      db.prepare(
        "UPDATE games SET raw_result = ?, result = NULL WHERE tournament_id = ? AND round_number = ? AND board_number = ?",
      ).run(e.raw, g.t, g.r, g.b);
      return;
    }
    case "unpublish": {
      const t = nth<{ id: number }>(db, "SELECT tournament_id AS id FROM publications ORDER BY 1", e.k)?.id;
      if (t === undefined) return;
      db.prepare("DELETE FROM publication_tags WHERE tournament_id = ?").run(t);
      db.prepare("DELETE FROM publications WHERE tournament_id = ?").run(t);
      return;
    }
    case "publish":
      db.prepare("INSERT OR IGNORE INTO publications (tournament_id, published_at) VALUES (?, ?)").run(
        tournament(),
        "2026-11-01T00:00:00Z",
      );
      return;
    case "draft":
      db.prepare("UPDATE tournaments SET is_draft = 1 - is_draft WHERE tournament_id = ?").run(tournament());
      return;
    case "tag": {
      const t = nth<{ id: number }>(db, "SELECT tournament_id AS id FROM publications ORDER BY 1", e.k)?.id;
      if (t !== undefined)
        db.prepare("INSERT OR IGNORE INTO publication_tags (tournament_id, tag) VALUES (?, ?)").run(t, e.tag);
      return;
    }
    case "recap":
      db.prepare(
        `INSERT INTO recaps (tournament_id, language, kind, round_number, headline, preview, paragraphs, is_draft)
         VALUES (?, ?, 'Preview', NULL, ?, NULL, '["A paragraph."]', 0)`,
      ).run(tournament(), e.language, `Headline ${++serial}`);
      return;
    case "club": {
      const c = nth<{ id: number }>(db, "SELECT club_id AS id FROM clubs ORDER BY 1", e.k)!.id;
      const sql = {
        enabled: "UPDATE clubs SET enabled = 1 - enabled WHERE club_id = ?",
        name: `UPDATE clubs SET name = 'Renamed club ${++serial}' WHERE club_id = ?`,
        slug: `UPDATE clubs SET slug = 'club-${++serial}' WHERE club_id = ?`,
      }[e.change];
      db.prepare(sql).run(c);
      return;
    }
    case "catalog": {
      const c = nth<{ id: number }>(db, "SELECT club_id AS id FROM clubs ORDER BY 1", e.club)!.id;
      db.prepare(
        "INSERT OR IGNORE INTO club_tournaments (club_id, tournament_id, display_order) VALUES (?, ?, ?)",
      ).run(c, tournament(), e.k);
      return;
    }
    case "private":
      db.prepare("UPDATE tournaments SET internal_notes = ? WHERE tournament_id = ?").run(
        `note ${++serial}`,
        tournament(),
      );
      return;
    case "externalId":
      // A fresh id: the tournament's answers move, the old ones go.
      db.prepare("UPDATE tournaments SET external_id = ? WHERE tournament_id = ?").run(
        900_000 + ++serial,
        tournament(),
      );
      return;
    case "delete": {
      const t = tournament();
      for (const table of DELETE_ORDER) db.prepare(`DELETE FROM ${table} WHERE tournament_id = ?`).run(t);
      return;
    }
  }
}
