// An in-memory CloudFront KeyValueStore for tests: the deploy's seam (deploy/kvs.ts KeyValueStore)
// with CloudFront's rules that matter here (every update names the current ETag or is refused; at
// most 50 keys an update), and the function's side (`cf.kvs()`: exists) over the same keys, so a
// test runs the CloudFront Function against exactly what a deploy wrote.
import type { KeyValueStore } from "../../src/deploy/kvs.ts";

export class MemoryKvs implements KeyValueStore {
  readonly data = new Map<string, string>();
  version = 0;
  /** Each update's size (puts + deletes), in order. */
  readonly updates: number[] = [];
  lists = 0;

  async etag(): Promise<string> {
    return `E${this.version}`;
  }
  async get(key: string): Promise<string | undefined> {
    return this.data.get(key);
  }
  async keys(): Promise<string[]> {
    this.lists++;
    return [...this.data.keys()];
  }
  async update(ifMatch: string, puts: { key: string; value: string }[], deletes: string[]): Promise<string> {
    if (ifMatch !== `E${this.version}`)
      throw Object.assign(new Error("ETag mismatch"), { name: "ConflictException" });
    if (puts.length + deletes.length > 50)
      throw Object.assign(new Error("over 50 keys"), { name: "ValidationException" });
    for (const k of deletes) this.data.delete(k);
    for (const p of puts) {
      if (p.key.length > 512 || p.value.length > 1024) throw new Error(`key or value too long: ${p.key}`);
      this.data.set(p.key, p.value);
    }
    this.updates.push(puts.length + deletes.length);
    return `E${++this.version}`;
  }
  /** The function's handle (`cf.kvs()`), counting its reads. */
  handle(): { exists(key: string): Promise<boolean>; reads: number } {
    const h = {
      reads: 0,
      exists: async (key: string) => {
        h.reads++;
        return this.data.has(key);
      },
    };
    return h;
  }
}
