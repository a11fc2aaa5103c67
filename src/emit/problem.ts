// The 404 problem body (RFC 9457 shape). Static hosts serve one file for every unknown path, so
// the body is the same for all of them: it cannot name the path that was asked for.
import type { z } from "zod";
import type { ProblemResponse } from "../contracts/problem.ts";

export const NOT_FOUND: z.output<typeof ProblemResponse> = {
  type: "about:blank",
  title: "Not Found",
  status: 404,
  detail:
    "No resource exists at this path: the club, tournament, round, tag or language is unknown or not published.",
};

export const NOT_FOUND_FILE = "404.json";
