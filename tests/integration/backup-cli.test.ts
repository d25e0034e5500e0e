// The command line's backup and restore (server/backup.ts) on real database files, and the command
// line itself as a process (server.ts through tsx): its config file and its exit codes. The release
// binary runs the same code; tests/binary/smoke.test.ts covers it end to end.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, migrationsDir, readMigrations } from "~/lib/migrate.server";
import { backupDatabase, markServing, restoreDatabase, serversUsing } from "../../server/backup";

const ROOT = path.resolve(__dirname, "..", "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "arc-backup-cli-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A migrated database in a data folder of its own, with `users` rows in User. */
function dataDir(users = 1) {
  const dir = path.join(tmp, `data-${++n}`);
  const file = path.join(dir, "arc.db");
  applyMigrations(file, readMigrations(migrationsDir()));
  const db = new Database(file);
  const insert = db.prepare(
    `INSERT INTO "User" (id, username, email, phone, passwordHash, role, firstName, lastName, createdAt, updatedAt)
     VALUES (?, ?, ?, '15125550100', 'x', 'clinician', 'Test', 'User', 0, 0)`,
  );
  for (let i = 0; i < users; i++) insert.run(`u${n}-${i}`, `user${n}-${i}`, `u${n}-${i}@x.test`);
  db.close();
  return { dir, file };
}

const count = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM "User"`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("backup", () => {
  it("copies the database while another connection keeps writing, as one consistent snapshot", async () => {
    const { file } = dataDir(100);
    const writer = new Database(file);
    writer.pragma("journal_mode = WAL");
    const insert = writer.prepare(
      `INSERT INTO "User" (id, username, email, phone, passwordHash, role, firstName, lastName, createdAt, updatedAt)
       VALUES (?, ?, ?, '15125550100', 'x', 'clinician', 'Late', 'Writer', 0, 0)`,
    );
    let i = 0;
    const timer = setInterval(() => insert.run(`w${i}`, `writer${i}`, `w${i++}@x.test`), 1);
    const target = path.join(tmp, "backups", "one.db");
    try {
      const result = await backupDatabase(file, target);
      expect(result.file).toBe(target);
      expect(result.bytes).toBeGreaterThan(0);
    } finally {
      clearInterval(timer);
      writer.close();
    }
    const copied = count(target);
    expect(copied).toBeGreaterThanOrEqual(100);
    expect(copied).toBeLessThanOrEqual(100 + i);
    expect(fs.readdirSync(path.dirname(target))).toEqual(["one.db"]); // no partial file left
  });

  it("refuses a missing database and leaves nothing under the target's name", async () => {
    const target = path.join(tmp, "backups", "none.db");
    await expect(backupDatabase(path.join(tmp, "nowhere", "arc.db"), target)).rejects.toThrow(
      "No database at",
    );
    expect(fs.existsSync(target)).toBe(false);
  });
});

describe("restore", () => {
  it("replaces the database, keeping the one it replaced", async () => {
    const source = dataDir(3);
    const target = dataDir(7);
    const result = await restoreDatabase(target.dir, source.file);
    expect(count(target.file)).toBe(3);
    expect(result.previous).toMatch(/arc\.db\.before-restore-/);
    expect(count(result.previous!)).toBe(7);
  });

  it("is refused while a server of this host uses the data folder, and allowed once it is gone", async () => {
    const source = dataDir(2);
    const target = dataDir(5);
    // A live process: this test's own pid stands for a running server.
    markServing(target.dir);
    expect(serversUsing(target.dir)).toEqual([`pid ${process.pid}`]);
    await expect(restoreDatabase(target.dir, source.file)).rejects.toThrow(
      /Refusing to restore: a server is using .* \(pid \d+\)/,
    );
    expect(count(target.file)).toBe(5);
    // A marker left by a server that crashed (no such process) is cleared, not obeyed.
    const serving = path.join(target.dir, ".serving");
    fs.rmSync(serving, { recursive: true });
    fs.mkdirSync(serving);
    const dead = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], {
      encoding: "utf8",
    });
    fs.writeFileSync(path.join(serving, `${os.hostname()}.${dead.stdout.trim()}`), "");
    await restoreDatabase(target.dir, source.file);
    expect(count(target.file)).toBe(2);
    expect(fs.readdirSync(serving)).toEqual([]);
  });

  it("refuses a marker of another host and a file that is not an ARC Connect database", async () => {
    const target = dataDir(1);
    const serving = path.join(target.dir, ".serving");
    fs.mkdirSync(serving, { recursive: true });
    fs.writeFileSync(path.join(serving, "other-vm.example.1234"), "");
    await expect(restoreDatabase(target.dir, dataDir(1).file)).rejects.toThrow(
      "pid 1234 on other-vm.example",
    );
    fs.rmSync(serving, { recursive: true });
    const notADatabase = path.join(tmp, "notes.txt");
    fs.writeFileSync(notADatabase, "hello");
    await expect(restoreDatabase(target.dir, notADatabase)).rejects.toThrow(
      "is not an ARC Connect database",
    );
    expect(count(target.file)).toBe(1);
  });
});

describe("the command line", () => {
  const cli = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "server.ts", ...args],
        { cwd: ROOT, env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", ...env } },
      );
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      child.on("exit", (code) => resolve({ code, output }));
    });

  it("reads --config's file, and a variable set in the environment wins over it", async () => {
    const fromFile = path.join(tmp, "from-config");
    const fromEnv = path.join(tmp, "from-env");
    const config = path.join(tmp, "arc-connect.env");
    fs.writeFileSync(config, `# settings\nDATA_DIR=${fromFile}\n`);
    const first = await cli(["--config", config, "migrate"], {});
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain(`Applied to ${path.join(fromFile, "arc.db")}`);
    const again = await cli(["--config", config, "migrate"], { DATA_DIR: fromEnv });
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain(path.join(fromEnv, "arc.db"));
    expect(fs.existsSync(path.join(fromEnv, "arc.db"))).toBe(true);
  });

  it("refuses to restore into a data folder a server uses with one line, no stack trace", async () => {
    const source = dataDir(2);
    const target = dataDir(3);
    markServing(target.dir); // this test process stands for the running server
    const refused = await cli(["restore", source.file], { DATA_DIR: target.dir });
    expect(refused.code).toBe(1);
    expect(refused.output.trim()).toMatch(/^Refusing to restore: a server is using .* \(pid \d+\)/);
    expect(refused.output.trim().split("\n")).toHaveLength(1);
    expect(refused.output).not.toMatch(/\n\s+at /);
    expect(count(target.file)).toBe(3);
  });

  it("does not start on a damaged database: one clear line and exit code 1", async () => {
    const garbage = path.join(tmp, "garbage");
    fs.mkdirSync(garbage);
    fs.writeFileSync(path.join(garbage, "arc.db"), Buffer.alloc(64 * 1024, 0x5a));
    const truncated = dataDir(200);
    const db = new Database(truncated.file);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    fs.truncateSync(truncated.file, Math.floor(fs.statSync(truncated.file).size / 2));
    for (const dir of [garbage, truncated.dir]) {
      const started = await cli(["serve"], { DATA_DIR: dir });
      expect(started.code, started.output).toBe(1);
      const lines = started.output.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^The database ${dir}/arc.db is damaged or not an SQLite database \\(.+\\); nothing was started\\.`,
        ),
      );
    }
  });

  it("answers an unknown command and a missing config file with a usage error", async () => {
    const unknown = await cli(["frobnicate"], { DATA_DIR: path.join(tmp, "unused") });
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain("Unknown command: frobnicate");
    expect(unknown.output).toContain("Usage: arc-connect");
    const missing = await cli(["--config", path.join(tmp, "nope.env"), "migrate"], {});
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("Config file not found");
  });
});
