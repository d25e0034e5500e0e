// Migrates one template database for this run; every vitest worker copies it (STYLE.md "Tests
// that prove something"). Each run has its own folder, removed at the end.
import fs from "node:fs";
import path from "node:path";
import { applyMigrations, readMigrations } from "../../app/lib/migrate.server";
import { MIGRATIONS_DIR, TMP_DIR, templateDb } from "./paths";

export default function setup() {
  fs.mkdirSync(TMP_DIR, { recursive: true });
  // Folders of runs that were killed before their teardown.
  for (const entry of fs.readdirSync(TMP_DIR)) {
    const dir = path.join(TMP_DIR, entry);
    if (Date.now() - fs.statSync(dir).mtimeMs > 6 * 3_600_000)
      fs.rmSync(dir, { recursive: true, force: true });
  }
  const dir = fs.mkdtempSync(path.join(TMP_DIR, "run-"));
  process.env.ARC_TEST_RUN_DIR = dir;
  applyMigrations(templateDb(), readMigrations(MIGRATIONS_DIR));
  // One file: fold the WAL back so a plain copy is complete.
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(templateDb() + suffix, { force: true });
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
