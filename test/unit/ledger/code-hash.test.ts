import { appendFileSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codeFingerprint } from "../../../src/ledger/inputs.ts";
import { programFiles } from "../../../src/ledger/program-files.ts";

const REPO = path.resolve(import.meta.dirname, "../../..");

describe("the code fingerprint of the up-to-date check", () => {
  it("covers the program's files under a root with a space and non-ASCII letters", () => {
    const root = path.join(mkdtempSync(path.join(tmpdir(), "build-api-fp-")), "Ñandú ünd Öl dir");
    cpSync(path.join(REPO, "src"), path.join(root, "lib"), { recursive: true });
    cpSync(path.join(REPO, "schema"), path.join(root, "schema"), { recursive: true });
    cpSync(path.join(REPO, "package.json"), path.join(root, "package.json"));
    const before = codeFingerprint(root, "lib");
    expect(codeFingerprint(root, "lib")).toBe(before);
    appendFileSync(path.join(root, "lib", "render", "snapshot.ts"), "\n// changed\n");
    const afterProgram = codeFingerprint(root, "lib");
    expect(afterProgram).not.toBe(before);
    writeFileSync(path.join(root, "schema", "store.sql"), "-- changed\n");
    expect(codeFingerprint(root, "lib")).not.toBe(afterProgram);
  });

  it("refuses to fingerprint a root that holds no program file", () => {
    const root = mkdtempSync(path.join(tmpdir(), "build-api-fp-empty é "));
    expect(() => codeFingerprint(root, "lib")).toThrow(/no program file found/);
  });

  it("lists the program's files: sources at any depth, bin/ and schema/ files, package.json", () => {
    const root = mkdtempSync(path.join(tmpdir(), "build-api-fp-list ñ "));
    const files = [
      "lib/cli.js",
      "lib/hosting/hosts/nginx/nginx.js",
      "lib/types.ts",
      "lib/notes.md",
      "lib/.hidden.js",
      "lib/.cache/x.js",
      "bin/build-api.js",
      "bin/sub/x.js",
      "schema/store.sql",
      "schema/.DS_Store",
      "package.json",
      "README.md",
      "src/cli/program.ts",
    ];
    for (const f of files) {
      mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      writeFileSync(path.join(root, f), f);
    }
    expect(programFiles(root, "lib").sort()).toEqual([
      "bin/build-api.js",
      "lib/cli.js",
      "lib/hosting/hosts/nginx/nginx.js",
      "lib/types.ts",
      "package.json",
      "schema/store.sql",
    ]);
    // The fingerprint covers a file deep in the program, not only the top level.
    const before = codeFingerprint(root, "lib");
    appendFileSync(path.join(root, "lib/hosting/hosts/nginx/nginx.js"), "x");
    expect(codeFingerprint(root, "lib")).not.toBe(before);
  });
});
