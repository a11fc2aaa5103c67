// The deploy lease: one deploy at a time per bucket prefix. Two CI runs that overlap would
// otherwise interleave their uploads and write each other's record. The lease is an object beside
// the record (LEASE_KEY) created with a conditional write (If-None-Match: *), which S3, R2 and
// MinIO refuse with 412 when the key exists; it holds an opaque holder id and an expiry, nothing
// more: a public bucket shows it to anyone. Who the holder is (user, host, pid, CI run) the
// deploy prints in its own output, beside the same id. The holder renews
// it (If-Match: its ETag) every quarter of its lifetime, so a lease only lapses when its deploy
// died or stalled; a later deploy then takes a lapsed lease over (If-Match: the lapsed one's ETag,
// so of two deploys racing for it one wins) and resumes from the pending mark (record.ts). The
// holder releases it (a delete If-Match: its ETag) when it stops, failed or not.
import { randomBytes } from "node:crypto";
import { hostname, userInfo } from "node:os";
import { BuildError, EXIT } from "../shared/errors.ts";
import type { Bucket } from "./bucket.ts";

export const LEASE_KEY = "_build-api-deploy.lease.json";
/** How long a lease lasts without renewal: long beside a renewal, short beside a CI run. */
export const DEFAULT_LEASE_SECONDS = 120;

export interface LeaseHolder {
  /** Random per deploy, and all the object says of its holder (the deploy's output names it). */
  id: string;
  acquired: string;
  expires: string;
  /** Who held it, in a lease written by an older build-api (version 1), which named it. */
  owner?: string;
}

export interface LeaseOptions {
  bucket: string;
  prefix: string;
  seconds: number;
  /** The clock (tests); default Date.now. */
  now?: () => number;
}

export interface Lease {
  holder: LeaseHolder;
  /** Who this deploy is (user@host, pid, a CI run when known): for its own output only. */
  owner: string;
  /** Whether the lease was taken over from a deploy whose lease had lapsed. */
  tookOver?: LeaseHolder;
  /** Requests the lease has made so far (acquire, renewals, release). */
  requests(): number;
  /** Throws (exit 11) when a renewal found the lease taken: this deploy must stop writing. */
  check(): void;
  /** Stops renewing and deletes the lease if it is still this deploy's. */
  release(): Promise<void>;
}

/** Who is deploying, for the deploy's own output: the CI run when a known CI says so. */
export function ownerName(): string {
  let user = "unknown";
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (some containers): the host and pid still name the process.
  }
  const e = process.env;
  const ci =
    e.GITHUB_RUN_ID !== undefined
      ? ` (GitHub Actions run ${e.GITHUB_RUN_ID}${e.GITHUB_REPOSITORY ? ` of ${e.GITHUB_REPOSITORY}` : ""})`
      : e.CI_JOB_ID !== undefined
        ? ` (GitLab job ${e.CI_JOB_ID})`
        : e.BUILDKITE_BUILD_NUMBER !== undefined
          ? ` (Buildkite build ${e.BUILDKITE_BUILD_NUMBER})`
          : "";
  return `${user}@${hostname()} pid ${process.pid}${ci}`;
}

export function encodeLease(h: LeaseHolder): Buffer {
  const { id, acquired, expires } = h;
  return Buffer.from(
    JSON.stringify({ format: "build-api-deploy-lease", version: 2, id, acquired, expires }) + "\n",
  );
}

/** The lease's holder, or undefined when the bytes are not a lease (then it counts as lapsed). */
export function decodeLease(bytes: Uint8Array): LeaseHolder | undefined {
  try {
    const o = JSON.parse(Buffer.from(bytes).toString("utf8")) as Partial<LeaseHolder> & {
      format?: unknown;
      token?: unknown;
    };
    if (o.format !== "build-api-deploy-lease") return undefined;
    const { owner, acquired, expires } = o;
    // Version 1 named its owner and called its id a token.
    const id = o.id ?? o.token;
    if (typeof id !== "string" || (owner !== undefined && typeof owner !== "string")) return undefined;
    if (typeof acquired !== "string" || typeof expires !== "string" || Number.isNaN(Date.parse(expires)))
      return undefined;
    return { id, acquired, expires, ...(owner !== undefined && { owner }) };
  } catch {
    return undefined;
  }
}

function where(o: LeaseOptions): string {
  return `s3://${o.bucket}/${o.prefix}${LEASE_KEY}`;
}

/** How a message names a holder: its id, and who it is when an older lease said so. */
export function holderName(h: LeaseHolder): string {
  return `deploy ${h.id}${h.owner ? ` (${h.owner})` : ""}`;
}

function busy(o: LeaseOptions, h: LeaseHolder): BuildError {
  return new BuildError(
    `s3://${o.bucket}/${o.prefix} is being deployed by ${holderName(h)} (since ${h.acquired}).`,
    [
      {
        what: `another deploy holds the deploy lease until ${h.expires}, renewing it while it runs`,
        where: where(o),
        fix:
          "its own output names that holder id with who runs it; " +
          "let that deploy finish, then run this one again (deploy one snapshot per prefix at a time: a CI " +
          "concurrency group). If it died, its lease lapses at the time above and the next deploy takes it " +
          `over and resumes its work; to take it at once, delete ${where(o)} (only when that deploy is surely gone)`,
      },
    ],
    EXIT.deploy,
  );
}

function lost(o: LeaseOptions, h: LeaseHolder): BuildError {
  return new BuildError(
    `Deploy to s3://${o.bucket}/${o.prefix} stopped: its lease was taken by another deploy.`,
    [
      {
        what: `this deploy (${holderName(h)}) could not renew its lease: it had lapsed (the process stalled for longer than the lease) and another deploy took it over`,
        where: where(o),
        fix: "let the other deploy finish; run again after it if its snapshot is not the one you want served",
      },
    ],
    EXIT.deploy,
  );
}

/** Takes the prefix's lease, or throws (exit 11) naming the holder when another deploy has it. */
export async function acquireLease(bucket: Bucket, o: LeaseOptions): Promise<Lease> {
  const now = o.now ?? Date.now;
  const ms = o.seconds * 1000;
  let requests = 0;
  const holderFor = (t: number, id: string, acquired?: string): LeaseHolder => ({
    id,
    acquired: acquired ?? new Date(t).toISOString(),
    expires: new Date(t + ms).toISOString(),
  });
  const put = (h: LeaseHolder, condition: Parameters<Bucket["putIf"]>[1]) => {
    requests++;
    return bucket.putIf({ key: LEASE_KEY, body: encodeLease(h), contentType: "application/json" }, condition);
  };
  const token = randomBytes(8).toString("hex");
  let holder = holderFor(now(), token);
  let etag = await put(holder, { ifNoneMatch: "*" });
  let tookOver: LeaseHolder | undefined;
  if (etag === undefined) {
    requests++;
    const current = await bucket.getTagged(LEASE_KEY);
    if (current) {
      const h = decodeLease(current.body);
      if (h && Date.parse(h.expires) > now()) throw busy(o, h);
      // Lapsed (or unreadable): take it over, but only from exactly that lease.
      holder = holderFor(now(), token);
      etag = await put(holder, { ifMatch: current.etag });
      tookOver = h ?? { id: "(an unreadable lease)", acquired: "?", expires: "?" };
    } else {
      // Released between our two requests: try once more as new.
      etag = await put(holder, { ifNoneMatch: "*" });
    }
    if (etag === undefined) {
      // Another deploy won the race for it: name that one.
      requests++;
      const now2 = await bucket.getTagged(LEASE_KEY);
      const h = now2 && decodeLease(now2.body);
      throw busy(o, h ?? { id: "(unreadable)", acquired: "just now", expires: "soon" });
    }
  }

  let failure: BuildError | undefined;
  let renewing: Promise<void> | undefined;
  let stopped = false;
  const renew = async () => {
    if (stopped || failure) return;
    const next = holderFor(now(), token, holder.acquired);
    const tag = await put(next, { ifMatch: etag! }).catch(() => null); // a dropped renewal: try next tick
    if (tag === undefined) failure = lost(o, holder);
    else if (tag !== null) {
      holder = next;
      etag = tag;
    }
  };
  const timer = setInterval(
    () => {
      renewing ??= renew().finally(() => (renewing = undefined));
    },
    Math.max(50, ms / 4),
  );
  // The lease must not keep a finished process alive.
  timer.unref();

  return {
    get holder() {
      return holder;
    },
    tookOver,
    owner: ownerName(),
    requests: () => requests,
    check() {
      if (failure) throw failure;
    },
    async release() {
      stopped = true;
      clearInterval(timer);
      await renewing;
      if (failure) return;
      requests++;
      await bucket.removeIf(LEASE_KEY, etag!);
    },
  };
}
