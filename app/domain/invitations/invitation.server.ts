// Invitations (spec 2 §2-§5, §7; DESIGN.md §5): the badge's count and the status changes of the
// §4 table. Every function takes the Actor and scopes inside the Prisma `where` with the access
// module's fragments (domain/access.server.ts invitationsSentBy, invitationsReceivedBy), so a
// route cannot forget it. The sender's powers follow their membership: a sender removed from a
// care site no longer sees or acts on what they sent for it. The state machine is pure, in
// rules.ts; sending and the dialog are in send.server.ts, the lists in lists.server.ts, the audit
// trail a transition writes (and reads) in trail.server.ts, the link's token in token.server.ts.
//
// Invitation and Membership both have a status (docs/decisions.md): Membership decides access,
// the invitation carries the state machine; a transition changes both in one transaction, with
// its audit event.
import {
  currentMembership,
  invitationsReceivedBy,
  invitationsSentBy,
  type Actor,
} from "~/domain/access.server";
import type { Prisma } from "~/generated/prisma/client";
import { readWriteTransaction } from "~/lib/db.server";
import { readRow } from "~/lib/reader.server";
import {
  invitationMessages,
  isInvitationAction,
  OPEN_INVITATION_STATUSES,
  sideOfAction,
  transition,
  type InvitationAction,
  type InvitationStatus,
} from "~/domain/invitations/rules";
import { enqueue } from "~/lib/outbox.server";
import { accountKey } from "~/domain/accounts/accountKey";
import { newInvitationToken } from "~/domain/invitations/token.server";
import { invitationDetailSelect } from "~/domain/invitations/lists.server";
import { invitationEmail } from "~/domain/invitations/send.server";
import { pausedByInvitee, recordEvent } from "~/domain/invitations/trail.server";

type Db = Prisma.TransactionClient;

/** The signed-in user acting on invitations: their Actor (the email is whose invitations they receive). */
export type InvitationActor = Actor;

const OPEN = [...OPEN_INVITATION_STATUSES];

/**
 * Pending invitations the user has received and can still accept (the Invitations badge): every
 * page of the shell shows it, so it is a kept statement on the request path's read connection
 * (lib/reader.server.ts) over the (email, status) index.
 */
export async function countPendingInvitations(email: string, now = new Date()) {
  const row = readRow<{ n: number | bigint }>(
    `SELECT COUNT(*) AS n FROM "Invitation"
     WHERE "email" = ? AND "status" IN (${OPEN.map(() => "?").join(", ")}) AND "expiresAt" > ?`,
    email.toLowerCase(),
    ...OPEN,
    now.getTime(),
  );
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Status changes (spec 2 §4)
// ---------------------------------------------------------------------------------------------

export type InvitationActionResult =
  | { ok: true; status: InvitationStatus; command?: "UPDATE" }
  | { ok: false; notFound: true }
  | { ok: false; notFound?: false; message: string };

/**
 * How the invitee's membership at the care site follows a transition, when it exists and is in
 * one of the `from` statuses. Accept and reactivate make it (upsert); the others never create one.
 * Remove and reject end a pending membership so that the care site can be offered again; resend
 * reopens a rejected one.
 */
const MEMBERSHIP_FOLLOWS: Partial<Record<InvitationAction, { from: string[]; to: string }>> = {
  resend: { from: ["rejected"], to: "pending" },
  remove: { from: ["pending"], to: "blocked" },
  reject: { from: ["pending"], to: "rejected" },
  revoke: { from: ["accepted"], to: "blocked" },
  deactivate: { from: ["accepted"], to: "blocked" },
};

/**
 * Applies one action of the §4 table. Sent-side actions (resend, remove, revoke) belong to the
 * invitation's sender only, and only while they may still invite that role at its care site
 * (access.server.ts invitationsSentBy; a global role for an invitation without one);
 * received-side ones (accept, reject, deactivate, reactivate) to the invitee only (the
 * invitation's email is the actor's): anyone else gets `notFound`, as if the invitation did not
 * exist.
 *
 * Reactivate undoes only the invitee's own Deactivate: an invitation the sender revoked or
 * withdrew (also "blocked") stays blocked, or a revoke would not end access. The schema has no
 * column for who blocked it; the invitation's audit trail, written in the same transaction as
 * every transition, tells (see pausedByInvitee).
 *
 * command "UPDATE" (the spec's isAssociatedClinic flip): returned when the transition changed
 * whether the invitee holds at least one accepted membership at an active care site, i.e. they
 * just got their first one (accept, reactivate) or just lost their last one (revoke, deactivate).
 * It concerns the invitee; for a sender's revoke it says the invitee's menu changes, not the
 * sender's.
 */
export async function applyInvitationAction(
  actor: InvitationActor,
  invitationId: string,
  action: InvitationAction,
  options: { ip?: string | null } = {},
): Promise<InvitationActionResult> {
  if (!isInvitationAction(action))
    return { ok: false, message: invitationMessages.actionNotAvailable };
  const side = sideOfAction(action);

  type Outcome =
    | Exclude<InvitationActionResult, { ok: true }>
    | {
        ok: true;
        status: InvitationStatus;
        command?: "UPDATE";
        resent: Parameters<typeof invitationEmail>[0] | null;
      };
  const outcome = await readWriteTransaction(async (tx): Promise<Outcome> => {
    const now = new Date();
    const invitation = await tx.invitation.findFirst({
      where: {
        AND: [
          { id: invitationId },
          side === "sent" ? invitationsSentBy(actor) : invitationsReceivedBy(actor),
        ],
      },
      select: invitationDetailSelect,
    });
    if (!invitation) return { ok: false, notFound: true };
    const next = transition(side, invitation.status, action);
    const refuse = (message: string): Outcome => ({ ok: false, message });
    if (!next) return refuse(invitationMessages.actionNotAvailable);
    if (action === "reactivate" && !(await pausedByInvitee(tx, [invitation.id])).has(invitation.id))
      return refuse(invitationMessages.actionNotAvailable);
    if (action === "accept" && invitation.expiresAt <= now)
      return refuse(invitationMessages.linkExpired);

    const invitee = await tx.user.findUnique({
      where: { emailKey: accountKey(invitation.email) },
      select: { id: true, role: true },
    });
    if (side === "received" && !invitee) return { ok: false, notFound: true };
    if (action === "accept" && invitee!.role !== invitation.role)
      return refuse(invitationMessages.roleMismatch);

    const data: Prisma.InvitationUpdateInput = { status: next };
    let resentToken: string | null = null;
    if (action === "resend") {
      const issued = newInvitationToken(invitation.id);
      resentToken = issued.token;
      data.tokenHash = issued.tokenHash;
      data.expiresAt = issued.expiresAt;
    }

    const siteId = invitation.careSiteId;
    const tracksAccess = invitee !== null && siteId !== null;
    const before = tracksAccess ? await isAssociated(tx, invitee.id) : false;
    if (tracksAccess) {
      const membershipId = await moveMembership(tx, action, {
        careSiteId: siteId,
        userId: invitee.id,
        role: invitation.role,
        now,
      });
      if (membershipId) data.membership = { connect: { id: membershipId } };
    }
    await tx.invitation.update({ where: { id: invitation.id }, data, select: { id: true } });
    await recordEvent(tx, {
      actorId: actor.id,
      action: `invitation.${action}`,
      invitationId: invitation.id,
      careSiteId: siteId,
      ip: options.ip,
      detail: { from: invitation.status, to: next, email: invitation.email },
    });
    const after = tracksAccess ? await isAssociated(tx, invitee.id) : false;
    return {
      ok: true,
      status: next,
      ...(before !== after ? { command: "UPDATE" as const } : {}),
      resent: resentToken
        ? {
            to: invitation.email,
            role: invitation.role,
            inviterName: `${invitation.invitedBy.firstName} ${invitation.invitedBy.lastName}`,
            careSiteName: invitation.careSite?.name ?? null,
            token: resentToken,
            existingAccount: invitee !== null,
          }
        : null,
    };
  });
  if (!outcome.ok) return outcome;
  const { resent, ...result } = outcome;
  if (resent) await enqueue(invitationEmail(resent));
  return result;
}

/** Moves the invitee's membership along with the invitation; returns its id when one is affected. */
async function moveMembership(
  tx: Db,
  action: InvitationAction,
  m: { careSiteId: string; userId: string; role: string; now: Date },
): Promise<string | null> {
  const where = { careSiteId_userId: { careSiteId: m.careSiteId, userId: m.userId } };
  if (action === "accept" || action === "reactivate") {
    const membership = await tx.membership.upsert({
      where,
      create: {
        careSiteId: m.careSiteId,
        userId: m.userId,
        role: m.role,
        status: "accepted",
        acceptedAt: m.now,
      },
      // Reactivating keeps the date of the first acceptance.
      update:
        action === "accept"
          ? { status: "accepted", role: m.role, acceptedAt: m.now }
          : { status: "accepted" },
      select: { id: true },
    });
    return membership.id;
  }
  const follows = MEMBERSHIP_FOLLOWS[action];
  if (!follows) return null;
  const membership = await tx.membership.findUnique({ where, select: { id: true, status: true } });
  if (!membership || !follows.from.includes(membership.status)) return null;
  await tx.membership.update({
    where: { id: membership.id },
    data: { status: follows.to },
    select: { id: true },
  });
  return membership.id;
}

/** isAssociatedClinic: an accepted membership at an active care site. */
async function isAssociated(tx: Db, userId: string) {
  const membership = await tx.membership.findFirst({
    where: currentMembership({ userId }),
    select: { id: true },
  });
  return membership !== null;
}

/**
 * For the screens that end a user's place at a care site some other way (the care site view's
 * Remove): call it in the same transaction that blocks the membership. It ends the invitations
 * that stand for that place as the sender's Remove and Revoke would: open ones and accepted
 * ones, and also one the invitee paused, so that Reactivate cannot bring the access back.
 * Returns how many invitations it ended.
 */
export async function endInvitationsForMembership(
  tx: Db,
  input: { careSiteId: string; userId: string; actorId: string; ip?: string | null },
) {
  const user = await tx.user.findUnique({ where: { id: input.userId }, select: { email: true } });
  if (!user) return 0;
  const invitations = await tx.invitation.findMany({
    where: {
      careSiteId: input.careSiteId,
      email: user.email,
      status: { in: [...OPEN, "accepted", "blocked"] },
    },
    select: { id: true, status: true },
  });
  const paused = await pausedByInvitee(
    tx,
    invitations.filter((i) => i.status === "blocked").map((i) => i.id),
  );
  let ended = 0;
  for (const invitation of invitations) {
    if (invitation.status === "blocked" && !paused.has(invitation.id)) continue;
    await tx.invitation.update({
      where: { id: invitation.id },
      data: { status: "blocked" },
      select: { id: true },
    });
    await recordEvent(tx, {
      actorId: input.actorId,
      action: (OPEN as string[]).includes(invitation.status)
        ? "invitation.remove"
        : "invitation.revoke",
      invitationId: invitation.id,
      careSiteId: input.careSiteId,
      ip: input.ip,
      detail: { from: invitation.status, to: "blocked", email: user.email, membershipEnded: true },
    });
    ended++;
  }
  return ended;
}
