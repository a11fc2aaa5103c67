// The two static assets of the pages: one stylesheet (mobile first, dark mode through
// prefers-color-scheme) and the small script that refreshes the live page from /live. The script
// is the same in every language: it takes its words from the live section's data-words, which the
// page writes from its catalog (pages/tournament.ts).

/** JSON with every non-ASCII character escaped: a script reads the same whatever charset the
 * including page declares. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export const SITE_CSS = `:root{--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--zebra:#f6f8fa;--accent:#0a5c36;--on-accent:#fff;--link:#0550ae;--live:#b3261e;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--zebra:#161b22;--accent:#3fb97d;--on-accent:#0d1117;--link:#79b8ff;--live:#ff7b72}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:break-word}
a{color:var(--link)}
a:focus-visible,.scroll:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;background:var(--bg);padding:.25rem .5rem}
header.site,footer.site{padding:.5rem 1rem;border-bottom:1px solid var(--line)}
footer.site{border:0;border-top:1px solid var(--line);color:var(--muted);font-size:.875rem;margin-top:2rem}
.home{font-weight:700;text-decoration:none}
main{padding:0 1rem;max-width:72rem;margin:0 auto}
h1{font-size:1.5rem;line-height:1.25;margin:.75rem 0 .25rem}
h2{font-size:1.2rem;margin:1.25rem 0 .5rem}
hgroup p{margin:0;color:var(--muted)}
.crumbs ol,.tabs ul,.pager ul,.filter ul,.rounds{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.25rem .75rem}
.crumbs{font-size:.875rem}.crumbs li+li::before{content:"/";margin-right:.75rem;color:var(--muted)}
.tabs ul{border-bottom:1px solid var(--line);gap:0}.tabs a{display:block;padding:.5rem .75rem;text-decoration:none}
.tabs a[aria-current]{border-bottom:3px solid var(--accent);font-weight:600}
.pager a,.filter a{display:inline-block;min-width:2.75rem;padding:.375rem .625rem;border:1px solid var(--line);border-radius:1rem;text-align:center;text-decoration:none}
.pager a[aria-current]{background:var(--accent);color:var(--on-accent);border-color:var(--accent)}
.rounds a{display:inline-block;padding:.375rem 0}
.scroll{overflow-x:auto;margin:.5rem 0}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{padding:.375rem .3rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{background:var(--zebra);font-size:.875rem;white-space:nowrap}
tbody th{font-weight:400}
tbody tr:nth-child(even){background:var(--zebra)}
.standings td,.standings thead th:not(:nth-child(2)){text-align:right}
.pts{font-weight:700}
.games .result{text-align:center;white-space:nowrap;font-weight:600}
.result-Pending{color:var(--muted)}
.meta{display:block;color:var(--muted);font-size:.8125rem}
.games tbody th{width:2.5rem}
.games{font-size:.9375em}.games td{overflow-wrap:anywhere}
.title{font-weight:700;color:var(--accent);text-decoration:none}
abbr[title]{text-decoration:underline dotted;cursor:help}
.title[title]{text-decoration:none}
.status{display:inline-block;padding:0 .5rem;border-radius:1rem;border:1px solid var(--line);font-size:.8125rem;white-space:nowrap}
.status-Live{border-color:var(--live);color:var(--live);font-weight:700}
.tag{display:inline-block;padding:0 .375rem;border-radius:.25rem;background:var(--zebra);border:1px solid var(--line);font-size:.8125rem}
.facts,.legend{display:grid;grid-template-columns:fit-content(40%) minmax(0,1fr);gap:.25rem 1rem;margin:0}
.facts dt,.legend dt{font-weight:600}.facts dd,.legend dd{margin:0;overflow-wrap:anywhere}
.recap{border-top:1px solid var(--line);padding-top:.5rem}
.recap .kind{margin:0;color:var(--muted);font-size:.875rem;text-transform:uppercase;letter-spacing:.04em}
.lead{font-weight:600}
.updated,.note,.state{color:var(--muted);font-size:.875rem}
.anchor{display:block;height:0}
@media (min-width:48rem){body{font-size:17px}h1{font-size:2rem}main{padding:0 2rem}th,td{padding:.375rem .5rem}.games{font-size:inherit}.player .meta{display:inline;margin-left:.25rem}}
`;

/** Refreshes the live page: fetches /live every max-age seconds while the tab is visible, and
 * rebuilds the games table with the same labels and player links as the pre-rendered one (DOM
 * text only), in the page's language and time zone (the section's data-words). */
export const SITE_JS = `(function(){"use strict";
var box=document.querySelector("[data-live-url]");
if(!box||box.getAttribute("data-status")!=="Live")return;
var W={};try{W=JSON.parse(box.getAttribute("data-words")||"{}")}catch(e){}
var LABEL=W.label||{},TITLE=W.title||{};
var url=box.getAttribute("data-live-url"),every=Number(box.getAttribute("data-refresh"))||30,round=box.getAttribute("data-round"),cards=box.getAttribute("data-players-url")||"";
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=String(text);return e}
function when(iso){try{return new Intl.DateTimeFormat(W.locale,{day:"numeric",month:"short",year:"numeric",hour:"2-digit",minute:"2-digit",hourCycle:"h23",timeZone:W.timeZone||"UTC",timeZoneName:"short"}).format(new Date(iso))}catch(e){return iso.slice(0,10)+" "+iso.slice(11,16)+" UTC"}}
function player(p,empty){var td=el("td",p?"player":"player none",p?null:empty);if(!p)return td;
td.setAttribute("data-player",String(p.sourcePlayerNumber));
if(p.title){var a=el("abbr","title",p.title);a.title=p.title;td.appendChild(a);td.appendChild(document.createTextNode(" "))}
var a2=el("a","name",p.name);a2.href=cards+"#player-"+p.sourcePlayerNumber;td.appendChild(a2);
var meta=[p.federation,p.rating].filter(function(x){return x!==null}).join(" ");
if(meta){td.appendChild(document.createTextNode(" "));td.appendChild(el("span","meta",meta))}return td}
function render(r){var tb=box.querySelector("tbody");if(!tb)return;var rows=document.createDocumentFragment();
r.games.forEach(function(g){var tr=el("tr");var th=el("th",null,g.board);th.scope="row";tr.appendChild(th);
tr.appendChild(player(g.white,""));
var res=el("td","result result-"+g.result,g.result==="Bye"&&g.resultText?g.resultText:LABEL[g.result]);
if(TITLE[g.result])res.title=TITLE[g.result];tr.appendChild(res);
tr.appendChild(player(g.black,g.isBye?W.bye:""));rows.appendChild(tr)});
tb.replaceChildren(rows);
var st=box.querySelector(".state");
if(st){st.textContent=(r.isComplete?W.complete:W.inPlay)+" ";
var parts=String(W.updated||"{time}").split("{time}"),stamp=el("span","stamp",parts[0]);
var t=el("time",null,when(r.lastScrapedAt));t.dateTime=r.lastScrapedAt;stamp.appendChild(t);
if(parts[1])stamp.appendChild(document.createTextNode(parts[1]));st.appendChild(stamp)}}
function refresh(){return fetch(url,{headers:{Accept:"application/json"}}).then(function(res){
if(!res.ok)throw new Error("HTTP "+res.status);return res.json()}).then(function(r){
if(String(r.roundNumber)!==round){location.reload();return}render(r)}).catch(function(){})}
window.buildApiLive={refresh:refresh};
setInterval(function(){if(!document.hidden)refresh()},every*1000)})();
`;
