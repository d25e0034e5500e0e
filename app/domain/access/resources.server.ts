// Conversations, photos, notifications, help, devices and pairings: part of the access module (app/domain/access.server.ts).
import type { Prisma } from "~/generated/prisma/client";
import { readRow } from "~/lib/reader.server";
import { isSiteRole, PROVIDER_ROLES, SITE_ROLES } from "~/domain/roles";
import { NOTHING, isGlobal, siteIds, currentMembership, type Actor } from "./core.server";
import { careSitesReadableBy, memberCareSites, patientsReadableBy } from "./people.server";
// ---------------------------------------------------------------------------------------------
// Conversations (staff messaging, docs/decisions.md "Contacts")
// ---------------------------------------------------------------------------------------------

/** Care site staff memberships that count for messaging: clinicadmin or clinician, current. */
const staffPlace = (where: Omit<Prisma.MembershipWhereInput, "status" | "careSite"> = {}) =>
  currentMembership({ role: { in: [...SITE_ROLES] }, ...where });

/**
 * The users the actor may talk with ("accepted sharing", both ways): care site staff who share a
 * member site with the actor; the provider's staff with every current care site admin and with
 * each other; a care site admin also with the provider's staff. Active accounts, never oneself.
 */
export function contactsOf(actor: Actor): Prisma.UserWhereInput {
  const others = { id: { not: actor.id }, status: "active" };
  if (isGlobal(actor)) {
    const careSiteAdmin: Prisma.UserWhereInput = {
      role: { in: [...SITE_ROLES] },
      memberships: { some: staffPlace({ role: "clinicadmin" }) },
    };
    return { ...others, OR: [{ role: { in: [...PROVIDER_ROLES] } }, careSiteAdmin] };
  }
  const ids = siteIds(actor);
  if (ids.length === 0) return NOTHING;
  const sharesASite: Prisma.UserWhereInput = {
    role: { in: [...SITE_ROLES] },
    memberships: { some: staffPlace({ careSiteId: { in: ids } }) },
  };
  const adminSomewhere = siteIds(actor, ["clinicadmin"]).length > 0;
  return {
    ...others,
    OR: adminSomewhere ? [sharesASite, { role: { in: [...PROVIDER_ROLES] } }] : [sharesASite],
  };
}

/** Conversations the actor takes part in (reading them; posting needs a contact among the others). */
export function dialogsOf(actor: Actor): Prisma.ChatDialogWhereInput {
  return { participants: { some: { userId: actor.id } } };
}

// ---------------------------------------------------------------------------------------------
// Photos and care site pictures
// ---------------------------------------------------------------------------------------------

/**
 * The stored photos the actor may see: their own always; for staff, every staff member's photo,
 * and patients' photos and care site pictures of the actor's member sites (all of them for
 * provider admins). Anyone else sees only their own.
 */
export function photosViewableBy(actor: Actor): Prisma.UploadWhereInput {
  const own: Prisma.UploadWhereInput[] = [
    { kind: "photo", ownerId: actor.id },
    { userPhotos: { some: { id: actor.id } } },
  ];
  if (!isGlobal(actor) && !isSiteRole(actor.role)) return { OR: own };
  const staff = { role: { in: [...PROVIDER_ROLES, ...SITE_ROLES] } };
  return {
    kind: { in: ["photo", "caresite"] },
    OR: [
      ...own,
      { userPhotos: { some: staff } },
      { userPhotos: { some: patientsReadableBy(actor) } },
      { careSitePhotos: { some: careSitesReadableBy(actor) } },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Notifications: settings and the daily summary screens
// ---------------------------------------------------------------------------------------------

/** Care sites whose notification settings and summaries the actor may read: their member sites. */
export function notificationsReadableBy(actor: Actor): Prisma.CareSiteWhereInput {
  return memberCareSites(actor);
}

/**
 * Care sites whose notification settings (days, thresholds, and the daily summary's recipients)
 * the actor may change: those where they are a clinicadmin (a clinician's page is read-only).
 */
export function notificationsEditableBy(actor: Actor): Prisma.CareSiteWhereInput {
  if (actor.role !== "clinicadmin") return NOTHING;
  return memberCareSites(actor, ["clinicadmin"]);
}

// ---------------------------------------------------------------------------------------------
// Help Center
// ---------------------------------------------------------------------------------------------

/** Care site staff write to Customer Service (spec 3 §2.11), members of a care site or not. */
export function mayAskForHelp(actor: Actor) {
  return isSiteRole(actor.role);
}

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

/**
 * The patient profile's pairing buttons, as SQL on the request path's read connection (read on
 * every view; through Prisma they were two counts with relation filters): Pair device for staff
 * of the care site the profile is seen through (mayPairAt), Unpair device when the actor may also
 * end every open pairing of the patient (pairingsEndableBy; true when there is none).
 * tests/integration/access-pairing.test.ts checks it against devices/device.server.ts
 * pairingPowers, cell by cell.
 */
export function readPairingPowers(
  actor: Actor,
  patientId: string,
  careSiteId: string | null | undefined,
) {
  if (!mayPairAt(actor, careSiteId)) return { canPair: false, canUnpair: false };
  const ids = pairingSiteIds(actor);
  const list = ids.map(() => "?").join(", ");
  // pairingsInside(ids): made at one of them, or with no care site and a patient accepted there.
  const row = readRow<{ open: number; endable: number | null }>(
    `SELECT COUNT(*) AS "open",
       SUM(CASE WHEN p."careSiteId" IN (${list})
                  OR (p."careSiteId" IS NULL AND EXISTS (
                        SELECT 1 FROM "Membership" m
                        WHERE m."userId" = p."patientId" AND m."careSiteId" IN (${list})
                          AND m."role" = 'patient' AND m."status" = 'accepted'))
                THEN 1 ELSE 0 END) AS "endable"
     FROM "Pairing" p WHERE p."patientId" = ? AND p."unpairedAt" IS NULL`,
    ...ids,
    ...ids,
    patientId,
  );
  return { canPair: true, canUnpair: Number(row?.endable ?? 0) === Number(row?.open ?? 0) };
}
