// Times computeStandings on generated Swiss events of 1k, 10k, 30k and 100k players (13 rounds
// by default), so that the cost per player can be read off. Pairings are deterministic: each
// round pairs neighbours in the order (score, rating), results come from a seeded generator
// (rating decides most games; some draws, forfeits, half-point byes, a PAB for an odd field).
//
//   node scripts/bench-standings.ts [--rounds 13] [--sizes 1000,10000,30000,100000]
//                                   [--tiebreaks DE,BH-C1,BH,SB,ARO-C1] [--rules pre-2023] [--repeat 3]
import { scriptArgs } from "./lib/args.ts";
import { computeStandings } from "../src/domain/standings.ts";
import {
  DEFAULT_SCORING,
  type Game,
  type Player,
  type Round,
  type TiebreakRuleSet,
  type Tournament,
} from "../src/domain/types.ts";

const values = scriptArgs(import.meta.url, {
  rounds: { type: "string", default: "13" },
  sizes: { type: "string", default: "1000,10000,30000,100000" },
  tiebreaks: { type: "string", default: "DE,BH-C1,BH,SB,ARO-C1" },
  rules: { type: "string", default: "pre-2023" },
  repeat: { type: "string", default: "3" },
});
const ROUNDS = Number(values.rounds);
const SIZES = values.sizes.split(",").map(Number);
const TIEBREAKS = values.tiebreaks.split(",");
const RULES = values.rules as TiebreakRuleSet;
const REPEAT = Math.max(1, Number(values.repeat));
const NOW = "2026-11-22T12:00:00Z";

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function game(board: number, white: number, black: number | null, result: Game["result"]): Game {
  return {
    boardNumber: board,
    whitePlayerNumber: white,
    blackPlayerNumber: black,
    result,
    resultText: "",
    rawResult: null,
    byeKind: result === "Bye" ? (black === null ? "pab" : null) : null,
    provisionalPoints: null,
    firstSeenAt: NOW,
    lastSeenAt: NOW,
    resultChangedAt: null,
  };
}

export function syntheticSwiss(n: number, rounds: number, seed = 1): Tournament {
  const rnd = random(seed);
  const players: Player[] = [];
  for (let i = 1; i <= n; i++) {
    players.push({
      sourcePlayerNumber: i,
      startingRank: i,
      fideId: null,
      name: `Player ${i}`,
      title: null,
      rating: rnd() < 0.9 ? 2700 - Math.floor((i / n) * 1700) : null,
      nationalRating: null,
      federation: null,
      club: null,
      gender: null,
      type: null,
      group: null,
    });
  }
  const score = new Float64Array(n + 1);
  const list: Round[] = [];
  for (let r = 1; r <= rounds; r++) {
    const order = players.map((p) => p.sourcePlayerNumber).sort((a, b) => score[b]! - score[a]! || a - b);
    const games: Game[] = [];
    if (order.length % 2 === 1) {
      const last = order.pop()!;
      games.push(game(0, last, null, "Bye"));
      score[last]! += 1;
    }
    for (let i = 0; i + 1 < order.length; i += 2) {
      const [w, b] = r % 2 === 0 ? [order[i]!, order[i + 1]!] : [order[i + 1]!, order[i]!];
      const x = rnd();
      const result: Game["result"] =
        x < 0.01
          ? "WhiteForfeitWin"
          : x < 0.015
            ? "BlackForfeitWin"
            : x < 0.3
              ? "Draw"
              : x < 0.67
                ? w < b
                  ? "WhiteWin"
                  : "BlackWin"
                : w < b
                  ? "BlackWin"
                  : "WhiteWin";
      games.push(game(0, w, b, result));
      if (result === "WhiteWin" || result === "WhiteForfeitWin") score[w]! += 1;
      else if (result === "BlackWin" || result === "BlackForfeitWin") score[b]! += 1;
      else {
        score[w]! += 0.5;
        score[b]! += 0.5;
      }
    }
    // Bye row last, boards numbered in order.
    games.push(games.shift()!);
    games.forEach((g, k) => (g.boardNumber = k + 1));
    list.push({ roundNumber: r, firstScrapedAt: NOW, lastScrapedAt: NOW, lastSourceChangeAt: null, games });
  }
  return {
    externalId: 1n,
    sourceUrl: "https://example.org/bench",
    name: `Bench ${n}`,
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
    startDate: null,
    endDate: null,
    totalRounds: rounds,
    trackingEnabled: false,
    refreshIntervalSeconds: null,
    nextRefreshAt: null,
    createdAt: NOW,
    lastScrapedAt: NOW,
    lastSourceChangeAt: null,
    system: "swiss",
    tiebreaks: TIEBREAKS,
    tiebreakRules: RULES,
    tiebreakPractice: null,
    scoring: { ...DEFAULT_SCORING },
    players,
    rounds: list,
    schedule: [],
    sourceStandings: [],
    recaps: [],
  };
}

console.log(`computeStandings, ${ROUNDS} rounds, ${RULES}, tie-breaks ${TIEBREAKS.join(",")}`);
for (const n of SIZES) {
  const t = syntheticSwiss(n, ROUNDS);
  computeStandings(syntheticSwiss(Math.min(n, 500), ROUNDS), ROUNDS); // warm up the JIT
  // Each size is timed REPEAT times: the median is the figure, the best shows the noise.
  // CPU time (user + system) is given too: on a busy machine it stays near the unloaded wall time.
  const times: number[] = [];
  const cpu: number[] = [];
  let leader = 0;
  for (let k = 0; k < REPEAT; k++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    const rows = computeStandings(t, ROUNDS);
    const used = process.cpuUsage(startCpu);
    times.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
    leader = rows[0]!.points ?? 0;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `${String(n).padStart(7)} players: ${(median / 1000).toFixed(2).padStart(6)} s median of ${REPEAT}, ` +
      `best ${(times[0]! / 1000).toFixed(2)} s, CPU ${(cpu[Math.floor(cpu.length / 2)]! / 1000).toFixed(2)} s  (${((median * 1000) / n).toFixed(1)} µs/player, leader ${leader} pts)`,
  );
}
