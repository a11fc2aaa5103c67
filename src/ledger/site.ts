// The one site of the ledger today: a SQLite database beside the snapshot's versions.
import path from "node:path";
import { Bookkeeping, BOOKKEEPING_NAME } from "./bookkeeping.ts";
import type { LedgerSite } from "./port.ts";

/** The ledger of the versions directory `storeDir`: `<storeDir>/bookkeeping.sqlite`. */
export function besideSnapshot(storeDir: string, exists: (file: string) => boolean): LedgerSite {
  const file = path.join(storeDir, BOOKKEEPING_NAME);
  return {
    name: file,
    exists: () => exists(file),
    open: () => Bookkeeping.open(storeDir),
    openReadOnly: () => Bookkeeping.openReader(storeDir),
  };
}
