// The bucket's ledger object: the SQLite file and the inputs record packed into one gzip, read back
// byte for byte; bytes of another format or damaged are refused (the opener then starts anew), and
// a ledger written through one working copy opens through another after a pack and an unpack.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { packLedger, unpackLedger, workingCopy } from "../../../src/ledger/bucket-site.ts";
import { INPUTS_FILE } from "../../../src/ledger/inputs.ts";

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(path.join(tmpdir(), "bucket-site-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the packed ledger", () => {
  it("gives back both parts byte for byte, and a missing part as missing", () => {
    const database = Buffer.from([0, 1, 2, 10, 255, 10]);
    const inputs = Buffer.from('{"a":1}\n');
    expect(unpackLedger(packLedger({ database, inputs }))).toEqual({ database, inputs });
    expect(unpackLedger(packLedger({ inputs }))).toEqual({ inputs });
    expect(unpackLedger(packLedger({}))).toEqual({});
  });

  it("refuses bytes that are not one: not gzip, another header, cut short, trailing bytes", () => {
    const good = packLedger({ database: Buffer.from("db"), inputs: Buffer.from("in") });
    expect(unpackLedger(Buffer.from("plain"))).toBeUndefined();
    expect(unpackLedger(gzipSync("build-api-ledger 9\n2\ndb2\nin"))).toBeUndefined();
    expect(unpackLedger(gzipSync("build-api-ledger 1\n5\ndb"))).toBeUndefined();
    expect(unpackLedger(gzipSync("build-api-ledger 1\n2\ndb2\ninXX"))).toBeUndefined();
    expect(unpackLedger(good)).toBeDefined();
  });
});

describe("a working copy", () => {
  it("carries a ledger and its inputs record from one runner to another", () => {
    const a = workingCopy(path.join(temp(), "ledger"));
    expect(a.unpack(undefined)).toBe(true);
    expect(a.exists()).toBe(false);
    const ledger = a.open();
    const log = ledger.log;
    ledger.close();
    writeFileSync(path.join(a.dir, INPUTS_FILE), '{"store":"k"}');
    const packed = a.pack();

    const b = workingCopy(path.join(temp(), "ledger"));
    expect(b.unpack(packed)).toBe(true);
    const again = b.openReadOnly();
    expect(again.log).toBe(log);
    expect(again.generation).toBe(0);
    again.close();
    expect(readFileSync(path.join(b.dir, INPUTS_FILE), "utf8")).toBe('{"store":"k"}');
    // Unpacking nothing empties the copy (no stale inputs record left behind).
    expect(b.unpack(undefined)).toBe(true);
    expect(existsSync(path.join(b.dir, INPUTS_FILE))).toBe(false);
    expect(b.exists()).toBe(false);
    // Bytes of another format are refused.
    expect(b.unpack(Buffer.from("not a ledger"))).toBe(false);
  });
});
