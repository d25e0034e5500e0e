// The Actor and the membership rules every other rule starts from: part of the access module (app/domain/access.server.ts).
import type { Prisma } from "~/generated/prisma/client";
import { readRow, readRows } from "~/lib/reader.server";
import { isProviderRole, isSiteRole, SITE_ROLES } from "~/domain/roles";

/** A care site where the actor holds an accepted membership, and their role there. */
export type ActorSite = { careSiteId: string; role: string };

/** The signed-in user as the access rules see them. */
export type Actor = {
  id: string;
  role: string;
  /** Lower-cased: the invitations addressed to the actor are the ones to this address. */
  email: string;
  /** Accepted memberships at active care sites only: a removed member or a deactivated care site is absent. */
  sites: readonly ActorSite[];
  /** The care site chosen in the session, when it is one of `sites` (else the first, by name). */
  currentCareSiteId: string | null;
};

/** Matches no row. */
export const NOTHING = { id: { in: [] as string[] } };

/** Provider admins (superadmin, abmadmin) reach every care site. */
export function isGlobal(actor: Pick<Actor, "role">) {
  return isProviderRole(actor.role);
}

/** The actor's care site ids, optionally only those where their role is one of `roles`. */
export function siteIds(actor: Actor, roles?: readonly string[]) {
  if (!isSiteRole(actor.role)) return [];
  return actor.sites.filter((s) => !roles || roles.includes(s.role)).map((s) => s.careSiteId);
}

/** The actor's role at a care site (their accepted membership's), or null. */
export function siteRoleAt(actor: Actor, careSiteId: string | null | undefined) {
  if (!careSiteId || !isSiteRole(actor.role)) return null;
  return actor.sites.find((s) => s.careSiteId === careSiteId)?.role ?? null;
}

// ---------------------------------------------------------------------------------------------
// Memberships: which ones count
// ---------------------------------------------------------------------------------------------

/** A membership that gives its holder a place at a care site now: accepted, at an active care site. */
export function currentMembership(
  where: Omit<Prisma.MembershipWhereInput, "status" | "careSite"> = {},
): Prisma.MembershipWhereInput {
  return { ...where, status: "accepted", careSite: { status: "active" } };
}

/** Users who hold a current membership in `role` somewhere (the administrators' count cards). */
export function enrolledAs(role: string): Prisma.UserWhereInput {
  return { role, memberships: { some: currentMembership({ role }) } };
}

/** A current staff place of a user (readStaffSites), with the care site's name for the pickers. */
export type StaffSite = ActorSite & { name: string };

/**
 * The user's current places as care site staff (the shell's care site pickers and the Actor read
 * the same thing): accepted clinicadmin or clinician memberships at active care sites, by care
 * site name. Read on the request path's connection (lib/reader.server.ts): every signed-in page
 * reads them.
 */
export function readStaffSites(userId: string): StaffSite[] {
  return readRows<StaffSite>(
    `SELECT m."careSiteId" AS "careSiteId", m."role" AS "role", c."name" AS "name"
     FROM "Membership" m JOIN "CareSite" c ON c."id" = m."careSiteId"
     WHERE m."userId" = ? AND m."status" = 'accepted' AND c."status" = 'active'
       AND m."role" IN (${SITE_ROLES.map((r) => `'${r}'`).join(", ")})
     ORDER BY c."name", c."id"`,
    userId,
  );
}

/**
 * The Actor of a signed-in user whose email and current staff places are already read (the
 * shell's user, accounts/user.server.ts getShellUser), with the current care site when
 * `chosenCareSiteId` is one of them (otherwise the first, by name).
 */
export function actorOf(
  user: { id: string; role: string; email: string; staffSites: readonly ActorSite[] },
  chosenCareSiteId?: string | null,
): Actor {
  const sites: ActorSite[] = isSiteRole(user.role)
    ? user.staffSites.map((s) => ({ careSiteId: s.careSiteId, role: s.role }))
    : [];
  return {
    id: user.id,
    role: user.role,
    email: user.email.toLowerCase(),
    sites,
    currentCareSiteId: currentOf(sites, chosenCareSiteId),
  };
}

/**
 * Builds the Actor of a signed-in user: their email, their current staff memberships, and the
 * current care site when `chosenCareSiteId` is one of them (otherwise the first, by name).
 */
export async function loadActor(
  user: { id: string; role: string },
  chosenCareSiteId?: string | null,
): Promise<Actor> {
  const row = readRow<{ email: string }>(`SELECT "email" FROM "User" WHERE "id" = ?`, user.id);
  return actorOf(
    { ...user, email: row?.email ?? "", staffSites: row ? readStaffSites(user.id) : [] },
    chosenCareSiteId,
  );
}

/** The chosen care site when the actor still holds it, else the first (by name), else none. */
function currentOf(sites: readonly ActorSite[], chosen: string | null | undefined) {
  return sites.find((s) => s.careSiteId === chosen)?.careSiteId ?? sites[0]?.careSiteId ?? null;
}
