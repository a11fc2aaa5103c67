// Where a deploy's plan comes from: the snapshot's bookkeeping (its change log since the
// generation the deploy record names, or the full comparison of every row), and the snapshot's
// edge facts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { EDGE_FILE } from "../hosting/rules.ts";
import { NO_EDGE_FACTS, type EdgeFacts } from "../routes/pagination.ts";
import { BuildError, EXIT } from "../shared/errors.ts";
import type { Generation } from "../publish/changes.ts";
import { headerSuspects, planChanges, planDeploy, type DeployPlan } from "./plan.ts";
import type { DeployRecord } from "./record.ts";
import { readSnapshotChanges, readSnapshotFiles, type SnapshotFile } from "./snapshot-files.ts";

export interface Planned {
  plan: DeployPlan;
  root: string;
  to: Generation;
  fallback?: string;
  rowsRead: number;
}

/**
 * The plan from the snapshot's bookkeeping: from the change log since the record's generation
 * when it can say (reading the changed rows, the pending keys' and the header suspects' rows), or
 * the full comparison of every row with what the record knows (a version-1 or -2 record lists its
 * files; otherwise nothing is known and every served file is sent).
 */
export function planFromBookkeeping(
  dir: string,
  record: DeployRecord | undefined,
  unknown: ReadonlySet<string>,
  metadata: string,
  facts: EdgeFacts,
): Planned {
  let fallback: string;
  if (!record) fallback = "no deploy record in the bucket";
  else if (!record.at) fallback = "the deploy record is of an older version (it lists every file)";
  else if (record.metadata !== metadata)
    fallback = "the deploy record was written under other metadata rules";
  else {
    const at = record.at;
    // A tournament entering or leaving the archive class changes the headers of its every key:
    // finding them scans every path (O(files) rows read; still only what changed is sent).
    const all = archiveFlipped(facts, record.facts) ? readSnapshotFiles(dir) : undefined;
    {
      const suspects = [...headerSuspects(facts, record.facts, all ? all.files.keys() : [])];
      const c = readSnapshotChanges(dir, at, [...unknown, ...suspects]);
      if (all && (all.generation.log !== c.to.log || all.generation.generation !== c.to.generation))
        throw new BuildError(
          `The snapshot at ${dir} changed during the deploy.`,
          [{ what: "a build published while the deploy read it", where: dir, fix: "run the deploy again" }],
          EXIT.deploy,
        );
      if (c.changes) {
        const rowsOf = (keys: Iterable<string>) =>
          new Map<string, SnapshotFile | undefined>([...keys].map((k) => [k, c.rows.get(k)]));
        const plan = planChanges({
          written: c.changes.written,
          removed: c.changes.removed,
          unknown: rowsOf(unknown),
          suspects: rowsOf(suspects),
          facts,
        });
        return { plan, root: c.root, to: c.to, rowsRead: c.rowsRead + (all?.files.size ?? 0) };
      }
      fallback =
        at.log === c.to.log
          ? `the change log does not reach back to generation ${at.generation}`
          : "the deploy record is of another change log (the bookkeeping was made anew)";
    }
  }
  const snap = readSnapshotFiles(dir);
  const plan = planDeploy(snap.files, record?.files ? record : undefined, unknown, metadata, facts);
  return { plan, root: snap.root, to: snap.generation, fallback, rowsRead: snap.files.size };
}

/** True when a tournament entered or left the archive class (its every key's headers change). */
function archiveFlipped(now: EdgeFacts, before: EdgeFacts | undefined): boolean {
  const a = new Set(now.archived);
  const b = new Set(before?.archived ?? []);
  return a.size !== b.size || [...a].some((id) => !b.has(id));
}

/** The snapshot's edge facts (Link headers, archived tournaments); none when it has no such file. */
export function edgeFactsOf(dir: string): EdgeFacts {
  try {
    const f = JSON.parse(readFileSync(path.join(dir, EDGE_FILE), "utf8")) as Partial<EdgeFacts>;
    return { links: f.links ?? {}, archived: (f.archived ?? []).map(String) };
  } catch {
    return NO_EDGE_FACTS;
  }
}
