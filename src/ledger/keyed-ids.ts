// The store's private values as the ledger keeps them (issue 49): a tournament's row id and a
// revision token are written only as HMAC-SHA256 under a key that neither the ledger nor the
// snapshot holds. Row ids are small integers, so a plain hash could be reversed by counting.
//
// The key comes from the store, which a build may open read-only (so it cannot add a secret of
// its own): the store's history (revisions.ts storeHistory: the file's identity only for a store
// without stamped revisions) and the random stamp of its clubs revision (64 bits drawn by
// SQLite when the clubs last changed). Both are part of the fingerprints' common part (`base`):
// when the key changes, every fingerprint changes too, the build renders every tournament and
// writes every keyed value anew, so no value kept under an older key is ever looked up. The
// snapshot's record names the clubs revision by its digest only (clubsDigest).
import { createHash, createHmac } from "node:crypto";

/** The keyed values' length: 22 base64url characters, 132 bits (collisions are out of reach). */
const LENGTH = 22;

export class KeyedIds {
  private readonly key: Buffer;

  private constructor(key: Buffer) {
    this.key = key;
  }

  /** The key of the store of history `identity` (storeHistory) whose clubs revision token is `clubs`. */
  static of(identity: string, clubs: string): KeyedIds {
    return new KeyedIds(createHash("sha256").update(`build-api ledger key\0${identity}\0${clubs}`).digest());
  }

  /** A tournament's store row, as the ledger finds it. */
  row(rowId: number): string {
    return this.mac(`row\0${rowId}`);
  }

  /** A revision token ("17.9F3C…"), as the ledger compares it. */
  token(token: string): string {
    return this.mac(`token\0${token}`);
  }

  private mac(text: string): string {
    return createHmac("sha256", this.key).update(text).digest("base64url").slice(0, LENGTH);
  }
}

/** The clubs revision token as the snapshot's record names it: a digest, never the key's stamp. */
export function clubsDigest(clubs: string): string {
  return createHash("sha256").update(`build-api clubs\0${clubs}`).digest("hex");
}
