// Decoding a TRF file's bytes: UTF-8 as is; a Latin-1 file from Windows-1252 with a warning; a
// file mixing UTF-8 and Latin-1 lines line by line, so neither kind of name becomes mojibake,
// with a warning naming the lines read as Latin-1.
import { describe, expect, it } from "vitest";
import { decodeTrf } from "../../../src/trf/read-file.ts";

const line = (name: Buffer) => Buffer.concat([Buffer.from("001    1      "), name, Buffer.from(" 1500\n")]);

describe("decodeTrf", () => {
  it("reads UTF-8 as UTF-8, without a warning", () => {
    const r = decodeTrf(Buffer.concat([Buffer.from("012 Open\n"), line(Buffer.from("José"))]), "a.trf");
    expect(r).toEqual({ text: "012 Open\n001    1      José 1500\n", encoding: "utf-8", warnings: [] });
  });

  it("reads a Latin-1 file as Windows-1252, naming its first such line", () => {
    const r = decodeTrf(
      Buffer.concat([Buffer.from("012 Open\n"), line(Buffer.from("Müller", "latin1"))]),
      "b.trf",
    );
    expect(r.text).toContain("Müller");
    expect(r.encoding).toBe("windows-1252");
    expect(r.warnings).toEqual([expect.stringMatching(/^b\.trf is not UTF-8 \(first at line 2\)/)]);
  });

  it("reads a file mixing UTF-8 and Latin-1 lines line by line: no mojibake", () => {
    const bytes = Buffer.concat([
      Buffer.from("012 Open\n"),
      line(Buffer.from("José", "utf8")),
      line(Buffer.from("Müller", "latin1")),
      line(Buffer.from("Ørsted", "utf8")),
      line(Buffer.from("Señor", "latin1")),
    ]);
    const r = decodeTrf(bytes, "c.trf");
    for (const name of ["José", "Müller", "Ørsted", "Señor"]) expect(r.text).toContain(name);
    expect(r.text).not.toMatch(/Ã|Â/);
    expect(r.encoding).toBe("mixed");
    expect(r.warnings).toEqual([
      expect.stringMatching(
        /^c\.trf mixes encodings: lines 3, 5 \(2 in all\) are not UTF-8 and were read as Windows-1252/,
      ),
    ]);
  });
});
