// The descriptive columns of a Tournament that most domain and view tests leave empty: spread it
// into a literal, then give the fields the test is about.
import type { Tournament } from "../../src/domain/types.ts";

export const NO_METADATA = {
  location: null,
  federation: null,
  organizer: null,
  tournamentDirector: null,
  chiefArbiter: null,
  deputyChiefArbiter: null,
  arbiters: null,
  timeControl: null,
  tournamentType: null,
  ratingCalculation: null,
  fideEventId: null,
  averageRating: null,
  averageAge: null,
  pairingProgram: null,
  sourceLastUpdated: null,
  sourceCreator: null,
} as const satisfies Partial<Tournament>;
