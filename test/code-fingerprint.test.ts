import { cpSync, mkdtempSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codeFingerprint } from "../src/build.ts";

const REPO = path.resolve(import.meta.dirname, "..");

describe("the code fingerprint of the up-to-date check", () => {
  it("covers the program's files under a root with a space and non-ASCII letters", () => {
    const root = path.join(mkdtempSync(path.join(tmpdir(), "build-api-fp-")), "Ñandú ünd Öl dir");
    cpSync(path.join(REPO, "src"), path.join(root, "lib"), { recursive: true });
    cpSync(path.join(REPO, "schema"), path.join(root, "schema"), { recursive: true });
    cpSync(path.join(REPO, "package.json"), path.join(root, "package.json"));
    const before = codeFingerprint(root, "lib");
    expect(codeFingerprint(root, "lib")).toBe(before);
    appendFileSync(path.join(root, "lib", "render.ts"), "\n// changed\n");
    const afterProgram = codeFingerprint(root, "lib");
    expect(afterProgram).not.toBe(before);
    writeFileSync(path.join(root, "schema", "store.sql"), "-- changed\n");
    expect(codeFingerprint(root, "lib")).not.toBe(afterProgram);
  });

  it("refuses to fingerprint a root that holds no program file", () => {
    const root = mkdtempSync(path.join(tmpdir(), "build-api-fp-empty é "));
    expect(() => codeFingerprint(root, "lib")).toThrow(/no program file found/);
  });
});
