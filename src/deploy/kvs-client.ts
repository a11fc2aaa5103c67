// The CloudFront KeyValueStore through the AWS SDK (@aws-sdk/client-cloudfront-keyvaluestore): the
// deploy's seam (kvs.ts KeyValueStore) over DescribeKeyValueStore, GetKey, ListKeys and
// UpdateKeys. Kept apart from kvs.ts so a deploy without --kvs-arn never loads the client.
import type { Agent } from "node:http";
import "@aws-sdk/signature-v4a"; // UpdateKeys and friends are signed with SigV4A: this registers the JS signer
import {
  CloudFrontKeyValueStoreClient,
  DescribeKeyValueStoreCommand,
  GetKeyCommand,
  ListKeysCommand,
  UpdateKeysCommand,
} from "@aws-sdk/client-cloudfront-keyvaluestore";
import type { KeyValueStore } from "./kvs.ts";

/** The store named by its ARN, through the SDK (credentials and region the standard AWS way). */
export function openKeyValueStore(
  arn: string,
  o: { endpoint?: string; region?: string; httpAgent?: Agent } = {},
): KeyValueStore & { close(): void } {
  const client = new CloudFrontKeyValueStoreClient({
    // The service is global; its SigV4A signature covers every region.
    region: o.region ?? "us-east-1",
    // An endpoint gets the ARN's account as its first host label, as the service's own does.
    ...(o.endpoint && { endpoint: o.endpoint }),
    ...(o.httpAgent && { requestHandler: { httpAgent: o.httpAgent } }),
  });
  return {
    async etag() {
      return (await client.send(new DescribeKeyValueStoreCommand({ KvsARN: arn }))).ETag!;
    },
    async get(key) {
      try {
        return (await client.send(new GetKeyCommand({ KvsARN: arn, Key: key }))).Value;
      } catch (e) {
        if ((e as { name?: string }).name === "ResourceNotFoundException") return undefined;
        throw e;
      }
    },
    async keys() {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const r = await client.send(new ListKeysCommand({ KvsARN: arn, NextToken: token, MaxResults: 50 }));
        for (const item of r.Items ?? []) out.push(item.Key!);
        token = r.NextToken;
      } while (token);
      return out;
    },
    async update(ifMatch, puts, deletes) {
      const r = await client.send(
        new UpdateKeysCommand({
          KvsARN: arn,
          IfMatch: ifMatch,
          ...(puts.length > 0 && { Puts: puts.map((p) => ({ Key: p.key, Value: p.value })) }),
          ...(deletes.length > 0 && { Deletes: deletes.map((key) => ({ Key: key })) }),
        }),
      );
      return r.ETag!;
    },
    close: () => client.destroy(),
  };
}
