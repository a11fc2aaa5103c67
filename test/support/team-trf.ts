// Hand-made team events as TRF-2026 text: 001 player records and 310 team records at their
// columns, for unit tests that work a team crosstable by hand.

/** A TRF 001 record: cells are "opp colour code", e.g. "3 w 1", "0 - Z". */
export function playerRecord(no: number, cells: string[]): string {
  let s = `001 ${String(no).padStart(4)}      ${`Player ${no}`.padEnd(33)} 2000`.padEnd(91);
  for (const c of cells) {
    const [opp, colour, code] = c.split(" ");
    s += `${opp!.padStart(4, opp === "0" ? "0" : " ")} ${colour} ${code}  `;
  }
  return s.trimEnd();
}

/** A TRF-2026 310 record (columns 5-7 number, 9-40 name, members from column 73). */
export function teamRecord(no: number, name: string, members: number[]): string {
  const head = `310 ${String(no).padStart(3)} ${name.padEnd(32)} ${"".padEnd(5)} ${"0".padStart(6)}`;
  const tail = `${"".padStart(6)} ${"".padStart(6)} ${"".padStart(3)}`;
  return `${head} ${tail}${members.map((m) => ` ${String(m).padStart(4)}`).join("")}`;
}
