import { readFileSync, readdirSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { generatedSchemaFiles } from "../../../src/output/generated.ts";
import { schemaId } from "../../../src/output/jsonschema.ts";
import { SCHEMA_DIR, SnapshotValidator } from "../../../src/output/validate.ts";
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
