// 4-digit codes (DESIGN.md §4): stored as an HMAC, valid 300 s, with a per-code attempt count.
import crypto from "node:crypto";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import {
  clearFailures,
  consumeForIp,
  limits,
  lockedUntil,
  rates,
  recordFailure,
} from "~/lib/throttle.server";

export const CODE_TTL_SECONDS = 300;
export const MAX_SENDS = 5;

export type CodePurpose = "login" | "reset" | "signup" | "email-change" | "phone-change";

function digest(codeId: string, code: string) {
  return crypto.createHmac("sha256", env.sessionSecret).update(`${codeId}:${code}`).digest("hex");
}

function newCode() {
  return crypto.randomInt(0, 10_000).toString().padStart(4, "0");
}

export async function issueCode(input: {
  userId: string | null;
  purpose: CodePurpose;
  channel: "sms" | "email";
  destination: string;
  payload?: unknown;
}) {
  const code = newCode();
  const id = crypto.randomUUID();
  const row = await prisma.oneTimeCode.create({
    data: {
      id,
      userId: input.userId,
      purpose: input.purpose,
      channel: input.channel,
      destination: input.destination,
      codeHash: digest(id, code),
      payload: input.payload === undefined ? null : JSON.stringify(input.payload),
      expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
    },
    select: { id: true, expiresAt: true },
  });
  return { ...row, code };
}

/** A new code for the same challenge; the old one stops working. Null once MAX_SENDS is reached. */
export async function reissueCode(codeId: string) {
  const existing = await prisma.oneTimeCode.findUnique({ where: { id: codeId } });
  if (!existing || existing.consumedAt || existing.sends >= MAX_SENDS) return null;
  const code = newCode();
  const row = await prisma.oneTimeCode.update({
    where: { id: codeId },
    data: {
      codeHash: digest(codeId, code),
      expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
      sends: { increment: 1 },
      attempts: 0,
    },
    select: { id: true, expiresAt: true, destination: true, channel: true },
  });
  return { ...row, code };
}

export function getCode(codeId: string) {
  return prisma.oneTimeCode.findUnique({
    where: { id: codeId },
    select: { id: true, userId: true, expiresAt: true, consumedAt: true, destination: true },
  });
}

export type CheckResult = "ok" | "expired" | "incorrect";

/** Checks a code and, on a match, consumes it (a code works once). */
export async function checkCode(
  codeId: string,
  code: string,
  now = new Date(),
): Promise<CheckResult> {
  const row = await prisma.oneTimeCode.findUnique({ where: { id: codeId } });
  if (!row || row.consumedAt || row.expiresAt <= now) return "expired";
  const expected = Buffer.from(row.codeHash, "hex");
  const actual = Buffer.from(digest(codeId, code), "hex");
  if (!crypto.timingSafeEqual(expected, actual)) {
    await prisma.oneTimeCode.update({
      where: { id: codeId },
      data: { attempts: { increment: 1 } },
    });
    return "incorrect";
  }
  const consumed = await prisma.oneTimeCode.updateMany({
    where: { id: codeId, consumedAt: null },
    data: { consumedAt: now },
  });
  return consumed.count === 1 ? "ok" : "expired";
}

export async function voidCode(codeId: string) {
  await prisma.oneTimeCode.updateMany({
    where: { id: codeId, consumedAt: null },
    data: { consumedAt: new Date() },
  });
}

export type AttemptResult = CheckResult | "locked" | "busy";

/**
 * A code attempt with the attempt limits of every code flow: 10 wrong codes for one subject (a user,
 * or the phone of a registration) within 15 minutes lock its code step and void the code; a client
 * address may try at most `rates.codeCheckPerIp` codes in 15 minutes.
 */
export async function attemptCode(input: {
  codeId: string;
  code: string;
  subject: string;
  ip: string | null;
}): Promise<AttemptResult> {
  const lockKey = `code:${input.subject}`;
  if (await lockedUntil(lockKey)) {
    await voidCode(input.codeId);
    return "locked";
  }
  if (!(await consumeForIp(input.ip, "code", rates.codeCheckPerIp))) return "busy";
  const result = await checkCode(input.codeId, input.code);
  if (result === "incorrect" && (await recordFailure(lockKey, limits.code))) {
    await voidCode(input.codeId);
    return "locked";
  }
  if (result === "ok") await clearFailures(lockKey);
  return result;
}

export function isCodeStepLocked(subject: string) {
  return lockedUntil(`code:${subject}`);
}
