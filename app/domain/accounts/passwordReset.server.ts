// Forgotten password (spec 1 §2.5, §4.2, §8): request a code by email or text message, enter it,
// then create a new password.
import { prisma } from "~/lib/db.server";
import { enqueue } from "~/lib/outbox.server";
import {
  clearFailures,
  clearPasswordFailures,
  consume,
  consumeForIp,
  rates,
  TOO_MANY_REQUESTS,
} from "~/lib/throttle.server";
import { audit } from "~/domain/audit.server";
import { attemptCode, issueCode, reissueCode } from "~/domain/accounts/oneTimeCode.server";
import { messages as signInMessages } from "~/domain/accounts/signIn.server";
import { hashPassword } from "~/domain/accounts/user.server";
import { accountMessages } from "~/domain/accounts/schema";
import { phoneReadings } from "~/domain/phone";
import { accountKey } from "~/domain/accounts/accountKey";

export type ResetChannel = "email" | "sms";
export type ResetState = {
  channel: ResetChannel;
  codeId: string;
  userId: string;
  verified: boolean;
};
type Failure = { ok: false; message: string; status: 400 | 429 };

function codeMessage(channel: ResetChannel, code: string) {
  const body = `Your ARC Connect password reset code is ${code}. It expires in 5 minutes. If you did not ask to reset your password, ignore this message.`;
  return channel === "email"
    ? { channel, subject: "Your ARC Connect password reset code", body }
    : { channel, body };
}

function findAccount(channel: ResetChannel, address: string) {
  if (channel === "email") {
    return prisma.user.findFirst({
      where: { emailKey: accountKey(address), status: "active" },
      select: { id: true, email: true, phone: true },
    });
  }
  // Phones are stored with their country code; a 10-digit US number is accepted without the 1.
  return prisma.user.findFirst({
    where: {
      phone: { in: phoneReadings(address) },
      status: "active",
    },
    select: { id: true, email: true, phone: true },
    orderBy: { createdAt: "asc" },
  });
}

/** Sends a reset code to the account the email or phone belongs to. */
export async function requestPasswordReset(
  channel: ResetChannel,
  address: string,
  ip: string | null,
): Promise<{ ok: true; state: ResetState } | Failure> {
  const normalized =
    channel === "email" ? address.trim().toLowerCase() : address.replace(/\D/g, "");
  if (
    !(await consumeForIp(ip, "reset", rates.resetRequestPerIp)) ||
    !(await consume(`reset:${normalized}`, rates.resetRequestPerAddress))
  ) {
    return { ok: false, message: TOO_MANY_REQUESTS, status: 429 };
  }
  const account = await findAccount(channel, normalized);
  if (!account) {
    const message =
      channel === "email"
        ? accountMessages.forgotEmailNotFound
        : accountMessages.forgotPhoneNotFound;
    return { ok: false, message, status: 400 };
  }
  const destination = channel === "email" ? account.email : account.phone;
  const issued = await issueCode({ userId: account.id, purpose: "reset", channel, destination });
  await enqueue({ to: destination, ...codeMessage(channel, issued.code) });
  await audit({ actorId: account.id, action: "password_reset.code_sent", ip, detail: { channel } });
  return { ok: true, state: { channel, codeId: issued.id, userId: account.id, verified: false } };
}

export async function resendPasswordResetCode(state: ResetState, ip: string | null) {
  const issued = await reissueCode(state.codeId);
  if (!issued) return { ok: false as const, message: signInMessages.resendLimit };
  await enqueue({ to: issued.destination, ...codeMessage(state.channel, issued.code) });
  await audit({ actorId: state.userId, action: "password_reset.code_resent", ip });
  const message =
    state.channel === "email" ? accountMessages.codeResentEmail : accountMessages.codeResentMobile;
  return { ok: true as const, message };
}

export async function verifyPasswordResetCode(
  state: ResetState,
  code: string,
  ip: string | null,
): Promise<{ ok: true } | (Failure & { restart: boolean })> {
  const result = await attemptCode({ codeId: state.codeId, code, subject: state.userId, ip });
  switch (result) {
    case "ok":
      return { ok: true };
    case "expired":
      return { ok: false, message: accountMessages.codeExpired, status: 400, restart: false };
    case "incorrect":
      return { ok: false, message: accountMessages.incorrectCode, status: 400, restart: false };
    case "busy":
      return { ok: false, message: TOO_MANY_REQUESTS, status: 429, restart: false };
    case "locked":
      return { ok: false, message: signInMessages.codeLocked, status: 400, restart: true };
  }
}

/** Sets the new password and signs the account out everywhere (whoever knew the old one). */
export async function completePasswordReset(
  state: ResetState,
  password: string,
  ip: string | null,
) {
  if (!state.verified) throw new Error("completePasswordReset before the code was verified");
  const passwordHash = await hashPassword(password);
  await prisma.$transaction([
    prisma.user.update({ where: { id: state.userId }, data: { passwordHash } }),
    prisma.session.deleteMany({ where: { userId: state.userId } }),
  ]);
  await clearFailures(`password:${state.userId}`);
  await clearPasswordFailures(state.userId);
  await audit({ actorId: state.userId, action: "password_reset.completed", ip });
}
