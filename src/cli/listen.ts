// What `preview` says when it cannot listen, and the check that it can, made before
// `preview --watch` builds: a port another server holds must not cost a build that replaces the
// snapshot in --dir only to fail afterwards.
import { createServer } from "node:net";
import { BuildError, EXIT } from "../shared/errors.ts";

/** The BuildError (exit 2) of a listen that failed with one of the codes a user can fix, else undefined. */
export function listenError(e: unknown, host: string, port: number): BuildError | undefined {
  const code = (e as NodeJS.ErrnoException).code;
  if (code !== "EADDRINUSE" && code !== "EACCES" && code !== "EADDRNOTAVAIL") return undefined;
  const why =
    code === "EADDRINUSE"
      ? "is already in use"
      : code === "EACCES"
        ? "needs privileges this user does not have"
        : "is not an address of this machine";
  return new BuildError(
    `cannot listen on ${host}:${port}: the ${code === "EADDRNOTAVAIL" ? "address" : "port"} ${why}.`,
    [
      {
        what: `listen failed with ${code}`,
        fix: "stop the other server, or pass another --port (0 picks a free one) or --host",
      },
    ],
    EXIT.usage,
    { cause: e },
  );
}

/** Throws listenError's error when nothing may listen on host:port now (it listens, then lets go). */
export async function checkListen(host: string, port: number): Promise<void> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", (e) => reject(listenError(e, host, port) ?? e));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
