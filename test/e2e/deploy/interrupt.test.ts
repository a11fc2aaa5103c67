// Ctrl-C (SIGINT) and SIGTERM during `build-api deploy`, through the CLI against the local S3
// server: the deploy stops issuing requests, lets those in flight finish, gives the lease back,
// leaves the pending mark, says what a reader sees now and that the fix is the same command
// again, and exits 130 (143). The rerun, at once (the lease is free), resumes and leaves the
// bucket equal to the snapshot, its lease free.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LEASE_KEY } from "../../../src/deploy/lease.ts";
import { objectSpec } from "../../../src/deploy/objects.ts";
import { PENDING_KEY, RECORD_KEY } from "../../../src/deploy/record.ts";
import { readSnapshotFiles } from "../../../src/deploy/snapshot-files.ts";
import { sampleOnLocalS3 } from "../../support/deploy-fixture.ts";
import { startFaultyFront } from "../../support/faulty-front.ts";
import { CLI, runCli } from "../../support/run.ts";
import { localDeployArgs, S3_ENV } from "../../support/s3-server.ts";

// Three tournaments published, the others drafts: the upload steps are the same kinds (a step is a
// kind of object, src/deploy/plan.ts), each with fewer objects to send and compare.
const fixture = sampleOnLocalS3("deploy-interrupt", false, [1, 2, 3]);

const env = { ...process.env, ...S3_ENV };
const args = (prefix: string) => [...localDeployArgs(fixture.s3, fixture.out, prefix), "--concurrency", "2"];

/** Runs the deploy and sends `signal` once it reports its second upload step. */
const deployInterrupted = (prefix: string, signal: NodeJS.Signals) =>
  runCli(args(prefix), { env, interrupt: { when: /deploy step 2\//, signal } });

describe("a deploy stopped by a signal", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s: stops, says what readers see and the fix, exits %i; the rerun finishes",
    async (signal, exitCode) => {
      const prefix = `${signal.toLowerCase()}/`;
      const where = `s3://${fixture.s3.bucket}/${prefix}`;
      const r = await deployInterrupted(prefix, signal);
      expect(r.code, r.stderr).toBe(exitCode);
      expect(r.stderr).toContain(`build-api: ${signal} received: stopping the deploy: no new request`);
      expect(r.stderr).toContain(`build-api: deploy to ${where} stopped by ${signal}`);
      expect(r.stderr).toMatch(/ {2}- sent \d+ of \d+ objects \(\d+ of \d+ upload steps whole\)/);
      // A first deploy into the prefix: what is not sent yet is missing.
      expect(r.stderr).toContain(
        "  - readers see part of this snapshot: the objects sent; the rest are missing",
      );
      expect(r.stderr).toContain(`  - left: the pending mark ${where}${PENDING_KEY}`);
      expect(r.stderr).toContain(`  - released: the deploy lease ${where}${LEASE_KEY}`);
      expect(r.stderr).toContain("  fix: run the same command again: it resumes and finishes the deploy");
      expect(r.stderr).not.toMatch(/internal error|deployed /);

      // As it says: the pending mark stays, the lease is free, no record yet.
      const partial = await fixture.s3.list(prefix);
      expect(partial).toContain(PENDING_KEY);
      expect(partial).not.toContain(LEASE_KEY);
      expect(partial).not.toContain(RECORD_KEY);
      const sent = Number(/- sent (\d+) of/.exec(r.stderr)![1]);
      expect(partial.filter((k) => objectSpec(k))).toHaveLength(sent);

      // The same command again, at once: it resumes and the bucket is the snapshot.
      const rerun = await runCli([...args(prefix), "--json"], { env });
      expect(rerun.code, rerun.stderr).toBe(0);
      const report = JSON.parse(rerun.stdout) as { resumed: boolean; lease: { tookOverFrom?: string } };
      expect(report.resumed).toBe(true);
      expect(report.lease.tookOverFrom).toBeUndefined();
      const want = [...readSnapshotFiles(fixture.out).files.keys()].filter(
        (p) => objectSpec(p) !== undefined,
      );
      expect(await fixture.s3.list(prefix)).toEqual([...want, RECORD_KEY].sort());
      for (const file of want) {
        const o = (await fixture.s3.get(`${prefix}${file}`))!;
        expect(o.body.equals(readFileSync(path.join(fixture.out, file))), file).toBe(true);
      }
    },
    180_000,
  );

  it("SIGTERM while the server holds every upload unanswered: the deploy still ends (143), its lease given back", async () => {
    const front = await startFaultyFront(fixture.s3.endpoint);
    front.rule = (method, url) => (method === "PUT" && !url.includes("_build-api-deploy") ? "hang" : "pass");
    try {
      const prefix = "hung/";
      const args = localDeployArgs(fixture.s3, fixture.out, prefix).map((a) =>
        a === fixture.s3.endpoint ? front.endpoint : a,
      );
      const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      // Once uploads hang (before: the deploy waited forever, and ignored the signal).
      while (front.hung === 0) await new Promise((r) => setTimeout(r, 50));
      child.kill("SIGTERM");
      const code = await exited;
      expect(code, stderr).toBe(143);
      expect(stderr).toMatch(
        new RegExp(
          `deploy to s3://${fixture.s3.bucket}/${prefix} stopped by SIGTERM; \\d+ requests? in flight did not answer in time`,
        ),
      );
      expect(stderr).toContain("  - released: the deploy lease");
      front.rule = () => "pass";
      expect(await fixture.s3.list(prefix)).not.toContain(LEASE_KEY);
    } finally {
      await front.close();
    }
  }, 120_000);
});
