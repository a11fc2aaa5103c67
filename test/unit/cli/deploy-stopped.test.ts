// The lines a deploy stopped by a signal prints, at each place it can stop: what a reader sees
// now (nothing changed, a mix, part of a first deploy, the whole snapshot without its record),
// the pending mark and the lease, and the fix.
import { describe, expect, it } from "vitest";
import { deployStoppedReport } from "../../../src/cli/deploy-stopped.ts";
import { DeployStopped, type StopStage } from "../../../src/deploy/deploy.ts";

const at = { where: "s3://b/site/", pendingKey: "pending.gz", leaseKey: "lease.json" };

function stopped(stage: StopStage, progress: Partial<NonNullable<DeployStopped["progress"]>> | null) {
  const e = new DeployStopped(
    "SIGINT",
    stage,
    progress === null
      ? undefined
      : {
          sent: 0,
          toSend: 40,
          retagged: 0,
          toRetag: 0,
          removed: 0,
          toRemove: 3,
          steps: 9,
          stepsDone: 0,
          first: false,
          ...progress,
        },
  );
  e.leaseReleased = true;
  return deployStoppedReport(e, "SIGINT", at);
}

describe("deployStoppedReport", () => {
  it("before any change: readers see what they saw, no pending mark, the fix deploys", () => {
    const e = new DeployStopped("SIGTERM", "before-changes", undefined);
    expect(deployStoppedReport(e, "SIGTERM", at)).toEqual([
      "build-api: deploy to s3://b/site/ stopped by SIGTERM; the requests in flight finished:",
      "  - readers see what they saw before: no object was written or removed",
      "  fix: run the same command again to deploy",
    ]);
  });

  it("pending mark written, no object yet: nothing changed for readers; the mark stays", () => {
    const lines = stopped("changing", {});
    expect(lines[1]).toBe(
      "  - readers see what they saw before: no object was written or removed (40 to send, 3 to remove)",
    );
    expect(lines).toContain(
      "  - left: the pending mark s3://b/site/pending.gz (the rerun sends its keys again)",
    );
    expect(lines).toContain("  - released: the deploy lease s3://b/site/lease.json");
    expect(lines.at(-1)).toBe(
      "  fix: run the same command again: it resumes and finishes the deploy (its report says resumed)",
    );
  });

  it("during uploads: how far, and a mix, or part of a first deploy", () => {
    const mix = stopped("changing", { sent: 12, stepsDone: 2 });
    expect(mix[1]).toBe(
      "  - sent 12 of 40 objects (2 of 9 upload steps whole), 0 of 0 header changes, removed 0 of 3",
    );
    expect(mix[2]).toMatch(
      /^ {2}- readers see a mix: the objects sent are this snapshot's, the rest the previous one's/,
    );
    const first = stopped("changing", { sent: 12, stepsDone: 2, first: true });
    expect(first[2]).toMatch(
      /^ {2}- readers see part of this snapshot: the objects sent; the rest are missing/,
    );
    // Every page links to the index page, which a first deploy sends last: no claim that every
    // link leads to an object that is there, and the missing index named.
    expect(first[2]).not.toMatch(/every link leads to an object that is there/);
    expect(first[2]).toMatch(/Missing among them: the index page \/ and the lists/);
    expect(first[2]).toMatch(/answer 404 until the rerun finishes/);
  });

  it("says how many requests in flight were abandoned when the server did not answer", () => {
    const e = new DeployStopped("SIGTERM", "changing", undefined);
    e.abandoned = 3;
    expect(deployStoppedReport(e, "SIGTERM", at)[0]).toBe(
      "build-api: deploy to s3://b/site/ stopped by SIGTERM; 3 requests in flight did not answer in time and were abandoned:",
    );
  });

  it("after every object: readers see this snapshot; only the record is missing", () => {
    const lines = stopped("before-record", { sent: 40, removed: 3, stepsDone: 9 });
    expect(lines[1]).toBe(
      "  - readers see this snapshot: all 40 objects sent, 0 with new headers and 3 removed; only the deploy record was not written",
    );
  });

  it("a lease that could not be given back is named with when it frees itself", () => {
    const e = new DeployStopped("SIGINT", "changing", undefined);
    e.leaseReleased = false;
    expect(deployStoppedReport(e, "SIGINT", at)).toContain(
      "  - left: the deploy lease s3://b/site/lease.json (it could not be given back; it lapses after --lease-seconds, and the rerun then takes it over)",
    );
  });
});
