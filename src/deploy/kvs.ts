// The CloudFront KeyValueStore the CloudFront Function reads (hosting/hosts/cloudfront/runtime/cloudfront-function.ts): one key
// per `?tag=` target file of the snapshot (kvsKeysOf). A deploy given the store (--kvs-arn) keeps
// it equal to the snapshot in O(change): the tag files it uploads are put and those it removes
// are deleted, in UpdateKeys batches (at most 50 keys and 3 MB each, CloudFront's quota), each
// conditional on the store's ETag (the one before it, from DescribeKeyValueStore). A marker key
// (MARKER_KEY, no tag file's name) says which publication generation the store holds; when it
// is not the one the bucket's record held (a first deploy, a store new to this prefix, a deploy
// killed between the store and the record), the store is listed once and brought to the snapshot
// (every row read: the full comparison). Keys no tag rule names are never touched. The SDK's
// client is kvs-client.ts, loaded only when a store is named (--kvs-arn).
import { hostRules } from "../hosting/rules.ts";
import type { Generation } from "../publish/changes.ts";
import { KVS_VALUE, kvsKeysOf } from "../hosting/hosts/cloudfront/runtime/cloudfront-function.ts";

/** The store's marker: the generation its keys are of (`<log> <generation>`). */
export const MARKER_KEY = "_build-api-deploy";
/** CloudFront's quota on one UpdateKeys: 50 keys (puts and deletes together), 3 MB. */
export const KVS_BATCH_KEYS = 50;
const KVS_BATCH_BYTES = 3 * 1024 * 1024;

/** The calls a deploy makes on the store: the seam the tests replace. */
export interface KeyValueStore {
  /** The store's current ETag (each update must name it). */
  etag(): Promise<string>;
  /** A key's value, undefined when absent. */
  get(key: string): Promise<string | undefined>;
  /** Every key of the store. */
  keys(): Promise<string[]>;
  /** One all-or-nothing update over the ETag `ifMatch`; returns the new ETag. */
  update(ifMatch: string, puts: { key: string; value: string }[], deletes: string[]): Promise<string>;
}

export interface KvsReport {
  /** The store was listed and compared with the whole snapshot (its marker was not the record's). */
  full: boolean;
  puts: number;
  deletes: number;
  /** Requests to the store (describe, marker, list pages counted as one, updates). */
  requests: number;
}

const markerOf = (g: Generation) => `${g.log} ${g.generation}`;

/**
 * Brings the store to the snapshot's `?tag=` keys at generation `to`. `from` is the generation
 * the bucket's record held before this deploy (undefined: none); when the store's marker says the
 * same (and `full` is not asked), only `written` and `removed` (the deploy's uploads and removals)
 * are looked at; otherwise `allFiles()` (every file of the snapshot) is compared with the store's
 * keys.
 */
export async function syncKeyValueStore(
  store: KeyValueStore,
  o: {
    from: Generation | undefined;
    to: Generation;
    written: readonly string[];
    removed: readonly string[];
    allFiles: () => Iterable<string>;
    /** Compare in full whatever the marker says (the deploy's own plan was not from the log). */
    full?: boolean;
  },
): Promise<KvsReport> {
  const rules = hostRules();
  let requests = 2;
  let etag = await store.etag();
  const marker = await store.get(MARKER_KEY);
  const full = o.full === true || o.from === undefined || marker !== markerOf(o.from);
  let puts: string[];
  let deletes: string[];
  if (!full) {
    puts = kvsKeysOf(rules, o.written);
    deletes = kvsKeysOf(rules, o.removed);
  } else {
    const want = new Set(kvsKeysOf(rules, o.allFiles()));
    const have = await store.keys();
    requests++;
    const had = new Set(have);
    puts = [...want].filter((k) => !had.has(k));
    deletes = kvsKeysOf(rules, have).filter((k) => !want.has(k));
  }
  // Batches within the quota; the marker goes with the last one, so it is written only with the
  // last change (a kill before leaves the old marker: the next deploy compares in full).
  const ops: ({ put: string } | { del: string })[] = [
    ...puts.map((k) => ({ put: k })),
    ...deletes.map((k) => ({ del: k })),
  ];
  const batches: (typeof ops)[] = [];
  let bytes = 0;
  for (const op of ops) {
    const size = ("put" in op ? op.put : op.del).length + KVS_VALUE.length + 64;
    const last = batches.at(-1);
    if (!last || last.length >= KVS_BATCH_KEYS - 1 || bytes + size > KVS_BATCH_BYTES) {
      batches.push([op]);
      bytes = size;
    } else {
      last.push(op);
      bytes += size;
    }
  }
  if (batches.length === 0) batches.push([]);
  const markerValue = markerOf(o.to);
  for (const [i, batch] of batches.entries()) {
    const p = batch.flatMap((b) => ("put" in b ? [{ key: b.put, value: KVS_VALUE }] : []));
    const d = batch.flatMap((b) => ("del" in b ? [b.del] : []));
    if (i === batches.length - 1) {
      if (marker === markerValue && p.length === 0 && d.length === 0) break;
      p.push({ key: MARKER_KEY, value: markerValue });
    }
    etag = await store.update(etag, p, d);
    requests++;
  }
  return { full, puts: puts.length, deletes: deletes.length, requests };
}
