// `build-api preview --watch` through the CLI: it builds the store and serves the snapshot; a
// change to the store builds again, the new bytes are served and the open event stream gets a
// `build` event; a build that fails prints its error and the last good snapshot keeps serving.
// Pages get the live-reload script (a file, for the pages' strict CSP); a plain preview has none.
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { LIVE_EVENTS_PATH, LIVE_SCRIPT_PATH } from "../../../src/hosting/live-reload.ts";
import { CLI, REPO_ROOT, runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

const TEC = path.join(REPO_ROOT, "test/fixtures/trf/fide-tec-2023-swiss16.trf");
const NEW_ID = "4242";

const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once("exit", r));
      c.kill("SIGTERM");
      await exited;
    }
  }
  removeTempDirs();
});

/** A running CLI process whose stderr is collected; `waitFor` resolves when a pattern shows up. */
function start(args: string[], cwd: string) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let err = "";
  const waiters: { re: RegExp; from: number; resolve: (m: RegExpExecArray) => void }[] = [];
  const check = (): void => {
    for (const w of [...waiters]) {
      const m = w.re.exec(err.slice(w.from));
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stderr!.setEncoding("utf8").on("data", (d: string) => {
    err += d;
    check();
  });
  return {
    child,
    get stderr() {
      return err;
    },
    /** The next match of `re` in what is printed from now on (or from `from`). */
    waitFor(re: RegExp, from = err.length, ms = 30_000): Promise<RegExpExecArray> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${re} in:\n${err}`)), ms);
        waiters.push({
          re,
          from,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
        check();
      });
    },
  };
}

/** An open event stream: the text received so far, and a wait for the next event. */
async function openEvents(url: string) {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  return {
    get text() {
      return text;
    },
    async nextEvent(ms = 30_000): Promise<{ event: string; data: string }> {
      const deadline = Date.now() + ms;
      for (;;) {
        const m = /event: (\w+)\ndata: (.*)\n\n/.exec(text);
        if (m) {
          text = text.slice(m.index + m[0].length);
          return { event: m[1]!, data: m[2]! };
        }
        if (Date.now() > deadline) throw new Error(`no event in ${JSON.stringify(text)}`);
        const { value, done } = await reader.read();
        if (done) throw new Error("the event stream ended");
        text += value;
      }
    },
    close: () => controller.abort(),
  };
}

describe("build-api preview --watch", () => {
  it("builds on a store change, serves the new bytes, sends the event; a failed build keeps the old snapshot", async () => {
    const dir = tempDir("watch");
    const db = path.join(dir, "club.sqlite");
    expect((await runCli(["init-store", "--sample", db])).code).toBe(0);
    const p = start(["preview", "--watch", "--db", "club.sqlite", "--dir", "dist", "--port", "0"], dir);
    const [, base] = await p.waitFor(/serving dist at (http:\/\/[\d.]+:\d+)\//, 0);
    await p.waitFor(/watching club\.sqlite/, 0);
    expect(p.stderr).toMatch(/watch: build 1 \(start\)/);

    // Pages carry the live-reload script as a file of the same origin (the CSP allows 'self').
    const page = await fetch(`${base}/`);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("connect-src 'self'");
    const html = await page.text();
    expect(html).toContain(`<script src="${LIVE_SCRIPT_PATH}" defer></script></head>`);
    const script = await fetch(`${base}${LIVE_SCRIPT_PATH}`);
    expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain(`new EventSource(${JSON.stringify(LIVE_EVENTS_PATH)})`);
    // JSON answers are the snapshot's bytes as they are.
    const list = `${base}/api/public/v1/tournaments`;
    expect((await fetch(`${base}/api/public/v1/tournaments/${NEW_ID}`)).status).toBe(404);

    const events = await openEvents(`${base}${LIVE_EVENTS_PATH}`);
    try {
      // A change: a new published tournament, imported by the CLI (another process).
      const imported = await runCli(
        [
          "import-trf",
          TEC,
          "--db",
          db,
          "--id",
          NEW_ID,
          "--source-url",
          "https://example.org/t/4242",
          "--publish",
        ],
        { cwd: dir },
      );
      expect(imported.code, imported.stderr).toBe(0);
      const built = await events.nextEvent();
      expect(built.event).toBe("build");
      const version = (JSON.parse(built.data) as { version: string }).version;
      expect(readlinkSync(path.join(dir, "dist"))).toBe(`.dist.snapshots/${version}`);
      expect(p.stderr).toMatch(/watch: build 2 \(the store changed\)/);
      const fresh = await fetch(`${base}/api/public/v1/tournaments/${NEW_ID}`);
      expect(fresh.status).toBe(200);
      expect(((await fresh.json()) as { id: number }).id).toBe(Number(NEW_ID));
      const goodList = await (await fetch(list)).text();
      expect(goodList).toContain(`"id":${NEW_ID},`);

      // A change the build refuses: the error is printed, the last good snapshot keeps serving.
      const from = p.stderr.length;
      const store = new Database(db);
      store.prepare("UPDATE tournaments SET start_date = 'not a date' WHERE external_id = ?").run(NEW_ID);
      store.close();
      await p.waitFor(/watch: build \d+ failed; the last good snapshot keeps serving/, from);
      await p.waitFor(/start_date/, from);
      expect(readlinkSync(path.join(dir, "dist"))).toBe(`.dist.snapshots/${version}`);
      expect(await (await fetch(list)).text()).toBe(goodList);
      expect((await fetch(`${base}/api/public/v1/tournaments/${NEW_ID}`)).status).toBe(200);
      expect(events.text).not.toMatch(/event: build/);

      // Fixed: the next change builds again, and the pages hear of it.
      const fix = new Database(db);
      fix.prepare("UPDATE tournaments SET start_date = '2026-01-10' WHERE external_id = ?").run(NEW_ID);
      fix.close();
      expect((await events.nextEvent()).event).toBe("build");
      expect(await (await fetch(`${base}/api/public/v1/tournaments/${NEW_ID}`)).text()).toContain(
        '"startDate":"2026-01-10"',
      );
    } finally {
      events.close();
    }
    expect(p.child.exitCode).toBeNull();
    // Ctrl-C: watching stops, the open streams end, the process exits 130.
    const exited = new Promise<number | null>((r) => p.child.once("exit", r));
    p.child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(p.stderr).toMatch(/watch: SIGINT received: stopping/);
    expect(p.stderr).toMatch(/watch: stopped; dist keeps the last good snapshot/);
  }, 120_000);

  it("a plain preview has no live-reload paths, and pages go out as built", async () => {
    const dir = tempDir("watch-plain");
    const db = path.join(dir, "s.sqlite");
    expect((await runCli(["init-store", "--sample", db])).code).toBe(0);
    const b = await runCli(["build", "--db", db, "--out", path.join(dir, "dist")]);
    expect(b.code, b.stderr).toBe(0);
    const p = start(["preview", "--dir", "dist", "--port", "0"], dir);
    const [, base] = await p.waitFor(/serving dist at (http:\/\/[\d.]+:\d+)\//, 0);
    expect((await fetch(`${base}${LIVE_EVENTS_PATH}`)).status).toBe(404);
    expect((await fetch(`${base}${LIVE_SCRIPT_PATH}`)).status).toBe(404);
    expect(await (await fetch(`${base}/`)).text()).not.toContain(LIVE_SCRIPT_PATH);
  }, 60_000);

  it("--watch needs --db, and --db needs --watch", async () => {
    const dir = tempDir("watch-usage");
    const a = await runCli(["preview", "--watch", "--port", "0"], { cwd: dir });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain("--watch needs --db");
    const b = await runCli(["preview", "--db", "x.sqlite", "--port", "0"], { cwd: dir });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("--db, --skip-invalid and --base-path go with --watch");
    const c = await runCli(["preview", "--base-path", "/chess/", "--port", "0"], { cwd: dir });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain("--base-path go with --watch");
  });

  it.each([
    ["built under /chess/ before, no --base-path: keeps the snapshot's", true, []],
    ["--base-path /chess/ on a new directory", false, ["--base-path", "/chess/"]],
  ])(
    "rebuilds under the base path: %s",
    async (_name, prebuilt, more) => {
      const dir = tempDir("watch-base");
      const db = path.join(dir, "club.sqlite");
      expect((await runCli(["init-store", "--sample", db])).code).toBe(0);
      if (prebuilt) {
        const b = await runCli([
          "build",
          "--db",
          db,
          "--out",
          path.join(dir, "dist"),
          "--base-path",
          "/chess/",
        ]);
        expect(b.code, b.stderr).toBe(0);
      }
      const p = start(
        ["preview", "--watch", "--db", "club.sqlite", "--dir", "dist", "--port", "0", ...more],
        dir,
      );
      const [, origin] = await p.waitFor(/serving dist at (http:\/\/[\d.]+:\d+)\/chess\//, 0);
      await p.waitFor(/watching club\.sqlite/, 0);
      const from = p.stderr.length;
      const imported = await runCli(
        ["import-trf", TEC, "--db", db, "--id", NEW_ID, "--source-url", "https://example.org/t", "--publish"],
        { cwd: dir },
      );
      expect(imported.code, imported.stderr).toBe(0);
      await p.waitFor(/watch: build \d+: \d+ files written/, from);
      // The new build is the same snapshot under /chess/: its API, its pages' links, its edge facts.
      const api = await fetch(`${origin}/chess/api/public/v1/tournaments/${NEW_ID}`);
      expect(api.status).toBe(200);
      expect(await (await fetch(`${origin}/chess/`)).text()).toContain(
        `href="/chess/tournaments/${NEW_ID}/"`,
      );
      expect((await fetch(`${origin}/api/public/v1/tournaments`)).status).toBe(404);
      const edge = JSON.parse(readFileSync(path.join(dir, "dist", "_build-api-edge.json"), "utf8")) as {
        basePath?: string;
      };
      expect(edge.basePath).toBe("/chess");
      p.child.kill("SIGTERM");
    },
    120_000,
  );

  it("a first build that fails with no snapshot to serve stops with the build's exit code", async () => {
    const dir = tempDir("watch-first");
    copyFileSync(TEC, path.join(dir, "not-a-store.sqlite"));
    const r = await runCli(["preview", "--watch", "--db", "not-a-store.sqlite", "--port", "0"], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/watch: build 1 failed/);
  });
});
