// A render worker: opens the store read-only inside one read transaction, proves that it reads the
// main thread's state, then renders the tournaments it is sent and posts their files back.
import { parentPort, workerData } from "node:worker_threads";
import { SnapshotValidator } from "../output/validate.ts";
import { BuildError } from "../shared/errors.ts";
import { renderTournament, type TournamentRenderContext } from "./tournament.ts";
import { openCheckedStore, type Store } from "../store/read/open.ts";
import { utf8 } from "./utf8.ts";
import { buffersOf, type FromWorker, type ToWorker, type WorkerInit } from "./protocol.ts";
import { renderPlayerJob, type PlayerContext } from "./player-job.ts";

const init = workerData as WorkerInit;
const port = parentPort!;
const post = (m: FromWorker): void => port.postMessage(m);

function fail(error: unknown): void {
  if (error instanceof BuildError) {
    post({ type: "error", message: error.message, problems: error.problems, exitCode: error.exitCode });
  } else {
    post({ type: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

try {
  const store = openCheckedStore(init.db, init.identity);
  // The first read fixes this transaction's state. In rollback-journal mode the main thread's
  // SHARED lock keeps every writer out, so it is the main thread's; in WAL mode the pool starts
  // workers only for stores that keep revisions, and the hashes of the revisions must match.
  const key = init.revisions === null ? (store.publishedTournaments(), null) : (store.revisionState() ?? "");
  if (key !== init.revisions) {
    // A writer committed after the main thread began: this worker cannot help.
    store.close();
    post({ type: "stale" });
    port.close();
  } else start(store);
} catch (error) {
  fail(error);
}

function start(store: Store): void {
  const ctx: TournamentRenderContext = {
    now: init.now,
    statusOptions: init.statusOptions,
    validator: new SnapshotValidator(),
    site: init.site,
    base: init.base,
    // UTF-8 as each file is made: the bytes live outside this thread's heap, and move to the main
    // thread without a copy.
    encode: utf8,
  };
  // The players across tournaments come after the tournaments (render/players.ts).
  let players: PlayerContext | undefined;
  port.on("message", (m: ToWorker) => {
    if (m.type === "stop") {
      store.close();
      port.close();
      return;
    }
    try {
      if (m.type === "players") {
        players = {
          touched: new Set(m.touched),
          base: ctx.base ?? "",
          site: ctx.site,
          validator: ctx.validator,
          encode: utf8,
        };
      } else if (m.type === "players-batch") {
        const result = m.jobs.map((job) => renderPlayerJob(job, players!));
        const files = result.flatMap((r) => r.files ?? []);
        port.postMessage({ type: "result", seq: m.seq, result } satisfies FromWorker, buffersOf(files));
      } else {
        const result = renderTournament(store, m.job, ctx);
        const files = result.kind === "rendered" ? result.files : null;
        port.postMessage({ type: "result", seq: m.seq, result } satisfies FromWorker, buffersOf(files));
      }
    } catch (error) {
      fail(error);
    }
  });
  post({ type: "ready" });
}
