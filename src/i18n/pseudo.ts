// The pseudo-locale (en-XA): every English text accented, made about 40% longer (in words of five tildes) and wrapped in
// right-to-left marks, so a test sees at once a text that is not in a catalog (it reads plain),
// a layout that breaks under longer words (German and French run long) and markup that mangles
// bidirectional text. Placeholders are kept as they are.
import type { Catalog, Plural } from "./catalog.ts";
import type { en } from "./en.ts";

const ACCENTED: Readonly<Record<string, string>> = Object.fromEntries(
  [..."abcdeghiklnorstuyzABCDEGHIKLNORSTUYZ"].map((c, i) => [c, "áƀçđéĝĥíķĺñóŕšţúýžÁƁÇĐÉĜĤÍĶĹÑÓŔŠŢÚÝŽ"[i]!]),
);
const RLM = "\u200f";

function pseudoText(text: string): string {
  // Placeholders and the text between them, alternately: only the text is changed.
  const parts = text.split(/(\{\w+\})/);
  const body = parts.map((p, i) => (i % 2 === 1 ? p : [...p].map((c) => ACCENTED[c] ?? c).join(""))).join("");
  // Padding in words of five, as a language that runs longer has more words, not one endless one.
  const pad = "~~~~~ ".repeat(Math.ceil((text.length * 0.4) / 6)).trimEnd();
  return `${RLM}[${body} ${pad}]${RLM}`;
}

export function pseudo(source: typeof en): Catalog {
  return Object.fromEntries(
    Object.entries(source).map(([k, v]) => [
      k,
      typeof v === "string"
        ? pseudoText(v)
        : Object.fromEntries(Object.entries(v as Plural).map(([f, s]) => [f, pseudoText(s!)])),
    ]),
  ) as unknown as Catalog;
}
