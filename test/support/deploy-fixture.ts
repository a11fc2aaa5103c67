// The fixture of a deploy test file: the local S3 server and the sample snapshot, made before the
// file's tests and removed after them (each file its own server and snapshot).
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll } from "vitest";
import type { PublishToBucketOptions } from "../../src/cli/publish.ts";
import { build } from "../../src/pipeline/build.ts";
import { makeSampleStore, SAMPLE_NOW } from "./e2e.ts";
import { S3_ENV, startS3, type LocalS3 } from "./s3-server.ts";
import { removeTempDirs, tempDir } from "./temp.ts";

export interface DeployFixture {
  readonly s3: LocalS3;
  /** The sample store and its built snapshot. */
  readonly db: string;
  readonly out: string;
}

/**
 * Registers the hooks; the fields are there once the file's tests run. `inProcess`: the deploys
 * run in this process, which then reads the server's credentials from the environment. `only`:
 * the sample's tournaments (ids) that stay published, the others made drafts, for a test whose
 * point is not the snapshot's size (tournament 1 alone is 111 files of the sample's 1,263).
 */
export function sampleOnLocalS3(name: string, inProcess: boolean, only?: readonly number[]): DeployFixture {
  let made: { s3: LocalS3; db: string; out: string } | undefined;
  beforeAll(async () => {
    if (inProcess) Object.assign(process.env, S3_ENV);
    const s3 = await startS3();
    const dir = tempDir(name);
    const db = makeSampleStore(dir);
    if (only) {
      const d = new Database(db);
      d.prepare(
        `UPDATE tournaments SET is_draft = 1 WHERE tournament_id NOT IN (${only.map(() => "?").join(", ")})`,
      ).run(...only);
      d.close();
    }
    const out = path.join(dir, "dist");
    await build({ db, out, now: SAMPLE_NOW });
    made = { s3, db, out };
  }, 240_000);
  afterAll(async () => {
    await made?.s3.close();
    removeTempDirs();
  });
  const get = () => {
    if (!made) throw new Error("the deploy fixture is made before the tests run");
    return made;
  };
  return {
    get s3() {
      return get().s3;
    },
    get db() {
      return get().db;
    },
    get out() {
      return get().out;
    },
  };
}

/** `build-api publish`'s options for the fixture's store into `prefix` of its bucket. */
export function publishOptions(
  fixture: DeployFixture,
  prefix: string,
  concurrency: number,
  more: Partial<PublishToBucketOptions> = {},
): PublishToBucketOptions {
  const s3 = fixture.s3;
  return {
    bucket: s3.bucket,
    prefix,
    endpoint: s3.endpoint,
    pathStyle: true,
    concurrency,
    build: { db: fixture.db, now: SAMPLE_NOW, jobs: 1 },
    ...more,
  };
}
