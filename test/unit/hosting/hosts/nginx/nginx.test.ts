// nginx.conf and nginx-http.conf by behaviour: for every URL of the rule list, the location nginx
// picks (test/support/nginx-model.ts) serves the file the preview serves, with the same headers;
// what no rule names is a 404 of its kind; and the archive class at a mirror's scale. The real
// nginx runs these files in CI (scripts/ci-hosts.sh) and, when installed, in the last test here.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ARCHIVE_CACHE_CONTROL,
  hostRules,
  INTERNAL_FILES,
  JSON_TYPE,
} from "../../../../../src/hosting/rules.ts";
import { resolveRequest } from "../../../../../src/hosting/resolve.ts";
import { problemJson } from "../../../../../src/output/problem.ts";
import { CORS_PREFIX } from "../../../../../src/routes/urls.ts";
import {
  headersOf,
  ifReturn,
  parseLocations,
  parseMaps,
  selectLocation,
  tryFilesOf,
  variables,
  type Match,
} from "../../../../support/nginx-model.ts";
import { hostFiles } from "../../../../../src/hosting/hosts/index.ts";
import { HOST_VOCAB, hostFile } from "../../../../support/host-files.ts";
import { tempDir } from "../../../../support/temp.ts";

/** nginx-http.conf and nginx.conf of a snapshot with `n` archived tournaments (ids 1000000...). */
function withArchived(n: number): { http: string; server: string } {
  const archived = Array.from({ length: n }, (_, i) => String(1_000_000 + i));
  const files = hostFiles(HOST_VOCAB, { links: {}, archived });
  return { http: files.get("nginx-http.conf")!, server: files.get("nginx.conf")! };
}

const SAMPLE: Record<string, string> = {
  id: "42",
  slug: "gros",
  tag: "rapid",
  round: "3",
  language: "en",
  page: "2",
  player: "7",
  team: "3",
  fideId: "2201836",
};

/** A rule's URL pattern with a sample value for each parameter. */
function fill(pattern: string): string {
  return pattern.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE[name] ?? `<${name}>`);
}

const NGINX = spawnSync("nginx", ["-v"]).error === undefined;

describe("nginx", () => {
  const locations = parseLocations(hostFile("nginx.conf"));
  const rules = hostRules();
  const maps = parseMaps(hostFile("nginx-http.conf"));
  /** nginx's variables for a GET of `url` with `args` in the location `match`. */
  const varsOf = (match: Match, url: string, args = ""): Record<string, string> =>
    variables(maps, {
      uri: url,
      request_uri: args ? `${url}?${args}` : url,
      args,
      request: `GET ${url}`,
      ...match.vars,
    });

  /** What the preview sends for `url` when the snapshot holds every file. */
  function preview(url: string): { file: string; headers: Map<string, string> } {
    const r = resolveRequest(rules, url, "", () => true);
    if (r.kind !== "file") throw new Error(`${url}: ${r.kind}`);
    return { file: `/${r.file}`, headers: new Map(r.headers) };
  }

  it("serves every URL of the rule list from the file the preview serves, with its headers", () => {
    const urls = [
      ...rules.paths.map((r) => fill(r.url)),
      ...rules.files.map((f) => f.url),
      ...rules.pages.map((p) => fill(p.url)),
      ...rules.statics.map((st) => `${st.prefix}sub/x.${st.ext}`),
    ];
    expect(urls.length).toBeGreaterThan(40);
    for (const url of urls) {
      const match = selectLocation(locations, url);
      expect(match, url).toBeDefined();
      const want = preview(url);
      const vars = varsOf(match!, url);
      const tries = tryFilesOf(match!, vars);
      // `$uri` names the request's own file (statics, the OpenAPI document).
      expect([url, tries[0] === "$uri" ? url : tries[0]]).toEqual([url, want.file]);
      expect(tries.at(-1), url).toBe("=404");
      const sent = headersOf(match!, vars);
      for (const name of [
        "Content-Type",
        "Cache-Control",
        "Content-Security-Policy",
        "X-Frame-Options",
        "Referrer-Policy",
        "Cache-Tag",
        "Surrogate-Key",
        "Access-Control-Allow-Origin",
      ]) {
        expect([url, name, sent.get(name)]).toEqual([url, name, want.headers.get(name)]);
      }
      expect(sent.get("X-Content-Type-Options"), url).toBe("nosniff");
    }
  });

  it("redirects a page URL without its slash, as the preview does", () => {
    for (const page of rules.pages.filter((p) => p.url !== "/")) {
      const url = fill(page.url).replace(/\/$/, "");
      const match = selectLocation(locations, url)!;
      expect(
        match.location.directives.find((d) => d.startsWith("return 30")),
        url,
      ).toMatch(/^return 30[18] \$build_api_path\/\$is_args\$args$/);
      const r = resolveRequest(rules, url, "", () => true);
      expect([url, r.kind === "redirect" ? r.location : r.kind]).toEqual([
        url,
        `${match.vars.build_api_path}/`,
      ]);
    }
  });

  it("answers what no rule names with a 404 of its kind, internal files included", () => {
    for (const url of ["/api/public/v1/nope", "/api/clubs/gros/tournaments/x", "/nope/", "/assets/x.exe"]) {
      const match = selectLocation(locations, url)!;
      const api = url.startsWith("/api/");
      expect([url, match.location.directives]).toEqual([
        url,
        expect.arrayContaining([api ? "error_page 404 /404.json" : "error_page 404 /404.html"]),
      ]);
      expect(tryFilesOf(match), url).toEqual([]);
    }
    for (const file of INTERNAL_FILES) {
      const match = selectLocation(locations, `/${file}`)!;
      expect([file, match.location.directives.includes("return 404")]).toEqual([file, true]);
    }
    const notFound = selectLocation(locations, "/404.json")!;
    expect(notFound.location.directives).toContain("internal");
    expect(headersOf(notFound).get("Content-Type")).toBe(JSON_TYPE);
  });

  it("answers a malformed path with the 400 body and another method with the 405 body", () => {
    const conf = hostFile("nginx.conf");
    // No symlink below the root is followed (a snapshot's files are its own).
    expect(conf).toContain("disable_symlinks on from=$document_root;");
    for (const [status, extra] of [
      [400, undefined],
      [405, "GET, HEAD"],
    ] as const) {
      const uri = new RegExp(`^\\s*error_page ${status} (\\S+);$`, "m").exec(conf)![1]!;
      const match = selectLocation(locations, uri)!;
      expect(match.location.directives).toContain("internal");
      expect(match.location.directives).toContain(`return ${status} '${problemJson(status).trim()}'`);
      expect(headersOf(match).get("Content-Type")).toBe(JSON_TYPE);
      expect(headersOf(match).get("Allow")).toBe(extra);
    }
  });

  it("sends CORS on club paths only, their errors included", () => {
    const club = selectLocation(locations, "/api/clubs/gros/tournaments/42")!;
    expect(headersOf(club).get("Access-Control-Allow-Origin")).toBe("*");
    const pub = selectLocation(locations, "/api/public/v1/tournaments/42")!;
    expect(headersOf(pub).has("Access-Control-Allow-Origin")).toBe(false);
    const http = hostFile("nginx-http.conf");
    const corsMap = /map \$request_uri \$build_api_cors \{([^}]*)\}/.exec(http)![1]!;
    expect(corsMap).toContain(`"~^${CORS_PREFIX}" "*";`);
    expect(corsMap).toContain('default "";');
  });

  it("answers each query form as the preview does: its target, else its fallback; empty, a 404", () => {
    expect(rules.queries.length).toBeGreaterThan(3);
    for (const q of rules.queries) {
      const url = fill(q.url);
      const match = selectLocation(locations, url)!;
      for (const args of [`${q.param}=${SAMPLE[q.param]}`, `x=1&${q.param}=${SAMPLE[q.param]}`]) {
        const vars = varsOf(match, url, args);
        expect([url, args, ifReturn(match, vars)]).toEqual([url, args, undefined]);
        const tries = tryFilesOf(match, vars);
        const target = resolveRequest(rules, url, `?${args}`, () => true);
        expect([url, args, tries[0]]).toEqual([
          url,
          args,
          target.kind === "file" ? `/${target.file}` : target.kind,
        ]);
        if (q.fallback === null) continue;
        const missing = tries[0]!.slice(1);
        const fallback = resolveRequest(rules, url, `?${args}`, (f) => f !== missing);
        expect([url, args, tries[1]]).toEqual([
          url,
          args,
          fallback.kind === "file" ? `/${fallback.file}` : fallback.kind,
        ]);
      }
      const empty = resolveRequest(rules, url, `?${q.param}=`, () => true);
      expect([url, ifReturn(match, varsOf(match, url, `${q.param}=`))]).toEqual([
        url,
        empty.kind === "error" ? empty.status : empty.kind,
      ]);
    }
  });

  it("lists each archived id once, and each class's Cache-Control follows from that one flag", () => {
    const { http } = withArchived(3);
    for (const id of ["1000000", "1000001", "1000002"]) expect(http.split(`${id} `)).toHaveLength(2);
    expect(http).toContain("map $build_api_p_id $build_api_archived {\n    default 0;\n    1000000 1;");
    expect(http).toContain(
      `map $build_api_archived $build_api_cc_current {\n    1 "${ARCHIVE_CACHE_CONTROL}";`,
    );
    expect(http).toContain(`map $build_api_archived $build_api_cc_live {\n    1 "${ARCHIVE_CACHE_CONTROL}";`);
    // 100,000 archived tournaments: about 15 bytes an id.
    expect(withArchived(100_000).http.length).toBeLessThan(1_600_000);
  });

  it("sizes nginx's map hash for a mirror's archived ids, before the first map; none at the default", () => {
    expect(withArchived(2048).http).not.toContain("map_hash_max_size");
    const { http } = withArchived(5000);
    expect(http).toContain("map_hash_max_size 8192;");
    expect(http.indexOf("map_hash_max_size")).toBeLessThan(http.indexOf("map "));
    // The paged lists' Link map counts too.
    const links = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [
        `api/public/v1/tournaments/page/${i + 2}/index.json`,
        `<x>; rel="first"`,
      ]),
    );
    expect(hostFiles(HOST_VOCAB, { links, archived: [] }).get("nginx-http.conf")).toContain(
      "map_hash_max_size 4096;",
    );
  });

  it.skipIf(!NGINX)("nginx accepts the files of 20,000 archived tournaments without a warning", () => {
    const dir = tempDir();
    const { http, server } = withArchived(20_000);
    writeFileSync(path.join(dir, "nginx-http.conf"), http);
    writeFileSync(path.join(dir, "nginx.conf"), server);
    mkdirSync(path.join(dir, "logs"));
    mkdirSync(path.join(dir, "tmp"));
    const conf = path.join(dir, "test.conf");
    writeFileSync(
      conf,
      [
        "daemon off;",
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/logs/error.log warn;`,
        "events { worker_connections 16; }",
        "http {",
        // Temporary files under the test's folder, as scripts/ci-hosts.sh runs nginx.
        `    client_body_temp_path ${dir}/tmp; proxy_temp_path ${dir}/tmp; fastcgi_temp_path ${dir}/tmp;`,
        `    uwsgi_temp_path ${dir}/tmp; scgi_temp_path ${dir}/tmp;`,
        `    include ${dir}/nginx-http.conf;`,
        `    server { listen 127.0.0.1:1; root ${dir}; include ${dir}/nginx.conf; }`,
        "}",
      ].join("\n"),
    );
    // -e: the error log from the start (nginx opens its built-in one before the config otherwise,
    // which a user other than root may not write).
    const args = ["-t", "-q", "-p", dir, "-e", `${dir}/logs/error.log`, "-c", conf];
    const r = spawnSync("nginx", args, { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
