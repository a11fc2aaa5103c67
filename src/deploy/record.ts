// The deploy record: what the bucket holds under a prefix, kept in the bucket itself so any machine
// can deploy next (a CI runner keeps no state). Two objects beside the snapshot's keys, which no
// edge rule serves:
// - RECORD_KEY: every key build-api uploaded with the sha256 and size of its bytes, and the digest
//   of the metadata rules they were sent with. Written once, after a deploy has finished.
// - PENDING_KEY: the keys a deploy in progress may have written or removed. Written before the
//   first upload, removed after the record; when a deploy dies, the next one finds it and treats
//   those keys as unknown (sent again if wanted, removed if not), so nothing is left behind.
// Both are gzipped JSON; a normal deploy reads the two and writes the two, never lists the bucket.
import { gunzipSync, gzipSync } from "node:zlib";
import type { SnapshotFile } from "./snapshot-files.ts";

export const RECORD_KEY = "_build-api-deploy.json.gz";
export const PENDING_KEY = "_build-api-deploy.pending.json.gz";
const FORMAT = "build-api-deploy";

export interface DeployRecord {
  /** metadataDigest() of the deploy that wrote the objects. */
  metadata: string;
  files: Map<string, SnapshotFile>;
}

export function encodeRecord(r: DeployRecord): Buffer {
  const files: Record<string, string> = {};
  for (const p of [...r.files.keys()].sort()) {
    const f = r.files.get(p)!;
    files[p] = `${f.sha256} ${f.bytes}`;
  }
  return gzipSync(JSON.stringify({ format: FORMAT, version: 1, metadata: r.metadata, files }), { level: 6 });
}

/** Undefined when the bytes are not a record of this format: the caller then sends everything. */
export function decodeRecord(bytes: Uint8Array): DeployRecord | undefined {
  try {
    const o = JSON.parse(gunzipSync(bytes).toString("utf8")) as {
      format?: unknown;
      version?: unknown;
      metadata?: unknown;
      files?: Record<string, unknown>;
    };
    if (o.format !== FORMAT || o.version !== 1 || typeof o.metadata !== "string") return undefined;
    if (!o.files || typeof o.files !== "object") return undefined;
    const files = new Map<string, SnapshotFile>();
    for (const [p, v] of Object.entries(o.files)) {
      const m = typeof v === "string" ? /^([0-9a-f]{64}) (\d+)$/.exec(v) : null;
      if (!m) return undefined;
      files.set(p, { sha256: m[1]!, bytes: Number(m[2]) });
    }
    return { metadata: o.metadata, files };
  } catch {
    return undefined;
  }
}

export function encodePending(keys: Iterable<string>): Buffer {
  return gzipSync(JSON.stringify({ format: `${FORMAT}-pending`, version: 1, keys: [...keys].sort() }));
}

/** The keys of a pending marker; undefined when unreadable (the caller then distrusts the record). */
export function decodePending(bytes: Uint8Array): string[] | undefined {
  try {
    const o = JSON.parse(gunzipSync(bytes).toString("utf8")) as { format?: unknown; keys?: unknown };
    if (o.format !== `${FORMAT}-pending` || !Array.isArray(o.keys)) return undefined;
    return o.keys.every((k) => typeof k === "string") ? (o.keys as string[]) : undefined;
  } catch {
    return undefined;
  }
}
