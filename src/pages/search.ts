// The search with no server (issue 47): names folded to words, the index page's search form and
// the small script that reads the static index. The index is a root file naming its sections by
// their first key (`/search/root.json`: {"sections": ["", "kar.p1503014", ...]}), each section
// naming its chunks the same way (`/search/s-<bound>.json`), and the chunks, each the sorted items
// [word, kind, id, name] of one range of keys (`/search/w-<bound>.json`), fetched on demand as
// Pagefind fetches its index chunks: a query reads the root, one section and the one chunk its
// longest word falls in, never the whole index. render/search.ts keeps them;
// scripts/search-size.ts measures them at XL.
import type { Locale } from "../i18n/locale.ts";
import { pageSitePath, SEARCH_ROOT_PATH } from "../routes/urls.ts";
import { esc } from "./html.ts";
import type { SiteUrls } from "./links.ts";

/** Letters that Unicode does not decompose into a base letter and a mark. */
const FOLDS: Record<string, string> = {
  ø: "o",
  ł: "l",
  ß: "ss",
  æ: "ae",
  œ: "oe",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};

/** A name's words as the index keys them: lower case, marks stripped, letters (any script) and digits. */
export function foldWords(name: string): string[] {
  const folded = name
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[øłßæœđðþı]/g, (c) => FOLDS[c]!);
  return [...new Set(folded.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== ""))];
}

/** A chunk's file name from its bound: letters outside a-z as `_<hex code point>_`. */
export function chunkName(bound: string): string {
  return bound.replace(/[^a-z0-9.]/gu, (c) => `_${c.codePointAt(0)!.toString(16)}_`);
}

/** The script's own copy of foldWords (a test holds the two to the same words). */
export const FOLD_JS = `function fold(s){var m={"ø":"o","ł":"l","ß":"ss","æ":"ae","œ":"oe","đ":"d","ð":"d","þ":"th","ı":"i"};
return s.toLowerCase().normalize("NFD").replace(/\\p{M}/gu,"").replace(/[øłßæœđðþı]/g,function(c){return m[c];})
.split(/[^\\p{L}\\p{N}]+/u).filter(function(w,i,a){return w!==""&&a.indexOf(w)===i;});}
function chunkName(b){return b.replace(/[^a-z0-9.]/gu,function(c){return "_"+c.codePointAt(0).toString(16)+"_";});}`;

/** The site path of the search script. */
export const SEARCH_JS_PATH = "/assets/search.js";

/**
 * The script: reads the root once, then for a query the section and the chunk holding its longest
 * word's first key (and no other: a word whose items span more chunks shows the first ones and
 * says so), and
 * keeps the items whose name has a word starting with each word of the query.
 */
export const SEARCH_JS = `(function(){"use strict";
${FOLD_JS}
var form=document.getElementById("search");if(!form||!window.fetch)return;
var input=form.querySelector("input"),out=document.getElementById("search-results"),d=form.dataset,root=null,cache={};
form.hidden=false;
function json(u){return fetch(u).then(function(r){if(!r.ok)throw new Error(r.status);return r.json();});}
function chunkOf(bounds,w){var lo=0,hi=bounds.length-1;while(lo<hi){var mid=(lo+hi+1)>>1;if(bounds[mid]<=w)lo=mid;else hi=mid-1;}return lo;}
function show(items,more){out.textContent="";if(!items.length){out.textContent=d.none;return;}
var ul=document.createElement("ul");items.forEach(function(it){var li=document.createElement("li"),a=document.createElement("a");
a.href=it[1]==="t"?d.tournament.replace("{id}",it[2]):d.player.replace("{id}",it[2]);a.textContent=it[3];
li.appendChild(a);li.appendChild(document.createTextNode(" · "+(it[1]==="t"?d.kindT:d.kindP)));ul.appendChild(li);});
out.appendChild(ul);if(more){var p=document.createElement("p");p.textContent=d.more;out.appendChild(p);}}
function run(){var words=fold(input.value);if(!words.length){out.textContent="";return;}
var w=words.reduce(function(a,b){return b.length>a.length?b:a;});if(w.length<2){out.textContent=d.short;return;}
function get(u){return cache[u]||(cache[u]=json(u));}
(root?Promise.resolve(root):json(d.root).then(function(r){return root=r;})).then(function(r){
var S=r.sections,j=chunkOf(S,w);return get(d.section.replace("{bound}",chunkName(S[j]))).then(function(s){
var b=s.chunks,i=chunkOf(b,w),next=i+1<b.length?b[i+1]:j+1<S.length?S[j+1]:null;
var more=next!==null&&next.slice(0,w.length)===w;
return get(d.chunk.replace("{bound}",chunkName(b[i]))).then(function(c){var seen={},found=[];
c.items.forEach(function(it){var k=it[1]+it[2];if(seen[k])return;var nw=fold(it[3]);
if(words.every(function(q){return nw.some(function(x){return x.slice(0,q.length)===q;});})){seen[k]=1;found.push(it);}});
show(found.slice(0,50),more||found.length>50);});});}).catch(function(){out.textContent=d.none;});}
var timer;input.addEventListener("input",function(){clearTimeout(timer);timer=setTimeout(run,150);});
form.addEventListener("submit",function(e){e.preventDefault();run();});})();
`;

/** The index page's search form: hidden until the script runs, so without it the list stays alone. */
export function searchForm(l: Locale, urls: SiteUrls): string {
  const data: [string, string][] = [
    ["root", urls.file(SEARCH_ROOT_PATH)],
    ["section", urls.file("/search/s-{bound}.json")],
    ["chunk", urls.file("/search/w-{bound}.json")],
    ["tournament", urls.page.tournament("{id}")],
    ["player", urls.file(pageSitePath("fidePlayerPage", { fideId: "{id}" }))],
    ["none", l.t("search.none")],
    ["more", l.t("search.more")],
    ["short", l.t("search.short")],
    ["kind-t", l.t("search.tournament")],
    ["kind-p", l.t("search.player")],
  ];
  return (
    `<form id="search" role="search" hidden ${data.map(([k, v]) => `data-${k}="${esc(v)}"`).join(" ")}>` +
    `<label for="search-q">${esc(l.t("search.label"))}</label> <input id="search-q" type="search" autocomplete="off"> ` +
    `<button type="submit">${esc(l.t("search.button"))}</button></form>\n<div id="search-results" aria-live="polite"></div>\n` +
    `<script src="${esc(urls.file(SEARCH_JS_PATH))}" defer></script>\n`
  );
}
