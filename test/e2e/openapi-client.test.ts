// A client generated from schema/openapi.json reaches every resource of the sample: the types
// come from openapi-typescript, the calls go through openapi-fetch, the program is typechecked
// with tsc (strict) and then run against the preview of the built sample, the tournament
// 9007199254740993 (beyond 2^53) included.
import fg from "fast-glob";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preview } from "../../src/hosting/preview.ts";
import { ROUTES } from "../../src/routes/table.ts";
import { REPO_ROOT, runCli } from "../support/run.ts";
import { removeTempDirs, tempDir } from "../support/temp.ts";

const BIG_ID = "9007199254740993";
const NOW = "2026-11-22T12:00:00Z";

// The program a client author would write. It learns clubs' tournaments, ids, rounds and tags from
// the responses themselves and calls every operation of the document; it returns, per operation
// path, the bodies of its 200 answers.
const CLIENT = `import createClient from "openapi-fetch";
import type { paths } from "./api.ts";

export type Answers = Map<string, { url: string; body: unknown }[]>;

export async function walk(baseUrl: string, slugs: readonly string[]): Promise<Answers> {
  const client = createClient<paths>({ baseUrl });
  const answers: Answers = new Map();
  const keep = (op: string, r: { data?: unknown; response: Response }): void => {
    if (r.response.status !== 200) return;
    const list = answers.get(op) ?? [];
    list.push({ url: r.response.url, body: r.data });
    answers.set(op, list);
  };

  const list = await client.GET("/api/public/v1/tournaments");
  keep("/api/public/v1/tournaments", list);
  const tags = new Set<string>();
  for (const summary of list.data ?? []) {
    for (const tag of summary.tags) tags.add(tag);
    // An int64 id is a JSON integer below 2^53 and a string of digits beyond it.
    const id: string = String(summary.id);
    const path = { id };
    const detail = await client.GET("/api/public/v1/tournaments/{id}", { params: { path } });
    keep("/api/public/v1/tournaments/{id}", detail);
    keep(
      "/api/public/v1/tournaments/{id}/standings",
      await client.GET("/api/public/v1/tournaments/{id}/standings", { params: { path } }),
    );
    for (const round of detail.data?.availableRounds ?? []) {
      keep(
        "/api/public/v1/tournaments/{id}/rounds/{round}",
        await client.GET("/api/public/v1/tournaments/{id}/rounds/{round}", {
          params: { path: { id, round } },
        }),
      );
    }
    keep(
      "/api/public/v1/tournaments/{id}/live",
      await client.GET("/api/public/v1/tournaments/{id}/live", { params: { path } }),
    );
    for (const language of [undefined, "en"]) {
      keep(
        "/api/public/v1/tournaments/{id}/recaps",
        await client.GET("/api/public/v1/tournaments/{id}/recaps", {
          params: { path, query: language ? { language } : {} },
        }),
      );
    }
    // Extensions (issue 22): the crosstable names the players, the progression the rounds.
    const crosstable = await client.GET("/api/public/v1/tournaments/{id}/crosstable", { params: { path } });
    keep("/api/public/v1/tournaments/{id}/crosstable", crosstable);
    const progression = await client.GET("/api/public/v1/tournaments/{id}/progression", { params: { path } });
    keep("/api/public/v1/tournaments/{id}/progression", progression);
    keep(
      "/api/public/v1/tournaments/{id}/schedule",
      await client.GET("/api/public/v1/tournaments/{id}/schedule", { params: { path } }),
    );
    const cards = await client.GET("/api/public/v1/tournaments/{id}/players", { params: { path } });
    keep("/api/public/v1/tournaments/{id}/players", cards);
    // A player across events (issue 47): the first FIDE-rated player of each tournament.
    const rated = cards.data?.players.find((p) => p.fideId !== null);
    if (rated?.fideId != null) {
      const fidePath = { fideId: String(rated.fideId) };
      keep(
        "/api/public/v1/players/{fideId}",
        await client.GET("/api/public/v1/players/{fideId}", { params: { path: fidePath } }),
      );
    }
    for (const round of progression.data?.rounds ?? []) {
      keep(
        "/api/public/v1/tournaments/{id}/standings/rounds/{round}",
        await client.GET("/api/public/v1/tournaments/{id}/standings/rounds/{round}", {
          params: { path: { id, round } },
        }),
      );
    }
    // Team events (issue 46): the teams, their standings, each round's matches and standings.
    const teams = await client.GET("/api/public/v1/tournaments/{id}/teams/standings", { params: { path } });
    keep("/api/public/v1/tournaments/{id}/teams/standings", teams);
    if (teams.response.status === 200) {
      const roster = await client.GET("/api/public/v1/tournaments/{id}/teams", { params: { path } });
      keep("/api/public/v1/tournaments/{id}/teams", roster);
      for (const t of roster.data?.teams ?? []) {
        keep(
          "/api/public/v1/tournaments/{id}/teams/{team}",
          await client.GET("/api/public/v1/tournaments/{id}/teams/{team}", { params: { path: { id, team: t.teamNumber } } }),
        );
      }
      for (const round of progression.data?.rounds ?? []) {
        keep(
          "/api/public/v1/tournaments/{id}/teams/matches/{round}",
          await client.GET("/api/public/v1/tournaments/{id}/teams/matches/{round}", { params: { path: { id, round } } }),
        );
        keep(
          "/api/public/v1/tournaments/{id}/teams/standings/rounds/{round}",
          await client.GET("/api/public/v1/tournaments/{id}/teams/standings/rounds/{round}", {
            params: { path: { id, round } },
          }),
        );
      }
    }
  }
  for (const tag of tags) {
    keep("/api/public/v1/tournaments", await client.GET("/api/public/v1/tournaments", { params: { query: { tag } } }));
  }

  for (const slug of slugs) {
    const catalog = await client.GET("/api/clubs/{slug}/tournaments", { params: { path: { slug } } });
    keep("/api/clubs/{slug}/tournaments", catalog);
    for (const entry of catalog.data?.tournaments ?? []) {
      const id: string = String(entry.tournament.tournamentId);
      const path = { slug, id };
      const detail = await client.GET("/api/clubs/{slug}/tournaments/{id}", { params: { path } });
      keep("/api/clubs/{slug}/tournaments/{id}", detail);
      keep(
        "/api/clubs/{slug}/tournaments/{id}/standings",
        await client.GET("/api/clubs/{slug}/tournaments/{id}/standings", { params: { path } }),
      );
      for (let round = 1; round <= (detail.data?.currentRound ?? 0); round++) {
        keep(
          "/api/clubs/{slug}/tournaments/{id}/rounds/{round}",
          await client.GET("/api/clubs/{slug}/tournaments/{id}/rounds/{round}", {
            params: { path: { ...path, round } },
          }),
        );
      }
      keep(
        "/api/clubs/{slug}/tournaments/{id}/live",
        await client.GET("/api/clubs/{slug}/tournaments/{id}/live", { params: { path } }),
      );
      // Extensions (issue 22) on the club surface.
      keep(
        "/api/clubs/{slug}/tournaments/{id}/crosstable",
        await client.GET("/api/clubs/{slug}/tournaments/{id}/crosstable", { params: { path } }),
      );
      keep(
        "/api/clubs/{slug}/tournaments/{id}/players",
        await client.GET("/api/clubs/{slug}/tournaments/{id}/players", { params: { path } }),
      );
      keep(
        "/api/clubs/{slug}/tournaments/{id}/schedule",
        await client.GET("/api/clubs/{slug}/tournaments/{id}/schedule", { params: { path } }),
      );
      const clubProgression = await client.GET("/api/clubs/{slug}/tournaments/{id}/progression", {
        params: { path },
      });
      keep("/api/clubs/{slug}/tournaments/{id}/progression", clubProgression);
      for (const round of clubProgression.data?.rounds ?? []) {
        keep(
          "/api/clubs/{slug}/tournaments/{id}/standings/rounds/{round}",
          await client.GET("/api/clubs/{slug}/tournaments/{id}/standings/rounds/{round}", {
            params: { path: { ...path, round } },
          }),
        );
      }
      const clubTeams = await client.GET("/api/clubs/{slug}/tournaments/{id}/teams/standings", { params: { path } });
      keep("/api/clubs/{slug}/tournaments/{id}/teams/standings", clubTeams);
      if (clubTeams.response.status === 200) {
        const clubRoster = await client.GET("/api/clubs/{slug}/tournaments/{id}/teams", { params: { path } });
        keep("/api/clubs/{slug}/tournaments/{id}/teams", clubRoster);
        for (const t of clubRoster.data?.teams ?? []) {
          keep(
            "/api/clubs/{slug}/tournaments/{id}/teams/{team}",
            await client.GET("/api/clubs/{slug}/tournaments/{id}/teams/{team}", {
              params: { path: { ...path, team: t.teamNumber } },
            }),
          );
        }
        for (const round of clubProgression.data?.rounds ?? []) {
          keep(
            "/api/clubs/{slug}/tournaments/{id}/teams/matches/{round}",
            await client.GET("/api/clubs/{slug}/tournaments/{id}/teams/matches/{round}", { params: { path: { ...path, round } } }),
          );
          keep(
            "/api/clubs/{slug}/tournaments/{id}/teams/standings/rounds/{round}",
            await client.GET("/api/clubs/{slug}/tournaments/{id}/teams/standings/rounds/{round}", {
              params: { path: { ...path, round } },
            }),
          );
        }
      }
      for (const tag of entry.tags) {
        keep(
          "/api/clubs/{slug}/tournaments",
          await client.GET("/api/clubs/{slug}/tournaments", { params: { path: { slug }, query: { tag } } }),
        );
      }
    }
  }
  return answers;
}
`;

/** What a client given the id as a JavaScript number would send: the id rounded. */
const ROUNDED_BIG_ID = String(Number(BIG_ID));

let dir: string;
let dist: string;
let server: Server;
let baseUrl: string;
let work: string;

beforeAll(async () => {
  dir = tempDir("openapi-client");
  const db = path.join(dir, "sample.sqlite");
  dist = path.join(dir, "dist");
  for (const args of [
    ["init-store", "--sample", db],
    // The sample has no team event: the shared team Swiss beside it gives the team routes files.
    [
      "import-trf",
      path.join(REPO_ROOT, "test/fixtures/trf/teams/sm-2025-eschlkam-team-swiss.trf"),
      ...["--db", db, "--id", "4600", "--source-url", "https://example.org/team-swiss", "--publish"],
      ...["--club", "hobsons-bay", "--tiebreaks", "BH,SB", "--team-tiebreaks", "GP,BH:MP", "--now", NOW],
    ],
    ["build", "--db", db, "--out", dist, "--now", NOW],
  ]) {
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
  }
  server = await preview({ dir: dist, port: 0, host: "127.0.0.1" });
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  baseUrl = `http://127.0.0.1:${address.port}`;
  // Inside the repository, so that the client resolves openapi-fetch from node_modules.
  mkdirSync(path.join(REPO_ROOT, ".tmp"), { recursive: true });
  work = mkdtempSync(path.join(REPO_ROOT, ".tmp", "openapi-client-"));
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (work) rmSync(work, { recursive: true, force: true });
  removeTempDirs();
});

describe("a client generated from schema/openapi.json", () => {
  it("types the id path parameter as text, so that no id is rounded", async () => {
    const source = astToString(await openapiTS(new URL("../../schema/openapi.json", import.meta.url)));
    writeFileSync(path.join(work, "api.ts"), source);
    writeFileSync(path.join(work, "client.ts"), CLIENT);
    // Every {id} of a path is a string: a number could not carry 9007199254740993.
    const pathIds = [...source.matchAll(/path: \{[^}]*?\bid(\??): ([^;]+);/g)].map((m) => m[2]);
    expect(pathIds.length).toBe(ROUTES.filter((r) => r.path.includes("{id}")).length);
    expect(new Set(pathIds)).toEqual(new Set(["string"]));
  });

  it("typechecks with tsc (strict)", () => {
    writeFileSync(
      path.join(work, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          lib: ["ES2023", "DOM"],
          types: [],
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
        },
        files: ["api.ts", "client.ts"],
      }),
    );
    const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", path.join(work, "tsconfig.json")], {
      encoding: "utf8",
    });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
    // And a call that passes the id as a number does not compile.
    writeFileSync(
      path.join(work, "wrong.ts"),
      `import createClient from "openapi-fetch";\nimport type { paths } from "./api.ts";\n` +
        `await createClient<paths>().GET("/api/public/v1/tournaments/{id}", { params: { path: { id: ${ROUNDED_BIG_ID} } } });\n`,
    );
    const config = JSON.parse(readFileSync(path.join(work, "tsconfig.json"), "utf8"));
    config.files.push("wrong.ts");
    writeFileSync(path.join(work, "tsconfig.json"), JSON.stringify(config));
    const wrong = spawnSync(process.execPath, [tsc, "-p", path.join(work, "tsconfig.json")], {
      encoding: "utf8",
    });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toMatch(/wrong\.ts.*'number' is not assignable to type 'string'/);
  });

  it("fetches every endpoint of the sample through the preview, the id beyond 2^53 included", async () => {
    const { walk } = (await import(path.join(work, "client.ts"))) as {
      walk: (baseUrl: string, slugs: string[]) => Promise<Map<string, { url: string; body: unknown }[]>>;
    };
    const answers = await walk(baseUrl, ["hobsons-bay", "gros-xake-taldea"]);
    // Every operation of the document answered 200 at least once.
    expect([...answers.keys()].sort()).toEqual(ROUTES.map((r) => r.path).sort());
    // Each body is the snapshot's file for that URL, byte for byte once parsed.
    let bigIdAnswers = 0;
    for (const [, list] of answers) {
      for (const { url, body } of list) {
        const u = new URL(url);
        expect(u.pathname).not.toContain(ROUNDED_BIG_ID);
        if (u.pathname.includes(`/${BIG_ID}`)) bigIdAnswers++;
        // The snapshot's file for the URL: a query form is its path form.
        const query = [...u.searchParams].map(([k, v]) => `/${k}/${v}`).join("");
        const file = path.join(dist, `${u.pathname}${query}`, "index.json");
        expect(body, url).toEqual(JSON.parse(readFileSync(file, "utf8")));
      }
    }
    // The big id's detail, standings, 4 rounds, live and recaps (es, en) on the global
    // surface; detail, standings, 4 rounds and live in its club's catalog; and its extension
    // files on both surfaces: crosstable, progression, schedule, the players' cards, standings
    // after each round.
    const extensionFiles = fg.sync(
      [
        `api/public/v1/tournaments/${BIG_ID}/{crosstable,progression,schedule,players}/index.json`,
        `api/clubs/*/tournaments/${BIG_ID}/{crosstable,progression,schedule,players}/index.json`,
        `api/clubs/*/tournaments/${BIG_ID}/standings/rounds/*/index.json`,
        `api/public/v1/tournaments/${BIG_ID}/standings/rounds/*/index.json`,
      ],
      { cwd: dist, followSymbolicLinks: true },
    ).length;
    expect(extensionFiles).toBe(2 * (4 + 4));
    expect(bigIdAnswers).toBe(9 + 7 + extensionFiles);
    const detail = answers
      .get("/api/public/v1/tournaments/{id}")!
      .find((a) => new URL(a.url).pathname.endsWith(`/${BIG_ID}`))!;
    const file = path.join(dist, "api/public/v1/tournaments", BIG_ID, "index.json");
    expect(detail.body).toEqual(JSON.parse(readFileSync(file, "utf8")));
    expect((detail.body as { id: unknown }).id).toBe(BIG_ID);
  });
});
