import { readFileSync, readdirSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { FORMATS } from "../../../src/output/formats.ts";
import { generatedSchemaFiles, SCHEMA_DIR } from "../../../src/output/generated.ts";
import { schemaId } from "../../../src/output/jsonschema.ts";
import { SnapshotValidator } from "../../../src/output/validate.ts";
import { VALIDATORS_FILE, validatorsModule } from "../../../src/output/validators.ts";
import { ROUTES } from "../../../src/routes/table.ts";

describe("generated schema/ files", () => {
  it("are up to date with the zod contracts and the route table (run npm run gen-schema)", () => {
    const expected = generatedSchemaFiles();
    const onDisk = readdirSync(SCHEMA_DIR)
      .filter((n) => n.endsWith(".json"))
      .sort();
    expect(onDisk).toEqual([...expected.keys()].sort());
    for (const [name, text] of expected) {
      expect(readFileSync(new URL(name, SCHEMA_DIR), "utf8"), `schema/${name} is stale`).toBe(text);
    }
  });

  it("compile into the checked-in validators (run npm run gen-schema)", () => {
    expect(readFileSync(VALIDATORS_FILE, "utf8"), "src/output/generated/validators.ts is stale").toBe(
      validatorsModule(),
    );
  });
});

describe("the OpenAPI 3.1 document", () => {
  const doc = JSON.parse(readFileSync(new URL("openapi.json", SCHEMA_DIR), "utf8"));

  it("is valid according to a third-party OpenAPI validator", async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("has every route once, each 200 with the spec's three media types and one schema", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(ROUTES.map((r) => r.path).sort());
    for (const route of ROUTES) {
      const op = doc.paths[route.path].get;
      expect(op.summary).toBeTruthy();
      const content = op.responses["200"].content;
      expect(Object.keys(content).sort()).toEqual(["application/json", "text/json", "text/plain"]);
      for (const media of Object.values(content) as { schema: { $ref: string } }[]) {
        expect(media.schema.$ref).toBe(`#/components/schemas/${schemaId(route.schema)}`);
      }
      expect(op.responses["404"]).toBeDefined();
    }
  });

  it("declares the query parameters of the spec", () => {
    const params = (path: string) =>
      doc.paths[path].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    // `page` is an extension (pages of a long list), marked as such in its description.
    expect(params("/api/clubs/{slug}/tournaments")).toEqual(["path:slug", "query:tag", "query:page"]);
    expect(params("/api/public/v1/tournaments")).toEqual(["query:tag", "query:page"]);
    const page = doc.paths["/api/public/v1/tournaments"].get.parameters.find(
      (p: { name: string }) => p.name === "page",
    );
    expect(page.description).toMatch(/^Extension/);
    expect(params("/api/public/v1/tournaments/{id}/recaps")).toEqual(["path:id", "query:language"]);
    expect(params("/api/clubs/{slug}/tournaments/{id}/rounds/{round}")).toEqual([
      "path:slug",
      "path:id",
      "path:round",
    ]);
  });
});

describe("int64 on the wire", () => {
  const v = new SnapshotValidator();
  const detail = (id: unknown) =>
    JSON.stringify({
      id,
      name: "x",
      location: null,
      startDate: null,
      endDate: null,
      status: "Imported",
      currentRound: null,
      totalRounds: null,
      playerCount: 0,
      lastScrapedAt: "2026-11-22T12:00:00Z",
      lastSourceChangeAt: null,
      tags: [],
      sourceUrl: "https://example.org",
      availableRounds: [],
    });

  it("accepts a safe integer and a decimal string, rejects a rounded number beyond 2^53", () => {
    expect(v.check("f", "PublicTournamentDetailResponse", detail(42))).toEqual([]);
    expect(v.check("f", "PublicTournamentDetailResponse", detail("9007199254740993"))).toEqual([]);
    // The text 9007199254740993 parses to 9007199254740992: a client would get the wrong id.
    expect(v.check("f", "PublicTournamentDetailResponse", detail(9007199254740992))).not.toEqual([]);
    expect(v.check("f", "PublicTournamentDetailResponse", detail("007"))).not.toEqual([]);
  });

  it("rejects a field that is not in the contract", () => {
    const withExtra = JSON.stringify({ ...JSON.parse(detail(1)), internalNotes: "secret" });
    expect(v.check("f", "PublicTournamentDetailResponse", withExtra)[0].what).toMatch(/additional/);
  });
});

// A build checks the value it serializes (assert), not the bytes parsed back: the two must agree.
// A value that JSON.stringify would write as something else is not of its schema's types.
describe("checking a body as a value", () => {
  const v = new SnapshotValidator();
  const body = () => ({
    id: 7,
    name: "x",
    location: null,
    startDate: null,
    endDate: null,
    status: "Imported",
    currentRound: null as unknown,
    totalRounds: null,
    playerCount: 0,
    lastScrapedAt: "2026-11-22T12:00:00Z" as unknown,
    lastSourceChangeAt: null,
    tags: ["a"] as unknown[],
    sourceUrl: "https://example.org",
    availableRounds: [],
  });
  const schema = "PublicTournamentDetailResponse";

  it("judges a valid body as its bytes are judged", () => {
    expect(v.checkBody("f", schema, body())).toEqual([]);
    expect(v.check("f", schema, JSON.stringify(body()))).toEqual([]);
  });

  it("is stricter where the bytes would hide a fault: a key left undefined is not in the contract", () => {
    const stray = { ...body(), internalNotes: undefined };
    expect(v.check("f", schema, JSON.stringify(stray))).toEqual([]);
    expect(v.checkBody("f", schema, stray)[0].what).toMatch(/additional/);
  });

  it("rejects what JSON.stringify would change: a non-finite number, an undefined item, a Date", () => {
    const nan = { ...body(), currentRound: Number.NaN };
    const hole = { ...body(), tags: ["a", undefined] };
    const date = { ...body(), lastScrapedAt: new Date("2026-11-22T12:00:00Z") };
    for (const b of [nan, hole, date]) expect(v.checkBody("f", schema, b)).not.toEqual([]);
    expect(() => v.assert("f", schema, nan)).toThrow(/does not match/);
  });
});

// The compiled validators must judge exactly as ajv compiling schema/ itself: the same verdict and
// the same error paths, on valid bodies and on each kind of fault a view could make.
describe("the compiled validators", () => {
  const runtime = new Ajv2020({ allErrors: true, strict: true });
  for (const [name, format] of Object.entries(FORMATS)) runtime.addFormat(name, format);
  runtime.addKeyword("example");
  for (const [name, text] of generatedSchemaFiles())
    if (name !== "openapi.json") runtime.addSchema(JSON.parse(text) as object);
  const v = new SnapshotValidator();
  const paths = (id: string, body: unknown): string[] => {
    const check = runtime.getSchema(`${id}.json`)!;
    return check(body) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
  const summary = {
    id: 7,
    name: "Club Open",
    location: "Riga",
    startDate: "2026-11-20",
    endDate: null,
    status: "Live",
    currentRound: 3,
    totalRounds: 7,
    playerCount: 40,
    lastScrapedAt: "2026-11-22T12:00:00Z",
    lastSourceChangeAt: null,
    tags: ["juniors"],
  };
  const cases: [string, unknown][] = [
    ["valid", [summary]],
    ["an empty list", []],
    ["a bad date", [{ ...summary, startDate: "2026-13-40" }]],
    ["a bad instant", [{ ...summary, lastScrapedAt: "yesterday" }]],
    ["an unknown status", [{ ...summary, status: "Paused" }]],
    ["a missing field", [{ ...summary, name: undefined }]],
    ["an extra field", [{ ...summary, secret: 1 }]],
    ["a float count", [{ ...summary, playerCount: 1.5 }]],
    [
      "two faults in two items",
      [
        { ...summary, tags: [1] },
        { ...summary, id: -1.5 },
      ],
    ],
    ["not a list", { ...summary }],
  ];

  it.each(cases)("agree with ajv compiling schema/ at run time: %s", (label, body) => {
    const text = JSON.stringify(body);
    const expected = paths("PublicTournamentList", JSON.parse(text));
    const got = v.check("f", "PublicTournamentList", text).map((p) => p.where);
    expect(got).toEqual(expected.map((e) => `f at ${e.split(" ")[0] || "/"}`));
    if (label === "valid" || label === "an empty list") expect(got).toEqual([]);
    else expect(got.length).toBeGreaterThan(0);
  });

  it("name the schema they lack", () => {
    expect(() => v.check("f", "NoSuchResponse", "{}")).toThrow(/NoSuchResponse.*npm run gen-schema/);
  });
});
