// The writers of an existing store (add-club, import-trf) write only a store of the current
// schema version: an older one is refused with exit 4 and the `upgrade-store` command that fixes
// it, a newer or unknown one with its own fix, and nothing is written; after the upgrade both work.
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { BuildError, EXIT } from "../../../src/shared/errors.ts";
import { STORE_SCHEMA_VERSION } from "../../../src/store/schema.ts";
import { addClub } from "../../../src/store/write/add-club.ts";
import { createStore } from "../../../src/store/write/init.ts";
import { upgradeStore } from "../../../src/store/write/upgrade.ts";
import { importTrf } from "../../../src/trf/import.ts";
import { sampleStoreOfVersion } from "../../support/old-stores.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);

const TEC = path.resolve(import.meta.dirname, "../../fixtures/trf/fide-tec-2023-swiss16.trf");
const NOW = "2026-11-22T12:00:00.000Z";

const rows = (file: string, table: string): number => {
  const d = new Database(file, { readonly: true });
  try {
    return (d.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    d.close();
  }
};

const club = (file: string) => addClub(file, { slug: "riverside", name: "Riverside Chess Club" });
const tournament = (file: string) =>
  importTrf({ file: TEC, db: file, externalId: 4242n, sourceUrl: "https://example.org/t", now: NOW });

function refusal(write: () => unknown): BuildError {
  try {
    write();
  } catch (e) {
    if (e instanceof BuildError) return e;
    throw e;
  }
  throw new Error("expected the write to be refused");
}

describe("writers refuse a store of another schema version", () => {
  it.each([1, 2, 3] as const)("version %i: exit 4, the upgrade-store command, nothing written", (version) => {
    const file = path.join(tempDir("write-version"), `v${version}.sqlite`);
    sampleStoreOfVersion(file, version);
    const clubs = rows(file, "clubs");
    const tournaments = rows(file, "tournaments");
    for (const [write, action] of [
      [() => club(file), "add the club to"],
      [() => tournament(file), "import into"],
    ] as const) {
      const e = refusal(write);
      expect(e.exitCode).toBe(EXIT.storeSchema);
      expect(e.message).toContain(
        `Cannot ${action} ${file}: store schema version ${version}, expected ${STORE_SCHEMA_VERSION}.`,
      );
      expect(e.problems).toEqual([
        {
          what: `a version ${version} store`,
          where: `${file}: PRAGMA user_version`,
          fix: `run \`build-api upgrade-store ${file}\` first`,
        },
      ]);
    }
    expect(rows(file, "clubs")).toBe(clubs);
    expect(rows(file, "tournaments")).toBe(tournaments);

    // The fix it names works: after the upgrade both writers write.
    expect(upgradeStore(file)).toBe(version);
    club(file);
    expect(tournament(file).action).toBe("created");
    expect(rows(file, "clubs")).toBe(clubs + 1);
    expect(rows(file, "tournaments")).toBe(tournaments + 1);
  });

  it("a newer version: exit 4, the fix is a newer build-api; nothing written", () => {
    const file = path.join(tempDir("write-version"), "v5.sqlite");
    createStore(file);
    const d = new Database(file);
    d.pragma(`user_version = ${STORE_SCHEMA_VERSION + 1}`);
    d.close();
    for (const write of [() => club(file), () => tournament(file)]) {
      const e = refusal(write);
      expect(e.exitCode).toBe(EXIT.storeSchema);
      expect(e.problems[0]!.fix).toBe("upgrade build-api to a release that writes this version");
    }
    expect(rows(file, "clubs")).toBe(0);
    expect(rows(file, "tournaments")).toBe(0);
  });
});
