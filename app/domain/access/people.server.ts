// Care sites, patients, people and invitations: part of the access module (app/domain/access.server.ts).
import type { Prisma } from "~/generated/prisma/client";
import { OPEN_INVITATION_STATUSES, roleOptionsForNewEmail } from "~/domain/invitations/rules";
import { isSiteRole } from "~/domain/roles";
import { readRow, readRows } from "~/lib/reader.server";
import {
  NOTHING,
  isGlobal,
  siteIds,
  siteRoleAt,
  currentMembership,
  type Actor,
} from "./core.server";
// ---------------------------------------------------------------------------------------------
// Care sites
// ---------------------------------------------------------------------------------------------

/** Care sites the actor may read: all for provider admins, their active member sites otherwise. */
export function careSitesReadableBy(actor: Actor): Prisma.CareSiteWhereInput {
  if (isGlobal(actor)) return {};
  return memberCareSites(actor);
}

/**
 * The care sites of the care site staff screens (dashboard, care site management, notification
 * settings and summary): the actor's member sites, optionally where their role is one of
 * `roles`. Provider admins have no member sites (they have their own screens).
 */
export function memberCareSites(
  actor: Actor,
  roles?: readonly string[],
): Prisma.CareSiteWhereInput {
  const ids = siteIds(actor, roles);
  return ids.length ? { id: { in: ids }, status: "active" } : NOTHING;
}

/** Care sites whose details and picture the actor may change: a clinicadmin's own, or any for provider admins. */
export function careSitesEditableBy(actor: Actor): Prisma.CareSiteWhereInput {
  if (isGlobal(actor)) return {};
  if (actor.role !== "clinicadmin") return NOTHING;
  return memberCareSites(actor, ["clinicadmin"]);
}

/** The Care Site Profile page (and its admins card): the provider's admins, every care site. */
export function careSiteProfilesReadableBy(actor: Actor): Prisma.CareSiteWhereInput {
  return isGlobal(actor) ? {} : NOTHING;
}

/** Adding a care site, and the administrators' lists of every care site and person. */
export function mayAdministerAllCareSites(actor: Actor) {
  return isGlobal(actor);
}

// ---------------------------------------------------------------------------------------------
// Patients (and, through them, their devices, pairings and therapy data)
// ---------------------------------------------------------------------------------------------

/**
 * The patient memberships through which the actor reaches patients: accepted patient memberships
 * of patient accounts, at any care site for provider admins, at the actor's member sites otherwise.
 * One row per patient and care site (the Patients search, the care site a profile is seen through).
 */
export function patientPlacesReadableBy(actor: Actor): Prisma.MembershipWhereInput {
  const patient = { role: "patient", status: "accepted", user: { role: "patient" } };
  if (isGlobal(actor)) return patient;
  const ids = siteIds(actor);
  return ids.length
    ? { ...patient, careSiteId: { in: ids }, careSite: { status: "active" } }
    : NOTHING;
}

/** Patients the actor may read: their profile, therapy data, goals, notes, device and pairings. */
export function patientsReadableBy(actor: Actor): Prisma.UserWhereInput {
  if (isGlobal(actor)) return { role: "patient" };
  if (siteIds(actor).length === 0) return NOTHING;
  return { role: "patient", memberships: { some: patientPlacesReadableBy(actor) } };
}

/** A care site through which a patient is reached, as the profile shows it. */
export type PatientPlace = { id: string; name: string; timeZone: string };

/**
 * patientPlacesReadableBy for one patient, as SQL on the request path's read connection (the
 * profile reads it on every view; through Prisma it was a relation query of ~1 ms of CPU): the
 * care sites where the actor reaches the patient, by name. The same rule as the fragment above;
 * tests/integration/access-table.test.ts checks it through findProfile, cell by cell.
 */
export function readPatientPlacesReadableBy(actor: Actor, patientId: string): PatientPlace[] {
  const global = isGlobal(actor);
  const ids = global ? [] : siteIds(actor);
  if (!global && ids.length === 0) return [];
  const atMemberSites = global
    ? ""
    : `AND m."careSiteId" IN (${ids.map(() => "?").join(", ")}) AND c."status" = 'active'`;
  return readRows<PatientPlace>(
    `SELECT c."id" AS "id", c."name" AS "name", c."timeZone" AS "timeZone"
     FROM "Membership" m
     JOIN "User" u ON u."id" = m."userId"
     JOIN "CareSite" c ON c."id" = m."careSiteId"
     WHERE m."userId" = ? AND m."role" = 'patient' AND m."status" = 'accepted'
       AND u."role" = 'patient' ${atMemberSites}
     ORDER BY c."name", c."id"`,
    patientId,
    ...ids,
  );
}

/** patientsReadableBy for one patient, on the read connection: whether the actor may read them. */
export function readPatientReadableBy(actor: Actor, patientId: string): boolean {
  if (!isGlobal(actor)) return readPatientPlacesReadableBy(actor, patientId).length > 0;
  const row = readRow<{ id: string }>(
    `SELECT "id" FROM "User" WHERE "id" = ? AND "role" = 'patient'`,
    patientId,
  );
  return row !== undefined;
}

/**
 * Patients the actor may change (Patient Id, account status, notes, therapy goals): the ones they
 * may read. Pairing devices has its own rule (section "Devices and pairings").
 */
export function patientsEditableBy(actor: Actor): Prisma.UserWhereInput {
  return patientsReadableBy(actor);
}

/**
 * The accepted patients of one care site (the daily summary's people, the dashboard's). No actor:
 * the caller got `careSiteId` from a fragment above, or is a job.
 */
export function patientsOf(careSiteId: string): Prisma.UserWhereInput {
  return {
    role: "patient",
    memberships: { some: { careSiteId, role: "patient", status: "accepted" } },
  };
}

/** Patients' current places, for a list of patients the caller already reached. */
export function currentPatientPlaces(patientIds: string[]): Prisma.MembershipWhereInput {
  return currentMembership({ userId: { in: patientIds }, role: "patient" });
}

// ---------------------------------------------------------------------------------------------
// Staff and other users
// ---------------------------------------------------------------------------------------------

/**
 * Users whose read-only profile (/app/userinfo) the actor may open: anyone for provider admins;
 * otherwise themselves and users with an accepted membership at one of the actor's member sites.
 */
export function usersVisibleTo(actor: Actor): Prisma.UserWhereInput {
  if (isGlobal(actor)) return {};
  const ids = siteIds(actor);
  if (ids.length === 0) return { id: actor.id };
  return {
    OR: [
      { id: actor.id },
      { memberships: { some: { status: "accepted", careSiteId: { in: ids } } } },
    ],
  };
}

/**
 * The accepted memberships (patients, clinicians, care site admins) listed on the care site
 * screens: at one of the actor's member sites (`careSiteId`, or any of them).
 */
export function enrolmentsReadableBy(
  actor: Actor,
  careSiteId?: string,
): Prisma.MembershipWhereInput {
  const ids = siteIds(actor);
  if (careSiteId !== undefined && !ids.includes(careSiteId)) return NOTHING;
  if (ids.length === 0) return NOTHING;
  return currentMembership({ careSiteId: careSiteId ?? { in: ids } });
}

/**
 * Who may remove (withdraw) whom at a care site, by the actor's role there: a care site admin
 * removes anyone; a clinician removes patients only (the roles each may invite, spec 2 §5);
 * nobody removes themselves; nobody outside the care site removes anyone.
 */
export function mayWithdraw(
  actor: Actor,
  careSiteId: string,
  target: { userId: string; role: string },
) {
  const siteRole = siteRoleAt(actor, careSiteId);
  if (!siteRole || target.userId === actor.id) return false;
  if (actor.role === "clinicadmin" && siteRole === "clinicadmin") return true;
  return actor.role === "clinician" && siteRole === "clinician" && target.role === "patient";
}

/** The administrators' active care site admins of a care site (Care Site Profile). */
export function careSiteAdminsReadableBy(
  actor: Actor,
  careSiteId: string,
): Prisma.MembershipWhereInput {
  if (!isGlobal(actor)) return NOTHING;
  return { careSiteId, role: "clinicadmin", status: "accepted", user: { status: "active" } };
}

// ---------------------------------------------------------------------------------------------
// Invitations (spec 2 §4, §5; issue 18 item 3)
// ---------------------------------------------------------------------------------------------

/**
 * The roles the actor may invite at a care site: by their role there for care site staff (a
 * clinicadmin: clinicadmin, clinician, patient; a clinician: patient), by their own role for
 * provider admins (any care site, and an ABM admin without one for the super admin).
 */
export function rolesInvitableAt(actor: Actor, careSiteId: string | null): string[] {
  if (isGlobal(actor)) {
    const roles = roleOptionsForNewEmail(actor.role);
    return careSiteId === null
      ? roles.filter((r) => r === "abmadmin")
      : roles.filter((r) => r !== "abmadmin");
  }
  const siteRole = siteRoleAt(actor, careSiteId);
  return siteRole ? roleOptionsForNewEmail(siteRole) : [];
}

/**
 * Care sites the actor may invite to (optionally: for `role`): every active one for provider
 * admins; for care site staff, their member sites where their role there may invite it.
 */
export function careSitesInvitableBy(actor: Actor, role?: string): Prisma.CareSiteWhereInput {
  if (isGlobal(actor)) return { status: "active" };
  const ids = actor.sites
    .filter((s) => {
      const roles = rolesInvitableAt(actor, s.careSiteId);
      return role === undefined ? roles.length > 0 : roles.includes(role);
    })
    .map((s) => s.careSiteId);
  return isSiteRole(actor.role) && ids.length ? { id: { in: ids }, status: "active" } : NOTHING;
}

/**
 * The invitations the actor sent and still holds the power over (the Sent list, its count, and
 * Resend, Remove and Revoke): provider admins, all they sent; care site staff, those for a care
 * site where they are still a member whose role there may invite the invitation's role. A member
 * removed from a care site (or whose care site was deactivated) no longer sees or acts on what
 * they sent for it.
 */
export function invitationsSentBy(actor: Actor): Prisma.InvitationWhereInput {
  if (isGlobal(actor)) return { invitedById: actor.id };
  if (!isSiteRole(actor.role) || actor.sites.length === 0) return NOTHING;
  return {
    invitedById: actor.id,
    careSite: { status: "active" },
    OR: actor.sites.map((s) => ({
      careSiteId: s.careSiteId,
      role: { in: rolesInvitableAt(actor, s.careSiteId) },
    })),
  };
}

/**
 * Care sites an invitation to `email` may still be sent for: the invitee holds no accepted or
 * pending membership there, and has no open invitation (pending or resend, not yet expired: an
 * expired one can no longer be accepted, so a new invitation may replace it).
 */
export function careSitesOpenToInvitee(email: string, now: Date): Prisma.CareSiteWhereInput {
  return {
    memberships: { none: { user: { email }, status: { in: ["accepted", "pending"] } } },
    invitations: {
      none: { email, status: { in: [...OPEN_INVITATION_STATUSES] }, expiresAt: { gt: now } },
    },
  };
}

/** The invitations addressed to the actor (the Received list, Accept, Reject, Deactivate, Reactivate). */
export function invitationsReceivedBy(actor: Actor): Prisma.InvitationWhereInput {
  const email = actor.email.trim().toLowerCase();
  return email ? { email } : NOTHING;
}
