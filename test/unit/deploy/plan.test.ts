// The deploy plan: what is sent, in which order, and what is removed, from the snapshot's files
// and the record alone.
import { describe, expect, it } from "vitest";
import { metadataDigest, objectSpec } from "../../../src/deploy/objects.ts";
import { ARCHIVE_CACHE_CONTROL } from "../../../src/hosting/rules.ts";
import { planChanges, planDeploy } from "../../../src/deploy/plan.ts";
import { decodePending, decodeRecord, encodePending, encodeRecord } from "../../../src/deploy/record.ts";
import type { SnapshotFile } from "../../../src/deploy/snapshot-files.ts";

const h = (c: string): SnapshotFile => ({ sha256: c.repeat(64).slice(0, 64), bytes: 10 });
const T = "api/public/v1/tournaments";
const files = new Map<string, SnapshotFile>([
  [`${T}/index.json`, h("a")],
  [`${T}/7/index.json`, h("b")],
  [`${T}/7/rounds/1/index.json`, h("c")],
  [`${T}/7/standings/index.json`, h("d")],
  ["api/clubs/c1/tournaments/index.json", h("e")],
  ["tournaments/7/index.html", h("f")],
  ["index.html", h("1")],
  ["assets/site.css", h("2")],
  ["404.json", h("3")],
  ["_worker.js", h("4")],
  ["nginx.conf", h("5")],
]);
const M = metadataDigest();

describe("objectSpec", () => {
  it("gives extensionless keys an explicit JSON type and the rule list's purge tags, filled", () => {
    const s = objectSpec(`${T}/7/standings/index.json`)!;
    expect(s.contentType).toBe("application/json; charset=utf-8");
    expect(s.tags).toEqual(["tournament-7", "build-api"]);
    expect(objectSpec("api/clubs/c1/tournaments/7/index.json")!.tags).toEqual([
      "tournament-7",
      "club-c1",
      "build-api",
    ]);
    expect(objectSpec("api/clubs/c1/tournaments/index.json")!.tags).toEqual([
      "list-club-c1",
      "club-c1",
      "build-api",
    ]);
    // An archived tournament's objects take the archive class; others keep their route's.
    expect(objectSpec(`${T}/7/index.json`, new Set(["7"]))!.cacheControl).toBe(ARCHIVE_CACHE_CONTROL);
    expect(objectSpec(`${T}/8/index.json`, new Set(["7"]))!.cacheControl).not.toBe(ARCHIVE_CACHE_CONTROL);
    expect(objectSpec("api/clubs/c1/tournaments/7/index.json")!.cors).toBe(true);
    expect(objectSpec("_worker.js")).toBeUndefined();
    expect(objectSpec(".build-api-manifest.json")).toBeUndefined();
  });
});

describe("planDeploy", () => {
  it("sends every served file first time, dependencies before the lists and pages naming them", () => {
    const plan = planDeploy(files, undefined, new Set(), M);
    const order = plan.steps.flat().map((u) => u.file);
    expect(order).toHaveLength(9);
    expect(plan.skipped).toBe(2);
    const at = (f: string) => order.indexOf(f);
    expect(at("assets/site.css")).toBeLessThan(at("tournaments/7/index.html"));
    expect(at(`${T}/7/rounds/1/index.json`)).toBeLessThan(at(`${T}/7/index.json`));
    expect(at(`${T}/7/index.json`)).toBeLessThan(at(`${T}/index.json`));
    expect(at("tournaments/7/index.html")).toBeLessThan(at("index.html"));
    expect(at(`${T}/index.json`)).toBeLessThan(at("index.html"));
  });

  it("sends only what changed, new before changed within a step, and removes what is gone", () => {
    const record = { metadata: M, files: new Map(files) };
    record.files.delete("_worker.js");
    record.files.delete("nginx.conf");
    record.files.set(`${T}/8/index.json`, h("9"));
    const next = new Map(files);
    next.set(`${T}/7/standings/index.json`, h("x"));
    next.set(`${T}/7/rounds/2/index.json`, h("y"));
    next.set(`${T}/7/live/index.json`, h("z"));
    const plan = planDeploy(next, record, new Set(), M);
    const sent = plan.steps.flat();
    expect(sent.map((u) => u.file).sort()).toEqual(
      [`${T}/7/live/index.json`, `${T}/7/rounds/2/index.json`, `${T}/7/standings/index.json`].sort(),
    );
    // standings and live are at the same depth: the new one first.
    const same = plan.steps.find((s) => s.some((u) => u.file.endsWith("standings/index.json")))!;
    expect(plan.steps.indexOf(same)).toBeGreaterThan(
      plan.steps.findIndex((s) => s.some((u) => u.file.endsWith("live/index.json"))),
    );
    expect(plan.removals).toEqual([`${T}/8/index.json`]);
    expect(plan.unchanged).toBe(8);
  });

  it("sends again the keys a dead deploy touched, and removes those not wanted", () => {
    const record = { metadata: M, files: new Map([...files].filter(([p]) => objectSpec(p))) };
    const plan = planDeploy(files, record, new Set(["index.html", `${T}/99/index.json`]), M);
    expect(plan.steps.flat().map((u) => u.file)).toEqual(["index.html"]);
    expect(plan.removals).toEqual([`${T}/99/index.json`]);
  });

  it("sends everything again when the metadata rules changed", () => {
    const record = { metadata: "older", files: new Map([...files].filter(([p]) => objectSpec(p))) };
    expect(planDeploy(files, record, new Set(), M).steps.flat()).toHaveLength(9);
  });
});

describe("the deploy record", () => {
  it("round-trips, and anything else reads as no record", () => {
    const r = { metadata: M, files: new Map([["a/index.json", h("a")]]) };
    expect(decodeRecord(encodeRecord(r))).toEqual(r);
    expect(decodeRecord(Buffer.from("not gzip"))).toBeUndefined();
    expect(decodePending(encodePending(["b", "a"]))).toEqual(["a", "b"]);
    expect(decodePending(encodeRecord(r))).toBeUndefined();
  });
});

describe("planChanges (a tick, from the change log)", () => {
  const facts = { links: {}, archived: [] };
  it("sends only the written files, in planDeploy's order, and removes the removed ones, lists first", () => {
    const written = new Map([...files].filter(([p]) => p.startsWith(`${T}/`) || p === "_worker.js"));
    const removed = [`${T}/8/index.json`, `${T}/8/rounds/1/index.json`, "nginx.conf"];
    const plan = planChanges({ written, removed, unknown: new Map(), suspects: new Map(), facts });
    const full = planDeploy(written, undefined, new Set(), M);
    expect(plan.steps.map((s) => s.map((u) => u.file))).toEqual(full.steps.map((s) => s.map((u) => u.file)));
    expect(plan.skipped).toBe(1); // _worker.js: no rule serves it
    // nginx.conf was never uploaded (no rule serves it): not removed.
    expect(plan.removals).toEqual([`${T}/8/index.json`, `${T}/8/rounds/1/index.json`]);
  });

  it("sends a dead deploy's pending key again when live, removes it when gone", () => {
    const plan = planChanges({
      written: new Map(),
      removed: [],
      unknown: new Map([
        [`${T}/7/index.json`, h("b")],
        [`${T}/9/index.json`, undefined],
      ]),
      suspects: new Map(),
      facts,
    });
    expect(plan.steps.flat().map((u) => u.file)).toEqual([`${T}/7/index.json`]);
    expect(plan.removals).toEqual([`${T}/9/index.json`]);
  });

  it("retags a suspect only when its bytes are not sent anyway and it is still live", () => {
    const plan = planChanges({
      written: new Map([[`${T}/index.json`, h("a")]]),
      removed: [],
      unknown: new Map(),
      suspects: new Map([
        [`${T}/index.json`, h("a")],
        ["api/clubs/c1/tournaments/index.json", h("e")],
        [`${T}/page/2/index.json`, undefined],
      ]),
      facts: { links: { "api/clubs/c1/tournaments/index.json": '<x>; rel="next"' }, archived: [] },
    });
    expect(plan.retags.map((u) => u.file)).toEqual(["api/clubs/c1/tournaments/index.json"]);
    expect(plan.retags[0]!.spec.link).toBe('<x>; rel="next"');
  });
});
