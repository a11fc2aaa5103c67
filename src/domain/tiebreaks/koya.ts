// The Koya system's limit (KS, KS-L+n, KS-L<percent>).
import type { ParsedTiebreak } from "./acronyms.ts";
import type { Context } from "./context.ts";

/**
 * The Koya limit: 50% of the maximum possible score (rounds × a win's points), moved by n half
 * points with KS-L+n / KS-L-n (C.07 14.5; a half point is half a win's points), or set to a
 * percentage of the maximum with KS-L<percent>.
 */
export function koyaLimit(ctx: Context, tb: ParsedTiebreak): number {
  const maximum = ctx.rounds * ctx.winValue;
  if (tb.limitSteps !== null) return maximum / 2 + (tb.limitSteps * ctx.winValue) / 2;
  return (maximum * (tb.limit ?? 50)) / 100;
}
