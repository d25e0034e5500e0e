// The one guard path of routes (STYLE.md "Doors"): the signed-in user, their role checked, and
// their Actor (domain/access.server.ts) built once per request with the care site chosen in the
// session. Routes import this; lib never does (routes → domain → lib).
import { getOptionalUser, requireUser } from "~/domain/accounts/auth.server";
import { forbidden, notFoundUnless } from "~/lib/http.server";
import { readPatientProfileParam } from "~/domain/patients/profileLink";
import { STAFF_ROLES, type Role } from "~/domain/roles";
import { getSession, type AppSession } from "~/lib/session.server";
import { findProfile } from "~/domain/patients/profile.server";
import type { ShellUser } from "~/domain/accounts/user.server";
import { actorOf, type Actor } from "./access.server";

/**
 * The signed-in user as the shell knows them (names, measuring unit, the care sites of the
 * pickers) and, in the same value, their Actor: pass it wherever a model asks for an Actor.
 */
export type SignedIn<R extends string = string> = ShellUser & Actor & { role: R };

async function signedIn(request: Request, user: ShellUser): Promise<SignedIn> {
  const session = await getSession(request);
  return { ...user, ...actorOf(user, session.get("careSiteId")) };
}

/**
 * A signed-in user (requireUser: signed out → /, timed out → the expired screen) whose role is one
 * of `roles` (else 403), with their Actor.
 */
export async function requireActor<R extends Role>(
  request: Request,
  roles?: readonly R[],
): Promise<SignedIn<R>> {
  const user = await requireUser(request);
  if (roles && !(roles as readonly string[]).includes(user.role)) forbidden();
  return (await signedIn(request, user)) as SignedIn<R>;
}

/** The signed-in user with their Actor, or null (long-lived streams answer "expired" instead). */
export async function getOptionalActor(request: Request): Promise<SignedIn | null> {
  const user = await getOptionalUser(request);
  return user ? signedIn(request, user) : null;
}

/**
 * Keeps `careSiteId` in the session as the chosen care site (the caller commits the session):
 * "stored" when it changed, "unchanged" when the session already held it, "refused" (nothing
 * stored) when the actor holds no such care site (the route answers 404).
 */
export function rememberCareSite(
  session: AppSession,
  actor: Actor,
  careSiteId: unknown,
): "stored" | "unchanged" | "refused" {
  if (typeof careSiteId !== "string" || !actor.sites.some((s) => s.careSiteId === careSiteId)) {
    return "refused";
  }
  if (session.get("careSiteId") === careSiteId) return "unchanged";
  session.set("careSiteId", careSiteId);
  return "stored";
}

/**
 * The guard of the patient profile and its downloads: a signed-in staff user and a `p` parameter
 * naming a profile they may open (domain/patients/profile.server.ts findProfile); anything else
 * throws (to / or the expired screen, 403 for other roles, else 404).
 */
export async function requireProfile(request: Request) {
  const viewer = await requireActor(request, STAFF_ROLES);
  const ids = notFoundUnless(readPatientProfileParam(new URL(request.url).searchParams.get("p")));
  const found = notFoundUnless(await findProfile(viewer, ids));
  return { viewer, found };
}
