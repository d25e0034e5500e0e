// The devices area's raw SQL through Prisma: what its client cannot express. (The device API's
// ingest writes through its own better-sqlite3 connection instead: ingestDb.server.ts.)
import { Prisma, type Device } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";

/**
 * The devices whose serial equals `serial` in any letter case (at most two are asked for: the
 * exact one and one other). Prisma's client has no case-insensitive equality on SQLite; lower()
 * on both sides reads the same on PostgreSQL (serials are ASCII letters and digits).
 */
export function devicesBySerialIgnoringCase(serial: string) {
  return prisma.$queryRaw<Pick<Device, "id" | "serial">[]>(Prisma.sql`
    SELECT "id", "serial" FROM "Device" WHERE lower("serial") = lower(${serial}) LIMIT 2`);
}
