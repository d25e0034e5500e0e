// The invitation dialog and sending (spec 2 §2, §3): which roles the actor may offer an email,
// where they may invite it (access.server.ts careSitesInvitableBy, careSitesOpenToInvitee), and
// the invitations themselves with their emails. The dialog's rules are pure, in rules.ts; they
// are checked again here so that a forged form gets the same answer.
import crypto from "node:crypto";
import { careSitesInvitableBy, careSitesOpenToInvitee, type Actor } from "~/domain/access.server";
import type { Prisma } from "~/generated/prisma/client";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import {
  invitationMessages,
  needsCareSite,
  OPEN_INVITATION_STATUSES,
  roleOptionsForExistingUser,
  roleOptionsForNewEmail,
} from "~/domain/invitations/rules";
import { enqueue } from "~/lib/outbox.server";
import { ROLE_NAMES, type Role } from "~/domain/roles";
import { INVITATION_TTL_MS, newInvitationToken } from "~/domain/invitations/token.server";
import { recordEvent } from "~/domain/invitations/trail.server";
import { EMAIL_REGEX } from "~/lib/validation";
import { accountKey } from "~/domain/accounts/accountKey";

type Db = Prisma.TransactionClient;

const OPEN = [...OPEN_INVITATION_STATUSES];

function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}

/** The role of the account with this email, or null ("User not found" in the dialog). */
export async function findRoleByEmail(email: string): Promise<string | null> {
  const user = await prisma.user.findUnique({
    where: { emailKey: accountKey(email) },
    select: { role: true },
  });
  return user?.role ?? null;
}

/**
 * The dialog's role step for an email (after Next): the existing account's role, if any, and the
 * roles the actor may choose, or the spec's message when there is none.
 */
export async function invitationRoleOptions(
  actor: Actor,
  email: string,
): Promise<{ existingRole: string | null; options: Role[]; message?: string }> {
  const existingRole = await findRoleByEmail(email);
  if (existingRole === null) return { existingRole, options: roleOptionsForNewEmail(actor.role) };
  return { existingRole, ...roleOptionsForExistingUser(actor.role, existingRole) };
}

// ---------------------------------------------------------------------------------------------
// Care sites one may invite to
// ---------------------------------------------------------------------------------------------

const careSiteOptionSelect = { id: true, name: true, city: true, state: true, zip: true } as const;

export type InvitableCareSite = {
  id: string;
  name: string;
  city: string;
  state: string;
  zip: string;
};

/**
 * Care sites where the actor may invite this email (for `role`, when chosen): theirs to invite to
 * (access.server.ts careSitesInvitableBy) and not already the invitee's (careSitesOpenToInvitee).
 */
async function careSitesOpenTo(
  db: Db,
  actor: Actor,
  email: string,
  now: Date,
  role?: string,
): Promise<InvitableCareSite[]> {
  return db.careSite.findMany({
    where: { AND: [careSitesInvitableBy(actor, role), careSitesOpenToInvitee(email, now)] },
    select: careSiteOptionSelect,
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
}

/**
 * The care-site table of the dialog: where the actor may invite this email (as `role`, once
 * chosen), sorted by name.
 */
export function invitableCareSites(actor: Actor, inviteeEmail: string, role?: string) {
  return careSitesOpenTo(prisma, actor, normalizeEmail(inviteeEmail), new Date(), role);
}

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

export type SendInvitationsInput = { email: string; role: string; careSiteIds: string[] };
export type SendInvitationsResult = { ok: true; count: number } | { ok: false; message: string };

type Created = { id: string; token: string; careSiteName: string | null };

/**
 * Sends one invitation per chosen care site (one without a care site for an ABM admin), each with
 * its own link, in one transaction: either every invitation is created or none. Refusals are the
 * dialog's rules (domain/invitations/rules.ts) checked again here, so a forged form gets the same answer.
 * The emails are queued after the commit.
 */
export async function sendInvitations(
  actor: Actor,
  input: SendInvitationsInput,
  options: { ip?: string | null } = {},
): Promise<SendInvitationsResult> {
  const email = normalizeEmail(input.email);
  if (email.length > 254 || !EMAIL_REGEX.test(email)) {
    return { ok: false, message: invitationMessages.invalidEmail };
  }
  const role = input.role.trim().toLowerCase();
  const careSiteIds = [...new Set(input.careSiteIds)];

  type Outcome =
    | { ok: false; message: string }
    | { ok: true; created: Created[]; inviterName: string; existingAccount: boolean };
  const outcome = await readWriteTransaction(async (tx): Promise<Outcome> => {
    const now = new Date();
    const existing = await tx.user.findUnique({
      where: { emailKey: accountKey(email) },
      select: { role: true },
    });
    const allowed = existing
      ? roleOptionsForExistingUser(actor.role, existing.role)
      : { options: roleOptionsForNewEmail(actor.role), message: undefined };
    if (!(allowed.options as string[]).includes(role)) {
      return { ok: false, message: allowed.message ?? invitationMessages.roleNotAllowed };
    }

    let sites: ({ id: string; name: string } | null)[];
    if (needsCareSite(role)) {
      const open = await careSitesOpenTo(tx, actor, email, now, role);
      if (open.length === 0) return { ok: false, message: invitationMessages.noCareSitesToInvite };
      if (careSiteIds.length === 0)
        return { ok: false, message: invitationMessages.careSiteRequired };
      const byId = new Map(open.map((site) => [site.id, site]));
      if (!careSiteIds.every((id) => byId.has(id))) {
        return { ok: false, message: invitationMessages.careSiteNotAvailable };
      }
      sites = careSiteIds.map((id) => byId.get(id)!);
    } else {
      // An ABM admin invitation has no care site; the chosen care sites (if any) do not apply.
      const waiting = await tx.invitation.count({
        where: { email, careSiteId: null, status: { in: OPEN }, expiresAt: { gt: now } },
      });
      if (waiting > 0) return { ok: false, message: invitationMessages.alreadyInvited };
      sites = [null];
    }

    const inviter = await tx.user.findUniqueOrThrow({
      where: { id: actor.id },
      select: { firstName: true, lastName: true },
    });
    const created: Created[] = [];
    for (const site of sites) {
      // The token names the invitation's id, so the row exists before its token does.
      const row = await tx.invitation.create({
        data: {
          email,
          role,
          careSiteId: site?.id ?? null,
          invitedById: actor.id,
          status: "pending",
          tokenHash: `unset:${crypto.randomBytes(16).toString("hex")}`,
          expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        },
        select: { id: true },
      });
      const { token, tokenHash, expiresAt } = newInvitationToken(row.id);
      await tx.invitation.update({ where: { id: row.id }, data: { tokenHash, expiresAt } });
      await recordEvent(tx, {
        actorId: actor.id,
        action: "invitation.sent",
        invitationId: row.id,
        careSiteId: site?.id ?? null,
        ip: options.ip,
        detail: { email, role },
      });
      created.push({ id: row.id, token, careSiteName: site?.name ?? null });
    }
    return {
      ok: true,
      created,
      inviterName: `${inviter.firstName} ${inviter.lastName}`,
      existingAccount: existing !== null,
    };
  });
  if (!outcome.ok) return outcome;

  for (const invitation of outcome.created) {
    await enqueue(
      invitationEmail({
        to: email,
        role,
        inviterName: outcome.inviterName,
        careSiteName: invitation.careSiteName,
        token: invitation.token,
        existingAccount: outcome.existingAccount,
      }),
    );
  }
  return { ok: true, count: outcome.created.length };
}

/** The link a new user registers from; an existing account is told there to sign in. */
export function invitationLink(token: string) {
  return `${env.publicUrl}/acceptinvite?param1=${encodeURIComponent(token)}`;
}

export function invitationEmail(i: {
  to: string;
  role: string;
  inviterName: string;
  careSiteName: string | null;
  token: string;
  existingAccount: boolean;
}) {
  const link = invitationLink(i.token);
  const place = i.careSiteName ? ` at the care site ${i.careSiteName}` : "";
  const lines = [
    "Hello,",
    "",
    `${i.inviterName} invited you to ARC Connect as ${ROLE_NAMES[i.role] ?? i.role}${place}.`,
    "",
    i.existingAccount
      ? `You already have an ARC Connect account. Sign in and accept it under Invitations: ${link}`
      : `Accept the invitation and create your account here: ${link}`,
    "",
    "The invitation is valid for 7 days. If you did not expect it, ignore this email.",
  ];
  return {
    channel: "email" as const,
    to: i.to,
    subject: "You are invited to ARC Connect",
    body: lines.join("\n"),
  };
}
