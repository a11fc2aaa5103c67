// The team events' extension routes (issue 46), bound like the others in table.ts: published on
// the global surface when the tournament is, and in each club catalog that lists it, only for a
// tournament that is a team event. Kept here so the route table stays one screen per concern.
import type { z } from "zod";
import * as C from "../contracts/teams.ts";
import type { TournamentContext } from "../views/context.ts";
import { teamViews, type TeamViews } from "../views/teams.ts";
import type { Params, TeamExtensionId } from "./urls.ts";

type Emit = (params: Params, body: unknown) => void;

interface TeamBinding {
  scope: "tournament";
  schema: z.ZodType;
  render(c: TournamentContext, site: unknown, emit: Emit): void;
}

/** Emits each instance of one team resource at the surfaces the tournament is published on. */
function onSurfaces(
  surface: "public" | "club",
  schema: z.ZodType,
  instances: (v: TeamViews, id: string) => [Params, unknown][],
): TeamBinding {
  return {
    scope: "tournament",
    schema,
    render(c, _site, emit) {
      const v = teamViews(c);
      if (!v) return;
      const id = c.t.externalId.toString();
      const slugs =
        surface === "public" ? (c.published.globalTags ? [null] : []) : c.published.clubs.map((e) => e.slug);
      for (const slug of slugs)
        for (const [params, body] of instances(v, id))
          emit(slug === null ? params : { ...params, slug }, body);
    },
  };
}

const standings = (v: TeamViews, id: string): [Params, unknown][] => [[{ id }, v.standings]];
const afterEachRound = (v: TeamViews, id: string): [Params, unknown][] =>
  v.afterEachRound.map((s) => [{ id, round: String(s.afterRound) }, s]);
const teams = (v: TeamViews, id: string): [Params, unknown][] => [[{ id }, v.teams]];
const matches = (v: TeamViews, id: string): [Params, unknown][] =>
  v.matches.map((m) => [{ id, round: String(m.round) }, m]);
const perTeam = (v: TeamViews, id: string): [Params, unknown][] =>
  v.perTeam.map((t) => [{ id, team: String(t.teamNumber) }, t]);

export const teamRoutes: Record<TeamExtensionId, TeamBinding> = {
  publicTeamStandings: onSurfaces("public", C.TeamStandingsResponse, standings),
  publicTeamRoundStandings: onSurfaces("public", C.TeamStandingsResponse, afterEachRound),
  publicTeams: onSurfaces("public", C.TeamsResponse, teams),
  publicTeamMatches: onSurfaces("public", C.TeamMatchesResponse, matches),
  publicTeam: onSurfaces("public", C.TeamDetailResponse, perTeam),
  clubTeamStandings: onSurfaces("club", C.TeamStandingsResponse, standings),
  clubTeamRoundStandings: onSurfaces("club", C.TeamStandingsResponse, afterEachRound),
  clubTeams: onSurfaces("club", C.TeamsResponse, teams),
  clubTeamMatches: onSurfaces("club", C.TeamMatchesResponse, matches),
  clubTeam: onSurfaces("club", C.TeamDetailResponse, perTeam),
};
