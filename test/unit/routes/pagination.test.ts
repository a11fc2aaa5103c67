// Pages of long lists: the split (head, numbered pages from the oldest) and the Link header.
import { describe, expect, it } from "vitest";
import {
  firstChangedPage,
  LIST_PAGE_SIZE,
  pageLinks,
  pageShape,
  paginate,
} from "../../../src/routes/pagination.ts";

type Item = { id: number; done: boolean };
const items = (n: number, unfinished: number): Item[] =>
  Array.from({ length: n }, (_, i) => ({ id: i, done: i >= unfinished }));
const done = (i: Item) => i.done;

describe("paginate", () => {
  it("leaves a list that fits one page exactly as it is, in its order", () => {
    const list = [...items(5, 2)].reverse();
    expect(paginate(list, 5, done)).toEqual({ head: list, pages: [] });
    expect(LIST_PAGE_SIZE).toBe(1000);
  });

  it("cuts pages of exactly `size` from the end; the head keeps 1 to size items; nothing is lost", () => {
    for (let n = 1; n <= 40; n++)
      for (const size of [1, 2, 3, 7, 10]) {
        const { head, pages } = paginate(items(n, Math.floor(n / 3)), size, done);
        expect(head.length).toBeGreaterThanOrEqual(1);
        expect(head.length).toBeLessThanOrEqual(size);
        for (const p of pages) expect(p).toHaveLength(size);
        const all = [head, ...[...pages].reverse()].flat().map((i) => i.id);
        expect(all.sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
      }
  });

  it("puts unfinished items first, so finished ones fill the numbered pages from the oldest", () => {
    // A list in its order with an unfinished item among finished ones (a long event).
    const list: Item[] = [
      { id: 1, done: false },
      { id: 2, done: true },
      { id: 3, done: false },
      { id: 4, done: true },
      { id: 5, done: true },
    ];
    const { head, pages } = paginate(list, 2, done);
    expect(head.map((i) => i.id)).toEqual([1]);
    expect(pages.map((p) => p.map((i) => i.id))).toEqual([
      [4, 5],
      [3, 2],
    ]);
  });

  it("keeps every numbered page when a tournament finishes or a new one arrives at the head", () => {
    const size = 3;
    // 3 unfinished at the front, 12 finished: the head (3 items) holds the unfinished ones.
    const before = items(15, 3);
    const p0 = paginate(before, size, done);
    expect(p0.head.every((i) => !i.done)).toBe(true);
    // The last unfinished one finishes; it is the newest finished one: the head's end.
    const finishing = before.map((i) => (i.id === 2 ? { ...i, done: true } : i));
    expect(paginate(finishing, size, done).pages).toEqual(p0.pages);
    // While unfinished ones spill out of a small head, only the pages holding them change.
    const spill = paginate(items(13, 4), size, done);
    const spillNext = paginate(
      items(13, 4).map((i) => (i.id === 3 ? { ...i, done: true } : i)),
      size,
      done,
    );
    expect(spillNext.pages.slice(0, 3)).toEqual(spill.pages.slice(0, 3));
    expect(spillNext.pages[3]).not.toEqual(spill.pages[3]);
    // A new unfinished tournament arrives at the front, and later one more.
    const grown = [{ id: 99, done: false }, ...before];
    expect(paginate(grown, size, done).pages.slice(0, p0.pages.length)).toEqual(p0.pages);
  });

  it("refuses a page size that is not a positive integer", () => {
    expect(() => paginate([], 0, done)).toThrow(/page size/);
    expect(() => paginate([], 1.5, done)).toThrow(/page size/);
  });
});

describe("pageLinks", () => {
  const base = "/api/public/v1/tournaments";
  const url = (n: number): string => (n === 0 ? base : `${base}/page/${n}`);
  it("links the head to the newest numbered page and to page 1 as the last", () => {
    expect(pageLinks(url, 0, 3)).toBe(
      `<${base}>; rel="first", <${base}/page/3>; rel="next", <${base}/page/1>; rel="last"`,
    );
  });
  it("goes from page k back to the head, and towards page 1", () => {
    expect(pageLinks(url, 3, 3)).toBe(
      `<${base}>; rel="first", <${base}>; rel="prev", <${base}/page/2>; rel="next", <${base}/page/1>; rel="last"`,
    );
    expect(pageLinks(url, 1, 3)).toBe(
      `<${base}>; rel="first", <${base}/page/2>; rel="prev", <${base}/page/1>; rel="last"`,
    );
  });
});

describe("pageShape and firstChangedPage (what a tick renders of a changed list)", () => {
  it("cut as paginate does", () => {
    for (let n = 0; n <= 12; n++)
      for (const size of [1, 2, 5]) {
        const { head, pages } = paginate(
          Array.from({ length: n }, (_, i) => i),
          size,
          () => true,
        );
        expect(pageShape(n, size)).toEqual({ k: pages.length, headSize: head.length });
      }
  });

  it("keep the pages made of the unchanged tail, and re-render from the oldest page whose links change", () => {
    // 9 items at size 2: head 1, pages 4..1. A change above the last 6 items: pages 3.. render.
    expect(firstChangedPage({ before: 9, after: 9, sameTail: 6 }, 2)).toBe(4);
    expect(firstChangedPage({ before: 9, after: 9, sameTail: 5 }, 2)).toBe(3);
    // Only the head changes (the change sits above every numbered page): k + 1.
    expect(firstChangedPage({ before: 9, after: 9, sameTail: 8 }, 2)).toBe(5);
    // 11 items make page 5: pages 4 (its "prev" is no longer the head) and 5 render.
    expect(firstChangedPage({ before: 10, after: 11, sameTail: 10 }, 2)).toBe(4);
    // A list that fits one page is in list order: crossing that line renders every page.
    expect(firstChangedPage({ before: 2, after: 3, sameTail: 2 }, 2)).toBe(1);
    expect(firstChangedPage({ before: 3, after: 2, sameTail: 0 }, 2)).toBe(1);
  });
});
