// `arc-connect backup` and `restore`, and the marker files by which a restore knows that a server
// is using the database (docs/operations.md "Backups").
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

/** A refusal or a bad file: the command line prints its message alone (no stack trace). */
export class BackupError extends Error {
  readonly name = "BackupError";
}

const SERVING_DIR = ".serving";

/** Checks that `file` is a readable, intact ARC Connect database; returns its size. */
function checkDatabase(file: string) {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new Error(`integrity check: ${String(check)}`);
    const migrations = db
      .prepare(`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = '_prisma_migrations'`)
      .get() as { n: number };
    if (!migrations.n) throw new Error("it has no _prisma_migrations table");
  } catch (error) {
    throw new BackupError(`${file} is not an ARC Connect database: ${(error as Error).message}`);
  } finally {
    db?.close();
  }
  return fs.statSync(file).size;
}

/**
 * Copies the live database with SQLite's online backup API: a consistent snapshot even while the
 * portal writes. The copy is written beside the target and renamed into place once checked, so a
 * failed backup never leaves a partial file under the target's name.
 */
export async function backupDatabase(databaseFile: string, target: string) {
  if (!fs.existsSync(databaseFile)) throw new BackupError(`No database at ${databaseFile}`);
  const file = path.resolve(target);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  // Not opened read-only: a read-only connection cannot always join the write-ahead log.
  const db = new Database(databaseFile, { fileMustExist: true });
  try {
    await db.backup(partial);
    // A file of its own: the copy leaves write-ahead-log mode, so no -wal or -shm goes with it.
    const copy = new Database(partial);
    copy.pragma("journal_mode = DELETE");
    copy.close();
    const bytes = checkDatabase(partial);
    fs.renameSync(partial, file);
    return { file, bytes };
  } finally {
    db.close();
    for (const suffix of ["", "-wal", "-shm", "-journal"])
      fs.rmSync(partial + suffix, { force: true });
  }
}

/** Servers using `dataDir` right now on this host, and markers left by other hosts. */
export function serversUsing(dataDir: string) {
  const dir = path.join(dataDir, SERVING_DIR);
  const found: string[] = [];
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const [host, pid] = [name.slice(0, name.lastIndexOf(".")), Number(name.split(".").pop())];
    if (host !== os.hostname()) {
      found.push(`pid ${pid} on ${host}`);
      continue;
    }
    try {
      process.kill(pid, 0); // signal 0: only asks whether the process exists
      found.push(`pid ${pid}`);
    } catch {
      fs.rmSync(path.join(dir, name), { force: true }); // left by a server that crashed
    }
  }
  return found;
}

/** Marks `dataDir` as used by this process until it exits. */
export function markServing(dataDir: string) {
  const dir = path.join(dataDir, SERVING_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const marker = path.join(dir, `${os.hostname()}.${process.pid}`);
  fs.writeFileSync(marker, new Date().toISOString());
  process.on("exit", () => fs.rmSync(marker, { force: true }));
}

/**
 * Replaces DATA_DIR/arc.db with a backup. Refused while a server uses the data directory. The
 * replaced database is kept as arc.db.before-restore-<time>; pending migrations of an older
 * backup are applied when the portal next starts.
 */
export async function restoreDatabase(dataDir: string, source: string) {
  const running = serversUsing(dataDir);
  if (running.length) {
    throw new BackupError(
      `Refusing to restore: a server is using ${dataDir} (${running.join(", ")}). ` +
        `Stop it first (systemctl stop arc-connect). If that server is gone, delete ${path.join(dataDir, SERVING_DIR)}.`,
    );
  }
  const from = path.resolve(source);
  checkDatabase(from);
  const databaseFile = path.join(dataDir, "arc.db");
  fs.mkdirSync(dataDir, { recursive: true });
  const incoming = `${databaseFile}.restoring-${process.pid}`;
  const src = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await src.backup(incoming);
  } finally {
    src.close();
  }
  let previous: string | null = null;
  try {
    if (fs.existsSync(databaseFile)) {
      // Fold the write-ahead log into the file so the kept copy is whole on its own.
      const old = new Database(databaseFile, { fileMustExist: true });
      old.pragma("wal_checkpoint(TRUNCATE)");
      old.close();
      previous = `${databaseFile}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      fs.renameSync(databaseFile, previous);
    }
    for (const suffix of ["-wal", "-shm"]) fs.rmSync(databaseFile + suffix, { force: true });
    fs.renameSync(incoming, databaseFile);
  } finally {
    fs.rmSync(incoming, { force: true });
  }
  return { databaseFile, source: from, previous };
}
