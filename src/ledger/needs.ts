// What a ledger holding only part of its rows is told a build reads (a bucket's split ledger,
// ledger-groups.ts; deploy/ledger-objects.ts fetches what was missing).
/**
 * A ledger that holds only part of its rows (the bucket's split layout, ledger-groups.ts): told
 * which owners and records a build reads, so that the rows missing can be fetched and the build run again.
 */
export interface LedgerNeeds {
  owner(owner: string): void;
  record(key: string): void;
  /** How many player records the whole ledger holds (most are not loaded). */
  playerCount(): number;
}
