// remix-auth for the credential step, and the guards every loader and action starts with.
import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getShellUser, type ShellUser } from "~/domain/accounts/user.server";
import { startSignIn, type Challenge } from "~/domain/accounts/signIn.server";
import { forbidden } from "../../lib/http.server";
import { clientIp } from "../../lib/http.server";
import type { Role } from "../roles";
import { destroySession, getSession } from "../../lib/session.server";

// The "user" of the credential strategy is the pending challenge: a signed-in session exists
// only after the code step (domain/accounts/signIn.server.ts).
export const authenticator = new Authenticator<Challenge>();

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const login = String(form.get("usernameOrEmail") ?? "");
    const password = String(form.get("password") ?? "");
    return startSignIn(login, password, clientIp(request));
  }),
  "credentials",
);

/** The signed-in user, or null (an expired session counts as signed out here). */
export async function getOptionalUser(request: Request) {
  const session = await getSession(request);
  const userId = session.get("userId");
  if (!userId || session.get("expired")) return null;
  return getShellUser(userId);
}

/** Public routes: a signed-in user is sent to /app. */
export async function requireAnonymous(request: Request) {
  if (await getOptionalUser(request)) throw redirect("/app");
}

/**
 * Signed-in staff only. Signed out: to /. Timed out (idle or absolute): the "Your session has
 * expired" screen.
 */
export function requireUser(request: Request): Promise<ShellUser> {
  let user = userOfRequest.get(request);
  if (!user) {
    user = readRequiredUser(request);
    userOfRequest.set(request, user);
  }
  return user;
}

/**
 * The guard's answer for each request being answered: the layout's and the page's loaders (and
 * requireActor, requireRole inside them) read the user once per Request; a thrown redirect is the
 * same for all of them.
 */
const userOfRequest = new WeakMap<Request, Promise<ShellUser>>();

async function readRequiredUser(request: Request): Promise<ShellUser> {
  const session = await getSession(request);
  if (session.get("expired")) {
    throw redirect("/expired", { headers: { "Set-Cookie": await destroySession(session) } });
  }
  const userId = session.get("userId");
  const user = userId ? await getShellUser(userId) : null;
  if (!user) {
    const headers = userId ? { "Set-Cookie": await destroySession(session) } : undefined;
    throw redirect("/", { headers });
  }
  return user;
}

export async function requireRole<R extends Role>(request: Request, roles: readonly R[]) {
  const user = await requireUser(request);
  if (!(roles as readonly string[]).includes(user.role)) forbidden();
  return user as ShellUser & { role: R };
}
