// Atom feeds (RFC 4287): one per tournament (pairings published, results of a round, final
// standings) and one for the whole snapshot (each tournament's newest event). Entry ids are
// name-based UUIDs (RFC 9562 version 5) of the tournament id and the event's key, so they are the
// same in every build and a reader never sees an entry twice; every instant comes from the data,
// so the same store gives the same bytes.
import { createHash } from "node:crypto";
import type { FeedEvent } from "../domain/extensions/feed.ts";
import type { Locale } from "../i18n/locale.ts";
import { esc } from "./html.ts";

/** The namespace of our name-based UUIDs (a fixed random UUID: changing it changes every id). */
const NAMESPACE = "5d0f6a1e-27c4-4a4b-9a53-3c1e8d7b2f90";

/** A version 5 (SHA-1, name-based) UUID of `name` in NAMESPACE, as a urn:uuid IRI. */
export function stableId(name: string): string {
  const ns = Buffer.from(NAMESPACE.replace(/-/g, ""), "hex");
  const h = createHash("sha1").update(ns).update(name, "utf8").digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `urn:uuid:${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export const FEED_TYPE = "application/atom+xml";

export interface FeedEntry {
  id: string;
  title: string;
  updated: string;
  /** Same-origin path of the page the entry is about. */
  link: string;
  summary: string;
}

export interface Feed {
  /** The language of its titles and summaries (the feed's xml:lang). */
  l: Locale;
  id: string;
  title: string;
  /** The feed's own path. */
  self: string;
  /** The page it follows. */
  alternate: string;
  /** Used when there is no entry: the data's own instant. */
  fallbackUpdated: string;
  entries: FeedEntry[];
}

/** Drops fractions of a second: Atom dates are RFC 3339, and the same instant reads the same. */
function instant(iso: string): string {
  return iso.replace(/\.\d+Z$/, "Z");
}

export function atomFeed(f: Feed): string {
  const updated = f.entries.reduce(
    (m, e) => (instant(e.updated) > m ? instant(e.updated) : m),
    instant(f.fallbackUpdated),
  );
  const entries = f.entries
    .map(
      (e) =>
        `  <entry>\n    <id>${esc(e.id)}</id>\n    <title>${esc(e.title)}</title>\n` +
        `    <updated>${instant(e.updated)}</updated>\n    <link rel="alternate" type="text/html" href="${esc(e.link)}"/>\n` +
        `    <summary>${esc(e.summary)}</summary>\n  </entry>\n`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${esc(f.l.tag)}">\n` +
    `  <id>${esc(f.id)}</id>\n  <title>${esc(f.title)}</title>\n  <updated>${updated}</updated>\n` +
    `  <author><name>build-api</name></author>\n  <generator>build-api</generator>\n` +
    `  <link rel="self" type="${FEED_TYPE}" href="${esc(f.self)}"/>\n` +
    `  <link rel="alternate" type="text/html" href="${esc(f.alternate)}"/>\n${entries}</feed>\n`
  );
}

/** The title of an event of a tournament. */
export function eventTitle(l: Locale, name: string, e: FeedEvent): string {
  switch (e.kind) {
    case "pairings":
      return l.t("feed.pairings", { name, n: e.round });
    case "results":
      return l.t("feed.results", { name, n: e.round });
    case "final":
      return l.t("feed.final", { name });
  }
}
