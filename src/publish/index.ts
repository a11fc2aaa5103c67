// The publication layer: atomic, locked, incremental snapshot output. See publish.ts for the design.
export {
  beginPublication,
  publishSnapshot,
  type Publication,
  type PublishOptions,
  type PublishReport,
  type SnapshotWriter,
} from "./publish.ts";
export { safeRelativePath } from "./safe-path.ts";
export { CHANGED_PATHS_CAP, type ChangedFiles } from "./staging-writer.ts";
export { MANIFEST_NAME, MARKER_NAME } from "./manifest.ts";
export { BOOKKEEPING_NAME } from "../ledger/bookkeeping.ts";
export {
  changesSince,
  liveFiles,
  liveTotals,
  publicationChanges,
  type ChangesSince,
  type Generation,
  type PublicationChanges,
} from "./changes.ts";
export { verifySnapshot, type SnapshotVerification } from "./verify.ts";
