// Who may read or change what (STYLE.md "Doors"): the only place care-site scoping is written.
//
// Every rule starts from an Actor: the signed-in user's id and role, the care sites where they
// hold an accepted membership *at an active care site* (with their role there), and the care
// site they are working in now. Models take an Actor and ask this module for a Prisma
// where-fragment; they never write a membership filter of their own and never take a Request.
//
// Roles (DESIGN.md §5 "Care-site scoping"): superadmin and abmadmin reach every care site;
// clinicadmin and clinician reach the care sites of their accepted memberships only; anything
// else reaches nothing. A fragment that matches nothing is how "denied" reads, so a model's
// answer for another care site's row is the same as for a missing row (the route answers 404).
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { isProviderRole, isSiteRole } from "~/lib/roles";

/** A care site where the actor holds an accepted membership, and their role there. */
export type ActorSite = { careSiteId: string; role: string };

/** The signed-in user as the access rules see them. */
export type Actor = {
  id: string;
  role: string;
  /** Accepted memberships at active care sites only: a removed member or a deactivated care site is absent. */
  sites: readonly ActorSite[];
  /** The care site chosen in the session, when it is one of `sites` (site roles only). */
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

/**
 * Builds the Actor of a signed-in user: their accepted memberships at active care sites, and the
 * current care site when `chosenCareSiteId` is one of them (otherwise the first, by name).
 */
export async function loadActor(
  user: { id: string; role: string },
  chosenCareSiteId?: string | null,
): Promise<Actor> {
  const memberships = isSiteRole(user.role)
    ? await prisma.membership.findMany({
        where: { userId: user.id, status: "accepted", careSite: { status: "active" } },
        select: { careSiteId: true, role: true },
        orderBy: { careSite: { name: "asc" } },
      })
    : [];
  const sites = memberships.map((m) => ({ careSiteId: m.careSiteId, role: m.role }));
  const current =
    sites.find((s) => s.careSiteId === chosenCareSiteId)?.careSiteId ?? sites[0]?.careSiteId ?? null;
  return { id: user.id, role: user.role, sites, currentCareSiteId: current };
}

// ---------------------------------------------------------------------------------------------
// Care sites
// ---------------------------------------------------------------------------------------------

/** Care sites the actor may read: all for provider admins, their active member sites otherwise. */
export function careSitesReadableBy(actor: Actor): Prisma.CareSiteWhereInput {
  if (isGlobal(actor)) return {};
  const ids = siteIds(actor);
  return ids.length ? { id: { in: ids }, status: "active" } : NOTHING;
}

// ---------------------------------------------------------------------------------------------
// Patients, staff (users), invitations, conversations: see the sections below.
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Devices and pairings
// ---------------------------------------------------------------------------------------------
