// The audit trail: one AuditEvent row per event, written through `db`, so an event that belongs
// to a change is written in the change's own transaction (pass the transaction client).
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";

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
