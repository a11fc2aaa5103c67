/// <reference lib="dom" />
// The pages and the club embed in a real browser (headless Chromium through playwright-core from
// the scripts/hosts project). Against a served snapshot it checks that the index, a standings
// page, a round page and the live page show the same names and points as the JSON; that axe-core
// finds no accessibility violation; that the live script renders what the build rendered; and
// that the embed, on a page served from another origin, renders the club endpoints, follows the
// host page's font and the club's brandColor, and lets no style leak in; and that no page of the
// snapshot scrolls sideways or has a serious or critical axe violation at 360×740 and 1280×800.
// Optionally it writes screenshots at phone (390 px) and desktop (1280 px) widths.
//   node scripts/browser-pages.ts --dir DIR [--base URL] [--club SLUG] [--screenshots DIR]
//                                 [--label NAME] [--chromium PATH]
// Without --base the snapshot is served by the preview, in process, on a free loopback port.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { exitWithUsage, scriptArgs } from "./lib/args.ts";
import { createPreviewServer } from "../src/hosting/preview.ts";
import { type Browser, chromiumLauncher, hostsFile, listen, type Page } from "./lib/browser-setup.ts";

const WIDTHS = { phone: 390, desktop: 1280 } as const;

let passed = 0;
let failed = 0;
function check(ok: boolean, what: string, detail = ""): void {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} [pages] ${what}${detail ? `: ${detail}` : ""}`);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function diff(a: unknown[], b: unknown[]): string {
  const i = a.findIndex((x, k) => !same(x, b[k]));
  return i < 0
    ? `lengths ${a.length} and ${b.length}`
    : `first difference at ${i}: ${JSON.stringify(a[i])} ≠ ${JSON.stringify(b[i])}`;
}

interface Summary {
  id: number | string;
  name: string;
  status: string;
  currentRound: number | null;
  availableRounds?: number[];
}
interface StandingsJson {
  rows: { name: string; points: number | null }[];
}
interface Player {
  name: string;
}
interface RoundJson {
  games: { white: Player | null; black: Player | null; result: string }[];
}

/** In the page: names and points of the standings table. */
function readStandings(): { name: string; points: number | null }[] {
  return [...document.querySelectorAll("table.standings tbody tr")].map((tr) => {
    const p = tr.querySelector<HTMLElement>(".pts")?.dataset.points ?? "";
    return { name: tr.querySelector(".name")?.textContent ?? "", points: p === "" ? null : Number(p) };
  });
}

/** In the page: white and black names of the games table, "" for an empty side. */
function readGames(): [string, string][] {
  return [...document.querySelectorAll("table.games tbody tr")].map((tr) => {
    const cells = tr.querySelectorAll("td.player");
    const name = (td: Element | undefined) => td?.querySelector(".name")?.textContent ?? "";
    return [name(cells[0]), name(cells[1])];
  });
}

async function main(): Promise<void> {
  const values = scriptArgs(import.meta.url, {
    dir: { type: "string" },
    base: { type: "string" },
    screenshots: { type: "string" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
    label: { type: "string", default: "preview" },
    club: { type: "string" },
  });
  if (!values.dir) exitWithUsage(import.meta.url, "--dir <snapshot> is required");
  const dir = values.dir;
  // Each missing piece is named with what to install, before anything starts.
  const chromium = chromiumLauncher(values.chromium, import.meta.dirname);
  const axeSource = readFileSync(hostsFile("axe-core/axe.min.js", import.meta.dirname), "utf8");

  const servers: Server[] = [];
  let base = values.base?.replace(/\/$/, "");
  if (!base) {
    const preview = createPreviewServer(dir);
    servers.push(preview);
    base = `http://127.0.0.1:${await listen(preview)}`;
  }
  const json = async <T>(p: string): Promise<T> => {
    const res = await fetch(base + p);
    if (!res.ok) throw new Error(`${p}: HTTP ${res.status}`);
    return (await res.json()) as T;
  };

  const list = await json<Summary[]>("/api/public/v1/tournaments");
  const details = await Promise.all(list.map((s) => json<Summary>(`/api/public/v1/tournaments/${s.id}`)));
  const live = details.find((d) => d.status === "Live") ?? details.find((d) => d.currentRound !== null);
  if (!live || live.currentRound === null)
    throw new Error("the snapshot has no tournament with a live round");
  // A standings page with rows and a round page with a bye or forfeit if there is one.
  let standingsOf: Summary | undefined;
  for (const d of details) {
    const st = await json<StandingsJson>(`/api/public/v1/tournaments/${d.id}/standings`);
    if (st.rows.length > 0 && (!standingsOf || d.id === live.id)) standingsOf = d;
  }
  if (!standingsOf) throw new Error("the snapshot has no standings with rows");
  const roundOf =
    (live.availableRounds ?? []).length > 1
      ? live
      : (details.find((d) => (d.availableRounds ?? []).length > 1) ?? live);

  // The club embed's host page: another origin (another port), with its own hostile styles.
  const slug = values.club ?? firstClub(dir);
  const catalog = await json<{
    name: string;
    brandColor: string | null;
    tournaments: {
      tournament: { tournamentId: number | string; name: string; currentRound: number | null };
    }[];
  }>(`/api/clubs/${slug}/tournaments`);
  const clubT = catalog.tournaments.find((e) => e.tournament.currentRound !== null)?.tournament;
  if (!clubT) throw new Error(`club ${slug} lists no tournament with a round`);
  const clubStandings = await json<StandingsJson>(
    `/api/clubs/${slug}/tournaments/${clubT.tournamentId}/standings`,
  );
  const clubLive = await json<{ games: { white: Player | null; black: Player | null }[] }>(
    `/api/clubs/${slug}/tournaments/${clubT.tournamentId}/live`,
  );
  // The catalog's first tag, or a tag no tournament has (the list is then empty, not an error).
  const tag = catalog.tournaments.flatMap((e) => (e as { tags?: string[] }).tags ?? [])[0] ?? "no-such-tag";
  const tagged = await json<{ tournaments: unknown[] }>(`/api/clubs/${slug}/tournaments?tag=${tag}`);
  // Extensions (issue 22): the crosstable and a player card of a tournament the club lists, from
  // the club surface's extension endpoints; a club-only tournament when the club has one (its
  // only human view is the embed), else one also published globally.
  const globalIds = new Set(details.map((d) => String(d.id)));
  const withRound = catalog.tournaments.filter((e) => e.tournament.currentRound !== null);
  const extT =
    (withRound.find((e) => !globalIds.has(String(e.tournament.tournamentId))) ?? withRound[0])?.tournament ??
    null;
  if (!extT) throw new Error(`club ${slug} lists no tournament with a round`);
  const extBase = `/api/clubs/${slug}/tournaments/${extT.tournamentId}`;
  const crosstable = await json<{
    rows: { sourcePlayerNumber: number; name: string; points: number | null }[];
  }>(`${extBase}/crosstable`);
  const cardPlayer = crosstable.rows[0]!.sourcePlayerNumber;
  const cards = await json<{
    players: {
      sourcePlayerNumber: number;
      name: string;
      rounds: { round: number; scoreAfter: number | null }[];
    }[];
  }>(`${extBase}/players`);
  const card = cards.players.find((p) => p.sourcePlayerNumber === cardPlayer)!;
  const snippet =
    `<script src="${base}/embed/build-api-embed.js" defer></script>\n` +
    `<build-api-embed club="${slug}"></build-api-embed>\n` +
    `<build-api-embed club="${slug}" view="standings" tournament="${clubT.tournamentId}"></build-api-embed>\n` +
    `<build-api-embed club="${slug}" view="round" tournament="${clubT.tournamentId}"></build-api-embed>\n` +
    `<build-api-embed club="${slug}" tag="${tag}"></build-api-embed>\n` +
    `<build-api-embed club="${slug}" view="crosstable" tournament="${extT.tournamentId}"></build-api-embed>\n` +
    `<build-api-embed club="${slug}" view="player" tournament="${extT.tournamentId}" player="${cardPlayer}"></build-api-embed>`;
  const clubStyle =
    `body{font-family:Georgia,serif;max-width:60rem;margin:1rem auto;padding:0 1rem}` +
    `table,td,th{border:4px dashed rgb(255, 0, 255)!important}build-api-embed{margin:1rem 0}`;
  // The club's page sends a strict CSP that forbids inline styles (its own style is allowed by
  // its hash): the embed must work with the two directives docs/design/lists-and-caching.md
  // tells a club to add, script-src and connect-src for the snapshot's origin.
  const clubCsp = [
    "default-src 'none'",
    // `${base}/`: under a base path the source is a path prefix (without the slash, one URL).
    `script-src ${base}/`,
    `connect-src ${base}/`,
    `style-src 'sha256-${createHash("sha256").update(clubStyle).digest("base64")}'`,
  ].join("; ");
  const clubPage = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": clubCsp });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>A club website</title>` +
        `<style>${clubStyle}</style></head>` +
        `<body><main><h1>Our club</h1><p>Results from the club's tournaments:</p>\n${snippet}\n</main></body></html>`,
    );
  });
  servers.push(clubPage);
  const clubOrigin = `http://127.0.0.1:${await listen(clubPage)}`;

  let context: Browser | undefined;
  try {
    context = await chromium.launch();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    // Any Content-Security-Policy violation on our pages or on the club's page is a failure.
    const violations: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });
    const label = values.label;

    const axe = async (what: string) => {
      // Evaluated over the DevTools protocol: the pages' CSP (script-src 'self') does not apply.
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const w = window as unknown as {
          axe: { run(): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
        };
        const r = await w.axe.run();
        return r.violations.map((v) => `${v.id} (${v.nodes.length}: ${JSON.stringify(v.nodes[0]?.target)})`);
      }, null);
      check(violations.length === 0, `${label}: axe-core on ${what}`, violations.join("; "));
    };
    const shots = async (name: string) => {
      if (!values.screenshots) return;
      mkdirSync(values.screenshots, { recursive: true });
      for (const [w, width] of Object.entries(WIDTHS)) {
        await page.setViewportSize({ width, height: w === "phone" ? 844 : 800 });
        await page.screenshot({ path: path.join(values.screenshots, `${name}-${w}.png`), fullPage: true });
      }
      await page.setViewportSize({ width: WIDTHS.desktop, height: 800 });
    };

    // Links and assets: every URL of ours a page names is under the base path (issue 24.7: the
    // snapshot may be served under one, `--base URL/chess`); each is fetched once at the end.
    const origin = new URL(base).origin;
    const basePath = new URL(base).pathname.replace(/\/$/, "");
    const linked = new Map<string, string>();
    const collect = async (what: string) => {
      const urls = await page.evaluate(
        () =>
          [...document.querySelectorAll("a[href], link[href], script[src]")].map(
            (e) => (e as HTMLAnchorElement).href || (e as HTMLScriptElement).src,
          ),
        null,
      );
      const own = urls.filter((u) => new URL(u).origin === origin);
      const outside = own.filter((u) => !new URL(u).pathname.startsWith(`${basePath}/`));
      check(
        own.length > 0 && outside.length === 0,
        `${label}: the ${own.length} links and assets of ${what} are under ${basePath || "/"}`,
        outside.join(" "),
      );
      for (const u of own) if (!linked.has(u.split("#")[0]!)) linked.set(u.split("#")[0]!, what);
    };

    // The index: every published tournament, in the JSON's order, with its status.
    await page.goto(`${base}/`);
    await collect("the index");
    const index = await page.evaluate(
      () =>
        [...document.querySelectorAll("table.index tbody tr")].map((tr) => ({
          id: (tr as HTMLElement).dataset.id ?? "",
          name: tr.querySelector("th a")?.textContent ?? "",
        })),
      null,
    );
    const want = list.map((s) => ({ id: String(s.id), name: s.name }));
    // The stylesheet applies only when the host sends it as text/css (body margin 0 is ours).
    const styled = await page.evaluate(() => getComputedStyle(document.body).marginTop, null);
    check(
      styled === "0px",
      `${label}: /assets/site.css applies (served as text/css)`,
      `body margin ${styled}`,
    );
    check(
      same(index, want),
      `${label}: the index lists the JSON's tournaments`,
      same(index, want) ? "" : diff(index, want),
    );
    await axe("the index");
    await shots("index");
    // The tag filter (CSS :target, no script): the rows left are those of the JSON's tag list.
    const tags = [...new Set(list.flatMap((s) => (s as Summary & { tags: string[] }).tags))].sort();
    for (const tag of tags) {
      await page.goto(`${base}/#tag-${tag}`);
      const shown = await page.evaluate(
        () =>
          [...document.querySelectorAll<HTMLElement>("table.index tbody tr")]
            .filter((tr) => tr.offsetParent !== null)
            .map((tr) => tr.dataset.id ?? ""),
        null,
      );
      const tagged = (await json<Summary[]>(`/api/public/v1/tournaments/tag/${tag}`)).map((s) =>
        String(s.id),
      );
      check(
        same(shown, tagged),
        `${label}: the index filtered by tag ${tag} shows the JSON's list`,
        shown.join(" "),
      );
    }

    await page.goto(`${base}/tournaments/${live.id}/`);
    await collect("the overview");
    await axe(`the overview of ${live.id}`);

    // Standings: names and points, row by row.
    await page.goto(`${base}/tournaments/${standingsOf.id}/standings/`);
    await collect("the standings");
    const st = await page.evaluate(readStandings, null);
    const stJson = (
      await json<StandingsJson>(`/api/public/v1/tournaments/${standingsOf.id}/standings`)
    ).rows.map((r) => ({ name: r.name, points: r.points }));
    check(
      same(st, stJson),
      `${label}: standings of ${standingsOf.id} show the JSON's names and points`,
      same(st, stJson) ? `${st.length} rows` : diff(st, stJson),
    );
    await axe(`the standings of ${standingsOf.id}`);
    await shots("standings");
    await page.emulateMedia({ colorScheme: "dark" });
    if (values.screenshots) {
      await page.setViewportSize({ width: WIDTHS.phone, height: 844 });
      await page.screenshot({
        path: path.join(values.screenshots, "standings-phone-dark.png"),
        fullPage: true,
      });
      await page.setViewportSize({ width: WIDTHS.desktop, height: 800 });
    }
    await axe(`the standings of ${standingsOf.id} in dark mode`);
    await page.emulateMedia({ colorScheme: "light" });

    // A round: both players of every board.
    const n = (roundOf.availableRounds ?? [roundOf.currentRound!])[0]!;
    await page.goto(`${base}/tournaments/${roundOf.id}/rounds/${n}/`);
    await collect("a round page");
    const games = await page.evaluate(readGames, null);
    const roundJson = await json<RoundJson>(`/api/public/v1/tournaments/${roundOf.id}/rounds/${n}`);
    const gWant = roundJson.games.map((g) => [g.white?.name ?? "", g.black?.name ?? ""]);
    check(
      same(games, gWant),
      `${label}: round ${n} of ${roundOf.id} shows the JSON's pairings`,
      same(games, gWant) ? `${games.length} boards` : diff(games, gWant),
    );
    await axe(`round ${n} of ${roundOf.id}`);
    await shots("round");

    // The live page, then the live script's own rendering of /live must read the same.
    await page.goto(`${base}/tournaments/${live.id}/live/`);
    await collect("the live page");
    const liveGames = await page.evaluate(readGames, null);
    const liveJson = await json<RoundJson>(`/api/public/v1/tournaments/${live.id}/live`);
    const lWant = liveJson.games.map((g) => [g.white?.name ?? "", g.black?.name ?? ""]);
    check(
      same(liveGames, lWant),
      `${label}: the live page of ${live.id} shows the JSON's pairings`,
      same(liveGames, lWant) ? `${liveGames.length} boards` : diff(liveGames, lWant),
    );
    await axe(`the live page of ${live.id}`);
    await shots("live");
    if (live.status === "Live") {
      const [before, after] = await page.evaluate(async () => {
        const text = () =>
          [...document.querySelectorAll("table.games tbody tr")].map((tr) => tr.textContent).join("\n");
        const b = text();
        const w = window as unknown as { buildApiLive?: { refresh(): Promise<void> } };
        if (!w.buildApiLive) return [b, "no live script"];
        await w.buildApiLive.refresh();
        return [b, text()];
      }, null);
      check(
        before === after && before.length > 0,
        `${label}: the live script renders /live as the build did`,
        before === after ? "" : `${before.slice(0, 80)} ≠ ${after.slice(0, 80)}`,
      );
    }

    await page.goto(`${base}/tournaments/${live.id}/recaps/en/`);
    await collect("a recaps page");
    await axe(`the recaps of ${live.id}`);

    // Extension pages (issue 22): the crosstable shows the JSON's players and points; the player
    // page and the standings after round 1 pass axe-core too.
    const ct = await json<{ rows: { name: string; points: number | null }[] }>(
      `/api/public/v1/tournaments/${standingsOf.id}/crosstable`,
    );
    await page.goto(`${base}/tournaments/${standingsOf.id}/crosstable/`);
    await collect("the crosstable");
    const ctShown = await page.evaluate(
      () =>
        [...document.querySelectorAll("table.crosstable tbody tr")].map((tr) => {
          const p = tr.querySelector<HTMLElement>(".pts")?.dataset.points ?? "";
          return { name: tr.querySelector(".name")?.textContent ?? "", points: p === "" ? null : Number(p) };
        }),
      null,
    );
    const ctWant = ct.rows.map((r) => ({ name: r.name, points: r.points }));
    check(
      same(ctShown, ctWant),
      `${label}: the crosstable of ${standingsOf.id} shows its JSON`,
      diff(ctShown, ctWant),
    );
    await axe(`the crosstable of ${standingsOf.id}`);
    await page.goto(`${base}/tournaments/${standingsOf.id}/standings/rounds/1/`);
    await collect("the standings after round 1");
    await axe(`the standings after round 1 of ${standingsOf.id}`);
    await page.goto(`${base}/tournaments/${standingsOf.id}/players/`);
    await collect("the players page");
    await axe(`the players page of ${standingsOf.id}`);

    // The embed on another origin.
    await page.goto(`${clubOrigin}/`);
    try {
      await page.waitForFunction(
        () => document.querySelectorAll("build-api-embed[data-ready]").length === 6,
        null,
        { timeout: 15_000 },
      );
    } catch {
      /* reported below */
    }
    const embed = await page.evaluate(() => {
      const els = [...document.querySelectorAll("build-api-embed")];
      const root = (i: number) => els[i]?.shadowRoot ?? null;
      const names = (i: number, sel: string) =>
        [...(root(i)?.querySelectorAll(sel) ?? [])].map((e) => (e.textContent ?? "").trim());
      const cell = root(1)?.querySelector("td");
      const h2 = root(0)?.querySelector("h2");
      return {
        ready: els.map((e) => e.hasAttribute("data-ready")),
        errors: els.map((e) => e.shadowRoot?.querySelector("[role=alert]")?.textContent ?? ""),
        catalog: names(0, "tbody th").map((t) => t.split("\n")[0]),
        catalogRows: root(0)?.querySelectorAll("tbody tr").length ?? 0,
        taggedRows: root(3)?.querySelectorAll("tbody tr").length ?? 0,
        standings: [...(root(1)?.querySelectorAll("tbody tr") ?? [])].map((tr) => ({
          points: (tr.querySelector("[data-points]") as HTMLElement | null)?.dataset.points ?? "",
        })),
        standingsText: root(1)?.textContent ?? "",
        roundText: root(2)?.textContent ?? "",
        crosstable: [...(root(4)?.querySelectorAll("tbody tr") ?? [])].map((tr) => ({
          player: Number((tr as HTMLElement).dataset.player),
          points: (tr.querySelector("td[data-points]") as HTMLElement | null)?.dataset.points ?? "",
        })),
        card: [...(root(5)?.querySelectorAll("tbody tr") ?? [])].map((tr) => ({
          round: Number((tr as HTMLElement).dataset.round),
          score: (tr.querySelector("[data-points]") as HTMLElement | null)?.dataset.points ?? "",
        })),
        cardTitle: root(5)?.querySelector("h2")?.textContent ?? "",
        font: cell ? getComputedStyle(cell).fontFamily : "",
        border: cell ? getComputedStyle(cell).borderTopStyle : "",
        brand: h2 ? getComputedStyle(h2).backgroundColor : "",
        leakedOut: getComputedStyle(document.querySelector("h1")!).backgroundColor,
      };
    }, null);
    check(
      embed.ready.every(Boolean),
      `${label}: six embeds render from ${clubOrigin}`,
      JSON.stringify(embed.errors),
    );
    check(
      embed.catalogRows === catalog.tournaments.length,
      `${label}: the catalog embed lists the club's tournaments`,
      `${embed.catalogRows} of ${catalog.tournaments.length}`,
    );
    check(
      embed.taggedRows === tagged.tournaments.length,
      `${label}: the catalog embed with tag="${tag}" lists the club's ?tag= list`,
      `${embed.taggedRows} of ${tagged.tournaments.length}`,
    );
    const stNames = clubStandings.rows.every((r) => embed.standingsText.includes(r.name));
    const stPoints = same(
      embed.standings.map((r) => (r.points === "" ? null : Number(r.points))),
      clubStandings.rows.map((r) => r.points),
    );
    check(
      stNames && stPoints,
      `${label}: the standings embed shows the club JSON's names and points`,
      `${clubStandings.rows.length} rows`,
    );
    const lNames = clubLive.games.every((g) =>
      [g.white, g.black].every((p) => !p || embed.roundText.includes(p.name)),
    );
    check(
      lNames,
      `${label}: the round embed shows the club JSON's pairings`,
      `${clubLive.games.length} boards`,
    );
    check(embed.font.startsWith("Georgia"), `${label}: the embed follows the host page's font`, embed.font);
    check(
      embed.border !== "dashed",
      `${label}: the host page's table styles do not reach the embed`,
      embed.border,
    );
    if (catalog.brandColor) {
      const hex = catalog.brandColor.replace("#", "");
      const rgb = `rgb(${[0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
      check(
        embed.brand === rgb,
        `${label}: the embed takes the club's brandColor`,
        `${embed.brand} vs ${catalog.brandColor}`,
      );
    }
    const shownCross = embed.crosstable.map((r) => ({
      player: r.player,
      points: r.points === "" ? null : Number(r.points),
    }));
    const wantCross = crosstable.rows.map((r) => ({ player: r.sourcePlayerNumber, points: r.points }));
    check(
      same(shownCross, wantCross),
      `${label}: the crosstable embed shows the crosstable JSON's players and points`,
      diff(shownCross, wantCross),
    );
    const shownCard = embed.card.map((r) => ({
      round: r.round,
      score: r.score === "" ? null : Number(r.score),
    }));
    const wantCard = card.rounds.map((r) => ({ round: r.round, score: r.scoreAfter }));
    check(
      same(shownCard, wantCard) && embed.cardTitle.startsWith(card.name),
      `${label}: the player embed shows the card JSON's rounds and running score`,
      diff(shownCard, wantCard),
    );
    await axe("the club page with six embeds");
    await shots("embed");
    await sweep(page, dir, base, axeSource, label, values.screenshots);
    // Following every link and loading every asset the pages named: each answers 200.
    const broken: string[] = [];
    for (const [u, from] of linked) {
      const res = await fetch(u, { redirect: "manual" });
      await res.arrayBuffer();
      if (res.status !== 200) broken.push(`${u} (${res.status}, from ${from})`);
    }
    check(
      linked.size > 0 && broken.length === 0,
      `${label}: all ${linked.size} links and assets the pages name answer 200`,
      broken.slice(0, 5).join("; "),
    );
    check(errors.length === 0, `${label}: no script error on any page`, errors.join("; "));
    check(
      violations.length === 0,
      `${label}: no Content-Security-Policy violation on any page, nor on the club's strict page`,
      violations.join("; "),
    );
  } finally {
    await context?.close();
    for (const s of servers) s.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

/** The viewports every page is checked at: a small phone, and a laptop. */
const SWEEP = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
] as const;

/** The URL path of every page of the snapshot (each index.html), sorted. */
function pagePaths(dir: string): string[] {
  const root = realpathSync(dir);
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f === "index.html" || f.endsWith(`${path.sep}index.html`))
    .map((f) => `/${f.slice(0, -"index.html".length).split(path.sep).join("/")}`)
    .sort();
}

/**
 * Every page of the snapshot at each SWEEP viewport: the page itself never scrolls sideways (a
 * wide table scrolls in its own box), and axe-core finds no serious or critical violation. With
 * --screenshots, the players page at 360 px (what a player sees between rounds).
 */
async function sweep(
  page: Page,
  dir: string,
  base: string,
  axeSource: string,
  label: string,
  screenshots: string | undefined,
): Promise<void> {
  const paths = pagePaths(dir);
  let playersShot = false;
  for (const size of SWEEP) {
    await page.setViewportSize(size);
    const wide: string[] = [];
    const serious: string[] = [];
    for (const p of paths) {
      await page.goto(base + p);
      const over = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        null,
      );
      if (over > 0) wide.push(`${p} (${over} px)`);
      await page.evaluate(axeSource);
      const found = await page.evaluate(async () => {
        const w = window as unknown as {
          axe: { run(): Promise<{ violations: { id: string; impact?: string | null; nodes: unknown[] }[] }> };
        };
        const r = await w.axe.run();
        return r.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} ${v.impact} (${v.nodes.length})`);
      }, null);
      if (found.length > 0) serious.push(`${p}: ${found.join(", ")}`);
      // One players page at 360 px (the first of the snapshot's), as the guide shows it.
      if (screenshots && !playersShot && size.width === 360 && /^\/tournaments\/[^/]+\/players\/$/.test(p)) {
        mkdirSync(screenshots, { recursive: true });
        await page.screenshot({ path: path.join(screenshots, "players-phone.png"), fullPage: false });
        playersShot = true;
      }
    }
    const at = `${size.width}×${size.height}`;
    check(
      wide.length === 0,
      `${label}: none of the ${paths.length} pages scrolls sideways at ${at}`,
      wide.join("; "),
    );
    check(
      serious.length === 0,
      `${label}: axe-core finds no serious or critical violation on the ${paths.length} pages at ${at}`,
      serious.slice(0, 5).join("; "),
    );
  }
  await page.setViewportSize({ width: WIDTHS.desktop, height: 800 });
}

function firstClub(dir: string): string {
  const slug = readdirSync(path.join(dir, "api/clubs")).sort()[0];
  if (!slug) throw new Error("the snapshot has no club catalog");
  return slug;
}

main().catch((err: unknown) => {
  console.error(`browser-pages: ${(err as Error).message}`);
  process.exitCode = 2;
});
