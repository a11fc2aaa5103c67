// What a writer has just written, checked by the build's own reader before it commits: a value
// that every later build would refuse (a control or bidirectional character, a name too long, a
// number out of range, too many rounds ...) is refused by the writer instead, with the same
// words. One definition of the rules: the reader's (store/read/cells.ts, columns.ts, limits.ts,
// formats.ts), run over the rows inside the writer's transaction.
import { basename } from "node:path";
import type Database from "better-sqlite3";
import type { Problem } from "../../shared/errors.ts";
import { RowCheck, type SqlRow } from "../read/cells.ts";
import { readClub } from "../read/clubs.ts";
import { StoreReader } from "../read/reader.ts";
import { selectAll } from "../columns.ts";

/**
 * Every problem a build would report in tournament `rowId`'s rows. An unpublished tournament is
 * checked as if it were published (a savepoint adds a publication and takes it back): publishing
 * it later must not be what reveals a bad value. Run inside the writer's transaction.
 */
export function tournamentProblems(db: Database.Database, file: string, rowId: number | bigint): Problem[] {
  db.exec("SAVEPOINT verify_tournament");
  try {
    db.prepare(
      "INSERT INTO publications (tournament_id, published_at) SELECT ?, '1970-01-01T00:00:00Z' " +
        "WHERE NOT EXISTS (SELECT 1 FROM publications WHERE tournament_id = ?)",
    ).run(rowId, rowId);
    // The reader works on this connection, inside the transaction; it is not closed (that would
    // close the writer's connection).
    return new StoreReader(db, file).loadTournament(Number(rowId)).problems;
  } finally {
    db.exec("ROLLBACK TO verify_tournament");
    db.exec("RELEASE verify_tournament");
  }
}

/** Every problem a build would report in the clubs row `clubId`. */
export function clubProblems(db: Database.Database, file: string, clubId: number | bigint): Problem[] {
  const row = db
    .prepare<[number | bigint], SqlRow>(`SELECT ${selectAll("clubs")} FROM clubs WHERE club_id = ?`)
    .safeIntegers(true)
    .get(clubId);
  const problems: Problem[] = [];
  if (row) readClub(new RowCheck(basename(file), "clubs", row, ["club_id"], problems));
  return problems;
}
