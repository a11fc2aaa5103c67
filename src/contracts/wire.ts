// Wire-level building blocks shared by every response schema (spec §1 "Wire conventions").
import { z } from "zod";
import { GAME_RESULTS, RECAP_KINDS, TOURNAMENT_STATUSES } from "../domain/types.ts";

/** Every response component is registered here once; schema/, OpenAPI and ajv all read it. */
export const contracts = z.registry<{ id: string; description: string }>();

/** int64: a JSON integer when it is exactly representable (|n| <= 2^53 - 1), otherwise a
 * string of decimal digits, so a value beyond 2^53 is never rounded by a client's parser. */
export const int64 = z
  .union([z.int().meta({ format: "int64" }), z.string().regex(/^-?(0|[1-9][0-9]*)$/)])
  .meta({ description: "int64: a JSON integer, or a string of decimal digits beyond 2^53" });

/** int32: always emitted as a JSON integer. */
export const int32 = z.int32();

/** double (points): a JSON number. */
export const double = z.number();

/** ISO 8601 UTC timestamp with a Z suffix. */
export const dateTime = z.iso.datetime();

/** ISO 8601 calendar date (YYYY-MM-DD). */
export const date = z.iso.date();

export const gameResult = z.enum(GAME_RESULTS);
export const tournamentStatus = z.enum(TOURNAMENT_STATUSES);
export const recapKind = z.enum(RECAP_KINDS);

/** Converts a domain int64 to its wire form. */
export function toInt64(value: bigint): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value.toString();
}
