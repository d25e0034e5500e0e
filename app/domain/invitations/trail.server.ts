// The audit trail of invitations: every transition writes its event in the same transaction, and
// that trail is part of the state (an invitee's own Deactivate is told from a sender's revoke by it).
import type { Prisma } from "~/generated/prisma/client";
import { audit } from "~/domain/audit.server";

type Db = Prisma.TransactionClient;

/**
 * Of these (blocked) invitations, the ones the invitee paused with Deactivate and may Reactivate.
 * Deactivate and Reactivate alternate, and a revoke or remove (by the sender, or by
 * endInvitationsForMembership) is final: nothing leads out of it. So an invitation is paused
 * exactly when deactivations - reactivations - revokes - removals > 0, whatever the order of
 * its events (two events in the same millisecond cannot confuse it).
 */
export async function pausedByInvitee(db: Db, invitationIds: string[]): Promise<Set<string>> {
  if (invitationIds.length === 0) return new Set();
  const counts = await db.auditEvent.groupBy({
    by: ["targetId", "action"],
    where: {
      targetType: "invitation",
      targetId: { in: invitationIds },
      action: {
        in: [
          "invitation.deactivate",
          "invitation.reactivate",
          "invitation.revoke",
          "invitation.remove",
        ],
      },
    },
    _count: { _all: true },
  });
  const balance = new Map<string, number>();
  for (const row of counts) {
    if (!row.targetId) continue;
    const sign = row.action === "invitation.deactivate" ? 1 : -1;
    balance.set(row.targetId, (balance.get(row.targetId) ?? 0) + sign * row._count._all);
  }
  return new Set([...balance].filter(([, n]) => n > 0).map(([id]) => id));
}

/**
 * The audit row of an invitation event, written in the caller's transaction: the trail is part of
 * the state that pausedByInvitee reads.
 */
export function recordEvent(
  tx: Db,
  e: {
    actorId: string;
    action: string;
    invitationId: string;
    careSiteId: string | null;
    ip?: string | null;
    detail: Record<string, unknown>;
  },
) {
  const { invitationId, ...event } = e;
  return audit({ ...event, targetType: "invitation", targetId: invitationId }, tx);
}
