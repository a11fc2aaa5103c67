/// <reference lib="dom" />
// A team event's pages and the team embed in a real browser (headless Chromium through
// playwright-core from the scripts/hosts project). The sample has no team event: scripts/ci-hosts.sh
// imports the shared team Swiss beside it and builds that store. Against the snapshot (served by
// the preview, in process) it opens the teams page and every team page at 360×740 and 1280×800 and
// checks that none scrolls sideways, that axe-core finds no serious or critical violation (the
// others are listed), and that they show the JSON's teams, points, rosters and rounds; then the
// club's team embed on a page of another origin shows the team standings' teams.
//   node scripts/browser-teams.ts --dir DIR --id ID --club SLUG [--screenshots DIR] [--chromium PATH]
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import { createPreviewServer } from "../src/hosting/preview.ts";
import { chromiumLauncher, hostsFile } from "./lib/browser-setup.ts";

const SIZES = { phone: { width: 360, height: 740 }, desktop: { width: 1280, height: 800 } } as const;

interface Standings {
  rows: { teamNumber: number; name: string; matchPoints: number }[];
}
interface Teams {
  teams: { teamNumber: number; name: string; members: { name: string }[]; rounds: { round: number }[] }[];
}

interface TeamDetail {
  teamNumber: number;
  members: unknown[];
}

let passed = 0;
let failed = 0;
function check(ok: boolean, what: string, detail = ""): void {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} [teams] ${what}${detail ? `: ${detail}` : ""}`);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

/** In the page: how far the document is wider than the viewport (0: no sideways scroll). */
function overflow(): number {
  return document.documentElement.scrollWidth - window.innerWidth;
}

/** In the page: the text of the first cells of each body row of the n-th table. */
function column(arg: { table: number; cell: number }): string[] {
  const table = document.querySelectorAll("main table")[arg.table];
  return [...(table?.querySelectorAll("tbody tr") ?? [])].map(
    (tr) => tr.querySelectorAll("th, td")[arg.cell]?.textContent?.trim() ?? "",
  );
}

async function main(): Promise<void> {
  const values = scriptArgs(import.meta.url, {
    dir: { type: "string" },
    id: { type: "string" },
    club: { type: "string" },
    screenshots: { type: "string" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
  });
  if (!values.dir || !values.id || !values.club)
    exitWithUsage(import.meta.url, "--dir <snapshot>, --id <team event> and --club <slug> are required");
  const chromium = chromiumLauncher(values.chromium, import.meta.dirname);
  const axeSource = readFileSync(hostsFile("axe-core/axe.min.js", import.meta.dirname), "utf8");
  const preview = createPreviewServer(path.resolve(values.dir));
  const base = `http://127.0.0.1:${await listen(preview)}`;
  const json = async <T>(p: string): Promise<T> => {
    const res = await fetch(base + p);
    if (!res.ok) throw new Error(`${p}: HTTP ${res.status}`);
    return (await res.json()) as T;
  };
  const api = `/api/public/v1/tournaments/${values.id}`;
  const standings = await json<Standings>(`${api}/teams/standings`);
  const teams = await json<Teams>(`${api}/teams`);
  // The club's page on another origin, with the team embed.
  const club = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>A club website</title></head>` +
        `<body><main><h1>Our club</h1><script src="${base}/embed/build-api-embed.js" defer></script>` +
        `<build-api-embed club="${values.club}" view="teams" tournament="${values.id}"></build-api-embed></main></body></html>`,
    );
  });
  const clubOrigin = `http://127.0.0.1:${await listen(club)}`;

  const context = await chromium.launch();
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    /** Both sizes: no sideways scroll, axe-core's serious and critical violations (none wanted). */
    const layout = async (what: string, shot?: string) => {
      for (const [name, size] of Object.entries(SIZES)) {
        await page.setViewportSize(size);
        const over = await page.evaluate(overflow, null);
        check(
          over <= 0,
          `${what} does not scroll sideways at ${size.width} px`,
          over > 0 ? `${over} px` : "",
        );
        if (shot && values.screenshots) {
          mkdirSync(values.screenshots, { recursive: true });
          await page.screenshot({
            path: path.join(values.screenshots, `${shot}-${name}.png`),
            fullPage: true,
          });
        }
      }
      await page.evaluate(axeSource);
      const found = await page.evaluate(async () => {
        const w = window as unknown as {
          axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
        };
        return (await w.axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, n: v.nodes.length }));
      }, null);
      const bad = found.filter((v) => v.impact === "serious" || v.impact === "critical");
      const others = found.filter((v) => !bad.includes(v)).map((v) => `${v.id} (${v.impact}, ${v.n})`);
      check(
        bad.length === 0,
        `axe-core: no serious or critical violation on ${what}`,
        [...bad.map((v) => `${v.id} (${v.impact}, ${v.n})`), ...others.map((o) => `other: ${o}`)].join("; "),
      );
    };

    await page.goto(`${base}/tournaments/${values.id}/teams/`);
    const shown = await page.evaluate(column, { table: 0, cell: 1 });
    const want = standings.rows.map((r) => r.name);
    check(shown.join("|") === want.join("|"), "the teams page shows the team standings' teams in order");
    await layout("the teams page");
    for (const t of teams.teams) {
      await page.goto(`${base}/tournaments/${values.id}/teams/${t.teamNumber}/`);
      const roster = await page.evaluate(column, { table: 0, cell: 1 });
      const rounds = await page.evaluate(column, { table: 1, cell: 0 });
      check(
        roster.length === t.members.length && roster.every((n, i) => n.endsWith(t.members[i]!.name)),
        `team ${t.teamNumber}'s page lists its roster in board order`,
      );
      check(
        rounds.join(",") === t.rounds.map((r) => r.round).join(","),
        `team ${t.teamNumber}'s page has a row per round`,
      );
      // The page's JSON link, followed as a reader's click would: the team's own resource.
      const href = await page.evaluate(
        (want: string) =>
          [...document.querySelectorAll<HTMLAnchorElement>("footer a")].find((a) => a.pathname.endsWith(want))
            ?.href ?? "",
        `/api/public/v1/tournaments/${values.id}/teams/${t.teamNumber}`,
      );
      const detail = href ? await json<TeamDetail>(new URL(href).pathname) : null;
      check(
        detail?.teamNumber === t.teamNumber && detail.members.length === t.members.length,
        `team ${t.teamNumber}'s page links its JSON resource (teams/${t.teamNumber}) with its roster`,
        href || "no footer link",
      );
      // The screenshot of the team that leads the standings, the page a reader opens first.
      await layout(
        `team ${t.teamNumber}'s page`,
        t.teamNumber === standings.rows[0]?.teamNumber ? "team" : undefined,
      );
    }

    await page.goto(`${clubOrigin}/`);
    await page
      .waitForFunction(() => document.querySelector("build-api-embed[data-ready]") !== null, null, {
        timeout: 15_000,
      })
      .catch(() => undefined);
    const text = await page.evaluate(
      () => document.querySelector("build-api-embed")?.shadowRoot?.textContent ?? "",
      null,
    );
    check(
      standings.rows.every((r) => text.includes(r.name)),
      `the team embed on ${clubOrigin} shows every team of the standings`,
    );
    await layout("the club page with the team embed", "embed-teams");
    check(errors.length === 0, "no script error on any page", errors.join("; "));
  } finally {
    await context.close();
    preview.close();
    club.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((err: unknown) => {
  console.error(`browser-teams: ${(err as Error).message}`);
  process.exitCode = 2;
});
