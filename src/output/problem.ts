// The one builder of error bodies. API errors are RFC 9457 problem bodies (JSON); a page path
// that does not exist gets a small HTML page. render writes both files, the hosts serve them,
// the preview and the Cloudflare worker send the same bytes. Static hosts serve one file for every
// unknown path, so a body never names the path that was asked for.
import type { z } from "zod";
import type { ProblemResponse } from "../contracts/problem.ts";
import type { ErrorPageWords } from "../routes/pagination.ts";
import { toJson } from "./json.ts";

export type Problem = z.output<typeof ProblemResponse>;

const DETAILS: Record<number, { title: string; detail: string }> = {
  400: { title: "Bad Request", detail: "The request path is malformed: it cannot name a resource." },
  404: {
    title: "Not Found",
    detail:
      "No resource exists at this path: the club, tournament, round, tag or language is unknown or not published.",
  },
  405: { title: "Method Not Allowed", detail: "Only GET and HEAD are allowed." },
  500: { title: "Internal Server Error", detail: "The server failed to answer this request." },
};

export type ErrorStatus = 400 | 404 | 405 | 500;

export function problem(status: ErrorStatus): Problem {
  const d = DETAILS[status]!;
  return { type: "about:blank", title: d.title, status, detail: d.detail };
}

export function problemJson(status: ErrorStatus): string {
  return toJson(problem(status));
}

export const NOT_FOUND: Problem = problem(404);

/** The API's 404 body, served for every unknown /api path. */
export const NOT_FOUND_FILE = "404.json";
/** The HTML page served for every unknown page path. */
export const NOT_FOUND_PAGE = "404.html";

/**
 * The error page's own style, inline so that the page needs no asset it could fail to load; the
 * pages' Content-Security-Policy allows exactly this text by its hash (hosting/rules.ts).
 */
export const ERROR_PAGE_STYLE =
  "body{font:1rem/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}" +
  "@media(prefers-color-scheme:dark){body{background:#111;color:#eee}a{color:#8cf}}";

/**
 * The CSP source of ERROR_PAGE_STYLE: written out, not computed, because the rule list that uses
 * it is bundled into edge code with no node:crypto (a unit test checks it against the style).
 */
export const ERROR_PAGE_STYLE_HASH = "sha256-8HR7W8gHLFsNzykekvC7koS9kwMB1YkMclaVVYRBW/4=";

/**
 * The English words of the HTML error page: the 404 page's own, the problem bodies' title and
 * detail for the other statuses. They are the English catalog's error.* texts (a test holds them
 * equal): the edge code that sends this page bundles this module, never a catalog (CloudFront's
 * function has 10 KB). The problem bodies are API data, the same in every language.
 */
export const ENGLISH_ERROR_PAGE: ErrorPageWords = {
  lang: "en",
  titles: { 404: "Page not found" },
  texts: {
    404: "There is no page at this address. The tournament may not be published, or the link is wrong.",
  },
  home: "All tournaments",
};

/**
 * A small, self-contained HTML error page (no asset it could fail to load). `home`: the index's
 * URL, under the snapshot's base path (routes/urls.ts href); "/" at the root. `w`: the words in
 * the build's language (the edge facts' errorPage, from a catalog whose error texts hold no
 * markup character: a test checks), English when absent.
 */
export function errorPage(status: ErrorStatus, home = "/", w: ErrorPageWords = ENGLISH_ERROR_PAGE): string {
  const title = w.titles[status] ?? DETAILS[status]!.title;
  const text = w.texts[status] ?? DETAILS[status]!.detail;
  return [
    "<!doctype html>",
    `<html lang="${w.lang}">`,
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<style>${ERROR_PAGE_STYLE}</style>`,
    `<h1>${title}</h1>`,
    `<p>${text}</p>`,
    `<p><a href="${home}">${w.home}</a></p>`,
    "</html>",
    "",
  ].join("\n");
}

/**
 * errorPage(status, home) in English, as the CloudFront function sends it: its 10 KB have no room
 * for the words table (ENGLISH_ERROR_PAGE and the look-ups), so the English is spelled out here.
 * A unit test holds it equal to errorPage's English for every status (test/unit/i18n/catalogs).
 */
export function englishErrorPage(status: ErrorStatus, home = "/"): string {
  const title = status === 404 ? "Page not found" : DETAILS[status]!.title;
  const text =
    status === 404
      ? "There is no page at this address. The tournament may not be published, or the link is wrong."
      : DETAILS[status]!.detail;
  return [
    "<!doctype html>",
    '<html lang="en">',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<style>${ERROR_PAGE_STYLE}</style>`,
    `<h1>${title}</h1>`,
    `<p>${text}</p>`,
    `<p><a href="${home}">All tournaments</a></p>`,
    "</html>",
    "",
  ].join("\n");
}
