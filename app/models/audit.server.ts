import { prisma } from "~/lib/db.server";

export type AuditInput = {
  actorId?: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  careSiteId?: string;
  ip?: string | null;
  detail?: Record<string, unknown>;
};

export async function audit(input: AuditInput) {
  await prisma.auditEvent.create({
    data: {
      actorId: input.actorId ?? null,
      action: input.action,
      targetType: input.targetType,
      targetId: input.targetId,
      careSiteId: input.careSiteId,
      ip: input.ip ?? null,
      detail: input.detail ? JSON.stringify(input.detail) : null,
    },
  });
}
