// What a deploy stopped by Ctrl-C or SIGTERM (deploy.ts DeployStopped) left in the bucket, in the
// words of docs/guide/object-storage.md ("Order, and what a reader sees"): what a reader sees now,
// the pending mark and the lease, and the fix, which is always the same command run again.
import type { DeployStopped } from "../deploy/deploy.ts";

export interface StoppedDeployPlace {
  /** s3://bucket/prefix */
  where: string;
  /** The keys of the pending mark and the lease, relative to the prefix. */
  pendingKey: string;
  leaseKey: string;
}

/** The lines the CLI prints for a deploy that `signal` stopped. */
export function deployStoppedReport(
  e: DeployStopped,
  signal: NodeJS.Signals,
  at: StoppedDeployPlace,
): string[] {
  const p = e.progress;
  const changed = p ? p.sent + p.retagged + p.removed : 0;
  const inFlight =
    e.abandoned > 0
      ? `${e.abandoned} request${e.abandoned === 1 ? "" : "s"} in flight did not answer in time and ${e.abandoned === 1 ? "was" : "were"} abandoned`
      : "the requests in flight finished";
  const lines = [`build-api: deploy to ${at.where} stopped by ${signal}; ${inFlight}:`];
  if (e.stage === "before-changes" || changed === 0) {
    lines.push(
      "  - readers see what they saw before: no object was written or removed" +
        (p ? ` (${p.toSend} to send, ${p.toRemove} to remove)` : ""),
    );
  } else if (e.stage === "before-record" && p) {
    lines.push(
      `  - readers see this snapshot: all ${p.sent} objects sent, ${p.retagged} with new headers and ` +
        `${p.removed} removed; only the deploy record was not written`,
    );
  } else if (p) {
    lines.push(
      `  - sent ${p.sent} of ${p.toSend} objects (${p.stepsDone} of ${p.steps} upload steps whole), ` +
        `${p.retagged} of ${p.toRetag} header changes, removed ${p.removed} of ${p.toRemove}`,
      p.first
        ? // A first deploy has no earlier index page: every page and 404.html link to `/` and to
          // the lists, which link to every tournament, so they cannot go first and are missing.
          "  - readers see part of this snapshot: the objects sent; the rest are missing, as no deploy " +
            "finished into this prefix before. Missing among them: the index page / and the lists " +
            "(sent last, as they link to every tournament), so the links of the pages and 404.html " +
            "to them answer 404 until the rerun finishes"
        : "  - readers see a mix: the objects sent are this snapshot's, the rest the previous one's; " +
            "every link leads to an object that is there (uploads go in steps, removals last)",
    );
  }
  if (e.stage !== "before-changes")
    lines.push(`  - left: the pending mark ${at.where}${at.pendingKey} (the rerun sends its keys again)`);
  if (e.leaseReleased === true) lines.push(`  - released: the deploy lease ${at.where}${at.leaseKey}`);
  else if (e.leaseReleased === false)
    lines.push(
      `  - left: the deploy lease ${at.where}${at.leaseKey} (it could not be given back; ` +
        "it lapses after --lease-seconds, and the rerun then takes it over)",
    );
  lines.push(
    e.stage === "before-changes"
      ? "  fix: run the same command again to deploy"
      : "  fix: run the same command again: it resumes and finishes the deploy (its report says resumed)",
  );
  return lines;
}
