// A real event's TRF as the arbiter would have exported it during the event: the file after a
// given round, cut from the final file's round columns (each round is 10 columns from column 92).

const FIRST_ROUND_COLUMN = 92;

/**
 * The file after round `played` (0: before the first result): the results of rounds 1..played
 * and, when `paired` is set, the pairings of the next round without their results (a cell with
 * an opponent loses its result code; a bye keeps its code, known at pairing time). The points
 * and rank columns, which the final file fills with the final totals, are blanked.
 */
export function trfAfterRound(text: string, played: number, paired: boolean): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      if (!line.startsWith("001")) return line;
      const keep = FIRST_ROUND_COLUMN - 1 + played * 10;
      let out = line.slice(0, keep).padEnd(Math.min(keep, line.length));
      if (paired) {
        const cell = line.slice(keep, keep + 10);
        if (cell.trim() !== "") {
          const hasOpponent = /^\s*\d+/.test(cell.slice(0, 4)) && Number(cell.slice(0, 4)) > 0;
          out = out.padEnd(keep) + (hasOpponent ? cell.slice(0, 7) + " " + cell.slice(8) : cell);
        }
      }
      // Columns 81-84 (points) and 86-89 (rank) blank.
      return (out.slice(0, 80) + " ".repeat(9) + out.slice(89)).trimEnd();
    })
    .join("\n");
}
