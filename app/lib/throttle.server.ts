// Failed-attempt limits for the sign-in steps, kept in the database so a restart does not reset
// them. A key is locked once it reaches `max` failures within `windowMs`, for `lockMs`.
import { isIP } from "node:net";
import { prisma, readWriteTransaction } from "./db.server";
import { env } from "./env.server";

export type Limit = { max: number; windowMs: number; lockMs: number };

export const limits = {
  password: { max: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  code: { max: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  deviceStatsPassword: { max: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
} satisfies Record<string, Limit>;

export async function lockedUntil(key: string, now = new Date()) {
  const row = await prisma.authThrottle.findUnique({ where: { key } });
  return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
}

/** Records a failure; returns the time the key is locked until, if this failure locked it. */
export async function recordFailure(key: string, limit: Limit, now = new Date()) {
  return readWriteTransaction(async (tx) => {
    const row = await tx.authThrottle.findUnique({ where: { key } });
    const windowOpen = row && now.getTime() - row.windowStartsAt.getTime() < limit.windowMs;
    const failures = windowOpen ? row.failures + 1 : 1;
    const locked = failures >= limit.max ? new Date(now.getTime() + limit.lockMs) : null;
    await tx.authThrottle.upsert({
      where: { key },
      create: { key, failures, windowStartsAt: now, lockedUntil: locked },
      update: {
        failures: locked ? 0 : failures,
        windowStartsAt: windowOpen ? row.windowStartsAt : now,
        lockedUntil: locked,
      },
    });
    return locked;
  });
}

export async function clearFailures(key: string) {
  await prisma.authThrottle.deleteMany({ where: { key } });
}

/** Wrong sign-in passwords of one account count under this prefix plus the client's address block. */
export const passwordFailurePrefix = (accountId: string) => `password:${accountId}@`;

/** Forgets every address's failures of one account (after a password reset). */
export async function clearPasswordFailures(accountId: string) {
  await prisma.authThrottle.deleteMany({
    where: { key: { startsWith: passwordFailurePrefix(accountId) } },
  });
}

/**
 * The address a limit keys on: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber's block, which a client can rotate through freely), "-" without an address.
 */
export function addressBlock(ip: string | null) {
  if (!ip) return "-";
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  const [head, tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

// Request-rate limits (issue: abuse limits): every attempt counts, not only failures. Keys name
// what is limited: "ip:<address>:<action>" or "<action>:<account or address>".
export type Rate = { max: number; windowMs: number };

export const rates = {
  signInPerIp: { max: 30, windowMs: 15 * 60_000 },
  codeCheckPerIp: { max: 60, windowMs: 15 * 60_000 },
  resetRequestPerIp: { max: 10, windowMs: 15 * 60_000 },
  resetRequestPerAddress: { max: 5, windowMs: 15 * 60_000 },
  availabilityPerIp: { max: 120, windowMs: 10 * 60_000 },
  registrationPerIp: { max: 10, windowMs: 60 * 60_000 },
  codeSendPerUser: { max: 10, windowMs: 60 * 60_000 },
  /** The public decrypt tool: uploads per client address. */
  decryptUploadPerIp: { max: 30, windowMs: 60 * 60_000 },
} satisfies Record<string, Rate>;

export const TOO_MANY_REQUESTS = "Too many requests. Please wait a few minutes and try again.";

/** Counts one attempt under `key`; false when the key is over its limit for the current window. */
export async function consume(key: string, rate: Rate, now = new Date()) {
  return readWriteTransaction(async (tx) => {
    const row = await tx.authThrottle.findUnique({ where: { key } });
    const windowOpen = row && now.getTime() - row.windowStartsAt.getTime() < rate.windowMs;
    const count = windowOpen ? row.failures + 1 : 1;
    await tx.authThrottle.upsert({
      where: { key },
      create: { key, failures: count, windowStartsAt: now },
      update: { failures: count, windowStartsAt: windowOpen ? row.windowStartsAt : now },
    });
    return count <= rate.max;
  });
}

/**
 * Per-client limit of an action. Without a client address (tests calling loaders directly) there
 * is nothing to key on and the limit does not apply; server.ts always sets one.
 */
export async function consumeForIp(ip: string | null, action: string, rate: Rate) {
  if (!ip) return true;
  return consume(`ip:${ip}:${action}`, { ...rate, max: rate.max * env.rateLimitScale });
}
