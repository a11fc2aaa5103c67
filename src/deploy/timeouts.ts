// The deadlines of a deploy's requests, so that a server which accepts a request and never answers
// ends the deploy instead of holding it (and its lease) forever. Each request has three bounds in
// the SDK's Node handler: the connection, the silence on an open socket, and the whole request. A
// request over one fails as a timeout; the SDK tries it again (5 attempts in all), so one key that
// never answers fails the deploy after about 5 × the request's seconds. A stop (Ctrl-C, SIGTERM)
// issues no new request and gives those in flight STOP_GRACE_MS to finish before aborting them.

/** Seconds one request may take by default, its answer included. */
export const DEFAULT_REQUEST_SECONDS = 60;
/** Connecting longer than this is a dead endpoint whatever the request's own bound. */
const CONNECT_SECONDS = 10;
/** After a stop, how long the requests in flight may still take before they are aborted. */
export const STOP_GRACE_MS = 5_000;

/** The timeout options of the SDK's Node request handler (NodeHttpHandlerOptions), in ms. */
export interface HandlerTimeouts {
  connectionTimeout: number;
  socketTimeout: number;
  requestTimeout: number;
  throwOnRequestTimeout: boolean;
}

/** The SDK Node handler's timeout options for requests of at most `seconds`. */
export function handlerTimeouts(seconds = DEFAULT_REQUEST_SECONDS): HandlerTimeouts {
  const ms = Math.round(seconds * 1000);
  return {
    connectionTimeout: Math.min(ms, CONNECT_SECONDS * 1000),
    // Silence on the socket: a server that took the request and says nothing.
    socketTimeout: ms,
    // The whole request; without throwOnRequestTimeout the SDK only logs a warning.
    requestTimeout: ms,
    throwOnRequestTimeout: true,
  };
}

/** A stop asked for, and how long requests in flight may still take after it. */
export interface RequestStop {
  signal: AbortSignal;
  graceMs?: number;
}

/**
 * The abort signal for the next request. Before the stop's grace ends: one that aborts when the
 * grace ends. After it (the lease's release, the one request a stopped deploy still makes): one
 * that aborts after a grace of its own, so the release cannot hang either.
 */
export function stopAfterGrace(stop: RequestStop | undefined): () => AbortSignal | undefined {
  if (!stop) return () => undefined;
  const grace = stop.graceMs ?? STOP_GRACE_MS;
  const hard = new AbortController();
  const arm = () => setTimeout(() => hard.abort(stop.signal.reason), grace).unref();
  if (stop.signal.aborted) arm();
  else stop.signal.addEventListener("abort", arm, { once: true });
  return () => (hard.signal.aborted ? AbortSignal.timeout(grace) : hard.signal);
}
