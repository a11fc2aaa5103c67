// The ledger split for a bucket (issue 48, docs/design/ledger.md "A ledger in a bucket"): a small
// index (the SQLite file less the rows of the groups below, with the map of each group's object)
// and one object per group, fetched only for the groups a tick reads. A group is
//   t/<id>     a tournament's files (its record stays in the index: the planner reads them all)
//   p/<xyz>    the players whose FIDE ID hashes to xyz (one of PLAYER_GROUPS): their files and records
//   s:<bound>  one search chunk's record (its file, one, stays in the index with the lists')
// Everything else (the lists, the host files, the search root and sections, the meta, the members,
// the tournaments' records) is the index. Nothing here touches a bucket: deploy/ledger-objects.ts does.
import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import type Database from "better-sqlite3";
import { RECORD_COLUMNS } from "./records.ts";

/** How many groups the players are hashed into: about 25 players a group at M, 250 at L. */
export const PLAYER_GROUPS = 4096;

const PLAYER_OWNER = "t/~players/";

function playerGroup(fideId: string): string {
  const h = createHash("sha1").update(fideId).digest().readUInt16BE(0) % PLAYER_GROUPS;
  return `p/${h.toString(16).padStart(3, "0")}`;
}

/** The group holding an owner's files and owners row; null: the index holds them. */
export function groupOfOwner(owner: string): string | null {
  if (owner.startsWith(PLAYER_OWNER)) return playerGroup(owner.slice(PLAYER_OWNER.length));
  if (owner.startsWith("t/") && owner.length > 2 && owner[2] !== "~") return owner;
  return null;
}

/** The group holding a record; null: the index holds it. */
export function groupOfRecord(key: string): string | null {
  if (key.startsWith("p:")) return playerGroup(key.slice(2));
  if (key.startsWith("s:")) return key;
  return null;
}

/** The tables of the split layout, in the working copy (and in the index object). */
export const GROUPS_SCHEMA = `
CREATE TABLE IF NOT EXISTS ledger_groups (grp TEXT PRIMARY KEY, object TEXT NOT NULL, players INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS pending_ledger_groups (grp TEXT PRIMARY KEY, object TEXT, players INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS ledger_garbage (object TEXT PRIMARY KEY) STRICT;
`;

/** Registers the group functions on a connection (the index is cut from a copy by SQL). */
export function groupFunctions(db: Database.Database): void {
  db.function("ledger_owner_group", { deterministic: true }, (o: unknown) => groupOfOwner(String(o)));
  db.function("ledger_record_group", { deterministic: true }, (k: unknown) => groupOfRecord(String(k)));
}

type FileRowOut = [string, string, string, number, number];
interface GroupBlob {
  owners: [string, number, number][];
  files: FileRowOut[];
  records: unknown[][];
}

/**
 * The current rows of `groups` in `db` (the live tables), one gzipped object each; null for a
 * group left with no rows. Reads the owners and the player and search records loaded (a tick: few).
 */
export function extractGroups(
  db: Database.Database,
  groups: ReadonlySet<string>,
): Map<string, { body: Buffer; players: number } | null> {
  const blobs = new Map<string, GroupBlob>();
  const blob = (g: string): GroupBlob => {
    let b = blobs.get(g);
    if (!b) blobs.set(g, (b = { owners: [], files: [], records: [] }));
    return b;
  };
  const filesOf = db.prepare<[string], [string, string, Buffer, number, number]>(
    "SELECT path, owner, sha256, bytes, gen FROM files WHERE owner = ? AND sha256 IS NOT NULL ORDER BY path",
  );
  const owners = db
    .prepare<[], [string, number, number]>(
      "SELECT owner, files, bytes FROM owners WHERE owner >= 't/' AND owner < 't0'",
    )
    .raw();
  for (const [owner, files, bytes] of owners.iterate()) {
    const g = groupOfOwner(owner);
    if (g === null || !groups.has(g)) continue;
    const b = blob(g);
    b.owners.push([owner, files, bytes]);
    for (const [p, o, sha, n, gen] of filesOf.raw().all(owner))
      b.files.push([p, o, sha.toString("base64"), n, gen]);
  }
  const records = db
    .prepare<[], unknown[]>(
      `SELECT ${RECORD_COLUMNS} FROM records WHERE (key >= 'p:' AND key < 'p;') OR (key >= 's:' AND key < 's;') ORDER BY key`,
    )
    .raw();
  for (const r of records.iterate()) {
    const g = groupOfRecord(String(r[0]));
    if (g !== null && groups.has(g)) blob(g).records.push(r);
  }
  const out = new Map<string, { body: Buffer; players: number } | null>();
  for (const g of [...groups].sort()) {
    const b = blobs.get(g);
    if (!b) {
      out.set(g, null);
      continue;
    }
    const players = b.records.filter((r) => String(r[0]).startsWith("p:")).length;
    out.set(g, { body: gzipSync(JSON.stringify(b)), players });
  }
  return out;
}

/** Loads one group object's rows into the live tables (rows already there are left: none are). */
export function loadGroup(db: Database.Database, body: Buffer): void {
  const b = JSON.parse(gunzipSync(body).toString("utf8")) as GroupBlob;
  const cols = RECORD_COLUMNS.split(", ");
  const putOwner = db.prepare("INSERT OR IGNORE INTO owners (owner, files, bytes) VALUES (?, ?, ?)");
  const putFile = db.prepare(
    "INSERT OR IGNORE INTO files (path, owner, sha256, bytes, gen) VALUES (?, ?, ?, ?, ?)",
  );
  const putRecord = db.prepare(
    `INSERT OR IGNORE INTO records (${RECORD_COLUMNS}) VALUES (${cols.map(() => "?").join(", ")})`,
  );
  db.transaction(() => {
    for (const o of b.owners) putOwner.run(...o);
    for (const [p, o, sha, n, gen] of b.files) putFile.run(p, o, Buffer.from(sha, "base64"), n, gen);
    for (const r of b.records) putRecord.run(...r);
  })();
}

/** The object key of a group's content: content-addressed, so a racing or dead run overwrites nothing live. */
export function groupObjectName(group: string, body: Buffer): string {
  const h = createHash("sha256").update(body).digest("hex").slice(0, 20);
  // Letters, digits, dot and dash only: some stores treat `%` and `/` in a name specially.
  const safe = group.replace(/[^A-Za-z0-9.-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
  return `${safe}.${h}.gz`;
}

/**
 * Cuts the index out of a closed copy of the working database (in place): the groups' rows and
 * the tombstones go, and the file is compacted. Reads every loaded row once.
 */
export function cutIndex(db: Database.Database): void {
  groupFunctions(db);
  db.exec(`
    DELETE FROM files WHERE sha256 IS NULL OR ledger_owner_group(owner) IS NOT NULL;
    DELETE FROM owners WHERE ledger_owner_group(owner) IS NOT NULL;
    DELETE FROM records WHERE ledger_record_group(key) IS NOT NULL;
  `);
  db.exec("VACUUM");
}
