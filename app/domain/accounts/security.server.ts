// Password and Security (spec 1 §2.6, §4.4, §5.4): change email or phone (current password, new
// value, a code sent to the new address), change password, measuring units.
import { prisma } from "~/lib/db.server";
import { enqueue } from "~/lib/outbox.server";
import {
  clearFailures,
  limits,
  lockedUntil,
  recordFailure,
  TOO_MANY_REQUESTS,
} from "~/lib/throttle.server";
import { audit } from "~/domain/audit.server";
import { attemptCode, getCode, issueCode, reissueCode } from "~/domain/accounts/oneTimeCode.server";
import { maskPhone } from "~/domain/roles";
import { formatClockTime } from "~/lib/time";
import { findTaken } from "~/domain/accounts/registration.server";
import { messages as signInMessages } from "~/domain/accounts/signIn.server";
import { hashPassword, verifyPassword } from "~/domain/accounts/user.server";
import { accountMessages, type MeasuringUnit } from "~/domain/accounts/schema";

export type ContactKind = "email" | "phone";

/** Checks the signed-in user's password; wrong guesses count toward the account's password lock. */
export async function confirmPassword(userId: string, password: string) {
  const key = `password:${userId}`;
  if (await lockedUntil(key)) return { ok: false as const, message: signInMessages.passwordLocked };
  const user = await prisma.user.findUniqueOrThrow({
    where: { id: userId },
    select: { passwordHash: true },
  });
  if (!(await verifyPassword(user.passwordHash, password))) {
    const locked = await recordFailure(key, limits.password);
    return {
      ok: false as const,
      message: locked ? signInMessages.passwordLocked : accountMessages.wrongCurrentPassword,
    };
  }
  await clearFailures(key);
  return { ok: true as const };
}

/** Sends a code to the new email address or phone; the change waits for that code. */
export async function startContactChange(userId: string, kind: ContactKind, value: string) {
  const taken = await findTaken(kind === "email" ? { email: value } : { phone: value });
  const message = taken.email ?? taken.phone;
  if (message) return { ok: false as const, message };
  const issued = await issueCode({
    userId,
    purpose: kind === "email" ? "email-change" : "phone-change",
    channel: kind === "email" ? "email" : "sms",
    destination: value,
  });
  await sendContactCode(kind, value, issued.code);
  return { ok: true as const, codeId: issued.id };
}

function sendContactCode(kind: ContactKind, to: string, code: string) {
  const text = `Your ARC Connect verification code is ${code}. It expires in 5 minutes.`;
  return enqueue(
    kind === "email"
      ? { channel: "email", to, subject: "Confirm your new ARC Connect email address", body: text }
      : { channel: "sms", to, body: text },
  );
}

/** A new code to the same new address or phone (the countdown's Resend, spec 1 §4.1). */
export async function resendContactCode(userId: string, kind: ContactKind, codeId: string) {
  const row = await prisma.oneTimeCode.findUnique({
    where: { id: codeId },
    select: { userId: true, purpose: true },
  });
  const mine = row?.userId === userId && row.purpose === `${kind}-change`;
  const issued = mine ? await reissueCode(codeId) : null;
  if (!issued) return { ok: false as const, message: signInMessages.resendLimit };
  await sendContactCode(kind, issued.destination, issued.code);
  const message =
    kind === "email" ? accountMessages.codeResentEmail : accountMessages.codeResentMobile;
  return { ok: true as const, message };
}

/** The code from the new address: on a match the account takes the new email or phone. */
export async function finishContactChange(
  userId: string,
  kind: ContactKind,
  codeId: string,
  code: string,
  ip: string | null,
) {
  const row = await prisma.oneTimeCode.findUnique({
    where: { id: codeId },
    select: { userId: true, destination: true, purpose: true },
  });
  if (
    !row ||
    row.userId !== userId ||
    row.purpose !== (kind === "email" ? "email-change" : "phone-change")
  ) {
    return { ok: false as const, message: accountMessages.codeExpired, status: 400 as const };
  }
  const result = await attemptCode({ codeId, code, subject: userId, ip });
  if (result === "busy")
    return { ok: false as const, message: TOO_MANY_REQUESTS, status: 429 as const };
  if (result === "locked")
    return { ok: false as const, message: signInMessages.codeLocked, status: 400 as const };
  if (result === "expired")
    return { ok: false as const, message: accountMessages.codeExpired, status: 400 as const };
  if (result === "incorrect") {
    const message =
      kind === "phone" ? accountMessages.incorrectCodeRetry : accountMessages.incorrectCode;
    return { ok: false as const, message, status: 400 as const };
  }
  const taken = await findTaken(
    kind === "email" ? { email: row.destination } : { phone: row.destination },
  );
  if (taken.email ?? taken.phone) {
    return { ok: false as const, message: (taken.email ?? taken.phone)!, status: 400 as const };
  }
  await prisma.user.update({
    where: { id: userId },
    data: kind === "email" ? { email: row.destination } : { phone: row.destination },
  });
  await audit({
    actorId: userId,
    action: `account.${kind}_changed`,
    targetType: "User",
    targetId: userId,
    ip,
  });
  return { ok: true as const };
}

/** Changes the password; the user's other sessions end (this one stays). */
export async function changePassword(
  userId: string,
  currentSessionId: string,
  oldPassword: string,
  newPassword: string,
  ip: string | null,
) {
  const confirmed = await confirmPassword(userId, oldPassword);
  if (!confirmed.ok) return confirmed;
  const passwordHash = await hashPassword(newPassword);
  await prisma.$transaction([
    prisma.user.update({ where: { id: userId }, data: { passwordHash } }),
    prisma.session.deleteMany({ where: { userId, id: { not: currentSessionId } } }),
  ]);
  await audit({
    actorId: userId,
    action: "account.password_changed",
    targetType: "User",
    targetId: userId,
    ip,
  });
  return { ok: true as const };
}

export async function setMeasuringUnit(userId: string, unit: MeasuringUnit) {
  await prisma.user.update({ where: { id: userId }, data: { measuringUnit: unit } });
}

// --- The page's panels and steps ---------------------------------------------------------------

export const SECURITY_PANELS = ["email", "phone", "password", "units"] as const;
export type SecurityPanel = (typeof SECURITY_PANELS)[number];
/** How long a confirmed current password opens the email and phone panels. */
export const CONFIRMATION_MS = 10 * 60_000;

export const isSecurityPanel = (value: unknown): value is SecurityPanel =>
  (SECURITY_PANELS as readonly unknown[]).includes(value);

/** spec 1 §2.6: no email, phone or units for superadmin; no units for abmadmin. */
export function panelsFor(role: string): SecurityPanel[] {
  if (role === "superadmin") return ["password"];
  if (role === "abmadmin") return ["email", "phone", "password"];
  return [...SECURITY_PANELS];
}

/** The open panel's progress as the session keeps it. */
export type SecurityState = { panel: string; confirmedAt?: number; codeId?: string };

/** Whether the current password was confirmed for this panel, recently enough. */
export function isConfirmed(
  state: SecurityState | undefined,
  panel: SecurityPanel,
  now = Date.now(),
) {
  return (
    state?.panel === panel &&
    state.confirmedAt !== undefined &&
    now - state.confirmedAt < CONFIRMATION_MS
  );
}

export type ContactStep =
  | { step: "confirm" }
  | { step: "new" }
  | { step: "code"; sentTo: string; expiresAt: string; expiresAtText: string };

/**
 * The step of the email or phone panel: confirm the current password, type the new value, or
 * enter the code sent to it (while that code is open).
 */
export async function contactStep(
  panel: SecurityPanel | null,
  state: SecurityState | undefined,
): Promise<ContactStep> {
  if ((panel !== "email" && panel !== "phone") || !isConfirmed(state, panel)) {
    return { step: "confirm" };
  }
  const code = state?.codeId ? await getCode(state.codeId) : null;
  if (!code || code.consumedAt) return { step: "new" };
  return {
    step: "code",
    sentTo: panel === "phone" ? maskPhone(code.destination) : code.destination,
    expiresAt: code.expiresAt.toISOString(),
    expiresAtText: formatClockTime(code.expiresAt),
  };
}
