// Just enough of a DOM over parse5's tree for the page tests: strict parsing (every parse error
// of the HTML standard is collected), element search by tag and attribute, text content.
import { parse } from "parse5";

export interface Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
}

export function parseStrict(html: string): { doc: Node; errors: string[] } {
  const errors: string[] = [];
  const doc = parse(html, {
    sourceCodeLocationInfo: true,
    onParseError: (e) => errors.push(`${e.code} at line ${e.startLine}, column ${e.startCol}`),
  }) as unknown as Node;
  return { doc, errors };
}

export function attr(n: Node, name: string): string | undefined {
  return n.attrs?.find((a) => a.name === name)?.value;
}

export function elements(n: Node, pred: (e: Node) => boolean = () => true, out: Node[] = []): Node[] {
  for (const c of n.childNodes ?? []) {
    if (c.tagName && pred(c)) out.push(c);
    elements(c, pred, out);
  }
  if (n.content) elements(n.content, pred, out);
  return out;
}

export function byTag(n: Node, tag: string): Node[] {
  return elements(n, (e) => e.tagName === tag);
}

export function hasClass(n: Node, cls: string): boolean {
  return (attr(n, "class") ?? "").split(/\s+/).includes(cls);
}

export function text(n: Node): string {
  if (n.nodeName === "#text") return n.value ?? "";
  return (n.childNodes ?? []).map(text).join("");
}
