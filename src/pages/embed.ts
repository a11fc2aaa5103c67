// The club embed: a custom element <build-api-embed> that a club website on another origin
// includes with one script tag. It reads the club endpoints cross-origin (they send
// Access-Control-Allow-Origin: *), renders into a shadow root (no style leaks either way) and
// takes the host page's font and the club's brandColor through CSS custom properties:
//   --build-api-brand     header colour (default: the club's brandColor)
//   --build-api-on-brand  text on the header (default #fff)
//   --build-api-font      font family (default: inherited from the host page)
// Attributes: club (slug, required), view = catalog | standings | round | crosstable | player | teams
// (default catalog), tournament (id, for every view but catalog), player (source player number,
// for player), tag (catalog filter), api (snapshot origin; default the origin the script was
// loaded from). The crosstable and player views read the club surface's extension endpoints
// (issue 22: /crosstable and /players, one file with every card), so they work for a tournament
// only the club publishes; teams (a team event's standings) reads /teams/standings (issue 46).
// Every value is put in the DOM as text, never as markup.
// Language: the club's defaultLanguage (from its catalog answer), with no option; instants in the
// club's timeZone (else UTC). The script carries the words of every catalog language (EMBED_KEYS
// and the tables of format.ts), picks one once the catalog is read and sets `lang` on its root.
import type { MessageKey } from "../i18n/catalog.ts";
import { LANGUAGES, type Language } from "../i18n/languages.ts";
import { localeOf } from "../i18n/locale.ts";
import { asciiJson } from "./assets.ts";
import { wordsOf } from "./format.ts";
import { aloneLabels, OUTCOME_SYMBOL } from "./extensions.ts";
import { LIVE_REFRESH_SECONDS } from "./tournament.ts";

/** The catalog messages the embed prints. */
export const EMBED_KEYS = [
  "embed.results",
  "embed.failed",
  "embed.tournaments",
  "embed.tagged",
  "embed.none",
  "embed.noRound",
  "embed.updated",
  "embed.tournamentN",
  "teams.team",
  "teams.mp",
  "teams.mpTitle",
  "teams.gp",
  "teams.gpTitle",
  "teams.after",
  "index.tournament",
  "index.dates",
  "index.round",
  "index.status",
  "col.rank",
  "col.player",
  "col.points",
  "col.board",
  "col.white",
  "col.result",
  "col.black",
  "col.number",
  "col.roundShort",
  "col.round",
  "col.colour",
  "col.opponent",
  "col.score",
  "standings.after",
  "round.of",
  "round.title",
  "result.bye",
  "colour.white",
  "colour.black",
  "colour.whiteLetter",
  "colour.blackLetter",
  "crosstable.title",
  "crosstable.afterShort",
  "card.performanceLine",
  "card.changeLine",
  "tiebreak.modified",
  "tiebreak.sourceNumbered",
  "tiebreak.sourceNamed",
] as const satisfies readonly MessageKey[];

/** The words of one language as the embed reads them. */
export function embedWords(language: Language): Record<string, unknown> {
  const l = localeOf(language);
  const w = wordsOf(l);
  return {
    intl: l.intl,
    label: w.resultLabel,
    rtitle: w.resultTitle,
    status: w.status,
    tb: w.tiebreak,
    mod: w.modifier,
    alone: aloneLabels(l),
    m: Object.fromEntries(EMBED_KEYS.map((k) => [k, l.t(k)])),
  };
}

const WORDS = Object.fromEntries(LANGUAGES.map((code) => [code, embedWords(code)]));

export const EMBED_PATH = "embed/build-api-embed.js";

const CSS = `:host{display:block;font-family:var(--build-api-font,inherit);color:inherit;--b:var(--build-api-brand,var(--build-api-club-brand,#3a5a80));--l:color-mix(in srgb,currentColor 18%,transparent)}
:host([hidden]){display:none}
.box{border:1px solid var(--l);border-radius:.5em;overflow:hidden}
h2{margin:0;padding:.5em .75em;font-size:1.1em;line-height:1.3;background:var(--b);color:var(--build-api-on-brand,#fff)}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
caption{text-align:left;padding:.4em .75em;font-weight:600}
th,td{padding:.3em .6em;text-align:left;border-top:1px solid var(--l);vertical-align:top}
thead th{font-size:.85em;white-space:nowrap}
tbody th{font-weight:400}
.n{text-align:right}
.r{text-align:center;font-weight:600;white-space:nowrap}
.m{opacity:.75;font-size:.85em}
.t{font-weight:700;color:var(--b);text-decoration:none}
abbr[title]{text-decoration:underline dotted}
.s{font-size:.8em;border:1px solid currentColor;border-radius:1em;padding:0 .45em;white-space:nowrap}
p{margin:0;padding:.5em .75em}
.f{font-size:.75em;opacity:.75;border-top:1px solid var(--l)}
.pn{font:inherit;color:inherit;background:none;border:0;padding:0;text-align:inherit;text-decoration:underline;cursor:pointer}`;

/** The element's source: plain ES2017 served as a classic script (no modules, no framework). */
export const EMBED_JS = `/* build-api club embed: <build-api-embed club="slug" view="catalog|standings|round" tournament="id"> */
(function(){"use strict";
if(!window.customElements||customElements.get("build-api-embed"))return;
var WORDS=${asciiJson(WORDS)},EVERY=${LIVE_REFRESH_SECONDS},SYM=${asciiJson(OUTCOME_SYMBOL)};
/* The words of the language in use (W), set from the club's defaultLanguage once its catalog is read. */
var W=WORDS.en,LANG="en",TZ="UTC";
function use(c){var d=String(c&&c.defaultLanguage||""),b=d.split(/[-_]/)[0].toLowerCase();LANG=WORDS[d]?d:WORDS[b]?b:"en";W=WORDS[LANG];
TZ=c&&c.timeZone||"UTC";try{new Intl.DateTimeFormat("en",{timeZone:TZ})}catch(e){TZ="UTC"}}
function t(k,p){return String(W.m[k]).replace(/\\{(\\w+)\\}/g,function(w,n){return p&&p[n]!=null?String(p[n]):w})}
function dec(v){var s=String(v);if(!/^-?\\d+\\.\\d+$/.test(s))return s;var x=new Intl.NumberFormat(W.intl).formatToParts(1.5).filter(function(q){return q.type==="decimal"})[0];return s.replace(".",x?x.value:".")}
function stamp(iso){return new Intl.DateTimeFormat(W.intl,{day:"numeric",month:"short",year:"numeric",hour:"2-digit",minute:"2-digit",hourCycle:"h23",timeZone:TZ,timeZoneName:"short"}).format(new Date(iso))}
var CSS=${asciiJson(CSS)};
/* A constructed stylesheet: a host page whose CSP forbids inline styles still styles the embed.
   Browsers without it get a <style> element (which such a CSP would block). */
var SHEET=null;
function sheet(root){if("adoptedStyleSheets" in root&&typeof CSSStyleSheet==="function"){try{if(!SHEET){SHEET=new CSSStyleSheet();SHEET.replaceSync(CSS)}
root.adoptedStyleSheets=[SHEET];return []}catch(e){}}return [el("style",null,[CSS])]}
var me=document.currentScript,BASE=me&&me.src?new URL("../",me.src).href:location.origin+"/";
function el(tag,attrs,kids){var e=document.createElement(tag);if(attrs)for(var k in attrs)if(attrs[k]!=null)e.setAttribute(k,String(attrs[k]));
(kids||[]).forEach(function(c){if(c!=null)e.appendChild(typeof c==="object"?c:document.createTextNode(String(c)))});return e}
function pts(p){if(p==null)return "";var w=Math.trunc(p),f=Math.abs(p-w);if(f===0.5)return (w===0?(p<0?"\\u2212":""):w)+"\\u00bd";return String(p)}
function has(o,k){return Object.prototype.hasOwnProperty.call(o,k)}
function tbTitle(l){var a=l.split("-"),n=has(W.tb,a[0])?W.tb[a[0]]:null;if(n)return a[1]&&has(W.mod,a[1])?t("tiebreak.modified",{name:n,modifier:W.mod[a[1]]}):n;
var m=/^TB(\\d+)$/.exec(l);return m?t("tiebreak.sourceNumbered",{n:m[1]}):t("tiebreak.sourceNamed",{label:l})}
/* Calendar dates have no zone: formatted as UTC midnights. */
function dates(a,b){if(!a&&!b)return "";var f=new Intl.DateTimeFormat(W.intl,{day:"numeric",month:"short",year:"numeric",timeZone:"UTC"}),
u=function(d){return Date.parse(d+"T00:00:00Z")};if(!a||!b||a===b)return f.format(u(a||b));return f.formatRange?f.formatRange(u(a),u(b)):f.format(u(a))+" \\u2013 "+f.format(u(b))}
function seg(v){return encodeURIComponent(String(v))}
/* A player's name leads to their games: a button that switches the embed to the player view. */
function pname(host,n,name){var b=el("button",{type:"button","class":"pn","data-player":n},[name]);
b.addEventListener("click",function(){host.setAttribute("player",String(n));host.setAttribute("view","player")});return b}
function who(host,p,empty){if(!p)return el("td",null,[empty]);
var meta=[p.federation,p.rating].filter(function(x){return x!=null}).join(" ");
return el("td",null,[p.title?el("abbr",{"class":"t",title:p.title},[p.title]):null,p.title?" ":null,pname(host,p.sourcePlayerNumber,p.name),meta?" ":null,meta?el("span",{"class":"m"},[meta]):null])}
function table(caption,heads,rows){return el("div",{"class":"scroll"},[el("table",null,[el("caption",null,[caption]),
el("thead",null,[el("tr",null,heads.map(function(h){return typeof h==="object"?h:el("th",{scope:"col"},[h])}))]),el("tbody",null,rows)])])}
function num(v){return el("td",{"class":"n"},[v])}
function nh(t){return el("th",{scope:"col","class":"n"},[t])}
class BuildApiEmbed extends HTMLElement{
static get observedAttributes(){return["club","view","tournament","player","tag","api"]}
constructor(){super();this.root=this.attachShadow({mode:"open"});this.timer=0}
connectedCallback(){this.schedule()}
disconnectedCallback(){clearTimeout(this.timer)}
attributeChangedCallback(){this.schedule()}
schedule(){var self=this;if(this.pending)return;this.pending=true;
Promise.resolve().then(function(){self.pending=false;if(self.isConnected)self.load()})}
api(){return (this.getAttribute("api")||BASE).replace(/\\/?$/,"/")}
get(path){return fetch(this.api()+path,{headers:{Accept:"application/json"}}).then(function(r){if(!r.ok)throw new Error("HTTP "+r.status+" for "+path);return r.json()})}
show(title,body,foot){this.setAttribute("lang",LANG);var box=el("div",{"class":"box",part:"box",lang:LANG},[el("h2",{part:"title"},[title])].concat(body).concat([el("p",{"class":"f"},[foot])]));
this.root.replaceChildren.apply(this.root,sheet(this.root).concat([box]));this.setAttribute("data-ready","")}
brand(cat){var c=cat&&cat.brandColor;if(c&&/^#[0-9a-fA-F]{3,8}$/.test(c))this.style.setProperty("--build-api-club-brand",c)}
load(){var self=this,slug=this.getAttribute("club"),view=this.getAttribute("view")||"catalog",id=this.getAttribute("tournament"),tag=this.getAttribute("tag");
clearTimeout(this.timer);this.removeAttribute("data-ready");
if(!slug||!/^[a-z0-9-]+$/.test(slug))return this.fail(new Error("the club attribute must be a club slug"));
if(view!=="catalog"&&!(id&&/^[0-9]+$/.test(id)))return this.fail(new Error("the tournament attribute must be a tournament id"));
var pl=this.getAttribute("player");
if(view==="player"&&!(pl&&/^[0-9]+$/.test(pl)))return this.fail(new Error("the player attribute must be a player number"));
var base="api/clubs/"+seg(slug)+"/tournaments",ext=base+"/"+seg(id);
var catalog=this.get(base+(tag&&view==="catalog"?"?tag="+seg(tag):""));
var work=view==="standings"?Promise.all([catalog,this.get(base+"/"+seg(id)+"/standings")]).then(function(x){use(x[0]);self.brand(x[0]);self.standings(x[0],x[1])}):
view==="round"?Promise.all([catalog,this.get(base+"/"+seg(id)+"/live")]).then(function(x){use(x[0]);self.brand(x[0]);self.round(x[0],x[1])}):
view==="crosstable"?Promise.all([catalog,this.get(ext+"/crosstable")]).then(function(x){use(x[0]);self.brand(x[0]);self.crosstable(x[0],x[1],id)}):
view==="teams"?Promise.all([catalog,this.get(ext+"/teams/standings")]).then(function(x){use(x[0]);self.brand(x[0]);self.teams(x[0],x[1],id)}):
view==="player"?Promise.all([catalog,this.get(ext+"/players")]).then(function(x){use(x[0]);self.brand(x[0]);
var p=x[1].players.filter(function(q){return String(q.sourcePlayerNumber)===pl})[0];if(!p)throw new Error("no player "+pl+" in this tournament");self.player(x[0],p,id)}):
catalog.then(function(c){use(c);self.brand(c);self.catalog(c)});
work.catch(function(e){self.fail(e)})}
fail(e){this.show(t("embed.results"),[el("p",{role:"alert"},[t("embed.failed",{reason:e.message})])],"")}
catalog(c){var rows=c.tournaments.map(function(e){var t=e.tournament;
return el("tr",{"data-id":t.tournamentId},[el("th",{scope:"row"},[t.name,t.location?el("div",{"class":"m"},[t.location]):null]),
el("td",null,[dates(t.startDate,t.endDate)]),num(t.currentRound==null?"\\u2013":t.currentRound+(t.totalRounds?" / "+t.totalRounds:"")),
el("td",null,[el("span",{"class":"s"},[W.status[t.status]||t.status])])])});
var tag=this.getAttribute("tag");
this.show(c.name,[rows.length?table(tag?t("embed.tagged",{tag:tag}):t("embed.tournaments"),[t("index.tournament"),t("index.dates"),nh(t("index.round")),t("index.status")],rows):el("p",null,[t("embed.none")])],c.name)}
standings(c,s){var self=this;var heads=[nh(t("col.rank")),t("col.player"),nh(t("col.points"))].concat(s.tieBreakLabels.map(function(l){return el("th",{scope:"col","class":"n"},[el("abbr",{title:tbTitle(l)},[l])])}));
var rows=s.rows.map(function(r){return el("tr",{"data-player":r.sourcePlayerNumber},[num(r.rank),
el("th",{scope:"row"},[r.title?el("abbr",{"class":"t",title:r.title},[r.title]):null,r.title?" ":null,pname(self,r.sourcePlayerNumber,r.name),r.federation?" ":null,r.federation?el("span",{"class":"m"},[r.federation]):null]),
el("td",{"class":"n","data-points":r.points},[pts(r.points)])].concat(r.tieBreakValues.map(function(v){return num(dec(v))})))});
var cap=s.afterRound==null?t("embed.noRound"):t("standings.after",{n:s.afterRound});
this.show(s.tournamentName,[rows.length?table(cap,heads,rows):el("p",null,[cap])],c.name+" \\u00b7 "+t("embed.updated",{time:stamp(s.lastUpdatedAt)}))}
round(c,r){var self=this;var rows=r.games.map(function(g){var res=g.result==="Bye"&&g.resultText?g.resultText:W.label[g.result];
return el("tr",null,[el("th",{scope:"row"},[g.boardNumber]),who(self,g.white,""),el("td",{"class":"r",title:W.rtitle[g.result]},[res]),who(self,g.black,g.result==="Bye"?t("result.bye"):"")])});
this.show(r.tournamentName,[table((r.totalRounds?t("round.of",{n:r.roundNumber,total:r.totalRounds}):t("round.title",{n:r.roundNumber}))+" \\u00b7 "+(W.status[r.status]||r.status),[t("col.board"),t("col.white"),t("col.result"),t("col.black")],rows)],
c.name+" \\u00b7 "+t("embed.updated",{time:stamp(r.lastUpdatedAt)}));
if(r.status==="Live")this.timer=setTimeout(function(){if(self.isConnected)self.load()},EVERY*1000)}}
function tname(c,id){var e=c.tournaments.filter(function(x){return String(x.tournament.tournamentId)===id})[0];return e?e.tournament.name:t("embed.tournamentN",{id:id})}
BuildApiEmbed.prototype.teams=function(c,s,id){var heads=[nh(t("col.rank")),t("teams.team"),el("th",{scope:"col","class":"n"},[el("abbr",{title:t("teams.mpTitle")},[t("teams.mp")])]),
el("th",{scope:"col","class":"n"},[el("abbr",{title:t("teams.gpTitle")},[t("teams.gp")])])].concat(s.tieBreakLabels.map(function(l){return el("th",{scope:"col","class":"n"},[l])}));
var rows=s.rows.map(function(r){return el("tr",{"data-team":r.teamNumber},[num(r.tiedWithPrevious?"":r.rank),el("th",{scope:"row"},[r.name]),
el("td",{"class":"n"},[pts(r.matchPoints)]),el("td",{"class":"n"},[pts(r.gamePoints)])].concat(r.tieBreakValues.map(function(v){return num(dec(v))})))});
var cap=s.afterRound==null?t("embed.noRound"):t("teams.after",{n:s.afterRound});
this.show(tname(c,id),[rows.length?table(cap,heads,rows):el("p",null,[cap])],c.name)};
BuildApiEmbed.prototype.crosstable=function(c,x,id){var self=this,line={};x.rows.forEach(function(r,i){line[r.sourcePlayerNumber]=i+1});
var heads=[nh(t("col.number")),nh(t("col.rank")),t("col.player")].concat(x.rounds.map(function(n){return nh(t("col.roundShort",{n:n}))})).concat([nh(t("col.points"))]);
var rows=x.rows.map(function(r,i){return el("tr",{"data-player":r.sourcePlayerNumber},[num(i+1),num(r.rank==null?"":r.rank),
el("th",{scope:"row"},[r.title?el("abbr",{"class":"t",title:r.title},[r.title]):null,r.title?" ":null,pname(self,r.sourcePlayerNumber,r.name)])].concat(r.games.map(function(g){
return el("td",{"class":"r","data-opponent":g.opponent},[g.opponent==null?(W.alone[g.outcome]||""):line[g.opponent]+(g.colour==="white"?t("colour.whiteLetter"):g.colour==="black"?t("colour.blackLetter"):"")+" "+(SYM[g.outcome]||"")])}))
.concat([el("td",{"class":"n","data-points":r.points},[pts(r.points)])]))});
var cap=x.afterRound==null?t("crosstable.title"):t("crosstable.afterShort",{n:x.afterRound});
this.show(tname(c,id),[table(cap,heads,rows)],c.name)};
BuildApiEmbed.prototype.player=function(c,p,id){var self=this,f=p.ratingFigures;
var rows=p.rounds.map(function(r){var o=r.opponent;return el("tr",{"data-round":r.round},[el("th",{scope:"row"},[r.round]),
el("td",null,[r.colour?t("colour."+r.colour):""]),who(self,o,""),el("td",{"class":"r",title:r.result?W.rtitle[r.result]:null},[r.result?(r.result==="Bye"&&r.resultText?r.resultText:W.label[r.result]):(W.alone[r.outcome]||"")]),
el("td",{"class":"n","data-points":r.scoreAfter},[pts(r.scoreAfter)]),num(r.rankAfter==null?"":r.rankAfter)])});
var perf=f.performanceRating==null?"":t("card.performanceLine",{rating:f.performanceRating})+(f.ratingChange==null?"":" \\u00b7 "+t("card.changeLine",{change:dec((f.ratingChange>0?"+":"")+f.ratingChange)}));
this.show(p.name+(p.rating!=null?" ("+p.rating+")":""),[table(tname(c,id),[t("col.round"),t("col.colour"),t("col.opponent"),el("th",{scope:"col","class":"r"},[t("col.result")]),nh(t("col.score")),nh(t("col.rank"))],rows),perf?el("p",null,[perf]):null].filter(Boolean),c.name)};
customElements.define("build-api-embed",BuildApiEmbed)})();
`;
