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
import { asciiJson } from "./assets.ts";
import { MODIFIERS, RESULT_LABEL, RESULT_TITLE, STATUS_LABEL, TIEBREAK_NAMES } from "./format.ts";
import { ALONE_LABEL, OUTCOME_SYMBOL } from "./extensions.ts";
import { LIVE_REFRESH_SECONDS } from "./tournament.ts";

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
var LABEL=${asciiJson(RESULT_LABEL)},RTITLE=${asciiJson(RESULT_TITLE)},STATUS=${asciiJson(STATUS_LABEL)},
TB=${asciiJson(TIEBREAK_NAMES)},MOD=${asciiJson(MODIFIERS)},EVERY=${LIVE_REFRESH_SECONDS},
SYM=${asciiJson(OUTCOME_SYMBOL)},ALONE=${asciiJson(ALONE_LABEL)};
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
function tbTitle(l){var a=l.split("-"),n=TB[a[0]];if(n)return a[1]&&MOD[a[1]]?n+", "+MOD[a[1]]:n;
var m=/^TB(\\d+)$/.exec(l);return m?"Tie-break "+m[1]+" as published by the results source":"Tie-break "+l+" as published by the results source"}
var MON=["Jan","Feb","Mar","Apr","May","Jun","Jul","Aug","Sep","Oct","Nov","Dec"];
function day(d){var x=d.split("-");return [Number(x[2]),MON[Number(x[1])-1],x[0]]}
function dates(a,b){if(!a&&!b)return "";if(!a||!b||a===b)return day(a||b).join(" ");var s=day(a),e=day(b);
return s[2]!==e[2]?s.join(" ")+" \\u2013 "+e.join(" "):s[1]!==e[1]?s[0]+" "+s[1]+" \\u2013 "+e.join(" "):s[0]+"\\u2013"+e.join(" ")}
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
show(title,body,foot){var box=el("div",{"class":"box",part:"box"},[el("h2",{part:"title"},[title])].concat(body).concat([el("p",{"class":"f"},[foot])]));
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
var work=view==="standings"?Promise.all([catalog,this.get(base+"/"+seg(id)+"/standings")]).then(function(x){self.brand(x[0]);self.standings(x[0],x[1])}):
view==="round"?Promise.all([catalog,this.get(base+"/"+seg(id)+"/live")]).then(function(x){self.brand(x[0]);self.round(x[0],x[1])}):
view==="crosstable"?Promise.all([catalog,this.get(ext+"/crosstable")]).then(function(x){self.brand(x[0]);self.crosstable(x[0],x[1],id)}):
view==="teams"?Promise.all([catalog,this.get(ext+"/teams/standings")]).then(function(x){self.brand(x[0]);self.teams(x[0],x[1],id)}):
view==="player"?Promise.all([catalog,this.get(ext+"/players")]).then(function(x){self.brand(x[0]);
var p=x[1].players.filter(function(q){return String(q.sourcePlayerNumber)===pl})[0];if(!p)throw new Error("no player "+pl+" in this tournament");self.player(x[0],p,id)}):
catalog.then(function(c){self.brand(c);self.catalog(c)});
work.catch(function(e){self.fail(e)})}
fail(e){this.show("Tournament results",[el("p",{role:"alert"},["Could not load the results: "+e.message])],"")}
catalog(c){var rows=c.tournaments.map(function(e){var t=e.tournament;
return el("tr",{"data-id":t.tournamentId},[el("th",{scope:"row"},[t.name,t.location?el("div",{"class":"m"},[t.location]):null]),
el("td",null,[dates(t.startDate,t.endDate)]),num(t.currentRound==null?"\\u2013":t.currentRound+(t.totalRounds?" / "+t.totalRounds:"")),
el("td",null,[el("span",{"class":"s"},[STATUS[t.status]||t.status])])])});
this.show(c.name,[rows.length?table(this.getAttribute("tag")?"Tournaments tagged "+this.getAttribute("tag"):"Tournaments",["Tournament","Dates",nh("Round"),"Status"],rows):el("p",null,["No tournaments."])],c.name)}
standings(c,s){var self=this;var heads=[nh("Rank"),"Player",nh("Points")].concat(s.tieBreakLabels.map(function(l){return el("th",{scope:"col","class":"n"},[el("abbr",{title:tbTitle(l)},[l])])}));
var rows=s.rows.map(function(r){return el("tr",{"data-player":r.sourcePlayerNumber},[num(r.rank),
el("th",{scope:"row"},[r.title?el("abbr",{"class":"t",title:r.title},[r.title]):null,r.title?" ":null,pname(self,r.sourcePlayerNumber,r.name),r.federation?" ":null,r.federation?el("span",{"class":"m"},[r.federation]):null]),
el("td",{"class":"n","data-points":r.points},[pts(r.points)])].concat(r.tieBreakValues.map(num)))});
var cap=s.afterRound==null?"No round is complete yet":"Standings after round "+s.afterRound;
this.show(s.tournamentName,[rows.length?table(cap,heads,rows):el("p",null,[cap])],c.name+" \\u00b7 updated "+s.lastUpdatedAt.slice(0,16).replace("T"," ")+" UTC")}
round(c,r){var self=this;var rows=r.games.map(function(g){var res=g.result==="Bye"&&g.resultText?g.resultText:LABEL[g.result];
return el("tr",null,[el("th",{scope:"row"},[g.boardNumber]),who(self,g.white,""),el("td",{"class":"r",title:RTITLE[g.result]},[res]),who(self,g.black,g.result==="Bye"?"bye":"")])});
this.show(r.tournamentName,[table("Round "+r.roundNumber+(r.totalRounds?" of "+r.totalRounds:"")+" \\u00b7 "+(STATUS[r.status]||r.status),["Board","White","Result","Black"],rows)],
c.name+" \\u00b7 updated "+r.lastUpdatedAt.slice(0,16).replace("T"," ")+" UTC");
if(r.status==="Live")this.timer=setTimeout(function(){if(self.isConnected)self.load()},EVERY*1000)}}
function tname(c,id){var e=c.tournaments.filter(function(x){return String(x.tournament.tournamentId)===id})[0];return e?e.tournament.name:"Tournament "+id}
BuildApiEmbed.prototype.teams=function(c,s,id){var heads=[nh("Rank"),"Team",el("th",{scope:"col","class":"n"},[el("abbr",{title:"Match points"},["MP"])]),
el("th",{scope:"col","class":"n"},[el("abbr",{title:"Game points"},["GP"])])].concat(s.tieBreakLabels.map(function(l){return el("th",{scope:"col","class":"n"},[l])}));
var rows=s.rows.map(function(r){return el("tr",{"data-team":r.teamNumber},[num(r.tiedWithPrevious?"":r.rank),el("th",{scope:"row"},[r.name]),
el("td",{"class":"n"},[pts(r.matchPoints)]),el("td",{"class":"n"},[pts(r.gamePoints)])].concat(r.tieBreakValues.map(num)))});
var cap=s.afterRound==null?"No round is complete yet":"Team standings after round "+s.afterRound;
this.show(tname(c,id),[rows.length?table(cap,heads,rows):el("p",null,[cap])],c.name)};
BuildApiEmbed.prototype.crosstable=function(c,x,id){var self=this,line={};x.rows.forEach(function(r,i){line[r.sourcePlayerNumber]=i+1});
var heads=[nh("No."),nh("Rank"),"Player"].concat(x.rounds.map(function(n){return nh("R"+n)})).concat([nh("Points")]);
var rows=x.rows.map(function(r,i){return el("tr",{"data-player":r.sourcePlayerNumber},[num(i+1),num(r.rank==null?"":r.rank),
el("th",{scope:"row"},[r.title?el("abbr",{"class":"t",title:r.title},[r.title]):null,r.title?" ":null,pname(self,r.sourcePlayerNumber,r.name)])].concat(r.games.map(function(g){
return el("td",{"class":"r","data-opponent":g.opponent},[g.opponent==null?(ALONE[g.outcome]||""):line[g.opponent]+(g.colour==="white"?"w":g.colour==="black"?"b":"")+" "+(SYM[g.outcome]||"")])}))
.concat([el("td",{"class":"n","data-points":r.points},[pts(r.points)])]))});
var cap=x.afterRound==null?"Crosstable":"Crosstable \\u00b7 rank and points after round "+x.afterRound;
this.show(tname(c,id),[table(cap,heads,rows)],c.name)};
BuildApiEmbed.prototype.player=function(c,p,id){var self=this,f=p.ratingFigures;
var rows=p.rounds.map(function(r){var o=r.opponent;return el("tr",{"data-round":r.round},[el("th",{scope:"row"},[r.round]),
el("td",null,[r.colour||""]),who(self,o,""),el("td",{"class":"r",title:r.result?RTITLE[r.result]:null},[r.result?(r.result==="Bye"&&r.resultText?r.resultText:LABEL[r.result]):(ALONE[r.outcome]||"")]),
el("td",{"class":"n","data-points":r.scoreAfter},[pts(r.scoreAfter)]),num(r.rankAfter==null?"":r.rankAfter)])});
var perf=f.performanceRating==null?"":"Performance rating "+f.performanceRating+(f.ratingChange==null?"":" \\u00b7 rating change "+(f.ratingChange>0?"+":"")+f.ratingChange);
this.show(p.name+(p.rating!=null?" ("+p.rating+")":""),[table(tname(c,id),["Round","Colour","Opponent",el("th",{scope:"col","class":"r"},["Result"]),nh("Score"),nh("Rank")],rows),perf?el("p",null,[perf]):null].filter(Boolean),c.name)};
customElements.define("build-api-embed",BuildApiEmbed)})();
`;
