// Command-line wiring only: options → calls; typed errors → message + exit code.
// Start-up matters (`--help`, a no-change rebuild): only commander and a few small modules load
// here; each command imports what it needs (the store, the domain, zod, ajv, the server) when it
// runs.
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES } from "../i18n/languages.ts";
import {
  TIEBREAK_PRACTICES,
  TIEBREAK_RULE_SETS,
  type TiebreakPractice,
  type TiebreakRuleSet,
} from "../domain/types.ts";
import { BuildError, EXIT } from "../shared/errors.ts";
import { packageVersion } from "../shared/version.ts";
import { LIST_PAGE_SIZE } from "../routes/pagination.ts";
import { parseBasePath } from "../routes/urls.ts";
import { prefixProblem } from "../deploy/prefix.ts";
import {
  explainLines,
  jsonText,
  linkLine,
  noteLines,
  plural,
  summaryLine,
  warningLines,
} from "./build-report.ts";
import { integerIn } from "./options.ts";

/**
 * A required option. Commander checks its own mandatory options before it looks for unknown
 * ones, so `build --bogus` would say that --db is missing; these are checked in a preAction hook,
 * after unknown options and arguments, and marked "(required)" in the help.
 */
function required(flags: string, description: string, parse?: (value: string) => unknown): Option {
  const option = new Option(flags, `(required) ${description}`);
  if (parse) option.argParser(parse);
  REQUIRED.add(option);
  return option;
}
const REQUIRED = new Set<Option>();

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

const jobCount = integerIn(1, 256);
const pageSizeOption = integerIn(1, 100_000);
const stageMegabytes = integerIn(8, 1_000_000);

/** `--base-path`: checked by the URL model (routes/urls.ts parseBasePath), a usage error otherwise. */
function basePathOption(value: string): string {
  try {
    return parseBasePath(value);
  } catch (e) {
    throw new InvalidArgumentError(`${(e as Error).message}; expected a URL path such as /chess/`);
  }
}

/** `--origin`: an http(s) origin (scheme, host, port; no path: that is --base-path), a usage error otherwise. */
function originOption(value: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (
    !url ||
    !/^https?:$/.test(url.protocol) ||
    url.pathname !== "/" ||
    url.search ||
    url.hash ||
    url.username
  )
    throw new InvalidArgumentError(
      `"${value}" is not an origin; expected the scheme and host the snapshot is served at, such as https://results.example.org (its path goes in --base-path)`,
    );
  return url.origin;
}

/** `--language`: a language with a catalog (src/i18n/languages.ts), a usage error otherwise. */
function languageOption(value: string): string {
  if (!isLanguage(value))
    throw new InvalidArgumentError(`no catalog for "${value}"; expected one of ${LANGUAGES.join(", ")}`);
  return value;
}

const port = integerIn(0, 65535, "a port");

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

/** A comma-separated list, each item trimmed, empty items left out. */
function listOf(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function primaryScore(value: string): "MP" | "GP" {
  if (value === "MP" || value === "GP") return value;
  throw new InvalidArgumentError(`"${value}" is not MP or GP`);
}

function practice(value: string): TiebreakPractice {
  if (!(TIEBREAK_PRACTICES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${TIEBREAK_PRACTICES.join(", ")}`);
  }
  return value as TiebreakPractice;
}

const program = new Command()
  .name("build-api")
  .description("Publishes the Public Tournament Read API as a static JSON snapshot from a SQLite store.")
  .version(packageVersion())
  // A usage error is one line and a pointer to the help, not the whole help.
  .showHelpAfterError("(see 'build-api --help')")
  // Usage errors become EXIT.usage below instead of commander's own exit.
  .exitOverride()
  .hook("preAction", (_program, command) => {
    for (const option of command.options) {
      if (REQUIRED.has(option) && command.getOptionValue(option.attributeName()) === undefined) {
        command.error(`error: required option '${option.flags}' not specified`, {
          code: "commander.missingMandatoryOptionValue",
          exitCode: EXIT.usage,
        });
      }
    }
  });

/** A subcommand whose usage errors point at its own help. */
function subcommand(name: string): Command {
  return program.command(name).showHelpAfterError(`(see 'build-api ${name} --help')`);
}

/** The bucket options `deploy` and `publish` share (after --bucket). */
function bucketOptions(c: Command): Command {
  return c
    .option("--prefix <prefix>", "a key prefix inside the bucket, e.g. site/", keyPrefix, "")
    .option(
      "--endpoint <url>",
      "an S3-compatible endpoint: R2, GCS, B2, MinIO (default: AWS_ENDPOINT_URL_S3 or AWS)",
    )
    .option("--region <region>", "the region (default: AWS_REGION or the AWS config; R2 uses auto)")
    .option("--path-style", "address the bucket as <endpoint>/<bucket>/ (MinIO, some gateways)")
    .option("--concurrency <n>", "requests in flight at once", concurrencyCount, 16);
}

/** The options that decide statuses and validity, which `build` and `publish` share. */
function statusOptions(c: Command): Command {
  return c
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
    .option("--skip-invalid", "publish the valid tournaments and list the invalid ones, instead of failing");
}

statusOptions(
  subcommand("build")
    .description("Write every endpoint's response and the host configs into --out, atomically.")
    .usage("--db <file> --out <dir> [options]")
    .addOption(required("--db <file>", "the SQLite store to read (opened read-only)"))
    .addOption(required("--out <dir>", "the snapshot directory to create or replace")),
)
  .option("--force", "replace a non-empty --out directory that is not a snapshot")
  .option("--rebuild", "render everything even when the snapshot was built from the same inputs")
  .option(
    "--json",
    "print the build report as JSON on stdout, with why each tournament and list was rendered",
  )
  .option("--explain", "say why each tournament and list was rendered (or kept), for humans")
  .option(
    "--no-second-version",
    "a one-off build (deployed or exported, then discarded): a first build skips the second snapshot version that makes the next build in --out cost what changed; that build makes it instead",
  )
  .option(
    "--verbose",
    "list every warning, also those of tournaments this build kept unchanged (without it: the first 20 of each kind, and counts)",
  )
  .option(
    "--jobs <n>",
    "threads that render tournaments (maximum: the number of cores; default: a worker per core beside the main thread, as many as a 256 MiB budget allows; 1 renders on the main thread)",
    jobCount,
  )
  .option(
    "--page-size <n>",
    "items per page of a list longer than this (an extension; see docs/design/lists-and-caching.md)",
    pageSizeOption,
    LIST_PAGE_SIZE,
  )
  .option(
    "--base-path <path>",
    "serve the snapshot under this URL path, e.g. /chess/ (see docs/guide/subpath.md)",
    basePathOption,
    "",
  )
  .option(
    "--language <code>",
    `the language of the pages, feeds, calendars and error pages: ${LANGUAGES.join(", ")} (a club's embed speaks the club's defaultLanguage; the JSON is the same in every language)`,
    languageOption,
    DEFAULT_LANGUAGE,
  )
  .option(
    "--origin <url>",
    "the scheme and host the snapshot is served at, e.g. https://results.example.org: pages then also link calendars as webcal: subscriptions (those need an absolute URL)",
    originOption,
  )
  .action(async (o) => {
    const now: number = o.now ?? Date.now();
    const [{ build }, { DEFAULT_STATUS_OPTIONS }, { createProgress }, interrupts] = await Promise.all([
      import("../pipeline/build.ts"),
      import("../domain/status.ts"),
      import("./progress.ts"),
      import("./interrupt.ts"),
    ]);
    const progress = createProgress({ stream: process.stderr, now: () => performance.now() });
    // Ctrl-C and SIGTERM stop the build at its next safe point (cli/interrupt.ts).
    const interrupt = interrupts.catchInterrupts((line) => progress.note(line));
    let phase = "";
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
      listIssues: Boolean(o.verbose || o.json),
      jobs: o.jobs,
      secondVersion: Boolean(o.secondVersion),
      pageSize: o.pageSize,
      basePath: o.basePath,
      language: o.language,
      origin: o.origin,
      onPhase: (name) => {
        if (interrupts.SAFE_PHASES.has(name)) interrupt.check();
        phase = name;
        progress.phase(name);
      },
      onProgress: (done, total, files) => {
        interrupt.check();
        progress.tournament(done, total, files);
      },
    })
      .catch((e: unknown) => {
        if (!(e instanceof interrupts.Interrupted)) {
          progress.end("build failed");
          throw e;
        }
        progress.end(`build stopped by ${e.signal}`);
        for (const line of interrupts.interruptedReport(o.out, phase, e.signal)) console.error(line);
        process.exitCode = interrupts.signalExitCode(e.signal);
        return null;
      })
      .finally(() => interrupt.dispose());
    if (report === null) return;
    progress.end(summaryLine(report, o.out));
    console.error(linkLine(o.out, report.publish.snapshotDir));
    if (interrupt.signal !== null) {
      // The signal came after the last safe point: the build went through.
      console.error(
        `build-api: ${interrupt.signal} came too late to stop the build: the new snapshot is live`,
      );
      process.exitCode = interrupts.signalExitCode(interrupt.signal);
    }
    for (const line of noteLines(report)) console.error(line);
    if (o.json) {
      process.stdout.write(jsonText(report));
      return;
    }
    if (o.explain) for (const line of explainLines(report)) console.error(line);
    for (const line of warningLines(report, Boolean(o.verbose))) console.error(line);
  });

subcommand("verify")
  .description(
    "Check what a build leaves out (O(store), O(files)): the store's quick_check and revision " +
      "triggers, every file of the live snapshot against its bookkeeping, and with both, that the " +
      "store still holds the revisions the snapshot was built from. Read-only; for a scheduled job.",
  )
  .usage("[--db <file>] [--out <dir>] [--json]")
  .option("--db <file>", "the SQLite store to check (opened read-only)")
  .option("--out <dir>", "the snapshot directory to check")
  .option("--json", "print the report as JSON on stdout")
  .action(async (o, command: Command) => {
    if (o.db === undefined && o.out === undefined) {
      command.error("error: pass --db, --out or both", { exitCode: EXIT.usage });
    }
    const { verify } = await import("../pipeline/verify.ts");
    const report = verify({ db: o.db, out: o.out });
    if (o.json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
    if (report.store) {
      console.error(`store ${report.store.file}: quick_check ok, schema ok`);
      if (report.store.revisions)
        console.error(
          `note: ${report.store.revisions}: builds cannot trust its revisions and read every tournament's rows`,
        );
    }
    const snap = report.snapshot;
    if (snap && !snap.stable) {
      throw new BuildError(
        `A build switched the snapshot ${o.out} while it was verified.`,
        [{ where: snap.snapshotDir, what: "the checked version is no longer live", fix: "run verify again" }],
        EXIT.locked,
      );
    }
    if (snap && snap.problems.length > 0) {
      throw new BuildError(
        `The snapshot ${o.out} differs from its bookkeeping in ${plural(snap.problems.length, "file")}.`,
        snap.problems,
        EXIT.snapshotDamaged,
      );
    }
    if (snap)
      console.error(`snapshot ${snap.snapshotDir}: ${plural(snap.files, "file")} match the bookkeeping`);
    const history = report.history;
    if (history && history.differing > 0) {
      throw new BuildError(
        `The snapshot ${o.out} was built from another history of the store ${o.db}: ` +
          `${plural(history.differing, "tournament")} not as the store holds them, with no newer revision.`,
        report.problems,
        EXIT.snapshotDamaged,
      );
    }
    if (history)
      console.error(
        history.skipped
          ? `store history: not compared (${history.skipped})`
          : `store history: ${plural(history.same, "tournament")} as built, ${history.changedSince} changed since (the next build renders them)`,
      );
  });

subcommand("preview")
  .description("Serve a snapshot locally, answering exactly what the generated host rules name.")
  .option("--dir <dir>", "the snapshot directory", "dist")
  .option("--port <n>", "the port", port, 3000)
  .option("--host <host>", "the address to listen on", "127.0.0.1")
  .option(
    "--watch",
    "build --db into --dir first, then again whenever the store changes; open pages reload (a development aid)",
  )
  .option("--db <file>", "with --watch: the SQLite store to build from")
  .option("--skip-invalid", "with --watch: build with --skip-invalid")
  .option(
    "--base-path <path>",
    "with --watch: build under this URL path, e.g. /chess/ (default: the base path of the snapshot in --dir, else the root)",
    basePathOption,
  )
  .action(async (o, command: Command) => {
    if (o.watch && o.db === undefined)
      command.error("error: --watch needs --db <file>, the store to build from", { exitCode: EXIT.usage });
    if (!o.watch && (o.db !== undefined || o.skipInvalid || o.basePath !== undefined))
      command.error(
        "error: --db, --skip-invalid and --base-path go with --watch (a plain preview serves the " +
          "snapshot under the base path it was built with)",
        { exitCode: EXIT.usage },
      );
    const { preview, snapshotBasePath } = await import("../hosting/preview.ts");
    const { checkListen, listenError } = await import("./listen.ts");
    // Before the first build replaces --dir: a port in use fails now, the snapshot untouched.
    if (o.watch) await checkListen(o.host, o.port);
    const watching = o.watch
      ? await (
          await import("./watch.ts")
        ).startWatching({
          db: o.db,
          out: o.dir,
          skipInvalid: Boolean(o.skipInvalid),
          basePath: o.basePath,
          say: (line) => console.error(line),
        })
      : undefined;
    const server = await preview({ dir: o.dir, port: o.port, host: o.host, live: watching?.live }).catch(
      (e: unknown) => {
        throw listenError(e, o.host, o.port) ?? e;
      },
    );
    const addr = server.address();
    // Under the snapshot's base path (build --base-path), as the hosts serve it.
    const where =
      (typeof addr === "object" && addr ? `http://${o.host}:${addr.port}` : String(addr)) +
      snapshotBasePath(o.dir);
    console.error(`serving ${o.dir} at ${where}/ (pages; the API under ${where}/api/) (Ctrl-C to stop)`);
    if (watching) {
      watching.stopOnSignals(server);
      watching.start();
      console.error(`watching ${o.db}: a change builds ${o.dir} again and reloads the open pages`);
    }
  });

const concurrencyCount = integerIn(1, 512);

const leaseSeconds = integerIn(1, 86_400, "whole seconds");

function keyPrefix(value: string): string {
  const problem = prefixProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return value === "" || value.endsWith("/") ? value : `${value}/`;
}

function requestSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0.1 || n > 3600) throw new InvalidArgumentError("expected seconds 0.1-3600");
  return n;
}

/** The deploy lease's length, which `deploy` and `publish` share (`word`: the command's name). */
function leaseOption(word: string): Option {
  return new Option(
    "--lease-seconds <n>",
    `how long the prefix's deploy lease lasts unrenewed: a killed ${word} blocks others this long`,
  )
    .argParser(leaseSeconds)
    .default(120); // DEFAULT_LEASE_SECONDS (src/deploy/lease.ts), not imported: deploy loads lazily
}

/** One request's time limit, which `deploy` and `publish` share. */
function requestTimeoutOption(): Option {
  return new Option(
    "--request-timeout <seconds>",
    "how long one request may take, its answer included; the SDK tries a timed-out request 5 times in all",
  )
    .argParser(requestSeconds)
    .default(60); // DEFAULT_REQUEST_SECONDS (src/deploy/timeouts.ts)
}

bucketOptions(
  subcommand("deploy")
    .description(
      "Upload a built snapshot to an S3-compatible bucket, sending only what changed since the last deploy.",
    )
    .addOption(required("--bucket <name>", "the bucket"))
    .option("--dir <dir>", "the snapshot directory", "dist"),
)
  .option("--edge-out <dir>", "also write the edge code: a CloudFront Function and an R2 Worker")
  .option(
    "--kvs-arn <arn>",
    "the CloudFront Function's KeyValueStore: its ?tag= keys are kept equal to the snapshot's",
  )
  .addOption(leaseOption("deploy"))
  .addOption(requestTimeoutOption())
  .option("--dry-run", "read the deploy record and print the plan; send nothing")
  .option("--json", "print the deploy report as JSON on stdout")
  .action(async (o) => {
    const [{ deploy, DeployStopped }, interrupts, { deployStoppedReport }, { PENDING_KEY }, { LEASE_KEY }] =
      await Promise.all([
        import("../deploy/deploy.ts"),
        import("./interrupt.ts"),
        import("./deploy-stopped.ts"),
        import("../deploy/record.ts"),
        import("../deploy/lease.ts"),
      ]);
    const kvs = o.kvsArn ? (await import("../deploy/kvs-client.ts")).openKeyValueStore(o.kvsArn) : undefined;
    // Ctrl-C and SIGTERM: no new request, those in flight finish, the lease is given back.
    const interrupt = interrupts.catchInterrupts((line) => console.error(line), interrupts.DEPLOY_WORDS);
    const report = await deploy({
      ...(kvs && { kvs }),
      dir: o.dir,
      bucket: o.bucket,
      prefix: o.prefix,
      endpoint: o.endpoint,
      region: o.region,
      pathStyle: o.pathStyle,
      concurrency: o.concurrency,
      leaseSeconds: o.leaseSeconds,
      requestSeconds: o.requestTimeout,
      dryRun: o.dryRun,
      onLease: (holder, owner) =>
        console.error(
          `build-api: deploy lease of s3://${o.bucket}/${o.prefix} held as deploy ${holder} (${owner})`,
        ),
      signal: interrupt.abortSignal,
      onStep: (done, total, what) => console.error(`build-api: deploy step ${done}/${total}: ${what}`),
    })
      .catch((e: unknown) => {
        if (!(e instanceof DeployStopped) || interrupt.signal === null) throw e;
        const at = { where: `s3://${o.bucket}/${o.prefix}`, pendingKey: PENDING_KEY, leaseKey: LEASE_KEY };
        for (const line of deployStoppedReport(e, interrupt.signal, at)) console.error(line);
        process.exitCode = interrupts.signalExitCode(interrupt.signal);
        return null;
      })
      .finally(() => {
        interrupt.dispose();
        kvs?.close();
      });
    if (report === null) return;
    if (interrupt.signal !== null) {
      // The signal came after the last safe point: the deploy finished.
      console.error(`build-api: ${interrupt.signal} came too late to stop the deploy: it finished`);
      process.exitCode = interrupts.signalExitCode(interrupt.signal);
    }
    if (o.edgeOut) {
      const { writeEdgeCode } = await import("../deploy/edge-code.ts");
      for (const line of writeEdgeCode(o.dir, o.edgeOut)) console.error(`build-api: ${line}`);
      // The function reads its ?tag= keys from its KeyValueStore: without one kept, every tag is empty.
      if (!o.kvsArn)
        console.error(
          "build-api: note: the CloudFront Function answers ?tag= from its KeyValueStore; deploy with --kvs-arn to keep it current (docs/guide/object-storage.md)",
        );
    }
    if (o.json) {
      console.log(JSON.stringify(report, null, 2));
      return;
    }
    const where = `s3://${report.bucket}/${report.prefix}`;
    const verb = report.dryRun ? "would send" : "sent";
    console.error(
      `build-api: ${report.dryRun ? "planned" : "deployed"} ${o.dir} to ${where}: ${verb} ${plural(report.dryRun ? report.toSend : report.sent, "object")}` +
        ` (${report.sentBytes} bytes), removed ${report.dryRun ? report.toRemove : report.removed}, ${report.unchanged} unchanged` +
        `${report.resumed ? ", resumed an interrupted deploy" : ""} (${report.seconds.toFixed(1)} s)`,
    );
    if (report.purge.tags.length > 0) console.error(`build-api: purge tags: ${report.purge.tags.join(",")}`);
    if (report.kvs)
      console.error(
        `build-api: KeyValueStore: put ${plural(report.kvs.puts, "key")}, deleted ${report.kvs.deletes}` +
          `${report.kvs.full ? " (compared in full)" : ""}`,
      );
  });

statusOptions(
  bucketOptions(
    subcommand("publish")
      .description(
        "Build a store straight into an S3-compatible bucket, with no local snapshot: the ledger lives in the bucket, so a fresh runner renders and sends only what changed.",
      )
      .usage("--db <file> --bucket <name> [--prefix <prefix>] [options]")
      .addOption(required("--db <file>", "the SQLite store to read (opened read-only)"))
      .addOption(required("--bucket <name>", "the bucket")),
  ),
)
  .option("--jobs <n>", "threads that render tournaments (as for build)", jobCount)
  .option("--page-size <n>", "items per page of a longer list (as for build)", pageSizeOption, LIST_PAGE_SIZE)
  .option("--base-path <path>", "serve the snapshot under this URL path (as for build)", basePathOption, "")
  .option(
    "--language <code>",
    `the language of the pages: ${LANGUAGES.join(", ")}`,
    languageOption,
    DEFAULT_LANGUAGE,
  )
  .addOption(leaseOption("publish"))
  .addOption(requestTimeoutOption())
  .option(
    "--stage-mb <n>",
    "a run that renders every file sends it as it renders, holding at most about this many MB on disk",
    stageMegabytes,
    256, // DEFAULT_STAGE_BYTES (src/deploy/stream-upload.ts), not imported: publish loads lazily
  )
  .option("--json", "print the build and deploy reports as JSON on stdout")
  .action(async (o) => {
    const [
      { publishToBucket },
      { DEFAULT_STATUS_OPTIONS },
      interrupts,
      { publishLines, publishJson },
      stopped,
      keys,
    ] = await Promise.all([
      import("./publish.ts"),
      import("../domain/status.ts"),
      import("./interrupt.ts"),
      import("./publish-report.ts"),
      import("./deploy-stopped.ts"),
      import("../deploy/publish-keys.ts"),
    ]);
    // Ctrl-C and SIGTERM: no new request, those in flight finish, the lease is given back.
    const interrupt = interrupts.catchInterrupts((line) => console.error(line), interrupts.DEPLOY_WORDS);
    const report = await publishToBucket({
      bucket: o.bucket,
      prefix: o.prefix,
      endpoint: o.endpoint,
      region: o.region,
      pathStyle: o.pathStyle,
      concurrency: o.concurrency,
      leaseSeconds: o.leaseSeconds,
      requestSeconds: o.requestTimeout,
      signal: interrupt.abortSignal,
      onStep: (done, total, what) =>
        console.error(
          total === 0
            ? `build-api: publish streamed batch ${done}: ${what}`
            : `build-api: publish step ${done}/${total}: ${what}`,
        ),
      stream: { budget: o.stageMb * 1024 * 1024 },
      build: {
        db: o.db,
        now: o.now ?? Date.now(),
        statusOptions: {
          ...DEFAULT_STATUS_OPTIONS,
          graceMs: o.graceMinutes * 60_000,
          resultsWindowMs: o.resultsWindowHours * 3_600_000,
        },
        skipInvalid: Boolean(o.skipInvalid),
        jobs: o.jobs,
        pageSize: o.pageSize,
        basePath: o.basePath,
        language: o.language,
      },
    })
      .catch((e: unknown) => {
        if (!(e instanceof keys.DeployStopped) || interrupt.signal === null) throw e;
        const at = {
          where: `s3://${o.bucket}/${o.prefix}`,
          pendingKey: keys.PENDING_KEY,
          leaseKey: keys.LEASE_KEY,
        };
        for (const line of stopped.deployStoppedReport(e, interrupt.signal, at)) console.error(line);
        process.exitCode = interrupts.signalExitCode(interrupt.signal);
        return null;
      })
      .finally(() => interrupt.dispose());
    if (report === null) return;
    if (o.json) process.stdout.write(publishJson(report));
    else for (const line of publishLines(report)) console.error(line);
  });

subcommand("export")
  .description(
    "Copy the live snapshot into a plain directory (the --out of a build is a symlink, which `cp -r` and `tar` copy as a link).",
  )
  .usage("--out <dir> [--dir <snapshot>]")
  .option("--dir <dir>", "the snapshot (the --out of a build)", "dist")
  .addOption(required("--out <dir>", "a new or empty directory to copy it into"))
  .action(async (o) => {
    const { exportSnapshot } = await import("../pipeline/export.ts");
    const r = exportSnapshot(o.dir, o.out);
    console.error(`copied ${r.from} into ${r.out}: ${plural(r.files, "file")}, ${r.bytes} bytes`);
  });

subcommand("init-store")
  .description("Create an empty store with the current schema (schema/store.sql), or the sample store.")
  .argument("<file>", "the SQLite file to create (must not exist)")
  .option("--sample", "fill it with the embedded sample: 8 tournaments, clubs, tags and recaps")
  .action(async (file: string, o) => {
    const { createSampleStore, createStore } = await import("../store/write/init.ts");
    if (o.sample) createSampleStore(file);
    else createStore(file);
    console.error(`created ${file}${o.sample ? " (the sample store)" : ""}`);
  });

subcommand("upgrade-store")
  .description(
    "Upgrade a store of schema version 1, 2, 3 or 4 in place to the current version (revision triggers and stamps, tie-break practice, round schedule, team events); a current store gets the indexes of schema/store.sql it lacks.",
  )
  .argument("<file>", "the SQLite store to upgrade")
  .action(async (file: string) => {
    const { upgradeStore } = await import("../store/write/upgrade.ts");
    const { STORE_SCHEMA_VERSION } = await import("../store/schema.ts");
    const was = upgradeStore(file);
    console.error(
      was === STORE_SCHEMA_VERSION
        ? `${file} is already at schema version ${STORE_SCHEMA_VERSION} (with every index of schema/store.sql)`
        : `upgraded ${file} from schema version ${was} to ${STORE_SCHEMA_VERSION}`,
    );
  });

subcommand("add-club")
  .description("Add an enabled club to a store, so that import-trf --club can publish into its catalog.")
  .usage("<slug> --db <store> --name <name> [options]")
  .argument("<slug>", "the club's URL segment: lowercase letters, digits and inner hyphens")
  .addOption(required("--db <store>", "the store to write"))
  .addOption(required("--name <name>", "the club's name"))
  .option("--uuid <uuid>", "the club's id in the API (default: a new random UUID)")
  .option("--description <text>", "a description")
  .option("--website-url <url>", "the club's website, http(s)")
  .option("--contact-email <address>", "a contact e-mail address")
  .option("--default-language <lang>", "the language of its recaps, e.g. es or en-GB")
  .option("--time-zone <zone>", "an IANA time zone, e.g. Australia/Melbourne")
  .option("--brand-color <#rrggbb>", "the colour of its pages and embed")
  .action(async (slug: string, o) => {
    const { addClub } = await import("../store/write/add-club.ts");
    const { uuid } = addClub(o.db, { slug, ...o });
    console.error(`added club ${slug} (${uuid}) to ${o.db}`);
  });

subcommand("import-trf")
  .description(
    "Import a FIDE TRF-16 / TRF-2025 file into a store. Importing an id the store holds updates that " +
      "tournament in place (players, rounds, results; its publication, club, tags and recaps stay).",
  )
  .usage("<file> --db <store> --id <externalId> [--source-url <url>] [options]")
  .argument("<file>", "the TRF file")
  .addOption(required("--db <store>", "the store to write"))
  .addOption(required("--id <externalId>", "the tournament's id at the results source (int64)", externalId))
  .option(
    "--source-url <url>",
    "the tournament's page at the results source (required for a new tournament; kept when omitted on a re-import)",
  )
  .option("--tiebreaks <list>", "FIDE C.07 tie-breaks in order, comma separated, e.g. DE,BH-C1,BH")
  .option("--rules <set>", `unplayed-round rules: ${TIEBREAK_RULE_SETS.join(", ")}`, ruleSet)
  .option(
    "--practice <program>",
    `follow a program's known tie-break practice: ${TIEBREAK_PRACTICES.join(", ")} (default: the written rules)`,
    practice,
  )
  .option(
    "--team-tiebreaks <list>",
    "team events (TRF 310 or 013 records): C.07 team tie-breaks after the primary score, e.g. GP,BH:MP or EDE,EMGSB/C1",
  )
  .option(
    "--primary-score <score>",
    "team events: MP (match points, the default) or GP ranks the teams first",
    primaryScore,
  )
  .option("--publish", "publish on the global surface")
  .option("--club <slug>", "publish in this club's catalog (the club must exist: see add-club)")
  .option(
    "--round-time <times>",
    'announced round start times, local HH:MM (TRF files carry dates only): "18:30" for every round, "18:30,7=10:00" with exceptions',
  )
  .option(
    "--rounds <n>",
    "the number of rounds the event will have, when the file has no XXR record (kept on a re-import)",
    integerIn(1, 99),
  )
  .option(
    "--follow <minutes>",
    "follow the event round by round: its status moves Upcoming, Live, AwaitingNextRound, Complete; the next import is expected within <minutes> (else UpdateDelayed); a re-import keeps following",
    integerIn(1, 10_080),
  )
  .option("--allow-unknown-results", "import unknown result codes as Unknown instead of failing")
  .option(
    "--strict",
    "refuse the file (exit 9, nothing written) when its declared points or ranks are not reproduced",
  )
  .option("--json", "print the import report as JSON (the default when stdout is not a terminal)")
  .option("--now <time>", "the import instant, ISO 8601 (default: the clock)", isoInstant)
  .action(async (file: string, o) => {
    const [{ importTrf }, { importSummary }, { parseRoundTimes }] = await Promise.all([
      import("../trf/import.ts"),
      import("./import-summary.ts"),
      import("../trf/schedule.ts"),
    ]);
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
      practice: o.practice ?? null,
      ...(o.teamTiebreaks !== undefined ? { teamTiebreaks: listOf(String(o.teamTiebreaks)) } : {}),
      ...(o.primaryScore !== undefined ? { primaryScore: o.primaryScore } : {}),
      publish: Boolean(o.publish),
      club: o.club,
      allowUnknownResults: Boolean(o.allowUnknownResults),
      strict: Boolean(o.strict),
      sourceUrl: o.sourceUrl,
      ...(o.roundTime !== undefined ? { roundTimes: parseRoundTimes(String(o.roundTime)) } : {}),
      ...(o.rounds !== undefined ? { rounds: o.rounds as number } : {}),
      ...(o.follow !== undefined ? { followMinutes: o.follow as number } : {}),
      now: new Date(o.now ?? Date.now()).toISOString(),
    });
    // Scripts read JSON (asked for, or stdout is a pipe); a person at a terminal gets a summary.
    if (o.json || !process.stdout.isTTY) {
      console.log(JSON.stringify(report, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2));
    } else {
      for (const line of importSummary(report)) console.log(line);
    }
    for (const w of report.warnings) console.error(`warning: ${w}`);
    for (const m of report.mismatches) {
      console.error(
        `warning: player ${m.player} (${m.name}): the file declares ${m.field} ${m.declared}, computed ${m.computed} (--strict refuses the file)`,
      );
    }
  });

/**
 * The whole program, every command defined, nothing parsed yet: the entry runs it with `run`, and
 * the CLI reference (docs/reference/cli.md, npm run gen-docs) is its help text.
 */
export { program };

/** Parses argv and runs the command; errors become a message and the exit code of their class. */
export async function run(argv: readonly string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
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
}
