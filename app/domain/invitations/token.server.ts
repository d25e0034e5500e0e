// The invitation link's token (DESIGN.md §5): HMAC-signed, single use, stored only as a hash in
// Invitation.tokenHash with a 7-day expiry; resend issues a new one. The invitation life cycle
// itself (sending, resending, statuses) belongs to domain/invitations/invitation.server.ts.
import crypto from "node:crypto";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";

export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

const key = () =>
  crypto.createHmac("sha256", env.sessionSecret).update("invitation-token").digest();

function sign(payload: string) {
  return crypto.createHmac("sha256", key()).update(payload).digest("base64url");
}

export function hashInvitationToken(token: string) {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** A new token for an invitation: store `tokenHash` on it and send `token` in the link's param1. */
export function newInvitationToken(invitationId: string) {
  const payload = `${invitationId}.${crypto.randomBytes(16).toString("base64url")}`;
  const token = `${payload}.${sign(payload)}`;
  return {
    token,
    tokenHash: hashInvitationToken(token),
    expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
  };
}

export type InvitationForToken = {
  id: string;
  email: string;
  role: string;
  careSite: { id: string; name: string } | null;
};

/**
 * What a link's param1 stands for: the open invitation, "expired" (a real link that is no longer
 * usable: expired, used, withdrawn), or "invalid" (not one of ours).
 */
export async function findInvitationByToken(
  token: string | null,
  now = new Date(),
): Promise<InvitationForToken | "expired" | "invalid"> {
  if (!token || token.length > 200) return "invalid";
  const lastDot = token.lastIndexOf(".");
  if (lastDot < 0) return "invalid";
  const payload = token.slice(0, lastDot);
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(token.slice(lastDot + 1));
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given))
    return "invalid";
  const invitation = await prisma.invitation.findUnique({
    where: { tokenHash: hashInvitationToken(token) },
    select: {
      id: true,
      email: true,
      role: true,
      status: true,
      expiresAt: true,
      careSite: { select: { id: true, name: true } },
    },
  });
  if (!invitation) return "expired"; // signed by us, replaced by a resend since
  if (!["pending", "resend"].includes(invitation.status) || invitation.expiresAt <= now) {
    return "expired";
  }
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    careSite: invitation.careSite,
  };
}
