// The two sign-in steps (spec 1 §2.4, §4.1, §8): password, then a 4-digit code sent by text message.
import { createHash } from "node:crypto";
import { audit } from "~/domain/audit.server";
import {
  attemptCode,
  getCode,
  isCodeStepLocked,
  issueCode,
  reissueCode,
} from "~/domain/accounts/oneTimeCode.server";
import { prisma } from "~/lib/db.server";
import {
  findAccountByLogin,
  isAssociatedWithCareSite,
  verifyPassword,
} from "~/domain/accounts/user.server";
import { enqueue } from "~/lib/outbox.server";
import { isStaffRole, homeAfterSignIn } from "~/domain/roles";
import {
  addressBlock,
  clearFailures,
  consumeForIp,
  limits,
  lockedUntil,
  passwordFailurePrefix,
  rates,
  recordFailure,
  TOO_MANY_REQUESTS,
} from "~/lib/throttle.server";

export const messages = {
  badCredentials: "Incorrect email or password. Please check your login and try again.",
  notStaff: "This portal is for care site staff. Patients use the ARC Connect app.",
  passwordLocked: "Too many unsuccessful sign-in attempts. Please wait 15 minutes and try again.",
  codeFormat: "Incorrect code! Please try again.",
  codeIncorrect: "Incorrect Code. Please check your code and try again.",
  codeExpired: "Verification code is expired! Please try again with new one",
  codeLocked:
    "Too many incorrect codes. The verification step is locked for 15 minutes; please sign in again after that.",
  codeResent: "New Verification code has been sent to your registered mobile!",
  resendLimit: "No more codes can be sent for this sign-in. Please sign in again.",
} as const;

export class SignInError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 429 = 400,
  ) {
    super(message);
  }
}

/**
 * The key wrong passwords count under: the account (or, for a login naming no account, the login
 * itself, so both cost the same write) and the client's address block.
 */
function passwordFailureKey(accountId: string | null, login: string, ip: string | null) {
  const who =
    accountId ??
    `login:${createHash("sha256").update(login.trim().toLowerCase()).digest("hex").slice(0, 32)}`;
  return `${passwordFailurePrefix(who)}${addressBlock(ip)}`;
}

function codeText(code: string) {
  return `Your ARC Connect verification code is ${code}. It expires in 5 minutes.`;
}

/**
 * Step 1: username or email and password. Returns the challenge to keep in the session.
 *
 * Wrong passwords count per account *and* client address (docs/decisions.md "Sign-in throttling"):
 * ten from one address within 15 minutes stop that address, for that account, for 15 minutes,
 * while the owner elsewhere signs in as before; the per-address rate and the code step's own lock
 * bound guessing from many addresses. An unknown login, a wrong password and a throttled
 * (account, address) get the same answer, status and work (the hash is always checked), so the
 * answer does not tell whether the account exists.
 */
export async function startSignIn(login: string, password: string, ip: string | null) {
  if (!(await consumeForIp(ip, "signin", rates.signInPerIp))) {
    throw new SignInError(TOO_MANY_REQUESTS, 429);
  }
  const account = await findAccountByLogin(login);
  const passwordKey = passwordFailureKey(account?.id ?? null, login, ip);
  const throttled = (await lockedUntil(passwordKey)) !== null;
  // Checked even when throttled or unknown (a dummy hash), so each case costs the same.
  const passwordOk = await verifyPassword(account?.passwordHash, password);
  if (!account || !passwordOk || throttled) {
    if (account) {
      const action = throttled ? "signin.password_throttled" : "signin.password_failed";
      await audit({ actorId: account.id, action, ip });
    }
    if (!throttled) await recordFailure(passwordKey, limits.password);
    throw new SignInError(messages.badCredentials);
  }
  if (!isStaffRole(account.role)) throw new SignInError(messages.notStaff);
  if (await isCodeStepLocked(account.id)) throw new SignInError(messages.codeLocked, 429);
  await clearFailures(passwordKey);

  const issued = await issueCode({
    userId: account.id,
    purpose: "login",
    channel: "sms",
    destination: account.phone,
  });
  await enqueue({ channel: "sms", to: account.phone, body: codeText(issued.code) });
  await audit({ actorId: account.id, action: "signin.code_sent", ip });
  return { codeId: issued.id, userId: account.id };
}

export type Challenge = { codeId: string; userId: string };

/** What the code step shows: where the code went and when it expires. Null if it is gone. */
export async function describeChallenge(challenge: Challenge) {
  const code = await getCode(challenge.codeId);
  if (!code || code.userId !== challenge.userId || code.consumedAt) return null;
  return { phone: code.destination, expiresAt: code.expiresAt };
}

export type CodeOutcome =
  | { ok: true; userId: string; redirectTo: string }
  | { ok: false; message: string; restart: boolean; status: 400 | 429 };

/** Step 2: the 4-digit code. */
export async function finishSignIn(
  challenge: Challenge,
  code: string,
  ip: string | null,
): Promise<CodeOutcome> {
  const result = await attemptCode({
    codeId: challenge.codeId,
    code,
    subject: challenge.userId,
    ip,
  });
  switch (result) {
    case "locked":
      return { ok: false, message: messages.codeLocked, restart: true, status: 429 };
    case "busy":
      return { ok: false, message: TOO_MANY_REQUESTS, restart: false, status: 429 };
    case "expired":
      return { ok: false, message: messages.codeExpired, restart: false, status: 400 };
    case "incorrect":
      await audit({ actorId: challenge.userId, action: "signin.code_failed", ip });
      return { ok: false, message: messages.codeIncorrect, restart: false, status: 400 };
  }
  const user = await prisma.user.findUniqueOrThrow({
    where: { id: challenge.userId },
    select: { id: true, role: true },
  });
  await audit({ actorId: user.id, action: "signin.success", ip });
  const associated = await isAssociatedWithCareSite(user.id);
  return { ok: true, userId: user.id, redirectTo: homeAfterSignIn(user.role, associated) };
}

/** "Resend Verification code": a new code, a new 300 s. */
export async function resendSignInCode(challenge: Challenge, ip: string | null) {
  if (await isCodeStepLocked(challenge.userId)) {
    return { ok: false as const, message: messages.codeLocked };
  }
  const issued = await reissueCode(challenge.codeId);
  if (!issued) return { ok: false as const, message: messages.resendLimit };
  await enqueue({ channel: "sms", to: issued.destination, body: codeText(issued.code) });
  await audit({ actorId: challenge.userId, action: "signin.code_resent", ip });
  return { ok: true as const, message: messages.codeResent };
}
