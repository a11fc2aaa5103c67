// The one error shape: RFC 9457 problem details, served for every unknown /api/... path.
import { z } from "zod";
import { contracts, int32 } from "./wire.ts";

export const ProblemResponse = z
  .strictObject({
    type: z.string(),
    title: z.string(),
    status: int32,
    detail: z.string(),
  })
  .register(contracts, {
    id: "ProblemResponse",
    description: "RFC 9457 problem details for an error, e.g. an unknown slug, id or round (404).",
  });
