// `build-api deploy`: brings a bucket prefix to the snapshot's files in O(change). Takes the
// prefix's lease (lease.ts: one deploy at a time), reads the deploy record (record.ts), plans
// (plan.ts), marks the keys it is about to touch as pending, sends the upload steps in order with
// bounded concurrency, removes what the snapshot no longer has, then writes the record (only over
// the one it read: a second fence besides the lease) and clears the pending mark, and releases the
// lease. Any failure leaves the pending mark: the next run sends those keys again, so a rerun
// finishes an interrupted deploy. Every request has a deadline (timeouts.ts). A stop asked for
// (`signal`: the CLI's Ctrl-C) issues no new request, lets those in flight finish (aborting them
// after a grace), releases the lease and throws DeployStopped, saying how far it got. The phases
// are run.ts's; docs/guide/object-storage.md says what a reader sees meanwhile.
import { BuildError, EXIT } from "../shared/errors.ts";
import { prefixProblem } from "./prefix.ts";
import { snapshotGeneration } from "./snapshot-files.ts";
import { DeployRun } from "./run.ts";
import type { DeployOptions, DeployReport } from "./types.ts";

export { DeployStopped, type DeployOptions, type DeployReport, type StopStage } from "./types.ts";

export async function deploy(o: DeployOptions): Promise<DeployReport> {
  // Fails before any request when there is no snapshot to deploy, or the prefix is unsafe.
  snapshotGeneration(o.dir);
  checkPrefix(o.prefix);
  const run = new DeployRun(o);
  try {
    run.stopIfAsked();
    await run.takeLease();
    run.stopIfAsked();
    const state = await run.readBucketState();
    const made = await run.plan(state);
    run.startReport(state, made);
    if (o.dryRun || DeployRun.upToDate(state, made)) {
      // Nothing to send; a store given for the first time is still filled (its marker says so).
      if (!o.dryRun) await run.syncKvs(state, made, [], []);
      return await run.finish();
    }
    const { plan } = made;
    const total = plan.steps.length + (plan.retags.length > 0 ? 1 : 0) + (plan.removals.length > 0 ? 1 : 0);
    await run.markPending(state, made);
    await run.upload(made, total);
    await run.retag(made, total);
    await run.syncKvs(
      state,
      made,
      made.uploads.map((u) => u.file),
      plan.removals,
    );
    await run.remove(made, total);
    await run.writeRecord(state, made);
    return await run.finish();
  } catch (e) {
    await run.release(e);
    throw e;
  } finally {
    run.close();
  }
}

/** The programmatic twin of the CLI's check: a prefix with `.` or `..` segments writes nothing. */
function checkPrefix(prefix: string): void {
  const problem = prefixProblem(prefix);
  if (problem === undefined && (prefix === "" || prefix.endsWith("/"))) return;
  throw new BuildError(
    "The deploy's key prefix is not safe to write under.",
    [
      {
        what: problem ?? "a prefix must end with '/'",
        where: `prefix ${JSON.stringify(prefix)}`,
        fix: "give --prefix plain folder names, e.g. site/",
      },
    ],
    EXIT.usage,
  );
}
