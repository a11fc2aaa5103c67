// Every tier runs its files one after another in shared workers with their modules loaded once
// (vitest.config.ts: isolate false), which is right only while no test changes what the next file
// would see: a module mock, a stubbed global or environment variable, fake timers, and in the unit
// tier's threads the working directory (a process may change it and put it back: publish failures
// do). Such a file runs isolated: it is listed in test/support/tiers.ts.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ISOLATED } from "../support/tiers.ts";

const TEST = path.dirname(import.meta.dirname);
const ROOT = path.dirname(TEST);
const MODULE_STATE = /\bvi\.(?:mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/g;
const SHARED_STATE = new RegExp(`${MODULE_STATE.source}|\\bprocess\\.chdir\\(`, "g");

/** Every place in `source` that changes state a later file would share (`re`: what counts). */
function sharedStateChanges(source: string, re = SHARED_STATE): string[] {
  return [...source.matchAll(re)].map((m) => m[0]);
}

/** The test files of a tier, relative to the repository root. */
function testFiles(tier: string): string[] {
  return (readdirSync(path.join(TEST, tier), { recursive: true }) as string[])
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `test/${tier}/${f}`);
}

describe("the tiers", () => {
  it("unit: changes no state that another file in the same thread would see", () => {
    const files = testFiles("unit");
    expect(files.length).toBeGreaterThan(50);
    const found = files
      .filter((f) => f !== "test/unit/tiers.test.ts")
      .flatMap((f) => sharedStateChanges(readFileSync(path.join(ROOT, f), "utf8")).map((c) => `${f}: ${c}`));
    expect(found).toEqual([]);
  });

  it("integration and e2e: a file that mocks a module or stubs a global runs isolated", () => {
    const files = [...testFiles("integration"), ...testFiles("e2e")];
    expect(files.length).toBeGreaterThan(50);
    const changing = files.filter(
      (f) => sharedStateChanges(readFileSync(path.join(ROOT, f), "utf8"), MODULE_STATE).length > 0,
    );
    expect(changing.length).toBeGreaterThan(0);
    expect(changing.sort()).toEqual([...ISOLATED].sort());
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
    expect(sharedStateChanges(source, MODULE_STATE)).toHaveLength(4);
  });
});
