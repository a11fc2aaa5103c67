// One rule list, derived from the route table, that every host renderer (serve.json, _headers,
// _redirects, nginx) and the preview translate into their own syntax.
import { OPENAPI_PATH, ROUTES, type CacheClass, type ParamName, type Route } from "../routes.ts";

/** A URL pattern that serves `<url>/index.json`. Parameters are written {name}. */
export interface PathRule {
  routeId: string;
  url: string;
  file: string;
  cors: boolean;
  cache: CacheClass;
}

/** A query form (`?tag=`, `?language=`) that the static snapshot answers from a path form. */
export interface QueryRule {
  routeId: string;
  url: string;
  param: "tag" | "language";
  /** The path form holding the answer for a given value: `<url>/tag/{tag}`. */
  target: string;
  /** Where an unknown value is answered from; null when it is a 404 (unknown languages). */
  fallback: string | null;
}

export interface HostRules {
  paths: PathRule[];
  queries: QueryRule[];
  /** Files served as they are (the OpenAPI document). */
  files: { url: string; cache: CacheClass; cors: boolean }[];
}

export function pathRulesOf(route: Route): PathRule[] {
  const base = { routeId: route.id, cors: route.surface === "club", cache: route.cache };
  const urls = [route.path];
  const q = route.query;
  if (q) {
    urls.push(`${route.path}/${q.segment}/{${q.name}}`);
    if (q.name === "tag") urls.push(`${route.path}/${q.segment}`);
  }
  return urls.map((url) => ({ ...base, url, file: `${url}/index.json` }));
}

export function hostRules(): HostRules {
  const paths = ROUTES.flatMap(pathRulesOf);
  const queries: QueryRule[] = ROUTES.flatMap((route) => {
    const q = route.query;
    if (!q) return [];
    return [
      {
        routeId: route.id,
        url: route.path,
        param: q.name,
        target: `${route.path}/${q.segment}/{${q.name}}`,
        fallback: q.name === "tag" ? `${route.path}/${q.segment}` : null,
      },
    ];
  });
  return { paths, queries, files: [{ url: OPENAPI_PATH, cache: "meta", cors: false }] };
}

/** Parameter names of a URL pattern, in order. */
export function paramsOf(url: string): ParamName[] {
  return [...url.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as ParamName);
}
