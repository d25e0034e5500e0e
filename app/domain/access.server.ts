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
//
// A pairing belongs to the care site it was made in (Pairing.careSiteId); when that is unknown
// (null: its care site was deleted, or the row predates the column) it belongs to the care sites
// where its patient is an accepted patient. Care site staff (clinicadmin, clinician) pair and
// unpair devices at their own care sites only; provider admins see pairings but never change them.
//
// Pairing a device into care site S (the care site the patient's profile is seen through) is
// allowed when the device has no open pairing, or when its open pairing is inside S (a move
// between two patients of S, which the page confirms first). An open pairing anywhere else keeps
// the device out of S's reach entirely: to S's staff such a serial looks exactly like an unknown
// one (devicesPairableBy matches neither), so no serial of another care site can be found out.
//
// "Outside S" is spelled out branch by branch rather than as NOT(inside S): `careSiteId` is
// nullable, and a negated comparison with NULL is neither true nor false in SQL, so a NOT around
// the "inside" fragment would silently let through a null-site pairing of a patient elsewhere.

const PAIRING_ROLES = ["clinicadmin", "clinician"] as const;

/** Care sites where the actor pairs and unpairs devices: their own, as care site staff. */
function pairingSiteIds(actor: Actor) {
  return siteIds(actor, PAIRING_ROLES);
}

/** Whether the actor may pair devices with patients of care site `careSiteId`. */
export function mayPairAt(actor: Actor, careSiteId: string | null | undefined) {
  return !!careSiteId && pairingSiteIds(actor).includes(careSiteId);
}

/** Pairings inside one of `careSiteIds`: made there, or with no care site and a patient there. */
export function pairingsInside(careSiteIds: readonly string[]): Prisma.PairingWhereInput {
  if (careSiteIds.length === 0) return NOTHING;
  const ids = [...careSiteIds];
  return {
    OR: [
      { careSiteId: { in: ids } },
      {
        careSiteId: null,
        patient: {
          memberships: {
            some: { careSiteId: { in: ids }, role: "patient", status: "accepted" },
          },
        },
      },
    ],
  };
}

/** Pairings outside care site S: made elsewhere, or with no care site and a patient not at S. */
function pairingsOutside(careSiteId: string): Prisma.PairingWhereInput {
  return {
    OR: [
      // SQL's `careSiteId <> S` is not true for NULL: the null rows are the second branch's.
      { careSiteId: { not: careSiteId } },
      {
        careSiteId: null,
        patient: { memberships: { none: { careSiteId, role: "patient", status: "accepted" } } },
      },
    ],
  };
}

/**
 * Devices the actor may pair with a patient of care site `careSiteId`: none unless they are staff
 * there; then a device with no open pairing, or whose open pairing is inside that care site.
 */
export function devicesPairableBy(actor: Actor, careSiteId: string): Prisma.DeviceWhereInput {
  if (!mayPairAt(actor, careSiteId)) return NOTHING;
  return { pairings: { none: { unpairedAt: null, ...pairingsOutside(careSiteId) } } };
}

/**
 * Open pairings the actor may end by pairing their device into care site `careSiteId` (a move
 * between two patients of that care site, confirmed first): the open pairings inside it.
 */
export function pairingsMovableBy(actor: Actor, careSiteId: string): Prisma.PairingWhereInput {
  if (!mayPairAt(actor, careSiteId)) return NOTHING;
  return { unpairedAt: null, ...pairingsInside([careSiteId]) };
}

/**
 * Pairings the actor may end (unpair, or replace by pairing the patient with another device):
 * those inside a care site where they are staff.
 */
export function pairingsEndableBy(actor: Actor): Prisma.PairingWhereInput {
  return pairingsInside(pairingSiteIds(actor));
}
