// The unit tier runs its files one after another in shared worker threads with their modules
// loaded once (vitest.config.ts: isolate false), which is right only while no unit test changes
// what the next file would see: a module mock, a stubbed global or environment variable, fake
// timers, the working directory. Such a test belongs in the integration tier, isolated per file.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const UNIT = import.meta.dirname;
const SHARED_STATE = /\bvi\.(?:mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(|\bprocess\.chdir\(/g;

/** Every place in `source` that changes state a later file would share. */
function sharedStateChanges(source: string): string[] {
  return [...source.matchAll(SHARED_STATE)].map((m) => m[0]);
}

describe("the unit tier", () => {
  it("changes no state that another file in the same thread would see", () => {
    const files = (readdirSync(UNIT, { recursive: true }) as string[]).filter((f) => f.endsWith(".test.ts"));
    expect(files.length).toBeGreaterThan(50);
    const found = files
      .filter((f) => f !== "tiers.test.ts")
      .flatMap((f) => sharedStateChanges(readFileSync(path.join(UNIT, f), "utf8")).map((c) => `${f}: ${c}`));
    expect(found).toEqual([]);
  });

  it("is shown able to find each kind of change", () => {
    const source =
      'vi.mock("x"); vi.stubGlobal("f", 1); vi.stubEnv("A", "b"); vi.useFakeTimers(); process.chdir("/")';
    expect(sharedStateChanges(source)).toEqual([
      "vi.mock(",
      "vi.stubGlobal(",
      "vi.stubEnv(",
      "vi.useFakeTimers(",
      "process.chdir(",
    ]);
  });
});
