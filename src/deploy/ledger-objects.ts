// The bucket's side of the split ledger (ledger/ledger-groups.ts): the group objects under
// `<prefix>_build-api-ledger/`, loaded into the working copy only for the groups a run reads, and
// written back under content-addressed names before the index that names them is switched.
//
// The crash protocol, around the index's conditional put (the commit point):
//   open    the garbage the index lists (objects an earlier run replaced) and the objects a dead
//           run planned (its pending groups) are removed, less any the index still names; a delta
//           staged by a run whose deploy record was written is applied to its groups' old rows;
//   stage   the groups the delta changes are cut (applied in a transaction rolled back), their new
//           names put in the index as pending, the index put, then the new objects uploaded;
//   commit  after the deploy record: the delta applied, the map switched to the new names, the
//           replaced ones listed as garbage, the index put (If-Match), the garbage removed.
// A run killed anywhere leaves either the old index (its objects intact) or the new one.
//
// The players' layout (how many groups they are hashed into) is the index's (`ledger_layout`): a
// run that finds it no longer fits the player count (or finds format 2's fixed 4,096 groups, whose
// tournament groups lack their records' FIDE IDs) loads every group at open, and its stage cuts
// every group anew under the layout that fits; the layout it stages is pending with the delta, so a
// run that recovers the delta cuts the same.
import type Database from "better-sqlite3";
import type { Bookkeeping } from "../ledger/bookkeeping.ts";
import {
  extractGroups,
  groupObjectName,
  groupOfOwner,
  groupOfRecord,
  GROUPS_SCHEMA,
  keepsLayout,
  LEGACY_LAYOUT,
  loadGroup,
  playerLayoutFor,
  type PlayerLayout,
} from "../ledger/ledger-groups.ts";
import type { LedgerNeeds } from "../ledger/needs.ts";
import { BuildError, EXIT } from "../shared/errors.ts";
import type { Bucket } from "./bucket.ts";
import { pool } from "./pool.ts";

/** The folder of the group objects, beside the index (LEDGER_KEY) under the prefix. */
export const LEDGER_OBJECTS = "_build-api-ledger/";

/** Past this share of the groups missing, every group is loaded at once (a build that renders most). */
const LOAD_ALL_SHARE = 0.25;

type Request = <T>(doing: string, op: () => Promise<T>) => Promise<T>;

export class LedgerObjects implements LedgerNeeds {
  /** Groups a build read that are not loaded: fetched before it runs again. */
  readonly missing = new Set<string>();
  readonly read = { objects: 0, bytes: 0 };
  readonly written = { objects: 0, bytes: 0, removed: 0 };
  private readonly loaded = new Set<string>();
  /** Groups changed in the copy by a recovered delta (written back with this run's). */
  private readonly recovered = new Set<string>();
  /** The bodies cut by stage, by object name, until they are uploaded. */
  private bodies = new Map<string, Buffer>();
  /** The players' layout the map's names follow, and the one a recovered delta was staged under. */
  private layout: PlayerLayout;
  private forced: PlayerLayout | undefined;
  private ledger: Bookkeeping;
  private readonly bucket: Bucket;
  private readonly request: Request;
  private readonly concurrency: number;

  constructor(ledger: Bookkeeping, bucket: Bucket, request: Request, concurrency: number) {
    this.ledger = ledger;
    this.bucket = bucket;
    this.request = request;
    this.concurrency = concurrency;
    this.db.exec(GROUPS_SCHEMA);
    this.layout = this.layoutRow("players") ?? LEGACY_LAYOUT;
  }

  private layoutRow(k: string): PlayerLayout | undefined {
    return this.db.prepare<[string], number>("SELECT v FROM ledger_layout WHERE k = ?").pluck().get(k);
  }

  private get db(): Database.Database {
    return this.ledger.connection;
  }

  /** The copy was opened again (the send closes it to pack it). */
  attach(ledger: Bookkeeping): void {
    this.ledger = ledger;
    ledger.needs = this;
  }

  private objectOf(group: string): string | undefined {
    return this.db
      .prepare<[string], string>("SELECT object FROM ledger_groups WHERE grp = ?")
      .pluck()
      .get(group);
  }

  private need(group: string | null): void {
    if (group !== null && !this.loaded.has(group) && this.objectOf(group) !== undefined)
      this.missing.add(group);
  }

  owner(owner: string): void {
    this.need(groupOfOwner(owner, this.layout));
  }

  record(key: string): void {
    this.need(groupOfRecord(key, this.layout));
  }

  playerCount(): number {
    return this.db.prepare<[], number>("SELECT coalesce(sum(players), 0) FROM ledger_groups").pluck().get()!;
  }

  private allGroups(): string[] {
    return this.db.prepare<[], string>("SELECT grp FROM ledger_groups").pluck().all();
  }

  /** Fetches and loads the groups not loaded yet (those with no object have no rows). */
  async load(groups: Iterable<string>): Promise<void> {
    const todo = [...new Set(groups)].flatMap((g) => {
      const object = this.loaded.has(g) ? undefined : this.objectOf(g);
      return object === undefined ? [] : [[g, object] as const];
    });
    await pool(todo, this.concurrency, async ([g, object]) => {
      const key = LEDGER_OBJECTS + object;
      const body = await this.request("reading the ledger's objects", () => this.bucket.get(key));
      if (body === undefined) throw gone(key);
      this.read.objects++;
      this.read.bytes += body.length;
      loadGroup(this.db, body);
      this.loaded.add(g);
    });
  }

  /** Every group (a full comparison, a build that renders most of the store). */
  async loadAll(): Promise<void> {
    await this.load(this.allGroups());
  }

  /** Loads what the last build missed (every group past LOAD_ALL_SHARE of them); false: nothing was. */
  async loadMissing(): Promise<boolean> {
    if (this.missing.size === 0) return false;
    const groups = [...this.missing];
    this.missing.clear();
    if (groups.length > this.allGroups().length * LOAD_ALL_SHARE) await this.loadAll();
    else await this.load(groups);
    return true;
  }

  /**
   * At open, before the ledger's recover: removes the garbage the index lists and the objects a
   * dead run planned, less those the index names; loads the old rows of the groups a delta to be
   * applied (target `applies`) changes. The copy then holds no pending groups and no garbage.
   */
  async settle(applies: boolean): Promise<void> {
    const db = this.db;
    const planned = db
      .prepare<[], { grp: string; object: string | null }>("SELECT grp, object FROM pending_ledger_groups")
      .all();
    const named = new Set(db.prepare<[], string>("SELECT object FROM ledger_groups").pluck().all());
    const listed = db.prepare<[], string>("SELECT object FROM ledger_garbage").pluck().all();
    const drop = [...new Set([...listed, ...planned.flatMap((p) => (p.object === null ? [] : [p.object]))])];
    await this.remove(drop.filter((o) => !named.has(o)));
    const pendingLayout = this.layoutRow("pending");
    db.exec(
      "DELETE FROM pending_ledger_groups; DELETE FROM ledger_garbage; DELETE FROM ledger_layout WHERE k = 'pending'",
    );
    if (applies) {
      await this.load(planned.map((p) => p.grp));
      for (const p of planned) this.recovered.add(p.grp);
      this.forced = pendingLayout;
    }
    // A layout to change (or format 2's to convert): every group is cut anew, so all are read.
    if (!keepsLayout(this.layout, this.playerCount()) && this.forced === undefined) await this.loadAll();
  }

  /**
   * The players' layout to cut under: the recovered delta's, or the live one while it fits the
   * players the copy will hold (those of the groups not loaded, and those loaded, after the delta),
   * or, when every group is loaded, the one that fits them.
   */
  private targetLayout(): PlayerLayout {
    if (this.forced !== undefined) return this.forced;
    const db = this.db;
    const map = db
      .prepare<[], { grp: string; players: number }>("SELECT grp, players FROM ledger_groups")
      .all();
    const loaded = db
      .prepare<[], number>("SELECT count(*) FROM records WHERE key >= 'p:' AND key < 'p;'")
      .pluck()
      .get()!;
    const players = map.reduce((n, r) => n + (this.loaded.has(r.grp) ? 0 : r.players), loaded);
    if (keepsLayout(this.layout, players) || !map.every((r) => this.loaded.has(r.grp))) return this.layout;
    return playerLayoutFor(players);
  }

  /** Every group of the map and every group the copy's rows make under `layout` (all are loaded). */
  private everyGroup(layout: PlayerLayout): Set<string> {
    const db = this.db;
    const out = new Set(this.allGroups());
    const owners = db
      .prepare<[], string>("SELECT owner FROM owners WHERE owner >= 't/' AND owner < 't0'")
      .pluck();
    for (const o of owners.iterate()) {
      const g = groupOfOwner(o, layout);
      if (g !== null) out.add(g);
    }
    const records = db
      .prepare<[], string>(
        "SELECT key FROM records WHERE (key >= 'p:' AND key < 'p;') OR (key >= 's:' AND key < 's;')",
      )
      .pluck();
    for (const k of records.iterate()) out.add(groupOfRecord(k, layout)!);
    return out;
  }

  /** The groups the pending delta changes (read before the build's own delta is applied). */
  private dirty(): Set<string> {
    const db = this.db;
    const out = new Set(this.recovered);
    const complete = db
      .prepare<[], string>(
        "SELECT v FROM pending_meta WHERE k IN ('completeFiles', 'completeRecords') AND v = '1'",
      )
      .pluck()
      .get();
    if (complete !== undefined) for (const g of this.allGroups()) out.add(g);
    const owners = db
      .prepare<[], string>(
        `SELECT owner FROM pending_files WHERE owner IS NOT NULL
         UNION SELECT f.owner FROM pending_files p CROSS JOIN files f ON f.path = p.path`,
      )
      .pluck()
      .all();
    for (const o of owners) {
      const g = groupOfOwner(o, this.layout);
      if (g !== null) out.add(g);
    }
    for (const k of db.prepare<[], string>("SELECT key FROM pending_records").pluck().all()) {
      const g = groupOfRecord(k, this.layout);
      if (g !== null) out.add(g);
    }
    return out;
  }

  /**
   * Before the index with the pending delta is put: cuts the changed groups as they will be once
   * the delta is applied (applied in a transaction rolled back), and names them as pending.
   * `applied`: the delta is applied already (a recovered one alone, no build of this run's).
   */
  stage(applied = false): void {
    const db = this.db;
    const dirty = applied ? new Set(this.recovered) : this.dirty();
    let layout = this.layout;
    const cutAll = (): ReturnType<typeof extractGroups> => {
      layout = this.targetLayout();
      return extractGroups(db, layout === this.layout ? dirty : this.everyGroup(layout), layout);
    };
    let cut: ReturnType<typeof extractGroups>;
    if (applied) cut = cutAll();
    else {
      db.exec("BEGIN");
      try {
        this.ledger.apply();
        cut = cutAll();
      } finally {
        db.exec("ROLLBACK");
      }
    }
    db.prepare("INSERT OR REPLACE INTO ledger_layout (k, v) VALUES ('pending', ?)").run(layout);
    const put = db.prepare(
      "INSERT OR REPLACE INTO pending_ledger_groups (grp, object, players) VALUES (?, ?, ?)",
    );
    this.bodies = new Map();
    for (const [g, blob] of cut) {
      const object = blob && groupObjectName(g, blob.body);
      if (object === this.objectOf(g) || (object === null && this.objectOf(g) === undefined)) continue;
      put.run(g, object, blob?.players ?? 0);
      if (blob && object) this.bodies.set(object, blob.body);
    }
  }

  /** Uploads the objects stage cut (new names: nothing live is overwritten). */
  async upload(): Promise<void> {
    const items = [...this.bodies];
    await pool(items, this.concurrency, async ([object, body]) => {
      await this.request("writing the ledger's objects", () =>
        this.bucket.put({ key: LEDGER_OBJECTS + object, body, contentType: "application/gzip" }),
      );
      this.written.objects++;
      this.written.bytes += body.length;
    });
    this.bodies = new Map();
  }

  /** After the delta is applied: the map takes the pending names; the replaced ones become garbage. */
  switchMap(): string[] {
    const db = this.db;
    const garbage: string[] = [];
    db.transaction(() => {
      const rows = db
        .prepare<[], { grp: string; object: string | null; players: number }>(
          "SELECT grp, object, players FROM pending_ledger_groups",
        )
        .all();
      const setMap = db.prepare(
        "INSERT OR REPLACE INTO ledger_groups (grp, object, players) VALUES (?, ?, ?)",
      );
      const drop = db.prepare("DELETE FROM ledger_groups WHERE grp = ?");
      const addGarbage = db.prepare("INSERT OR IGNORE INTO ledger_garbage (object) VALUES (?)");
      for (const r of rows) {
        const old = this.objectOf(r.grp);
        if (old !== undefined && old !== r.object) {
          addGarbage.run(old);
          garbage.push(old);
        }
        if (r.object === null) drop.run(r.grp);
        else setMap.run(r.grp, r.object, r.players);
        this.loaded.add(r.grp);
      }
      db.exec("DELETE FROM pending_ledger_groups");
      this.layout = this.layoutRow("pending") ?? this.layout;
      db.prepare("INSERT OR REPLACE INTO ledger_layout (k, v) VALUES ('players', ?)").run(this.layout);
      db.exec("DELETE FROM ledger_layout WHERE k = 'pending'");
    })();
    this.recovered.clear();
    this.forced = undefined;
    return garbage;
  }

  /** Whether a recovered delta left groups to write back, or the layout is to change (format 2's converted). */
  get owesWriteBack(): boolean {
    return this.recovered.size > 0 || this.targetLayout() !== this.layout;
  }

  async remove(objects: readonly string[]): Promise<void> {
    await pool(objects, this.concurrency, async (object) => {
      await this.request("removing the ledger's old objects", () =>
        this.bucket.remove(LEDGER_OBJECTS + object),
      );
      this.written.removed++;
    });
  }
}

function gone(key: string): BuildError {
  return new BuildError(
    "The bucket's ledger names an object that is not there.",
    [
      {
        what: "a group object of the ledger is missing (removed by hand, or by a lifecycle rule)",
        where: key,
        fix: "remove the ledger's index `_build-api-ledger.gz` under the prefix and publish again: the run then compares every file",
      },
    ],
    EXIT.deploy,
  );
}
