// The CloudFront Function for viewer response (runtime cloudfront-js-2.0), bundled by
// `npm run gen-edge` into edge/generated/cloudfront-response.ts. S3 returns an object's user
// metadata as `x-amz-meta-*` headers; the deploy stores there what a plain object header cannot
// hold (deploy/objects.ts): a paged list's Link header (`link`). This function sends it as `Link`
// and keeps the deploy's bookkeeping metadata (sha256, purge tags, cors) from the viewer. The
// Cache-Control of an archived tournament needs nothing here: it is the object's own header, and a
// deploy that changes only it replaces the object's metadata in place.
import type { CfValue } from "./cloudfront-function.ts";

/** CloudFront's viewer-response event, the parts used here. */
export interface CfResponseEvent {
  version: string;
  context?: { eventType?: string };
  request: { method: string; uri: string };
  response: { statusCode: number; statusDescription?: string; headers: Record<string, CfValue> };
}

export function viewerResponse(event: CfResponseEvent): CfResponseEvent["response"] {
  const headers = event.response.headers;
  const link = headers["x-amz-meta-link"];
  if (link) headers.link = { value: link.value };
  for (const name of Object.keys(headers)) if (name.indexOf("x-amz-meta-") === 0) delete headers[name];
  return event.response;
}
