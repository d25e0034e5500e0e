// Failed-attempt limits for the sign-in steps, kept in the database so a restart does not reset
// them. A key is locked once it reaches `max` failures within `windowMs`, for `lockMs`.
import { prisma } from "./db.server";

export type Limit = { max: number; windowMs: number; lockMs: number };

export const limits = {
  password: { max: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  code: { max: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
} satisfies Record<string, Limit>;

export async function lockedUntil(key: string, now = new Date()) {
  const row = await prisma.authThrottle.findUnique({ where: { key } });
  return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
}

/** Records a failure; returns the time the key is locked until, if this failure locked it. */
export async function recordFailure(key: string, limit: Limit, now = new Date()) {
  return prisma.$transaction(async (tx) => {
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
