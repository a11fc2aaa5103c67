// HTML building blocks. Every store string goes through esc(): names, locations and recaps come
// from outside and may hold markup. Pages are plain strings, so this is the one escape point.
import type { Locale } from "../i18n/locale.ts";
import type { SiteUrls } from "./links.ts";

/** Any character esc() changes: one test passes most strings through as they are. */
const ANY = /[&<>"'\u0100-\uffff]/;
const SPECIALS = /[&<>"']/g;
const WIDE = /[\u0100-\uffff]/;
/** The five, a character beyond the first plane (one reference), any other beyond Latin-1. */
const WIDE_SPECIALS = /[&<>"']|[\ud800-\udbff][\udc00-\udfff]|[\u0100-\uffff]/g;
/** Texts up to this length (names) are escaped character by character. */
const SHORT_TEXT = 256;
const ENTITY: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for element content and double-quoted attribute values, and writes every character
 * beyond Latin-1 as a numeric reference, so that a page is one-byte text. Most strings hold none
 * of these characters: one test returns them as they are. A number's text (digits, "-", ".",
 * "e", "+", or Infinity or NaN) holds none of them.
 */
export function esc(value: string | number): string {
  if (typeof value === "number") return String(value);
  if (!ANY.test(value)) return value;
  return WIDE.test(value) ? escWide(value) : value.replace(SPECIALS, reference);
}

/** One of the five as its entity; any other character (a whole surrogate pair is one) by number. */
function reference(c: string): string {
  const entity = ENTITY[c];
  if (entity !== undefined) return entity;
  const code = c.codePointAt(0)!;
  // A lone surrogate is no character: UTF-8 would carry U+FFFD in its place.
  return `&#x${(code >= 0xd800 && code <= 0xdfff ? 0xfffd : code).toString(16).toUpperCase()};`;
}

/**
 * esc() for text with characters beyond Latin-1. A slice or a replacement of two-byte text stays
 * two-byte in V8, whatever it holds: a short text (a name) is built character by character; a
 * long one (a recap) is replaced in one pass and copied through Latin-1 bytes (exact: every
 * character now fits one), which is linear in memory where a string per character is not.
 */
function escWide(text: string): string {
  if (text.length > SHORT_TEXT) {
    return Buffer.from(text.replace(WIDE_SPECIALS, reference), "latin1").toString("latin1");
  }
  let out = "";
  for (const ch of text) out += ch <= "\u00ff" ? (ENTITY[ch] ?? ch) : reference(ch);
  return out;
}

export interface PageLayout {
  /** The reader's language: the page's lang attribute and the frame's words. */
  l: Locale;
  /** The URLs under the snapshot's base path (pages/links.ts): the stylesheet, script and home. */
  urls: SiteUrls;
  title: string;
  /** The main content, already escaped. */
  body: string;
  /** Breadcrumb trail above the heading: [label, href] (the last one is the current page). */
  crumbs?: [string, string][];
  /** Extra <head> content, already escaped (e.g. a page's own small style). */
  head?: string;
  /** Loads the small site script (live refresh). */
  script?: boolean;
  /** Footer links: [label, href]. */
  links?: [string, string][];
}

export function layout(p: PageLayout): string {
  const crumbs = p.crumbs?.length
    ? `<nav aria-label="${esc(p.l.t("layout.breadcrumb"))}" class="crumbs"><ol>${p.crumbs
        .map(([label, href], i, all) =>
          i === all.length - 1
            ? `<li><a href="${esc(href)}" aria-current="page">${esc(label)}</a></li>`
            : `<li><a href="${esc(href)}">${esc(label)}</a></li>`,
        )
        .join("")}</ol></nav>`
    : "";
  const links = (p.links ?? [])
    .map(([label, href]) => `<a href="${esc(href)}">${esc(label)}</a>`)
    .join(" · ");
  // Joined: one flat string. A body appended piece by piece (pages/extensions.ts) would otherwise
  // stay a tree of its pieces, alive and copied by each young collection, until it is encoded.
  return [
    `<!doctype html>\n<html lang="${esc(p.l.tag)}">\n<head>\n<meta charset="utf-8">\n` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
      `<meta name="color-scheme" content="light dark">\n` +
      `<title>${esc(p.title)}</title>\n<link rel="stylesheet" href="${esc(p.urls.css)}">\n` +
      (p.head ?? "") +
      (p.script ? `<script src="${esc(p.urls.js)}" defer></script>\n` : "") +
      `</head>\n<body>\n<a class="skip" href="#main">${esc(p.l.t("layout.skip"))}</a>\n` +
      `<header class="site"><a href="${esc(p.urls.home)}" class="home">${esc(p.l.t("layout.home"))}</a></header>\n` +
      `<main id="main">\n${crumbs}\n`,
    p.body,
    `\n</main>\n<footer class="site"><p>${links ? `${links} · ` : ""}${esc(p.l.t("layout.footer"))}</p></footer>\n</body>\n</html>\n`,
  ].join("");
}

/** A table in a focusable, labelled scroll region (wide tables scroll sideways on a phone). */
export function scrollTable(label: string, table: string): string {
  return scrollTableOf(esc(label), table);
}

/** scrollTable() with its label already escaped. */
export function scrollTableOf(labelHtml: string, table: string): string {
  return `<div class="scroll" role="region" aria-label="${labelHtml}" tabindex="0">${table}</div>`;
}
