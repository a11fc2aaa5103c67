// Inputs that used to stall a command or end in "internal error (a bug)", each through the CLI:
// devices, FIFOs and directories where a file is expected, a huge or Latin-1 TRF file, a missing
// directory, a dangling symlink, a foreign or corrupt store given to upgrade-store, and a
// read-only WAL store. Each ends quickly with its class's exit code and a message naming the path.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/shared/errors.ts";
import { runCli } from "../../support/run.ts";
import { removeTempDirs, tempDir } from "../../support/temp.ts";

afterAll(removeTempDirs);
const NOW = "2026-11-22T12:00:00Z";
const importArgs = (file: string, db: string) => [
  "import-trf",
  file,
  "--db",
  db,
  "--id",
  "1",
  "--source-url",
  "https://example.org/t",
];

async function store(dir: string, sample = false): Promise<string> {
  const db = path.join(dir, "s.sqlite");
  const r = await runCli(["init-store", db, ...(sample ? ["--sample"] : [])]);
  expect(r.code, r.stderr).toBe(0);
  return db;
}

function noInternalError(r: { stderr: string }): void {
  expect(r.stderr).not.toMatch(/internal error|a bug/);
}

describe("inputs that stall or break a command", () => {
  it("build --db /dev/zero or a FIFO: exit 3 at once", async () => {
    const dir = tempDir("hostile");
    const fifo = path.join(dir, "fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    for (const db of ["/dev/zero", fifo]) {
      const r = await runCli(["build", "--db", db, "--out", path.join(dir, "out"), "--now", NOW]);
      expect(r.code, db).toBe(EXIT.storeUnreadable);
      expect(r.stderr).toMatch(/is not a file/);
    }
  });

  it("import-trf of /dev/zero, a FIFO or a directory: exit 2 naming what it is", async () => {
    const dir = tempDir("hostile");
    const db = await store(dir);
    const fifo = path.join(dir, "fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    for (const [file, kind] of [
      ["/dev/zero", "a device"],
      [fifo, "a FIFO"],
      [dir, "a directory"],
    ] as const) {
      const r = await runCli(importArgs(file, db));
      expect(r.code, file).toBe(EXIT.usage);
      expect(r.stderr).toContain(`it is ${kind}`);
      noInternalError(r);
    }
  });

  it("import-trf of a file over the size cap: exit 9 before it is read", async () => {
    const dir = tempDir("hostile");
    const db = await store(dir);
    const big = path.join(dir, "big.trf");
    const fd = openSync(big, "w");
    writeSync(fd, "x", 65 * 1024 * 1024); // sparse: no disk used
    closeSync(fd);
    const r = await runCli(importArgs(big, db));
    expect(r.code).toBe(EXIT.trf);
    expect(r.stderr).toMatch(/larger than 64 MiB/);
  });

  it("a Latin-1 TRF file is converted (and said so); a U+FFFD is refused with its line", async () => {
    const dir = tempDir("hostile");
    const db = await store(dir);
    const trf = (name: Buffer) =>
      Buffer.concat([
        Buffer.from("012 Open\n001    1      "),
        name,
        Buffer.from(
          " ".repeat(33 - name.length) + " 1500\n001    2      Other, A                          1500\n",
        ),
      ]);
    const latin1 = path.join(dir, "latin1.trf");
    writeFileSync(latin1, trf(Buffer.from("M\xfcller, Hans", "latin1")));
    const r = await runCli(importArgs(latin1, db));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).warnings[0]).toMatch(/not UTF-8 \(first at line 2\): read as Windows-1252/);
    const d = new Database(db, { readonly: true });
    expect(d.prepare("SELECT name FROM players WHERE source_player_number = 1").get()).toEqual({
      name: "Müller, Hans",
    });
    d.close();
    const lost = path.join(dir, "lost.trf");
    writeFileSync(lost, trf(Buffer.from("M\ufffdller, Hans", "utf8")));
    const refused = await runCli([
      ...importArgs(lost, db).slice(0, 5),
      "2",
      "--source-url",
      "https://example.org/u",
    ]);
    expect(refused.code).toBe(EXIT.trf);
    expect(refused.stderr).toMatch(/lost\.trf:2/);
    expect(refused.stderr).toMatch(/U\+FFFD/);
  });

  it("init-store into a missing directory or onto a dangling symlink: exit 2, nothing created", async () => {
    const dir = tempDir("hostile");
    const missing = await runCli(["init-store", path.join(dir, "nope", "s.sqlite")]);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toMatch(/does not exist/);
    noInternalError(missing);
    const link = path.join(dir, "link.sqlite");
    symlinkSync(path.join(dir, "target.sqlite"), link);
    const dangling = await runCli(["init-store", link]);
    expect(dangling.code).toBe(EXIT.usage);
    expect(dangling.stderr).toMatch(/symbolic link/);
    expect(existsSync(path.join(dir, "target.sqlite"))).toBe(false);
  });

  it("upgrade-store on a foreign database at version 1 (exit 4) and on a corrupt store (exit 3)", async () => {
    const dir = tempDir("hostile");
    const foreign = path.join(dir, "foreign.sqlite");
    const d = new Database(foreign);
    d.exec("CREATE TABLE x (a)");
    d.pragma("user_version = 1");
    d.close();
    const r = await runCli(["upgrade-store", foreign]);
    expect(r.code).toBe(EXIT.storeSchema);
    expect(r.stderr).toMatch(/not a version 1 store/);
    expect(r.stderr).toMatch(/table tournaments: the table is missing/);
    noInternalError(r);

    const db = await store(dir, true);
    const corrupt = path.join(dir, "corrupt.sqlite");
    copyFileSync(db, corrupt);
    const bytes = readFileSync(corrupt);
    bytes.fill(0xff, 3 * 4096, 4 * 4096);
    writeFileSync(corrupt, bytes);
    const c = await runCli(["upgrade-store", corrupt]);
    expect(c.code).toBe(EXIT.storeUnreadable);
    expect(c.stderr).toMatch(/is corrupt/);
    expect(c.stderr).not.toMatch(/already at schema version/);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "a read-only WAL store without -shm: says so, not 'restore'",
    async () => {
      const dir = tempDir("hostile");
      chmodSync(dir, 0o755);
      const db = await store(dir, true);
      const ro = path.join(dir, "ro");
      mkdirSync(ro);
      const w = new Database(db);
      w.pragma("journal_mode = WAL");
      w.pragma("wal_autocheckpoint = 0");
      w.exec("UPDATE tournaments SET name = name || ' (updated)' WHERE tournament_id = 1");
      copyFileSync(db, path.join(ro, "s.sqlite"));
      copyFileSync(`${db}-wal`, path.join(ro, "s.sqlite-wal"));
      w.close();
      chmodSync(ro, 0o555);
      const out = path.join(dir, "out");
      mkdirSync(out, { mode: 0o777 });
      chmodSync(out, 0o777);
      // As an unprivileged user (root would write the directory anyway).
      const r = spawnSync(
        "setpriv",
        [
          "--reuid=65534",
          "--regid=65534",
          "--clear-groups",
          process.execPath,
          path.resolve("bin/build-api.js"),
          "build",
          "--db",
          path.join(ro, "s.sqlite"),
          "--out",
          path.join(out, "d"),
          "--now",
          NOW,
        ],
        { encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(EXIT.storeUnreadable);
      expect(r.stderr).toMatch(/WAL mode/);
      expect(r.stderr).toMatch(/PRAGMA journal_mode=DELETE/);
      expect(r.stderr).not.toMatch(/restore the store/);
      chmodSync(ro, 0o755);
    },
  );
});

describe("deploy --prefix", () => {
  it.each(["../", "./", "site/../../", "a/./b/"])(
    "%s is refused before anything is read or sent (exit 2, the segment named)",
    async (prefix) => {
      const r = await runCli([
        "deploy",
        "--bucket",
        "b",
        "--prefix",
        prefix,
        "--endpoint",
        "http://127.0.0.1:9",
      ]);
      expect(r.code, r.stderr).toBe(EXIT.usage);
      expect(r.stderr).toMatch(/--prefix/);
      expect(r.stderr).toMatch(/the segment '\.\.?' would place objects outside the prefix/);
    },
  );
});
