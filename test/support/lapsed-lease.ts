// A dead deploy's lease, lapsed without the wait: its expiry moved to a second ago in the bucket.
// A deploy judges a lease only by its `expires` against its own clock (src/deploy/lease.ts), so
// this is what the next deploy sees once the lease's lifetime has passed; the tests that kill a
// deploy keep a lease long enough for a blocked rerun to find it live, and need not sleep it out.
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { decodeLease, encodeLease, LEASE_KEY, type LeaseHolder } from "../../src/deploy/lease.ts";
import type { LocalS3 } from "./s3-server.ts";

/** Lapses the lease under `prefix` (same holder, same acquisition); returns the holder it was. */
export async function lapseLease(s3: LocalS3, prefix: string): Promise<LeaseHolder> {
  const key = `${prefix}${LEASE_KEY}`;
  const found = await s3.get(key);
  const holder = found && decodeLease(found.body);
  if (!holder) throw new Error(`no lease at ${key} to lapse`);
  const lapsed = { ...holder, expires: new Date(Date.now() - 1000).toISOString() };
  await s3.client.send(
    new PutObjectCommand({
      Bucket: s3.bucket,
      Key: key,
      Body: encodeLease(lapsed),
      ContentType: "application/json",
    }),
  );
  return holder;
}
