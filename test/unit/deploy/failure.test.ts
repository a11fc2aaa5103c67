// What a failed request to the bucket is taken for: each kind from the SDK's error as it comes
// (a name, an HTTP status, a Node error code), and the deploy's error keeps the SDK's as its cause.
import { describe, expect, it } from "vitest";
import { failureKind, requestFailure } from "../../../src/deploy/failure.ts";
import { EXIT } from "../../../src/shared/errors.ts";

const sdk = (name: string, status?: number, code?: string) =>
  Object.assign(new Error(`${name} happened`), {
    name,
    ...(code && { code }),
    ...(status && { $metadata: { httpStatusCode: status, attempts: 5 } }),
  });

describe("failureKind", () => {
  it.each([
    [sdk("TimeoutError"), "timeout"],
    [sdk("Error", undefined, "ETIMEDOUT"), "timeout"],
    [sdk("AccessDenied", 403), "credentials"],
    [sdk("InvalidAccessKeyId", 403), "credentials"],
    [sdk("Unknown", 401), "credentials"],
    [sdk("CredentialsProviderError"), "credentials"],
    [sdk("NoSuchBucket", 404), "no-bucket"],
    [sdk("SlowDown", 503), "throttled"],
    [sdk("TooManyRequests", 429), "throttled"],
    [sdk("InternalError", 500), "server"],
    [sdk("ServiceUnavailable", 503), "server"],
    [sdk("Error", undefined, "ECONNREFUSED"), "unreachable"],
    [sdk("AbortError"), "stopped"],
    [sdk("InvalidArgument", 400), "other"],
  ] as const)("%s is %s", (e, kind) => {
    expect(failureKind(e)).toBe(kind);
  });
});

describe("requestFailure", () => {
  it("says what happened and keeps the SDK's error as its cause", () => {
    const cause = sdk("InternalError", 500);
    const e = requestFailure(
      cause,
      { bucket: "b", prefix: "p/", endpoint: "http://127.0.0.1:9" },
      "uploading x",
    );
    expect(e.exitCode).toBe(EXIT.deploy);
    expect(e.cause).toBe(cause);
    expect(e.problems[0]!.what).toBe(
      "uploading x: the server failed on its side (an HTTP 5xx) after every retry (InternalError (HTTP 500) after 5 attempts: InternalError happened)",
    );
    expect(e.problems[0]!.where).toBe("http://127.0.0.1:9");
  });
});
