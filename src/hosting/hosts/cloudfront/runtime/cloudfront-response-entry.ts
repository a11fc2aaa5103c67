// The entry `npm run gen-edge` bundles into the viewer-response CloudFront Function: sets the
// global the bundle's top-level `function handler(event)` calls (scripts/lib/edge-bundle.ts).
import { viewerResponse } from "./cloudfront-response.ts";

declare let buildApiResponse: typeof viewerResponse;

// eslint-disable-next-line prefer-const, @typescript-eslint/no-unused-vars -- set here, called by the suffix
buildApiResponse = viewerResponse;
