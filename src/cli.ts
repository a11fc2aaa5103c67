// Command-line wiring only: options → calls; typed errors → message + exit code.
import { performance } from "node:perf_hooks";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { build } from "./build.ts";
import { DEFAULT_STATUS_OPTIONS } from "./domain/status.ts";
import { TIEBREAK_RULE_SETS, type TiebreakRuleSet } from "./domain/types.ts";
import { packageVersion } from "./emit/generated.ts";
import { BuildError, EXIT, problemLines } from "./errors.ts";
import { preview } from "./preview.ts";
import { createProgress } from "./progress.ts";
import { createStore } from "./store/init.ts";
import { importTrf } from "./trf/import.ts";

function isoInstant(value: string): number {
  // Only full ISO 8601 timestamps with an explicit zone: a bare date would be read in local time.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    throw new InvalidArgumentError("expected an ISO 8601 time with a zone, e.g. 2026-11-22T12:00:00Z");
  }
  const t = Date.parse(value);
  // Date.parse rolls 2026-02-30 over to March: the day must exist in its month.
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (Number.isNaN(t) || m < 1 || m > 12 || d < 1 || d > daysInMonth) {
    throw new InvalidArgumentError("not a valid calendar time");
  }
  return t;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError("expected a number >= 0");
  return n;
}

function jobCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new InvalidArgumentError("expected a whole number 1-256");
  return n;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError("expected a port 0-65535");
  return n;
}

function externalId(value: string): bigint {
  if (!/^[1-9][0-9]{0,18}$/.test(value) || BigInt(value) > 9223372036854775807n) {
    throw new InvalidArgumentError("expected a positive int64");
  }
  return BigInt(value);
}

function ruleSet(value: string): TiebreakRuleSet {
  if (!(TIEBREAK_RULE_SETS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${TIEBREAK_RULE_SETS.join(", ")}`);
  }
  return value as TiebreakRuleSet;
}

const program = new Command()
  .name("build-api")
  .description("Publishes the Public Tournament Read API as a static JSON snapshot from a SQLite store.")
  .version(packageVersion())
  .showHelpAfterError()
  // Usage errors become EXIT.usage below instead of commander's own exit.
  .exitOverride();

program
  .command("build")
  .description("Write every endpoint's response and the host configs into --out, atomically.")
  .requiredOption("--db <file>", "the SQLite store to read (opened read-only)")
  .requiredOption("--out <dir>", "the snapshot directory to create or replace")
  .option("--now <time>", "the build instant, ISO 8601 (default: the clock)", isoInstant)
  .option(
    "--grace-minutes <n>",
    "UpdateDelayed after nextRefreshAt is overdue by this long",
    positiveNumber,
    30,
  )
  .option(
    "--results-window-hours <n>",
    "Live while the newest round changed within this window",
    positiveNumber,
    6,
  )
  .option("--skip-invalid", "publish the valid tournaments and list the invalid ones, instead of failing")
  .option("--force", "replace a non-empty --out directory that is not a snapshot")
  .option("--rebuild", "render everything even when the snapshot was built from the same inputs")
  .option("--json", "print the build report as JSON on stdout")
  .option("--jobs <n>", "threads that render tournaments (default: the number of cores)", jobCount)
  .action(async (o) => {
    const now: number = o.now ?? Date.now();
    const progress = createProgress({ stream: process.stderr, now: () => performance.now() });
    const report = await build({
      db: o.db,
      out: o.out,
      now,
      statusOptions: {
        ...DEFAULT_STATUS_OPTIONS,
        graceMs: o.graceMinutes * 60_000,
        resultsWindowMs: o.resultsWindowHours * 3_600_000,
      },
      skipInvalid: Boolean(o.skipInvalid),
      force: Boolean(o.force),
      rebuild: Boolean(o.rebuild),
      jobs: o.jobs,
      onPhase: (name) => progress.phase(name),
      onProgress: (done, total, files) => progress.tournament(done, total, files),
    }).catch((e: unknown) => {
      progress.end("build failed");
      throw e;
    });
    const r = report.render;
    const p = report.publish;
    progress.end(
      report.upToDate
        ? `${o.out} is up to date (same store and options; no status changes at this instant)`
        : `built ${o.out}: ${r.tournaments} tournaments, ${p.files} files ` +
            `(${p.filesWritten} written, ${p.filesUnchanged} unchanged, ${p.filesRemoved} removed)`,
    );
    if (o.json) {
      process.stdout.write(
        JSON.stringify(report, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n",
      );
      return;
    }
    if (r.unknownResults > 0)
      console.error(`warning: ${r.unknownResults} game result(s) not recognized (Unknown)`);
    for (const s of r.standingsStops ?? [])
      console.error(
        `warning: tournament ${s.externalId}: standings stop at round ${s.afterRound} because of board ${s.board} of round ${s.round} (result not recognized)`,
      );
    for (const w of r.warnings) console.error(`warning: ${w}`);
    for (const s of r.skipped) {
      console.error(`skipped tournament ${s.externalId}:`);
      for (const line of problemLines(s.problems)) console.error(line);
    }
  });

program
  .command("preview")
  .description("Serve a snapshot on a local static server (serve-handler).")
  .option("--dir <dir>", "the snapshot directory", "dist")
  .option("--port <n>", "the port", port, 3000)
  .option("--host <host>", "the address to listen on", "127.0.0.1")
  .action(async (o) => {
    const server = await preview({ dir: o.dir, port: o.port, host: o.host });
    const addr = server.address();
    const where = typeof addr === "object" && addr ? `http://${o.host}:${addr.port}` : String(addr);
    console.error(`serving ${o.dir} at ${where}/api/public/v1/tournaments (Ctrl-C to stop)`);
  });

program
  .command("init-store")
  .description("Create an empty store with the current schema (schema/store.sql).")
  .argument("<file>", "the SQLite file to create")
  .action((file: string) => {
    createStore(file);
    console.error(`created ${file}`);
  });

program
  .command("import-trf")
  .description("Import a FIDE TRF-16 / TRF-2025 file into a store.")
  .argument("<file>", "the TRF file")
  .requiredOption("--db <store>", "the store to write")
  .requiredOption("--id <externalId>", "the tournament's id at the results source (int64)", externalId)
  .requiredOption("--source-url <url>", "the tournament's page at the results source")
  .option("--tiebreaks <list>", "FIDE C.07 tie-breaks in order, comma separated, e.g. DE,BH-C1,BH")
  .option("--rules <set>", `unplayed-round rules: ${TIEBREAK_RULE_SETS.join(", ")}`, ruleSet)
  .option("--publish", "publish on the global surface")
  .option("--club <slug>", "publish in this club's catalog")
  .option("--allow-unknown-results", "import unknown result codes as Unknown instead of failing")
  .option("--now <time>", "the import instant, ISO 8601 (default: the clock)", isoInstant)
  .action((file: string, o) => {
    const report = importTrf({
      file,
      db: o.db,
      externalId: o.id,
      tiebreaks: o.tiebreaks
        ? String(o.tiebreaks)
            .split(",")
            .map((s: string) => s.trim())
        : undefined,
      rules: o.rules,
      publish: Boolean(o.publish),
      club: o.club,
      allowUnknownResults: Boolean(o.allowUnknownResults),
      sourceUrl: o.sourceUrl,
      now: new Date(o.now ?? Date.now()).toISOString(),
    });
    console.log(JSON.stringify(report, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2));
  });

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (e instanceof BuildError) {
    console.error(`build-api: ${e.message}`);
    process.exitCode = e.exitCode;
  } else {
    console.error(`build-api: internal error (a bug; please report it):`);
    console.error(e);
    process.exitCode = EXIT.internal;
  }
}
