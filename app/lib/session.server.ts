// Sessions live in the database; the signed, httpOnly cookie holds only the session id
// (DESIGN.md §4). Idle and absolute expiry are enforced here, on every read.
import crypto from "node:crypto";
import { createCookie, createSessionStorage, data, redirect, type Session } from "@remix-run/node";
import { prisma } from "./db.server";
import { env } from "./env.server";
import { instantOf, readRow } from "./reader.server";

export type Flash = {
  kind: "success" | "danger" | "warning" | "info";
  message: string;
  /** How long it shows with JavaScript, when not its screen's delay (app/ui/delays.ts). */
  autoHideMs?: number;
};

export type SessionData = {
  userId?: string;
  authenticatedAt?: number;
  // The sign-in step between a correct password and a correct code.
  challenge?: { codeId: string; userId: string };
  careSiteId?: string;
  // Forgotten password (spec 1 §4.2): which code, whose account, and how far the flow got.
  reset?:
    | { channel: "email" | "sms"; codeId: string; userId: string; verified: boolean }
    | { done: true };
  // Registration (spec 1 §4.3): the pending account's code and the values typed (no password),
  // that it was just created, or the values to fill the form with again ("Change my details"
  // from the code step, on the page `at`).
  signup?:
    | { codeId: string; typed?: Record<string, string> }
    | { done: true }
    | { draft: Record<string, string>; at: string };
  // Password and Security (spec 1 §4.4): the open panel's progress.
  security?: { panel: string; confirmedAt?: number; codeId?: string; newValue?: string };
  // Set by readData when an authenticated session timed out; the guard turns it into the
  // "Your session has expired" screen.
  expired?: boolean;
};
export type SessionFlashData = { flash: Flash };
export type AppSession = Session<SessionData, SessionFlashData>;

const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * How long the cookie and its row outlive the absolute limit. The server's checks (idle, absolute,
 * in sessionState) decide whether a session is live; the cookie only has to last long enough for
 * the server to see a timed-out session and say so ("Your session has expired") rather than the
 * browser dropping it first and the user landing on the bare sign-in page (issue 20 item 14). A
 * week covers a tab left open over a weekend.
 */
export const EXPIRED_NOTICE_MS = 7 * 24 * 3_600_000;

/** The cookie's Max-Age and the row's expiresAt: the absolute limit plus the notice period. */
export const SESSION_COOKIE_MS = env.sessionAbsoluteMs + EXPIRED_NOTICE_MS;

const cookie = createCookie("__arc_session", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.cookieSecure,
  path: "/",
  secrets: [env.sessionSecret],
  maxAge: Math.ceil(SESSION_COOKIE_MS / 1000),
});

function newExpiry() {
  return new Date(Date.now() + SESSION_COOKIE_MS);
}

type SessionRow = {
  userId: string | null;
  revokedAt: Date | null;
  expiresAt: Date;
  lastSeenAt: Date;
  authenticatedAt: Date | null;
};

/**
 * Gone (never existed, revoked, past its cookie's life), expired (signed in, then idle or too old:
 * authoritative, whatever the cookie's life) or live.
 */
function sessionState(row: SessionRow | null, now: number) {
  if (!row || row.revokedAt || row.expiresAt.getTime() <= now) return "gone" as const;
  if (!row.userId) return "live" as const;
  const idle = now - row.lastSeenAt.getTime() > env.sessionIdleMs;
  const tooOld =
    row.authenticatedAt !== null && now - row.authenticatedAt.getTime() > env.sessionAbsoluteMs;
  return idle || tooOld ? ("expired" as const) : ("live" as const);
}

/**
 * Whether a signed-in session is still live, without counting the look as activity: for
 * long-lived connections (the chat stream) that must not keep an idle session alive.
 */
export async function isSignedInSessionLive(id: string) {
  const row = await prisma.session.findUnique({ where: { id } });
  return row?.userId != null && sessionState(row, Date.now()) === "live";
}

/**
 * The session's row, read on every request (several times: the root, the layout and the page read
 * the session): a prepared statement on the read connection, not a Prisma query
 * (lib/reader.server.ts).
 */
function readSessionRow(id: string): (SessionRow & { data: string }) | null {
  const row = readRow<Record<keyof SessionRow | "data", unknown>>(
    `SELECT "userId", "data", "revokedAt", "expiresAt", "lastSeenAt", "authenticatedAt"
     FROM "Session" WHERE "id" = ?`,
    id,
  );
  if (!row) return null;
  return {
    userId: (row.userId as string | null) ?? null,
    data: String(row.data),
    revokedAt: instantOf(row.revokedAt),
    expiresAt: instantOf(row.expiresAt)!,
    lastSeenAt: instantOf(row.lastSeenAt)!,
    authenticatedAt: instantOf(row.authenticatedAt),
  };
}

/** lastSeenAt updates in flight: the loaders of one page read the session at once, one writes. */
const touching = new Map<string, Promise<unknown>>();

function touch(id: string, now: number) {
  let pending = touching.get(id);
  if (!pending) {
    pending = prisma.session
      .update({ where: { id }, data: { lastSeenAt: new Date(now) } })
      .finally(() => touching.delete(id));
    touching.set(id, pending);
  }
  return pending;
}

export const sessionStorage = createSessionStorage<SessionData, SessionFlashData>({
  cookie,
  async createData(data, expires) {
    const id = crypto.randomBytes(32).toString("base64url");
    await prisma.session.create({
      data: {
        id,
        userId: data.userId ?? null,
        authenticatedAt: data.authenticatedAt ? new Date(data.authenticatedAt) : null,
        data: JSON.stringify(data),
        expiresAt: expires ?? newExpiry(),
      },
    });
    return id;
  },
  async readData(id) {
    const row = readSessionRow(id);
    const now = Date.now();
    const state = sessionState(row, now);
    if (state === "gone") return null;
    if (state === "expired") return { expired: true };
    if (row!.userId && now - row!.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
      await touch(id, now);
    }
    return JSON.parse(row!.data) as SessionData;
  },
  async updateData(id, data, expires) {
    await prisma.session.updateMany({
      where: { id, revokedAt: null },
      data: {
        userId: data.userId ?? null,
        authenticatedAt: data.authenticatedAt ? new Date(data.authenticatedAt) : null,
        data: JSON.stringify(data),
        lastSeenAt: new Date(),
        ...(expires ? { expiresAt: expires } : {}),
      },
    });
  },
  async deleteData(id) {
    await prisma.session.deleteMany({ where: { id } });
  },
});

/** The session of each request being answered (see getSession). */
const sessionOfRequest = new WeakMap<Request, Promise<AppSession>>();

/**
 * The request's session. A page's loaders (the root, the layout, the page, the guards inside
 * them) each ask for it: the cookie's signature is checked and the row read once per Request, and
 * they share the one Session object, so what one of them changes and commits the others see.
 */
export function getSession(request: Request) {
  let session = sessionOfRequest.get(request);
  if (!session) {
    session = sessionStorage.getSession(request.headers.get("Cookie"));
    sessionOfRequest.set(request, session);
  }
  return session;
}

export function commitSession(session: AppSession) {
  return sessionStorage.commitSession(session);
}

export function destroySession(session: AppSession) {
  return sessionStorage.destroySession(session);
}

/**
 * Signs a user in: the pre-sign-in session is deleted and a new one (new id, so no session
 * fixation) holds the user. Returns the Set-Cookie value.
 */
export async function startUserSession(previous: AppSession, userId: string) {
  await prisma.session.deleteMany({ where: { id: previous.id } });
  const session = await sessionStorage.getSession();
  session.set("userId", userId);
  session.set("authenticatedAt", Date.now());
  return sessionStorage.commitSession(session);
}

/** Set a message to show on the next page render (post/redirect/get). */
export function flash(
  session: AppSession,
  kind: Flash["kind"],
  message: string,
  autoHideMs?: number,
) {
  session.flash("flash", autoHideMs ? { kind, message, autoHideMs } : { kind, message });
}

/** A redirect that shows `message` on the page it leads to. */
export async function redirectWithFlash(
  request: Request,
  to: string,
  kind: Flash["kind"],
  message: string,
) {
  const session = await getSession(request);
  flash(session, kind, message);
  return redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
}

/** What a post came to: the next page (with a message to show there), or the form's message. */
export type PostOutcome =
  { ok: true; to: string; flash?: Flash } | { ok: false; message: string; status?: number };

/**
 * The answer to a post from its outcome (post/redirect/get): a redirect, flashing the message
 * when there is one, or the form's message with its status (400 unless said).
 */
export async function answerPost(request: Request, outcome: PostOutcome) {
  if (!outcome.ok) return data({ formError: outcome.message }, { status: outcome.status ?? 400 });
  if (!outcome.flash) return redirect(outcome.to);
  const { kind, message } = outcome.flash;
  return redirectWithFlash(request, outcome.to, kind, message);
}
