// A local S3-compatible server (@20minutes/s3rver) in its own process, for scripts/bench-deploy.ts:
// apart from the deploying process, so the CPU each side spends can be told apart. Prints
// `port <n>` once listening; stops on SIGTERM.
//   node scripts/s3-server-child.ts <directory>
import S3rver from "@20minutes/s3rver";

const dir = process.argv[2];
if (!dir) throw new Error("usage: s3-server-child.ts <directory>");
const server = new S3rver({
  port: 0,
  address: "127.0.0.1",
  silent: true,
  directory: dir,
  allowMismatchedSignatures: true,
});
const { port } = await server.run();
console.log(`port ${port}`);
process.on("SIGTERM", () => {
  void server.close().then(() => process.exit(0));
});
