// Registration (spec 1 §2.10, §4.3, §5.3): self-registration makes a clinician; an invitation
// decides role and care site. The phone is verified with a 4-digit code before the account exists;
// the account (and, when invited, its membership and the accepted invitation) is created in one
// transaction, so there are never half-created users.
import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { enqueue } from "~/lib/outbox.server";
import { consumeForIp, rates, TOO_MANY_REQUESTS } from "~/lib/throttle.server";
import { audit } from "~/domain/audit.server";
import { findInvitationByToken } from "~/domain/invitations/token.server";
import { attemptCode, issueCode, reissueCode } from "~/domain/accounts/oneTimeCode.server";
import { messages as signInMessages } from "~/domain/accounts/signIn.server";
import { hashPassword } from "~/domain/accounts/user.server";
import { accountMessages } from "~/domain/accounts/schema";
import { storedPhone } from "~/domain/phone";
import { accountKey } from "~/domain/accounts/accountKey";

export type RegistrationInput = {
  username: string;
  password: string;
  firstName: string;
  lastName: string;
  phone: string; // digits with the country code
  email: string;
};

type Pending = Omit<RegistrationInput, "password"> & {
  passwordHash: string;
  role: string;
  careSiteId: string | null;
  invitationId: string | null;
};

export type FieldErrors = Partial<Record<keyof RegistrationInput, string>>;

/** Which of username, email and phone are taken (the messages of spec 1 §5.3 and §8). */
export async function findTaken(input: { username?: string; email?: string; phone?: string }) {
  const errors: FieldErrors = {};
  const [username, email, phone] = await Promise.all([
    // Whatever the letter case: "DEMO.Clinician" is taken when "demo.clinician" exists.
    input.username
      ? prisma.user.findUnique({
          where: { usernameKey: accountKey(input.username) },
          select: { id: true },
        })
      : null,
    input.email
      ? prisma.user.findUnique({
          where: { emailKey: accountKey(input.email) },
          select: { id: true },
        })
      : null,
    input.phone
      ? prisma.user.findFirst({ where: { phone: input.phone }, select: { id: true } })
      : null,
  ]);
  if (username) errors.username = accountMessages.usernameExists;
  if (email) errors.email = accountMessages.emailExists;
  if (phone) errors.phone = accountMessages.mobileAlreadyRegistered;
  return errors;
}

function codeText(code: string) {
  return `Your ARC Connect verification code is ${code}. It expires in 5 minutes.`;
}

/**
 * The registration code goes by text message to the phone being verified, and only there (issue 20
 * item 2): a copy by email would let anyone register a number they do not hold.
 */
async function sendRegistrationCode(phone: string, code: string) {
  await enqueue({ channel: "sms", to: phone, body: codeText(code) });
}

type Failure = { ok: false; status: 400 | 429; formError?: string; fieldErrors?: FieldErrors };

/**
 * Checks the form against the database and texts a code to the phone. The pending account (with
 * the password already hashed) waits in the code's payload until the code is confirmed.
 */
export async function startRegistration(
  input: RegistrationInput,
  invitationToken: string | null,
  ip: string | null,
): Promise<{ ok: true; codeId: string } | Failure> {
  if (!(await consumeForIp(ip, "register", rates.registrationPerIp))) {
    return { ok: false, status: 429, formError: TOO_MANY_REQUESTS };
  }
  let invitation = null;
  if (invitationToken) {
    const found = await findInvitationByToken(invitationToken);
    if (typeof found === "string")
      return { ok: false, status: 400, formError: accountMessages.linkExpired };
    invitation = found;
  }
  const email = invitation ? invitation.email : input.email.toLowerCase();
  const taken = await findTaken({ username: input.username, email, phone: input.phone });
  if (Object.keys(taken).length) return { ok: false, status: 400, fieldErrors: taken };

  const pending: Pending = {
    username: input.username,
    passwordHash: await hashPassword(input.password),
    firstName: input.firstName,
    lastName: input.lastName,
    phone: input.phone,
    email,
    role: invitation?.role ?? "clinician",
    careSiteId: invitation?.careSite?.id ?? null,
    invitationId: invitation?.id ?? null,
  };
  const issued = await issueCode({
    userId: null,
    purpose: "signup",
    channel: "sms",
    destination: input.phone,
    payload: pending,
  });
  await sendRegistrationCode(input.phone, issued.code);
  return { ok: true, codeId: issued.id };
}

export async function resendRegistrationCode(codeId: string) {
  const pending = await describePendingRegistration(codeId);
  const issued = pending ? await reissueCode(codeId) : null;
  if (!pending || !issued) return { ok: false as const, message: signInMessages.resendLimit };
  await sendRegistrationCode(issued.destination, issued.code);
  return { ok: true as const, message: accountMessages.codeResentMobile };
}

/** What the code step shows about the pending account. */
export async function describePendingRegistration(codeId: string) {
  const row = await prisma.oneTimeCode.findUnique({
    where: { id: codeId },
    select: { purpose: true, payload: true, expiresAt: true, consumedAt: true, destination: true },
  });
  if (!row || row.purpose !== "signup" || !row.payload) return null;
  const pending = JSON.parse(row.payload) as Pending;
  return {
    username: pending.username,
    email: pending.email,
    phone: row.destination,
    invited: pending.invitationId !== null,
    expiresAt: row.expiresAt,
    verified: row.consumedAt !== null,
  };
}

/** Confirms the phone with the code (spec 1 §4.3). */
export async function verifyRegistrationPhone(codeId: string, code: string, ip: string | null) {
  const pending = await describePendingRegistration(codeId);
  if (!pending)
    return { ok: false as const, status: 400 as const, message: accountMessages.codeExpired };
  const result = await attemptCode({ codeId, code, subject: `signup:${pending.phone}`, ip });
  switch (result) {
    case "ok":
      return { ok: true as const };
    case "expired":
      return { ok: false as const, status: 400 as const, message: accountMessages.codeExpired };
    case "incorrect":
      return {
        ok: false as const,
        status: 400 as const,
        message: accountMessages.incorrectCodeRetry,
      };
    case "busy":
      return { ok: false as const, status: 429 as const, message: TOO_MANY_REQUESTS };
    case "locked":
      return { ok: false as const, status: 400 as const, message: signInMessages.codeLocked };
  }
}

/**
 * Creates the account from a pending registration whose phone was verified. `submittedPhone` is
 * the number on the form at Submit: it must be the verified one.
 */
export async function completeRegistration(
  codeId: string,
  submittedPhone: string | null,
  ip: string | null,
) {
  const row = await prisma.oneTimeCode.findUnique({ where: { id: codeId } });
  if (!row?.payload || row.purpose !== "signup") {
    return { ok: false as const, message: accountMessages.codeExpired };
  }
  if (!row.consumedAt) return { ok: false as const, message: accountMessages.mobileNotVerified };
  // The number on the form at Submit, read as every phone field is read, must be the verified one
  // (spec 1 §4.3, §5.3); the account takes the verified number whatever the form carried.
  if (submittedPhone !== null && storedPhone(submittedPhone) !== row.destination) {
    return { ok: false as const, message: accountMessages.mobileDiffersFromVerified };
  }
  const pending = JSON.parse(row.payload) as Pending;
  try {
    const user = await prisma.$transaction(async (tx) => {
      // The code is spent by the account it creates: a second Submit finds nothing to do.
      const spent = await tx.oneTimeCode.deleteMany({ where: { id: codeId } });
      if (spent.count !== 1) throw new Error("registration already completed");
      const created = await tx.user.create({
        data: {
          username: pending.username,
          email: pending.email,
          phone: row.destination,
          passwordHash: pending.passwordHash,
          role: pending.role,
          firstName: pending.firstName,
          lastName: pending.lastName,
        },
        select: { id: true },
      });
      if (pending.invitationId) {
        const invitation = await tx.invitation.updateMany({
          where: {
            id: pending.invitationId,
            status: { in: ["pending", "resend"] },
            expiresAt: { gt: new Date() },
          },
          data: { status: "accepted" },
        });
        if (invitation.count !== 1) throw new InvitationGone();
        if (pending.careSiteId) {
          const membership = await tx.membership.create({
            data: {
              careSiteId: pending.careSiteId,
              userId: created.id,
              role: pending.role,
              status: "accepted",
              acceptedAt: new Date(),
            },
            select: { id: true },
          });
          await tx.invitation.update({
            where: { id: pending.invitationId },
            data: { membershipId: membership.id },
          });
        }
      }
      return created;
    });
    await audit({
      actorId: user.id,
      action: "registration.completed",
      ip,
      detail: { role: pending.role },
    });
    return { ok: true as const };
  } catch (error) {
    if (error instanceof InvitationGone)
      return { ok: false as const, message: accountMessages.linkExpired };
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      // Someone took the username, email or phone since the code was sent.
      const taken = await findTaken(pending);
      return {
        ok: false as const,
        message: Object.values(taken)[0] ?? accountMessages.usernameExists,
      };
    }
    if (error instanceof Error && error.message === "registration already completed") {
      return { ok: false as const, message: accountMessages.codeExpired };
    }
    throw error;
  }
}

class InvitationGone extends Error {}
