// The scoring system written in a TRF file: TRF-2025's record 162 and the older `XXS` line
// (JaVaFo / bbpPairings), e.g. "162 W 3 D 1 L 0" or "XXS W=3 D=1 PAB=3". Both name points per
// outcome with the same codes; values may follow the code after "=" or a space.
//
// | code          | outcome                         | default when absent |
// |---------------|---------------------------------|---------------------|
// | W (WW, BW)    | win (with white, with black)    | 1                   |
// | D (WD, BD)    | draw                            | ½                   |
// | L (WL, BL)    | loss                            | 0                   |
// | FW (+)        | forfeit win                     | W                   |
// | FL (-)        | forfeit loss                    | L                   |
// | PAB (U)       | pairing-allocated bye           | W                   |
// | FPB (F)       | full-point bye                  | W                   |
// | HPB (H)       | half-point bye                  | D                   |
// | ZPB (Z)       | zero-point bye, absence         | L                   |
// | A             | absence: ZPB and forfeit loss   | L                   |
// | P             | pairing-allocated bye (= PAB)   | W                   |
// | X             | unknown result                  | (not stored)        |
//
// TRF-2026 writes record 162 with the one-letter codes W D L A P X (W covering forfeit wins and
// full-point byes, D half-point byes, A absences), each code at a fixed column followed by its
// points ("162  W 1.0    D 0.5    L 0.0    A 0.0"); the tokens read the same as TRF-2025's. X,
// the points of a game whose result is unknown, has no place in the store: a warning says so.
//
// Points that depend on the colour (WW different from BW) have no place in the store's scoring
// and are refused, as are unknown codes: a wrong scoring would publish wrong points.
import { BuildError, EXIT, type Problem } from "../shared/errors.ts";
import { DEFAULT_SCORING, type Scoring } from "../domain/types.ts";
import type { TrfFile } from "./parse.ts";

type Key = keyof Scoring;

const ALIASES: Record<string, string> = {
  WW: "W",
  BW: "W",
  WD: "D",
  BD: "D",
  WL: "L",
  BL: "L",
  "+": "FW",
  "-": "FL",
  U: "PAB",
  F: "FPB",
  H: "HPB",
  Z: "ZPB",
  P: "PAB",
};

const FIELDS: Record<string, readonly Key[]> = {
  W: ["win"],
  D: ["draw"],
  L: ["loss"],
  FW: ["forfeitWin"],
  FL: ["forfeitLoss"],
  PAB: ["pairingAllocatedBye"],
  FPB: ["fullBye"],
  HPB: ["halfBye"],
  ZPB: ["zeroBye"],
  A: ["forfeitLoss", "zeroBye"],
  X: [],
};

/** Pairs of "CODE=VALUE" or "CODE VALUE" tokens of one record. */
function pairs(value: string): { code: string; raw: string }[] | string {
  const tokens = value.trim().split(/\s+/).filter(Boolean);
  const out: { code: string; raw: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const eq = t.indexOf("=");
    if (eq > 0) {
      out.push({ code: t.slice(0, eq).toUpperCase(), raw: t.slice(eq + 1) });
      continue;
    }
    const next = tokens[i + 1];
    if (next === undefined) return `"${t}" has no value`;
    out.push({ code: t.toUpperCase(), raw: next });
    i++;
  }
  return out;
}

function readRecord(
  record: string,
  value: string,
  problems: Problem[],
  warnings: string[],
): Partial<Scoring> {
  const where = `record ${record} "${value}"`;
  const list = pairs(value);
  if (typeof list === "string") {
    problems.push({ what: list, where, fix: 'write code and points, e.g. "W 3 D 1 L 0" or "W=3 D=1"' });
    return {};
  }
  const found: Partial<Scoring> = {};
  const seen = new Map<Key, string>();
  for (const { code, raw } of list) {
    const norm = raw.replace(",", ".");
    const points = Number(norm);
    if (norm === "" || !Number.isFinite(points)) {
      problems.push({ what: `points "${raw}" for ${code} are not a number`, where });
      continue;
    }
    const fields = FIELDS[ALIASES[code] ?? code];
    if (!fields) {
      problems.push({
        what: `"${code}" is not a scoring code`,
        where,
        fix: "use W D L (WW BW WD BD WL BL), FW FL, PAB FPB HPB ZPB, or TRF-2026's A P X",
      });
      continue;
    }
    if (code === "X") warnings.push(`${where}: X (${points} points for an unknown result) is not stored`);
    for (const field of fields) {
      const previous = found[field];
      if (previous !== undefined && previous !== points) {
        problems.push({
          what: `${code} gives ${points} points but ${seen.get(field)} gave ${previous}: points that depend on the colour are not supported`,
          where,
        });
        continue;
      }
      found[field] = points;
      seen.set(field, code);
    }
  }
  return found;
}

function complete(found: Partial<Scoring>): Scoring {
  const win = found.win ?? DEFAULT_SCORING.win;
  const draw = found.draw ?? DEFAULT_SCORING.draw;
  const loss = found.loss ?? DEFAULT_SCORING.loss;
  return {
    win,
    draw,
    loss,
    forfeitWin: found.forfeitWin ?? win,
    forfeitLoss: found.forfeitLoss ?? loss,
    pairingAllocatedBye: found.pairingAllocatedBye ?? win,
    fullBye: found.fullBye ?? win,
    halfBye: found.halfBye ?? draw,
    zeroBye: found.zeroBye ?? loss,
  };
}

/**
 * The file's scoring, or null when it writes none (the default 1 / ½ / 0 applies). Record 162
 * wins over XXS; a value XXS gives differently is reported as a warning. Throws a BuildError
 * (exit 9) naming the record when a value cannot be read.
 */
export function scoringFromTrf(f: TrfFile, warnings: string[]): Scoring | null {
  const problems: Problem[] = [];
  const read = (record: string): Partial<Scoring> | null => {
    const values = (f.headers.get(record) ?? []).filter((v) => v.trim() !== "");
    if (values.length === 0) return null;
    return Object.assign(
      {},
      ...values.map((v) => readRecord(record, v, problems, warnings)),
    ) as Partial<Scoring>;
  };
  const r162 = read("162");
  const xxs = read("XXS");
  if (problems.length > 0) {
    throw new BuildError(
      `Cannot import the TRF file ${f.fileName}: its scoring system cannot be read.`,
      problems.map((p) => ({ ...p, where: `${f.fileName}: ${p.where}` })),
      EXIT.trf,
    );
  }
  if (r162 === null && xxs === null) return null;
  if (r162 !== null && xxs !== null) {
    const a = complete(r162);
    const b = complete(xxs);
    const differ = (Object.keys(a) as Key[]).filter((k) => a[k] !== b[k]);
    if (differ.length > 0) {
      warnings.push(
        `the file's scoring records disagree on ${differ.join(", ")}: record 162 is used, XXS ignored`,
      );
    }
  }
  return complete(r162 ?? xxs!);
}
