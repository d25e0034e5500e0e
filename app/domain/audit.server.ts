// The audit trail: one AuditEvent row per event, written through `db`, so an event that belongs
// to a change is written in the change's own transaction (pass the transaction client). An event
// that belongs to no change (a page view) can go through auditAlone instead.
import type Database from "better-sqlite3";
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { uuidV7 } from "~/lib/ids";
import { runWrite } from "~/domain/devices/ingestDb.server";

export type AuditInput = {
  actorId?: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  careSiteId?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
  /** Defaults to now; a change that stamps its rows passes the same instant. */
  at?: Date;
};

/** The row's data (for batch transactions, `prisma.$transaction([...])`). */
export function auditData(input: AuditInput): Prisma.AuditEventUncheckedCreateInput {
  return {
    ...(input.at ? { at: input.at } : {}),
    actorId: input.actorId ?? null,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId,
    careSiteId: input.careSiteId ?? null,
    ip: input.ip ?? null,
    detail: input.detail ? JSON.stringify(input.detail) : null,
  };
}

export async function audit(
  input: AuditInput,
  db: Pick<Prisma.TransactionClient, "auditEvent"> = prisma,
) {
  await db.auditEvent.create({ data: auditData(input), select: { id: true } });
}

const inserts = new WeakMap<Database.Database, Database.Statement>();

/**
 * An event of its own (no change goes with it: a profile view), on the device API's writer
 * (devices/ingestDb.server.ts runWrite): one kept INSERT in the next group commit, resolved once
 * that commit is on disk, so the answer that follows is sent after its audit row is kept, as
 * before. Through Prisma each view paid the query compiler and a FULL commit's fsync on the main
 * thread; here concurrent views share a commit and its fsync runs off the main thread.
 */
export async function auditAlone(input: AuditInput) {
  const row = auditData(input);
  const at = (input.at ?? new Date()).getTime();
  await runWrite(({ db }) => {
    let insert = inserts.get(db);
    if (!insert) {
      insert = db.prepare(
        `INSERT INTO "AuditEvent" ("id", "at", "actorId", "action", "targetType", "targetId",
           "careSiteId", "ip", "detail")
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      inserts.set(db, insert);
    }
    insert.run(
      uuidV7(at),
      at,
      row.actorId ?? null,
      row.action,
      row.targetType ?? null,
      row.targetId ?? null,
      row.careSiteId ?? null,
      row.ip ?? null,
      row.detail ?? null,
    );
  });
}
