// What the CLI's report of a stopped publish names: the keys it leaves and the error it throws.
export { PENDING_KEY } from "./record.ts";
export { LEASE_KEY } from "./lease.ts";
export { LEDGER_KEY } from "./publish-run.ts";
export { DeployStopped } from "./types.ts";
