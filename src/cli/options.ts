// Parsers of option values: a bad value is a usage error that says what was expected.
import { InvalidArgumentError } from "commander";

/**
 * A parser of whole numbers from `min` to `max`: "expected <what> <min>-<max>" otherwise
 * (`what`: "a whole number", "a port", "whole seconds").
 */
export function integerIn(min: number, max: number, what = "a whole number"): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected ${what} ${min}-${max}`);
    return n;
  };
}
