// The schema version check of every command that writes into an existing store (import-trf,
// add-club): they write only a store of the current version, whose triggers keep the revisions
// that builds trust. An older store is named with the command that upgrades it in place.
import type Database from "better-sqlite3";
import { BuildError, EXIT, type Problem } from "../../shared/errors.ts";
import { STORE_SCHEMA_VERSION, UPGRADABLE_VERSIONS } from "../schema.ts";

/**
 * Throws (exit 4) unless the open store `db` (at `file`) is at STORE_SCHEMA_VERSION. `action` says
 * what was refused, e.g. "import into" or "add the club to".
 */
export function requireWritableVersion(db: Database.Database, file: string, action: string): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version === STORE_SCHEMA_VERSION) return;
  const where = `${file}: PRAGMA user_version`;
  const problem: Problem = UPGRADABLE_VERSIONS.includes(version)
    ? { what: `a version ${version} store`, where, fix: `run \`build-api upgrade-store ${file}\` first` }
    : version > STORE_SCHEMA_VERSION
      ? {
          what: `a version ${version} store, newer than this build-api writes`,
          where,
          fix: "upgrade build-api to a release that writes this version",
        }
      : {
          what: `no store schema version this build-api knows (${version})`,
          where,
          fix: "create a store with `build-api init-store <file>`",
        };
  throw new BuildError(
    `Cannot ${action} ${file}: store schema version ${version}, expected ${STORE_SCHEMA_VERSION}.`,
    [problem],
    EXIT.storeSchema,
  );
}
