import { prisma } from "~/lib/db.server";

/** Pending invitations the user has received and can still accept (the Invitations badge). */
export function countPendingInvitations(email: string, now = new Date()) {
  return prisma.invitation.count({
    where: {
      email: email.toLowerCase(),
      status: { in: ["pending", "resend"] },
      expiresAt: { gt: now },
    },
  });
}
