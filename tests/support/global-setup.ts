// Migrates one template database; every vitest worker copies it (STYLE.md "Tests that prove something").
import fs from "node:fs";
import { applyMigrations, readMigrations } from "../../app/lib/migrate.server";
import { MIGRATIONS_DIR, TEMPLATE_DB, TMP_DIR } from "./paths";

export default function setup() {
  fs.rmSync(TMP_DIR, { recursive: true, force: true });
  fs.mkdirSync(TMP_DIR, { recursive: true });
  applyMigrations(TEMPLATE_DB, readMigrations(MIGRATIONS_DIR));
  // One file: fold the WAL back so a plain copy is complete.
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(TEMPLATE_DB + suffix, { force: true });
}
