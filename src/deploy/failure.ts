// A failed request to the bucket, as the operator needs it: what really happened (a timeout, a
// refused credential, a server error, throttling, an unreachable endpoint) with the fix for that,
// not one message for all. The SDK's error stays the BuildError's `cause`.
import { BuildError, EXIT } from "../shared/errors.ts";

/** What went wrong with a request, from the SDK's error. */
export type FailureKind =
  "timeout" | "credentials" | "no-bucket" | "throttled" | "server" | "unreachable" | "stopped" | "other";

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number };
}

const CREDENTIAL_NAMES =
  /^(AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|ExpiredToken|InvalidToken|TokenRefreshRequired|CredentialsProviderError|AuthorizationHeaderMalformed|AllAccessDisabled)$/;
const NETWORK_CODES = [
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
];

export function failureKind(e: unknown): FailureKind {
  const err = (e ?? {}) as SdkError;
  const status = err.$metadata?.httpStatusCode;
  const name = err.name ?? "";
  if (name === "AbortError") return "stopped";
  if (name === "TimeoutError" || err.code === "ETIMEDOUT" || name === "RequestTimeout") return "timeout";
  if (status === 401 || status === 403 || CREDENTIAL_NAMES.test(name)) return "credentials";
  if (name === "NoSuchBucket") return "no-bucket";
  if (status === 429 || /SlowDown|Throttl|TooManyRequests/.test(name)) return "throttled";
  if (status !== undefined && status >= 500) return "server";
  if (NETWORK_CODES.includes(err.code ?? "")) return "unreachable";
  return "other";
}

/** The sentence saying what happened, and the fix for that kind. */
function explain(kind: FailureKind, where: string): { what: string; fix: string } {
  const rerun = "then run the same deploy again: it resumes where this one stopped";
  switch (kind) {
    case "timeout":
      return {
        what: "the request timed out: the server took it and did not answer in time, each of the SDK's attempts",
        fix: `check that ${where} is up and reachable (a proxy or gateway that hangs), or allow more with --request-timeout; ${rerun}`,
      };
    case "credentials":
      return {
        what: "the server refused the credentials or their permission on this bucket",
        fix: `check the credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE), that they may put, get and delete objects under the prefix, and the region; ${rerun}`,
      };
    case "no-bucket":
      return {
        what: "the bucket does not exist at this endpoint",
        fix: `check --bucket, --endpoint and --region; ${rerun}`,
      };
    case "throttled":
      return {
        what: "the server kept asking to slow down after every retry",
        fix: `lower --concurrency, or wait a little; ${rerun}`,
      };
    case "server":
      return {
        what: "the server failed on its side (an HTTP 5xx) after every retry",
        fix: `nothing is wrong with the request: check the provider's status, wait; ${rerun}`,
      };
    case "unreachable":
      return {
        what: "the endpoint could not be reached (connection refused, reset, or its name unknown)",
        fix: `check --endpoint (or AWS_ENDPOINT_URL_S3) and the network; ${rerun}`,
      };
    case "stopped":
      return { what: "the request was aborted by the deploy's stop", fix: rerun };
    case "other":
      return {
        what: "the request failed",
        fix: `check the bucket name, credentials, region and --endpoint; ${rerun}`,
      };
  }
}

/** The SDK's own words: its error's name, HTTP status and message. */
function detail(e: unknown): string {
  const err = (e ?? {}) as SdkError;
  const status = err.$metadata?.httpStatusCode;
  const attempts = err.$metadata?.attempts;
  return (
    `${err.name ?? "Error"}${status ? ` (HTTP ${status})` : ""}` +
    `${attempts && attempts > 1 ? ` after ${attempts} attempts` : ""}: ${err.message ?? String(e)}`
  );
}

/**
 * The BuildError (exit 11) of a request that failed while `doing` something to
 * s3://bucket/prefix at `endpoint`; the SDK's error is its cause. A BuildError passes unchanged.
 */
export function requestFailure(
  e: unknown,
  at: { bucket: string; prefix: string; endpoint?: string },
  doing: string,
): BuildError {
  if (e instanceof BuildError) return e;
  const where = at.endpoint ?? "the AWS endpoint";
  const kind = failureKind(e);
  const { what, fix } = explain(kind, where);
  return new BuildError(
    `Deploy to s3://${at.bucket}/${at.prefix} did not finish.`,
    [{ what: `${doing}: ${what} (${detail(e)})`, where, fix }],
    EXIT.deploy,
    { cause: e },
  );
}
