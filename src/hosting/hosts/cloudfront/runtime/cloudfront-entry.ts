// The entry `npm run gen-edge` bundles into the CloudFront Function: the handler over the rule
// list, which the bundler puts in as a literal (BUILD_API_RULES, from hostRules()), so the URL
// model's own code stays out of the 10 KB a function may have, and over the KeyValueStore
// associated with the function (`cf`, the runtime's module, imported by the first line the deploy
// writes in front of the bundle, with the snapshot's base path: deploy/edge-code.ts).
import type { HostRules } from "../../../rules.ts";
import { NO_EDGE_FACTS } from "../../../../routes/pagination.ts";
import { viewerRequest, type KvsHandle } from "./cloudfront-function.ts";

/** The rule list packed by scripts/lib/edge-bundle.ts: URL prefixes as `~N`, no cache classes or tags. */
declare const BUILD_API_RULES: HostRules;
declare const BUILD_API_PREFIXES: string[];
/** `import cf from 'cloudfront'`, written in front of the bundle by deploy/edge-code.ts. */
declare const cf: { kvs(): KvsHandle };
/** The snapshot's base path ("" at the root), written in front of the bundle by deploy/edge-code.ts. */
declare const BUILD_API_BASE: string | undefined;

/** The global the bundle's top-level `function handler(event)` calls (scripts/lib/edge-bundle.ts). */
declare let buildApiHandler: ReturnType<typeof viewerRequest>;

// eslint-disable-next-line prefer-const, @typescript-eslint/no-unused-vars -- set here, called by the suffix
buildApiHandler = viewerRequest(
  {
    ...unpackRules(BUILD_API_RULES, BUILD_API_PREFIXES),
    base: typeof BUILD_API_BASE === "undefined" ? "" : BUILD_API_BASE,
  },
  cf.kvs(),
);

/** The rule list as the resolver reads it: `~N` put back, empty tag lists, no edge facts. */
function unpackRules(r: HostRules, parts: string[]): HostRules {
  const unpack = (v: string) => v.replace(/~(\d+)/g, (_, i: string) => parts[+i]!);
  // Path, file and page rules come as their URL alone (packedRules). Any cache class: the headers
  // the resolver makes for a file are never sent from here.
  const rule = (url: string) => ({ url: unpack(url), tags: [], cache: "meta" });
  r.paths = (r.paths as unknown as string[]).map(rule) as unknown as HostRules["paths"];
  r.files = (r.files as unknown as string[]).map(rule) as unknown as HostRules["files"];
  r.pages = (r.pages as unknown as string[]).map(rule) as unknown as HostRules["pages"];
  for (const q of r.queries) {
    q.url = unpack(q.url);
    q.target = unpack(q.target);
    if (q.fallback) q.fallback = unpack(q.fallback);
  }
  // Static rules come as `<prefix>.<ext>` (the prefix ends with "/", the extension has no dot).
  r.statics = (r.statics as unknown as string[]).map((s) => {
    const i = s.lastIndexOf(".");
    return { prefix: s.slice(0, i), ext: s.slice(i + 1), tags: [] };
  }) as unknown as HostRules["statics"];
  return { ...r, facts: NO_EDGE_FACTS };
}
