// The ledger split for a bucket (issue 48, docs/design/ledger.md "A ledger in a bucket"): a small
// index (the SQLite file less the rows of the groups below, with the map of each group's object)
// and one object per group, fetched only for the groups a tick reads. A group is
//   t/<id>       a tournament's files, and its record's FIDE IDs (the rest of the record stays in
//                the index: the planner and the lists read them all; the IDs, most of a record's
//                bytes, only a tick that renders or drops the tournament reads)
//   p<bits>/<h>  the players whose FIDE ID hashes to h (one of 2^bits groups, bits chosen from the
//                player count so a group holds tens of players): their files and records
//   s:<bound>    one search chunk's record (its file, one, stays in the index with the lists')
// Everything else (the lists, the host files, the search root and sections, the meta, the members,
// the tournaments' records less their FIDE IDs) is the index. Nothing here touches a bucket:
// deploy/ledger-objects.ts does.
import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import type Database from "better-sqlite3";
import { RECORD_COLUMNS } from "./records.ts";

/**
 * How the players are hashed into groups: 2^bits groups named `p<bits>/<hex>`, or LEGACY_LAYOUT,
 * format 2's fixed 4,096 groups `p/<xyz>` (read only to convert them).
 */
export type PlayerLayout = number;
export const LEGACY_LAYOUT: PlayerLayout = 0;
const LEGACY_GROUPS = 4096;
/** The players a group aims at once laid out, and the band of averages a layout is kept in. */
export const PLAYERS_PER_GROUP = 32;
const KEEP_FROM = 8;
const KEEP_TO = 128;
// At least 256 groups: a small store's tick reads its own players' groups, not most of them.
const MIN_BITS = 8;
const MAX_BITS = 24;

/** The layout a ledger of `players` players is given: about PLAYERS_PER_GROUP a group. */
export function playerLayoutFor(players: number): PlayerLayout {
  const bits = Math.ceil(Math.log2(Math.max(1, players) / PLAYERS_PER_GROUP));
  return Math.min(MAX_BITS, Math.max(MIN_BITS, bits));
}

/**
 * Whether `layout` still fits `players` (an average between KEEP_FROM and KEEP_TO a group): a
 * layout changes only past a factor of four, so a tick near a bound does not rewrite every group.
 */
export function keepsLayout(layout: PlayerLayout | undefined, players: number): boolean {
  if (layout === undefined || layout === LEGACY_LAYOUT) return false;
  const average = players / 2 ** layout;
  return average <= KEEP_TO && (average >= KEEP_FROM || layout === MIN_BITS);
}

const PLAYER_OWNER = "t/~players/";

function playerGroup(fideId: string, layout: PlayerLayout): string {
  const hash = createHash("sha1").update(fideId).digest();
  if (layout === LEGACY_LAYOUT)
    return `p/${(hash.readUInt16BE(0) % LEGACY_GROUPS).toString(16).padStart(3, "0")}`;
  const h = hash.readUInt32BE(0) >>> (32 - layout);
  return `p${layout}/${h.toString(16).padStart(Math.ceil(layout / 4), "0")}`;
}

/** The group holding an owner's files and owners row; null: the index holds them. */
export function groupOfOwner(owner: string, layout: PlayerLayout): string | null {
  if (owner.startsWith(PLAYER_OWNER)) return playerGroup(owner.slice(PLAYER_OWNER.length), layout);
  if (owner.startsWith("t/") && owner.length > 2 && owner[2] !== "~") return owner;
  return null;
}

/**
 * The group holding a record; null: the index holds it. A tournament's record (`t:<id>`) is in the
 * index, less its FIDE IDs, which its group `t/<id>` holds (see SPLIT_FIELD).
 */
export function groupOfRecord(key: string, layout: PlayerLayout): string | null {
  if (key.startsWith("p:")) return playerGroup(key.slice(2), layout);
  if (key.startsWith("s:")) return key;
  if (key.startsWith("t:")) return `t/${key.slice(2)}`;
  return null;
}

/** The field of a tournament record's detail that its group holds, not the index. */
const SPLIT_FIELD = "fideIds";

/** The tables of the split layout, in the working copy (and in the index object). */
export const GROUPS_SCHEMA = `
CREATE TABLE IF NOT EXISTS ledger_groups (grp TEXT PRIMARY KEY, object TEXT NOT NULL, players INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS pending_ledger_groups (grp TEXT PRIMARY KEY, object TEXT, players INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS ledger_garbage (object TEXT PRIMARY KEY) STRICT;
CREATE TABLE IF NOT EXISTS ledger_layout (k TEXT PRIMARY KEY, v INTEGER NOT NULL) STRICT;
`;

/** Registers the group functions on a connection (the index is cut from a copy by SQL). */
function groupFunctions(db: Database.Database): void {
  // Whether a row is a group's does not depend on the layout.
  db.function("ledger_owner_group", { deterministic: true }, (o: unknown) => groupOfOwner(String(o), 1));
}

type FileRowOut = [string, string, string, number, number];
interface GroupBlob {
  owners: [string, number, number][];
  files: FileRowOut[];
  records: unknown[][];
  /** Tournament records' details whole (the index holds them less SPLIT_FIELD): [key, detail]. */
  details?: [string, string][];
}

/**
 * The current rows of `groups` in `db` (the live tables), one gzipped object each under `layout`;
 * null for a group left with no rows. Reads the owners and the player and search records loaded
 * (a tick: few), and the details of the tournaments of `groups`.
 */
export function extractGroups(
  db: Database.Database,
  groups: ReadonlySet<string>,
  layout: PlayerLayout,
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
    const g = groupOfOwner(owner, layout);
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
    const g = groupOfRecord(String(r[0]), layout);
    if (g !== null && groups.has(g)) blob(g).records.push(r);
  }
  const detailOf = db
    .prepare<[string], string>(
      `SELECT detail FROM records WHERE key = ? AND json_extract(detail, '$.${SPLIT_FIELD}') IS NOT NULL`,
    )
    .pluck();
  for (const [g, b] of blobs) {
    const key = g.startsWith("t/") ? `t:${g.slice(2)}` : undefined;
    const detail = key === undefined ? undefined : detailOf.get(key);
    if (key !== undefined && detail !== undefined) b.details = [[key, detail]];
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

/**
 * Loads one group object's rows into the live tables (rows already there are left: none are), and
 * gives the tournament records in the index back their whole detail.
 */
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
  const putDetail = db.prepare("UPDATE records SET detail = ? WHERE key = ?");
  db.transaction(() => {
    for (const o of b.owners) putOwner.run(...o);
    for (const [p, o, sha, n, gen] of b.files) putFile.run(p, o, Buffer.from(sha, "base64"), n, gen);
    for (const r of b.records) putRecord.run(...r);
    for (const [key, detail] of b.details ?? []) putDetail.run(detail, key);
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
 * Cuts the index out of a closed copy of the working database (in place): the groups' rows, the
 * tournament records' FIDE IDs and the tombstones go, and the file is compacted. Reads every loaded row once.
 */
export function cutIndex(db: Database.Database): void {
  groupFunctions(db);
  db.exec(`
    DELETE FROM files WHERE sha256 IS NULL OR ledger_owner_group(owner) IS NOT NULL;
    DELETE FROM owners WHERE ledger_owner_group(owner) IS NOT NULL;
    DELETE FROM records WHERE (key >= 'p:' AND key < 'p;') OR (key >= 's:' AND key < 's;');
    UPDATE records SET detail = json_remove(detail, '$.${SPLIT_FIELD}')
      WHERE key >= 't:' AND key < 't;' AND json_extract(detail, '$.${SPLIT_FIELD}') IS NOT NULL;
  `);
  db.exec("VACUUM");
}
