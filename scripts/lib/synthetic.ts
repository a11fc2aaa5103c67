// Building blocks of the synthetic store generator: a seeded PRNG, name pools and pairings.
// Everything here is deterministic for a given PRNG state.

/** mulberry32: a tiny 32-bit PRNG; good enough for test data and identical on every platform. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Roughly normal (sum of three uniforms), clamped to [min, max]. */
  normal(mean: number, spread: number, min: number, max: number): number {
    const v = mean + (this.next() + this.next() + this.next() - 1.5) * spread;
    return Math.max(min, Math.min(max, Math.round(v)));
  }

  /** `count` distinct items in random order (fewer when the pool is smaller). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(this.int(0, pool.length - 1), 1)[0]!);
    return out;
  }
}

/** Hashes a string seed (e.g. "42" or "bench") to a 32-bit PRNG seed. */
export function seedFrom(seed: string | number): number {
  const text = String(seed);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export const FIRST_NAMES = [
  "Ana",
  "Mikel",
  "Iker",
  "Laura",
  "Javier",
  "Lucía",
  "Carlos",
  "Elena",
  "Ahmad",
  "Rania",
  "Karim",
  "Nadia",
  "Liam",
  "Olivia",
  "Noah",
  "Chloe",
  "Jack",
  "Mia",
  "Aarav",
  "Priya",
  "Wei",
  "Mei",
  "Lukas",
  "Hannah",
  "Jonas",
  "Lea",
  "Mateo",
  "Sofía",
  "Ivan",
  "Olga",
  "Dmitri",
  "Anya",
  "Sean",
  "Aoife",
  "Ciarán",
  "Niamh",
  "Luca",
  "Giulia",
  "Pierre",
  "Camille",
  "Mehmet",
  "Elif",
  "Kenji",
  "Yuki",
  "Tomasz",
  "Zofia",
  "Arjun",
  "Kavya",
];

export const LAST_NAMES = [
  "Etxeberria",
  "Zubiria",
  "García",
  "Fernández",
  "López",
  "Martínez",
  "Haddad",
  "Khoury",
  "Nassar",
  "Saad",
  "Smith",
  "Nguyen",
  "Wilson",
  "Taylor",
  "Patel",
  "Sharma",
  "Chen",
  "Wang",
  "Müller",
  "Schmidt",
  "Fischer",
  "Rossi",
  "Bianchi",
  "Dubois",
  "Moreau",
  "Ivanov",
  "Petrova",
  "Kowalski",
  "Nowak",
  "Murphy",
  "O'Brien",
  "Kelly",
  "Yılmaz",
  "Demir",
  "Tanaka",
  "Sato",
  "Costa",
  "Silva",
  "Novak",
  "Horvat",
  "Jensen",
  "Larsen",
];

export const FEDERATIONS = [
  "ESP",
  "AUS",
  "LBN",
  "IRL",
  "FRA",
  "GER",
  "ITA",
  "IND",
  "CHN",
  "POL",
  "TUR",
  "USA",
  "ENG",
  "NED",
];

/** Clubs: city, language, time zone, federation. */
export const CITIES: readonly { city: string; language: string; timeZone: string; federation: string }[] = [
  { city: "donostia", language: "es", timeZone: "Europe/Madrid", federation: "ESP" },
  { city: "melbourne", language: "en", timeZone: "Australia/Melbourne", federation: "AUS" },
  { city: "beirut", language: "en", timeZone: "Asia/Beirut", federation: "LBN" },
  { city: "dublin", language: "en", timeZone: "Europe/Dublin", federation: "IRL" },
  { city: "lyon", language: "fr", timeZone: "Europe/Paris", federation: "FRA" },
  { city: "hamburg", language: "de", timeZone: "Europe/Berlin", federation: "GER" },
  { city: "bilbao", language: "es", timeZone: "Europe/Madrid", federation: "ESP" },
  { city: "chennai", language: "en", timeZone: "Asia/Kolkata", federation: "IND" },
];

export const TAGS = [
  "rapid",
  "blitz",
  "classical",
  "juniors",
  "open",
  "women",
  "seniors",
  "2026",
  "weekend",
  "league",
];

export const TIEBREAK_LISTS = {
  swiss: ["DE,BH-C1,BH", "BH-C1,BH,SB", "BH,BH-C1,SB", "BH-C1,BH,PS"],
  "round-robin": ["SB,DE,KS", "KS,SB,DE", "DE,SB"],
} as const;

export type Outcome = "1" | "=" | "0" | "+" | "-" | "--";

export interface Pairing {
  white: number;
  black: number;
}

/**
 * Berger table for an even number of players (FIDE C.05 Annex 1): round 1 is 1-n, 2-(n-1), ...;
 * each later round adds n/2 to every number but n (modulo n-1) and swaps the colours of n's board.
 */
export function bergerRounds(n: number): Pairing[][] {
  if (n % 2 !== 0) throw new Error(`bergerRounds needs an even number of players, got ${n}`);
  const rounds: Pairing[][] = [];
  let boards: Pairing[] = [];
  for (let i = 1; i <= n / 2; i++) boards.push({ white: i, black: n + 1 - i });
  const shift = (k: number): number => (k === n ? n : ((k - 1 + n / 2) % (n - 1)) + 1);
  for (let r = 1; r < n; r++) {
    rounds.push(boards);
    boards = boards.map(({ white, black }) =>
      white === n || black === n
        ? { white: shift(black), black: shift(white) }
        : { white: shift(white), black: shift(black) },
    );
  }
  return rounds;
}

export interface SwissPlayer {
  number: number;
  rating: number;
  score: number;
  whites: number;
  opponents: Set<number>;
  hadBye: boolean;
}

/**
 * Pairs one Swiss round: players sorted by score then rating, each paired with the next player
 * they have not met (so pairs stay inside or next to their score group); the lowest-ranked
 * player without a bye gets the bye when the count is odd. Not FIDE Dutch, but plausible.
 */
export function pairSwiss(players: SwissPlayer[]): { pairs: Pairing[]; bye: number | null } {
  const order = [...players].sort((a, b) => b.score - a.score || b.rating - a.rating || a.number - b.number);
  let bye: number | null = null;
  if (order.length % 2 === 1) {
    let index = order.length - 1;
    while (index > 0 && order[index]!.hadBye) index--;
    bye = order[index]!.number;
    order.splice(index, 1);
  }
  const pairs: Pairing[] = [];
  const taken = new Set<number>();
  for (let i = 0; i < order.length; i++) {
    const a = order[i]!;
    if (taken.has(a.number)) continue;
    let partner: SwissPlayer | undefined;
    // Look a bounded distance ahead for a new opponent; fall back to the next free player.
    for (let j = i + 1; j < order.length && j < i + 40; j++) {
      const b = order[j]!;
      if (!taken.has(b.number) && !a.opponents.has(b.number)) {
        partner = b;
        break;
      }
    }
    partner ??= order.slice(i + 1).find((b) => !taken.has(b.number));
    if (partner === undefined) break;
    taken.add(a.number).add(partner.number);
    // The player who had white less often gets white.
    const aWhite = a.whites < partner.whites || (a.whites === partner.whites && a.score >= partner.score);
    pairs.push(
      aWhite ? { white: a.number, black: partner.number } : { white: partner.number, black: a.number },
    );
  }
  return { pairs, bye };
}

/** A game's outcome from the white player's point of view, weighted by the rating difference. */
export function playGame(rng: Rng, whiteRating: number, blackRating: number): Outcome {
  const roll = rng.next();
  if (roll < 0.004) return "--";
  if (roll < 0.016) return "+";
  if (roll < 0.028) return "-";
  const expected = 1 / (1 + 10 ** ((blackRating - whiteRating - 35) / 400));
  const draw = 0.28 * (1 - Math.abs(expected - 0.5));
  const u = rng.next();
  if (u < expected - draw / 2) return "1";
  if (u < expected + draw / 2) return "=";
  return "0";
}

export const RAW_RESULT: Record<Outcome, { raw: string; result: string; white: number; black: number }> = {
  "1": { raw: "1 - 0", result: "WhiteWin", white: 1, black: 0 },
  "=": { raw: "½ - ½", result: "Draw", white: 0.5, black: 0.5 },
  "0": { raw: "0 - 1", result: "BlackWin", white: 0, black: 1 },
  "+": { raw: "+ - -", result: "WhiteForfeitWin", white: 1, black: 0 },
  "-": { raw: "- - +", result: "BlackForfeitWin", white: 0, black: 1 },
  "--": { raw: "- - -", result: "DoubleForfeit", white: 0, black: 0 },
};
