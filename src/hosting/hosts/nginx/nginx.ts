// nginx: `nginx.conf` holds the locations, to include inside a server block whose root is the
// snapshot directory (the snapshot owns the server: it defines `location /`); `nginx-http.conf`
// holds the maps of the query forms and of CORS on club errors, which nginx allows only at http
// level, to include inside the http block. Both come from the rule list. Only what a rule names is
// served: every other path, internal files included, is a 404 with the error body of its kind.
import { CACHE_POLICY, ERROR_CACHE_POLICY } from "../../../routes/cache.ts";
import { NOT_FOUND_FILE, NOT_FOUND_PAGE, problemJson } from "../../../output/problem.ts";
import { CORS_PREFIX, isPagedPage } from "../../../routes/urls.ts";
import {
  HTML_TYPE,
  JSON_TYPE,
  pageBareRegExpSource,
  pageRegExpSource,
  ARCHIVE_CACHE_CONTROL,
  ERROR_TAG,
  isTournamentRule,
  SEGMENT_PATTERN,
  securityHeaders,
  SITE_TAG,
  staticRegExpSource,
  tagHeaders,
  urlRegExpSource,
  type HostRules,
  type QueryRule,
} from "../../rules.ts";

const PATH_VAR = "build_api_path";
/** The Link header of the file served, from a map of the paged lists' and split pages' files. */
const LINK_VAR = "build_api_link";

/** The Cache-Control of a tournament answer of this class: the archive class when archived. */
function cacheVar(cls: string): string {
  return `build_api_cc_${cls}`;
}
/** 1 when the tournament of the id the location captured is archived (facts.archived). */
const ARCHIVED_VAR = "build_api_archived";
/** nginx's map_hash_max_size when none is set. */
const MAP_HASH_MAX_SIZE_DEFAULT = 2048;
const CORS_VAR = "build_api_cors";
/** CORS of a request nginx refuses to parse: it has no $request_uri, only its request line. */
const BAD_CORS_VAR = "build_api_cors_bad";
/**
 * Where nginx sends a request it cannot parse (`%00`, a malformed escape) for the 400 problem
 * body. It must be a URI, not a named location: such a request has no URI of its own yet.
 */
const BAD_REQUEST_SITE_URI = "/.build-api-400";
/**
 * Under a base path, the 400 of a request outside it goes here: nginx's own 400 page, as if
 * build-api were not included (the map BAD_URI_VAR, nginx-http.conf, picks it).
 */
const BAD_REQUEST_ELSEWHERE_SITE_URI = "/.build-api-400-elsewhere";
/** Under a base path: the error_page of a 400, by the request line (see renderNginx). */
const BAD_URI_VAR = "build_api_bad_uri";
/** Where a method other than GET and HEAD on a file goes for the 405 problem body. */
const METHOD_SITE_URI = "/.build-api-405";

/** A string nginx reads back as `text` in single quotes (`$` would start a variable). */
function nginxQuoted(text: string): string {
  if (text.includes("$")) throw new Error(`nginx cannot return ${JSON.stringify(text)} literally`);
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** The base path in a regex of nginx: letters, digits and `- . _ ~` (parseBasePath), `.` escaped. */
function baseRegExp(base: string): string {
  return base.replace(/\./g, "\\.");
}

/** `$build_api_tag`: "" without ?tag, `/tag/<value>` with one (`/tag/-` for a value no tag can have). */
function queryVar(param: QueryRule["param"]): string {
  return `build_api_${param}`;
}

export function renderNginxHttp(rules: HostRules): string {
  const blocks = rules.queries
    .filter((q, i, all) => all.findIndex((o) => o.param === q.param) === i)
    .map((q) => {
      // The path form's suffix for a value: `/tag/{tag}` → `/tag/$value`.
      const suffix = q.target.slice(q.url.length).replace(`{${q.param}}`, `$${queryVar(q.param)}_value`);
      return [
        `map $arg_${q.param} $${queryVar(q.param)}_value {`,
        `    "~^(?:${SEGMENT_PATTERN[q.param]})$" $arg_${q.param};`,
        `    default -;`,
        `}`,
        `map $args $${queryVar(q.param)} {`,
        `    "~(?:^|&)${q.param}(?:=|&|$)" ${suffix};`,
        `    default "";`,
        `}`,
        // `?tag=` or `?tag` names no value: a 404 (docs/design/lists-and-caching.md).
        `map $args $${queryVar(q.param)}_empty {`,
        `    "~(?:^|&)${q.param}=?(?:&|$)" 1;`,
        `    default "";`,
        `}`,
      ].join("\n");
    });
  // The archive class: a tournament's answers take it by the id the location captured. The ids
  // are listed once (a mirror archives most of its tournaments: 100,000 ids are about 1.5 MB
  // here, where a list per class cost 16 MB and 0.1-0.3 s a build); each class's Cache-Control
  // follows from the flag.
  const classes = [...new Set([...rules.paths, ...rules.pages].filter(isTournamentRule).map((r) => r.cache))];
  const archived = rules.facts.archived;
  const archive = [
    [
      `map $${paramVar("id")} $${ARCHIVED_VAR} {`,
      `    default 0;`,
      ...archived.map((id) => `    ${id} 1;`),
      `}`,
    ].join("\n"),
    ...classes.map((cls) =>
      [
        `map $${ARCHIVED_VAR} $${cacheVar(cls)} {`,
        `    1 "${ARCHIVE_CACHE_CONTROL}";`,
        `    default "${CACHE_POLICY[cls]}";`,
        `}`,
      ].join("\n"),
    ),
  ];
  // The Link header of each file of a paged list, by the file try_files found ($uri).
  const links = Object.entries(rules.facts.links);
  // nginx's default map hash (map_hash_max_size 2048) holds a few thousand keys; with more it
  // warns at every start and builds a slower hash. Set before the first map, as the bucket size.
  const keys = Math.max(archived.length, links.length);
  const maxSize =
    keys > MAP_HASH_MAX_SIZE_DEFAULT ? [`map_hash_max_size ${2 ** Math.ceil(Math.log2(keys))};`] : [];
  const longest = Math.max(0, ...links.map(([file]) => file.length + 1));
  // nginx's default bucket holds keys of about 60 bytes; longer file paths need a larger one
  // (set before the first map, or nginx refuses it).
  const bucket = longest > 60 ? [`map_hash_bucket_size ${2 ** Math.ceil(Math.log2(longest + 8))};`] : [];
  const link = [
    `map $uri $${LINK_VAR} {`,
    `    default "";`,
    ...links.map(([file, value]) => `    /${file} ${nginxQuoted(value)};`),
    `}`,
  ].join("\n");
  // $request_uri survives the internal redirect to the error body, so club 404s keep CORS.
  const base = baseRegExp(rules.base);
  const cors = [
    `map $request_uri $${CORS_VAR} {`,
    `    "~^${base}${CORS_PREFIX}" "*";`,
    `    default "";`,
    `}`,
    `map $request $${BAD_CORS_VAR} {`,
    `    "~^[A-Z]+ ${base}${CORS_PREFIX}" "*";`,
    `    default "";`,
    `}`,
  ].join("\n");
  // Under a base path the 400 problem body is for requests under it only (renderNginx): a
  // request nginx refuses has no URI, so its request line says where it was going.
  const bad = rules.base
    ? [
        [
          `map $request $${BAD_URI_VAR} {`,
          `    "~^[A-Z]+ ${base}/" ${rules.base}${BAD_REQUEST_SITE_URI};`,
          `    default ${rules.base}${BAD_REQUEST_ELSEWHERE_SITE_URI};`,
          `}`,
        ].join("\n"),
      ]
    : [];
  return (
    [
      "# Generated by build-api from its route table; do not edit. Include in the http block.",
      ...maxSize,
      ...bucket,
      ...blocks,
      ...archive,
      link,
      cors,
      ...bad,
    ].join("\n") + "\n"
  );
}

/**
 * nginx's variable of a URL parameter, set by a named capture of the location's regex (its own
 * prefix: `$build_api_tag` is the map of the ?tag= query form).
 */
function paramVar(param: string): string {
  return `build_api_p_${param}`;
}

function headerLines(
  type: string,
  cache: string,
  cors: boolean | "map" | "bad-map",
  indent: string,
  tags: readonly string[] = [ERROR_TAG, SITE_TAG],
): string[] {
  const lines = [
    "types { }",
    `default_type "${type}";`,
    `add_header Cache-Control "${cache}" always;`,
    `add_header X-Content-Type-Options nosniff always;`,
    ...securityHeaders(type === HTML_TYPE).map(([k, v]) => `add_header ${k} "${v}" always;`),
    // Purge tags: `{id}` is the named capture of the location's regex.
    ...tagHeaders(tags).map(
      ([k, v]) =>
        `add_header ${k} "${v.replace(/\{(\w+)\}/g, (_, n: string) => `\${${paramVar(n)}}`)}" always;`,
    ),
  ];
  if (cors === "map") lines.push(`add_header Access-Control-Allow-Origin $${CORS_VAR} always;`);
  else if (cors === "bad-map") lines.push(`add_header Access-Control-Allow-Origin $${BAD_CORS_VAR} always;`);
  else if (cors) lines.push(`add_header Access-Control-Allow-Origin "*" always;`);
  return lines.map((l) => indent + l);
}

export function renderNginx(rules: HostRules): string {
  const i1 = "    ";
  const i2 = i1 + i1;
  // Under a base path (rules from servedUnder) every URI below carries it, internal ones too.
  const b = rules.base;
  const BAD_REQUEST_URI = b + BAD_REQUEST_SITE_URI;
  const METHOD_URI = b + METHOD_SITE_URI;
  const where = b
    ? [
        `# Include in a server block whose root holds the snapshot as the folder ${b.slice(1)}/ (a real`,
        "# directory: `build-api export`), with nginx-http.conf included in the http block (it",
        `# defines the maps of ?tag=, ?language= and club CORS). Only ${b}/ is the snapshot's.`,
      ]
    : [
        "# Include in a server block whose root is the snapshot directory, with nginx-http.conf",
        "# included in the http block (it defines the maps of ?tag=, ?language= and club CORS).",
      ];
  const out = [
    "# Generated by build-api from its route table; do not edit.",
    ...where,
    "# No symlink below the root is followed (the root itself may be the `dist` link).",
    "disable_symlinks on from=$document_root;",
    ...(b
      ? [
          "# A path nginx refuses before any location (`%00`, a malformed escape): the 400 problem body",
          `# under ${b}/; elsewhere nginx's own 400 page. Such a request reaches no location, so only`,
          "# this server-level error_page sees it; the map picks its target by the request line.",
          `error_page 400 $${BAD_URI_VAR};`,
        ]
      : [
          "# A path nginx refuses before any location (`%00`, a malformed escape): the 400 problem body.",
          `error_page 400 ${BAD_REQUEST_URI};`,
        ]),
    `location ${b}/api/ {`,
    `${i1}etag on;`,
    `${i1}error_page 404 ${b}/${NOT_FOUND_FILE};`,
    `${i1}error_page 405 ${METHOD_URI};`,
  ];
  // Regex locations are tried in order: literal segments first, ids and rounds are digits only.
  for (const rule of rules.paths) {
    // Its query forms, in the rules' order: `?tag=x&page=2` tries `<list>/tag/x/page/2`.
    const queries = rules.queries.filter((q) => q.url === rule.url);
    const re = urlRegExpSource(rule.url, paramVar).replace(/^\^(.*)\/\?\$$/, `^(?<${PATH_VAR}>$1)/?$`);
    const p = `$${PATH_VAR}`;
    const guard = queries.map((q) => `${i2}if ($${queryVar(q.param)}_empty) { return 404; }`);
    const vars = queries.map((q) => `$${queryVar(q.param)}`).join("");
    // An unknown tag's answer, the empty list, has no numbered page: `/tag/page/2` is no file.
    const fallbacks = queries.flatMap((q) =>
      q.fallback
        ? [
            `${p}${q.fallback.slice(q.url.length)}${queries
              .filter((o) => o !== q)
              .map((o) => `$${queryVar(o.param)}`)
              .join("")}/index.json`,
          ]
        : [],
    );
    const tries = [`${p}${vars}/index.json`, ...fallbacks, "=404"].join(" ");
    const cache = isTournamentRule(rule) ? `$${cacheVar(rule.cache)}` : CACHE_POLICY[rule.cache];
    out.push(
      `${i1}location ~ "${re}" {`,
      ...headerLines(JSON_TYPE, cache, rule.cors, i2, rule.tags),
      ...(rule.url.includes("{page}") || queries.some((q) => q.param === "page")
        ? [`${i2}add_header Link $${LINK_VAR} always;`]
        : []),
      ...guard,
      `${i2}try_files ${tries};`,
      `${i1}}`,
    );
  }
  for (const f of rules.files) {
    out.push(
      `${i1}location = ${f.url} {`,
      ...headerLines(JSON_TYPE, CACHE_POLICY[f.cache], f.cors, i2, f.tags),
      `${i2}try_files $uri =404;`,
      `${i1}}`,
    );
  }
  out.push(`${i1}# Any other /api path: the problem body.`, `${i1}return 404;`, "}");
  for (const page of rules.pages) {
    const bare = pageBareRegExpSource(page);
    out.push(
      `location ~ "${pageRegExpSource(page, paramVar)}" {`,
      `${i1}etag on;`,
      `${i1}error_page 404 ${b}/${NOT_FOUND_PAGE};`,
      `${i1}error_page 405 ${METHOD_URI};`,
      ...headerLines(
        HTML_TYPE,
        isTournamentRule(page) ? `$${cacheVar(page.cache)}` : CACHE_POLICY[page.cache],
        false,
        i1,
        page.tags,
      ),
      // A split index page's parts: the Link header of the file try_files found, as a list's.
      ...(isPagedPage(page.routeId) ? [`${i1}add_header Link $${LINK_VAR} always;`] : []),
      `${i1}try_files \${uri}index.html =404;`,
      "}",
    );
    if (bare) {
      out.push(
        `location ~ "${bare.replace(/^\^(.*)\$$/, `^(?<${PATH_VAR}>$1)$`)}" {`,
        `${i1}error_page 404 ${b}/${NOT_FOUND_PAGE};`,
        `${i1}if (!-f $document_root$${PATH_VAR}/index.html) { return 404; }`,
        `${i1}return 308 $${PATH_VAR}/$is_args$args;`,
        "}",
      );
    }
  }
  for (const s of rules.statics) {
    out.push(
      `location ~ "${staticRegExpSource(s)}" {`,
      `${i1}etag on;`,
      `${i1}error_page 404 ${b}/${NOT_FOUND_PAGE};`,
      `${i1}error_page 405 ${METHOD_URI};`,
      ...headerLines(s.type, CACHE_POLICY[s.cache], s.cors, i1, s.tags),
      `${i1}try_files $uri =404;`,
      "}",
    );
  }
  out.push(
    "# Anything else, internal files included: the HTML 404 page.",
    `location ${b}/ {`,
    `${i1}error_page 404 ${b}/${NOT_FOUND_PAGE};`,
    `${i1}return 404;`,
    "}",
    `location = ${b}/${NOT_FOUND_FILE} {`,
    `${i1}internal;`,
    ...headerLines(JSON_TYPE, ERROR_CACHE_POLICY, "map", i1),
    "}",
    `location = ${b}/${NOT_FOUND_PAGE} {`,
    `${i1}internal;`,
    ...headerLines(HTML_TYPE, ERROR_CACHE_POLICY, false, i1),
    "}",
    `location = ${BAD_REQUEST_URI} {`,
    `${i1}internal;`,
    `${i1}error_page 404 ${b}/${NOT_FOUND_PAGE};`,
    ...headerLines(JSON_TYPE, ERROR_CACHE_POLICY, "bad-map", i1),
    `${i1}return 400 ${nginxQuoted(problemJson(400))};`,
    "}",
    ...(b
      ? [
          `# A 400 outside ${b}/: nginx's own answer (a bare return in an error page gives it).`,
          `location = ${b}${BAD_REQUEST_ELSEWHERE_SITE_URI} {`,
          `${i1}internal;`,
          `${i1}error_page 404 ${b}/${NOT_FOUND_PAGE};`,
          `${i1}return 400;`,
          "}",
        ]
      : []),
    "# POST, PUT ... on a file: the 405 problem body (nginx's static handler refuses them).",
    `location = ${METHOD_URI} {`,
    `${i1}internal;`,
    `${i1}error_page 404 ${b}/${NOT_FOUND_PAGE};`,
    ...headerLines(JSON_TYPE, ERROR_CACHE_POLICY, "map", i1),
    `${i1}add_header Allow "GET, HEAD" always;`,
    `${i1}return 405 ${nginxQuoted(problemJson(405))};`,
    "}",
  );
  return out.join("\n") + "\n";
}
