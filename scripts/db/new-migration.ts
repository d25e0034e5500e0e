// Creates prisma/migrations/<timestamp>_<name>/migration.sql by diffing the schema as of the last
// migration (prisma/migrations/schema.snapshot.prisma) against prisma/schema.prisma, then makes the
// current schema the snapshot for the next diff.
// `prisma migrate dev` needs a shadow database and a native engine, neither of which works offline
// here (STACK-NOTES.md), so this is how migrations are made: `npm run db:migration -- add_x`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name in snake_case>");
  process.exit(2);
}

const migrationsDir = path.join("prisma", "migrations");
const snapshot = path.join(migrationsDir, "schema.snapshot.prisma");

const from = fs.existsSync(snapshot) ? ["--from-schema-datamodel", snapshot] : ["--from-empty"];
const sql = execFileSync(
  "npx",
  [
    "prisma",
    "migrate",
    "diff",
    ...from,
    "--to-schema-datamodel",
    "prisma/schema.prisma",
    "--script",
  ],
  { encoding: "utf8", env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false" } },
);
if (!/^\s*(CREATE|ALTER|DROP|INSERT|PRAGMA|UPDATE|DELETE)/im.test(sql)) {
  console.log("The schema has not changed since the last migration: nothing written.");
  process.exit(0);
}

const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name}`);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, "migration.sql"), sql);
fs.copyFileSync("prisma/schema.prisma", snapshot);
if (!fs.existsSync(path.join(migrationsDir, "migration_lock.toml"))) {
  fs.writeFileSync(path.join(migrationsDir, "migration_lock.toml"), 'provider = "sqlite"\n');
}
console.log(`Wrote ${path.join(dir, "migration.sql")}; ${snapshot} is now the current schema.`);
