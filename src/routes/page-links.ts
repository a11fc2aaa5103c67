// The Link headers of a snapshot's split files, from their names alone (the same whether the
// lists were rendered now or kept): every file of a paged JSON list and every part of a split
// index page for people gets first, prev, next and last (pagination.ts pageLinks), with the URLs
// its page links, under the base path. The hosts send them from the edge facts.
import { pageLinks } from "./pagination.ts";
import { ENDPOINTS, href, PAGE_ROUTES, pagePath, pathForms, type BasePath } from "./urls.ts";

/**
 * One kind of split file, from the URL model: the URL templates of its head and of its numbered
 * pages (`{page}`), and the file a URL is served from.
 */
interface Split {
  head: string;
  page: string;
  file: (url: string) => string;
}

/** Every kind of split file: each form of a paged endpoint, each paged page route. */
function splits(): Split[] {
  const json = ENDPOINTS.filter((e) => e.paged).flatMap((e) =>
    pathForms({ ...e, paged: undefined }).map((form) => ({
      head: form,
      page: pagePath(form),
      file: (url: string) => `${url.slice(1)}/index.json`,
    })),
  );
  const html = PAGE_ROUTES.flatMap((p) => {
    const head = PAGE_ROUTES.find((h) => h.id === p.pageOf);
    if (!head) return [];
    return [{ head: head.path, page: p.path, file: (url: string) => `${url.slice(1)}index.html` }];
  });
  return [...json, ...html];
}

/** A file name pattern of a URL template: one capture per parameter, `{page}` a page number. */
function filePattern(split: Split, template: string): { re: RegExp; names: string[] } {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const source = split
    .file(template)
    .split(/(\{\w+\})/)
    .map((part) =>
      /^\{\w+\}$/.test(part)
        ? part === "{page}"
          ? "([1-9][0-9]*)"
          : "([^/]+)"
        : part.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&"),
    )
    .join("");
  return { re: new RegExp(`^${source}$`), names };
}

function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
}

/**
 * The Link header of every file of a split list or page among `files` (snapshot files, relative),
 * keyed by file: each instance (the head's URL) with its numbered pages. An instance without
 * numbered pages (a list that fits one page, an index page that is not split) sends none.
 */
export function pageLinksOf(files: readonly string[], basePath: BasePath = ""): Record<string, string> {
  const patterns = splits().flatMap((split) =>
    [split.page, split.head].map((template) => ({ split, template, ...filePattern(split, template) })),
  );
  const instances = new Map<string, { url: (n: number) => string; pages: Map<number, string> }>();
  for (const file of files) {
    for (const { split, template, re, names } of patterns) {
      const m = re.exec(file);
      if (!m) continue;
      const params: Record<string, string> = Object.fromEntries(names.map((n, i) => [n, m[i + 1]!]));
      const j = template === split.page ? Number(params.page) : 0;
      const url = (n: number): string =>
        href(basePath, n === 0 ? fill(split.head, params) : fill(split.page, { ...params, page: String(n) }));
      const head = url(0);
      const instance = instances.get(head) ?? { url, pages: new Map<number, string>() };
      instance.pages.set(j, file);
      instances.set(head, instance);
      break;
    }
  }
  const links: Record<string, string> = {};
  for (const [, { url, pages }] of [...instances].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const k = Math.max(...pages.keys());
    if (k === 0) continue;
    for (const [j, file] of [...pages].sort(([a], [b]) => a - b)) links[file] = pageLinks(url, j, k);
  }
  return links;
}
