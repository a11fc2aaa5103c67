// The few lines import-trf prints for a person at a terminal (scripts get the JSON report).
import type { ImportReport } from "../trf/import.ts";

function list(numbers: readonly number[]): string {
  return numbers.length <= 8
    ? numbers.join(", ")
    : `${numbers.slice(0, 8).join(", ")} and ${numbers.length - 8} more`;
}

export function importSummary(r: ImportReport): string[] {
  const where = [r.published ? "published" : null, r.club ? `in club ${r.club}` : null].filter(Boolean);
  const lines = [
    `${r.action} tournament ${r.externalId} "${r.name}": ${r.players} players, ` +
      `${r.teams > 0 ? `${r.teams} teams, ` : ""}${r.rounds} rounds, ` +
      `${r.games} games, ${r.byes} byes${where.length > 0 ? ` (${where.join(", ")})` : ""}`,
  ];
  const c = r.changes;
  if (c) {
    if (!c.changed) lines.push("  nothing changed but the retrieval times");
    if (c.tournament.length > 0) lines.push(`  tournament: ${c.tournament.join(", ")} changed`);
    for (const [what, v] of [
      ["players", c.players],
      ["rounds", c.rounds],
    ] as const) {
      const parts = (["added", "changed", "removed"] as const)
        .filter((k) => v[k].length > 0)
        .map((k) => `${k} ${list(v[k])}`);
      if (parts.length > 0) lines.push(`  ${what}: ${parts.join("; ")}`);
    }
    if (c.games.added + c.games.removed > 0)
      lines.push(`  games: ${c.games.added} added, ${c.games.removed} removed`);
    for (const x of c.results.slice(0, 10)) {
      lines.push(
        `  round ${x.round}, ${x.white}${x.black === null ? "" : `-${x.black}`}: ${x.from} -> ${x.to}`,
      );
    }
    if (c.results.length > 10) lines.push(`  ... and ${c.results.length - 10} more results changed`);
  }
  lines.push(
    r.checkedAfterRound === null
      ? "  no round played yet: nothing to check against the file's totals"
      : r.mismatches.length === 0
        ? `  the file's points and ranks after round ${r.checkedAfterRound} are reproduced`
        : `  ${r.mismatches.length} declared value(s) not reproduced (see the warnings)`,
  );
  return lines;
}
