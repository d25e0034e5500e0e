// The jobs' raw SQL, in one place: the statements Prisma's client cannot say. Each is a tagged
// template (values bound as parameters, Dates bound as the client binds them) and portable
// between SQLite and PostgreSQL unless its comment says otherwise.
import type { JobLease, PrismaClient } from "~/generated/prisma/client";

type Db = Pick<PrismaClient, "$executeRaw" | "$queryRaw">;

/**
 * Writes `lease` if no row holds its name, or the row is this holder's, or the row expired before
 * `now`; otherwise changes nothing. One statement, so two processes can never both take it.
 * Returns the number of rows written: 1 when `lease.holder` now holds the lease, 0 when not.
 */
export function takeLeaseIfFree(
  db: Pick<Db, "$executeRaw">,
  lease: Pick<JobLease, "name" | "holder" | "expiresAt">,
  now: Date,
): Promise<number> {
  // The DO UPDATE's WHERE leaves another holder's live lease alone: then no row changes.
  return db.$executeRaw`
    INSERT INTO "JobLease" ("name", "holder", "expiresAt")
    VALUES (${lease.name}, ${lease.holder}, ${lease.expiresAt})
    ON CONFLICT ("name") DO UPDATE SET "holder" = excluded."holder", "expiresAt" = excluded."expiresAt"
    WHERE "JobLease"."holder" = excluded."holder" OR "JobLease"."expiresAt" < ${now}`;
}

/** The database answers (any error or a hang is the caller's to time out). */
export function ping(db: Pick<Db, "$queryRaw">): Promise<unknown> {
  return db.$queryRaw`SELECT 1`;
}

/** A row of Prisma's own migration table (it has no model: Prisma and migrate.server.ts own it). */
type MigrationRow = { migration_name: string };

/** The names of the migrations recorded as finished and not rolled back. */
export async function finishedMigrations(db: Pick<Db, "$queryRaw">): Promise<string[]> {
  const rows = await db.$queryRaw<MigrationRow[]>`
    SELECT migration_name FROM _prisma_migrations
    WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  return rows.map((row) => row.migration_name);
}

/**
 * Lets SQLite refresh the query planner's statistics (its advice for long-lived connections).
 * SQLite only: PostgreSQL's autovacuum does this (run ANALYZE there instead).
 */
export function optimizeQueryPlanner(db: Pick<Db, "$executeRaw">): Promise<number> {
  return db.$executeRaw`PRAGMA optimize`;
}
