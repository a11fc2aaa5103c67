// The OpenAPI 3.1 document, derived from the route table and the contracts.
import { ROUTES, type Route } from "../routes/table.ts";
import { type ParamName } from "../routes/urls.ts";
import { CACHE_POLICY } from "../routes/cache.ts";
import { LIST_PAGE_SIZE } from "../routes/pagination.ts";
import { componentSchemas, schemaId } from "./jsonschema.ts";
import { SLUG_PATTERN } from "../shared/segments.ts";

const MEDIA_TYPES = ["application/json", "text/json", "text/plain"] as const;

const PARAMETERS: Record<ParamName, Record<string, unknown>> = {
  slug: {
    name: "slug",
    in: "path",
    required: true,
    description: "Club slug",
    schema: { type: "string", pattern: SLUG_PATTERN.source },
  },
  id: {
    name: "id",
    in: "path",
    required: true,
    description:
      "Tournament ID at the original results source: a positive int64 written in decimal digits. " +
      "It is a string so that every id reaches its resource: a generated client that took a " +
      "number would round ids above 2^53 (9007199254740993 would become 9007199254740992).",
    // Not `type: integer`: code generators map it to a JavaScript number, which cannot hold every
    // int64. The path segment is text, and the pattern admits exactly the decimal form.
    schema: { type: "string", pattern: "^[1-9][0-9]{0,18}$", examples: ["1201344", "9007199254740993"] },
  },
  round: {
    name: "round",
    in: "path",
    required: true,
    description: "Round number (decimal int32)",
    schema: { type: "integer", format: "int32", minimum: 1 },
  },
  tag: {
    name: "tag",
    in: "query",
    required: false,
    description: "Narrows the list to tournaments carrying exactly this tag (case-sensitive).",
    schema: { type: "string" },
  },
  player: {
    name: "player",
    in: "path",
    required: true,
    description: "Extension: the tournament-local source player number (decimal int32)",
    schema: { type: "integer", format: "int32", minimum: 1 },
  },
  team: {
    name: "team",
    in: "path",
    required: true,
    description: "Extension: a team's number in a team event (decimal int32)",
    schema: { type: "integer", format: "int32", minimum: 1 },
  },
  fideId: {
    name: "fideId",
    in: "path",
    required: true,
    description: "Extension: the player's FIDE ID, in decimal digits",
    schema: { type: "string", pattern: "^[1-9][0-9]{0,18}$", examples: ["1503014"] },
  },
  language: {
    name: "language",
    in: "query",
    required: false,
    description: "Recap language (BCP 47, e.g. es, en).",
    schema: { type: "string", default: "es" },
  },
  page: {
    name: "page",
    in: "query",
    required: false,
    description:
      "Extension (not in the spec): a numbered page of a list longer than " +
      `${LIST_PAGE_SIZE} items. Without it the list's first page (its head) is returned; the ` +
      "Link header (first, prev, next, last) names the others. Page 1 holds the oldest finished " +
      "tournaments, so a page keeps its content while they stay as they are. A page that does " +
      "not exist (every page of a list that fits one page) is a 404.",
    schema: { type: "integer", minimum: 1 },
  },
};

function operation(route: Route): Record<string, unknown> {
  const ref = { $ref: `#/components/schemas/${schemaId(route.schema)}` };
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => PARAMETERS[m[1] as ParamName]);
  const parameters = [
    ...pathParams,
    ...(route.query ? [PARAMETERS[route.query.name]] : []),
    ...(route.paged ? [PARAMETERS.page] : []),
  ];
  return {
    operationId: route.id,
    summary: route.summary,
    tags: [route.extension ? "Extensions" : route.surface === "club" ? "Club catalog" : "Global"],
    ...(route.extension && { "x-extension": true }),
    // Every endpoint is public: no authentication on either surface.
    security: [],
    parameters,
    responses: {
      "200": {
        description: "Success",
        headers: {
          ETag: { $ref: "#/components/headers/ETag" },
          "Cache-Control": {
            description: `Cache policy of class "${route.cache}": ${CACHE_POLICY[route.cache]}`,
            schema: { type: "string" },
          },
          ...((route.cors ?? route.surface === "club")
            ? { "Access-Control-Allow-Origin": { $ref: "#/components/headers/AccessControlAllowOrigin" } }
            : {}),
          ...(route.paged ? { Link: { $ref: "#/components/headers/Link" } } : {}),
          "Cache-Tag": { $ref: "#/components/headers/CacheTag" },
        },
        content: Object.fromEntries(MEDIA_TYPES.map((t) => [t, { schema: ref }])),
      },
      "304": { description: "Not Modified: the If-None-Match validator matches the current ETag." },
      "404": { $ref: "#/components/responses/NotFound" },
    },
  };
}

export function openApiDocument(version: string, basePath = ""): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const route of ROUTES) paths[route.path] = { get: operation(route) };
  return {
    openapi: "3.1.0",
    info: {
      title: "Public Tournament Read API",
      version: "v1",
      license: { name: "MIT", identifier: "MIT" },
      description:
        "Read-only JSON API over published chess tournaments, served as a static snapshot " +
        `generated by build-api ${version}. Only GET exists. Club catalog endpoints allow ` +
        "anonymous cross-origin requests.",
    },
    // The spec's paths are relative to the server: under a base path, `/chess` + `/api/...`.
    servers: [{ url: basePath || "/" }],
    tags: [
      { name: "Club catalog", description: "Tournaments that an enabled club publishes." },
      { name: "Global", description: "Tournaments the operator has explicitly published (versioned)." },
      {
        name: "Extensions",
        description:
          "Beyond the specification's eleven endpoints (marked x-extension): standings after each " +
          "round, rank progression, crosstable, player cards and the round schedule of published " +
          "tournaments.",
      },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      headers: {
        ETag: {
          description: "Strong validator of the body; send it back in If-None-Match.",
          schema: { type: "string" },
        },
        Link: {
          description:
            "Extension: on a list split into pages, RFC 8288 links to its pages " +
            '(rel="first", "prev", "next", "last"); absent when the list fits one page.',
          schema: { type: "string" },
        },
        CacheTag: {
          description:
            "Purge tags of the answer, comma-separated (also sent space-separated as Surrogate-Key): " +
            "tournament-{id}, list-public, list-club-{slug}, club-{slug}, build-api.",
          schema: { type: "string" },
        },
        AccessControlAllowOrigin: {
          description: "Always *: anonymous cross-origin GET.",
          schema: { type: "string", const: "*" },
        },
      },
      responses: {
        NotFound: {
          description: "Unknown or unpublished club, tournament, round, tag path or language.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/ProblemResponse" } } },
        },
      },
    },
  };
}
