// The human view of the snapshot: HTML pages beside api/, the assets they share and the club
// embed. Pure: each function returns [relPath, text] pairs; render/snapshot.ts writes them.
import { EMBED_JS, EMBED_PATH } from "./embed.ts";
import type { ListContext, SiteContext } from "../routes/table.ts";
import type { TournamentContext } from "../views/context.ts";
import { SITE_CSS, SITE_JS } from "./assets.ts";
import { ASSET } from "./html.ts";
import { indexPage, tagStyle } from "./index-page.ts";
import { tournamentPages, type PageFile } from "./tournament.ts";

export type { PageFile };

/** The pages of one tournament (none unless it is published on the global surface). */
export function pagesOfTournament(c: TournamentContext, site: SiteContext): PageFile[] {
  return tournamentPages(c, site);
}

/** `/` (the index of published tournaments), the shared assets and the embed script. */
export function pagesOfSite(lists: ListContext): PageFile[] {
  const style = tagStyle(lists.publicSummaries, lists.globalTags);
  return [
    ["index.html", indexPage(lists.publicSummaries, lists.globalTags)],
    ...(style ? [style] : []),
    [ASSET.css.slice(1), SITE_CSS],
    [ASSET.js.slice(1), SITE_JS],
    [EMBED_PATH, EMBED_JS],
  ];
}

/** Writes page files to the snapshot; returns how many. */
export function writePages(sink: { write(relPath: string, data: string): void }, files: PageFile[]): number {
  for (const [relPath, text] of files) sink.write(relPath, text);
  return files.length;
}
