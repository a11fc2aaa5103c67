// The entry `npm run gen-edge` bundles into the CloudFront Function: the handler over the rule
// list, which the bundler puts in as a literal (BUILD_API_RULES, from hostRules()), so the URL
// model's own code stays out of the 10 KB a function may have; and the snapshot's query keys.
import type { HostRules } from "../../hosting/rules.ts";
import { viewerRequest, type QueryKeys } from "./cloudfront-function.ts";

declare const BUILD_API_RULES: HostRules;
/** Written in front of the bundle by the deploy (edge/write.ts): see queryKeys. */
declare const QUERY_KEYS: QueryKeys | undefined;

/** The global the bundle's top-level `function handler(event)` calls (scripts/lib/edge-bundle.ts). */
declare let buildApiHandler: ReturnType<typeof viewerRequest>;

// eslint-disable-next-line prefer-const, @typescript-eslint/no-unused-vars -- set here, called by the suffix
buildApiHandler = viewerRequest(
  BUILD_API_RULES,
  typeof QUERY_KEYS === "undefined" ? { v: [], k: [] } : QUERY_KEYS,
);
