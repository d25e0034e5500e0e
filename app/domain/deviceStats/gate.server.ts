// The gate of /deviceStats (spec 3 §2.1: a public route behind an internal password box): the
// password comes from DEVICE_STATS_PASSWORD, is compared in constant time, and wrong attempts are
// limited per client address (5 in 15 minutes, then 15 minutes locked). A right one sets a signed
// cookie for this page only, good for 15 minutes. The column choice is kept in a second cookie
// that lasts the browser session.
import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import { env } from "../../lib/env.server";
import {
  clearFailures,
  limits,
  lockedUntil,
  recordFailure,
  TOO_MANY_REQUESTS,
} from "../../lib/throttle.server";
import { DEVICE_STATS_PATH } from "./query";

export { DEVICE_STATS_PATH };
const ACCESS_SECONDS = 15 * 60;

export const GATE_MESSAGES = {
  wrong: "Wrong password.",
  required: "Please enter the password.",
  notConfigured:
    "Device statistics are not set up on this server (DEVICE_STATS_PASSWORD is missing).",
  locked: TOO_MANY_REQUESTS,
} as const;

const cookieBase = {
  httpOnly: true,
  sameSite: "lax" as const,
  secure: env.cookieSecure,
  path: DEVICE_STATS_PATH,
  secrets: [env.sessionSecret],
};
const accessCookie = createCookie("__arc_devicestats", { ...cookieBase, maxAge: ACCESS_SECONDS });
const columnsCookie = createCookie("__arc_devicestats_columns", cookieBase);

/** Whether the request's Cookie header holds a live pass to the page. */
export async function hasDeviceStatsAccess(cookieHeader: string | null) {
  if (!env.deviceStatsPassword) return false;
  const value = (await accessCookie.parse(cookieHeader)) as {
    until?: number;
  } | null;
  return typeof value?.until === "number" && value.until > Date.now();
}

function sameSecret(given: string, expected: string) {
  const digest = (s: string) => crypto.createHash("sha256").update(s, "utf8").digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

/** Checks a password; on success returns the Set-Cookie value that opens the page. */
export async function openDeviceStats(
  password: string,
  ip: string | null,
): Promise<{ ok: true; setCookie: string } | { ok: false; message: string }> {
  const expected = env.deviceStatsPassword;
  if (!expected) return { ok: false, message: GATE_MESSAGES.notConfigured };
  const key = `devicestats:${ip ?? "unknown"}`;
  if (await lockedUntil(key)) return { ok: false, message: GATE_MESSAGES.locked };
  if (!password) return { ok: false, message: GATE_MESSAGES.required };
  if (!sameSecret(password, expected)) {
    const locked = await recordFailure(key, limits.deviceStatsPassword);
    return { ok: false, message: locked ? GATE_MESSAGES.locked : GATE_MESSAGES.wrong };
  }
  await clearFailures(key);
  const until = Date.now() + ACCESS_SECONDS * 1000;
  return { ok: true, setCookie: await accessCookie.serialize({ until }) };
}

/** Whether the page has a password at all (DEVICE_STATS_PASSWORD). */
export const deviceStatsConfigured = () => Boolean(env.deviceStatsPassword);

export function closeDeviceStats() {
  return accessCookie.serialize({}, { maxAge: 0 });
}

/** The chosen columns (validated by the caller), or null when none were chosen. */
export async function readChosenColumns(cookieHeader: string | null) {
  const value: unknown = await columnsCookie.parse(cookieHeader);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : null;
}

export function keepChosenColumns(columns: string[]) {
  return columnsCookie.serialize(columns);
}
