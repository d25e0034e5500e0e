// The patient profile (spec 3 §2.2–§2.4, §3, §4): who may open it, and its edits (Patient Id,
// account status, notes, therapy goals). Care-site scoping (DESIGN.md §5) comes from the access
// module (domain/access.server.ts): findProfile reads through readPatientPlacesReadableBy, and what the
// page shows (profileQueries.server.ts) is read for the patient it returned (a FoundProfile); every
// edit checks patientsEditableBy again inside its own write.
import {
  isGlobal,
  patientsEditableBy,
  readPatientPlacesReadableBy,
  readPatientReadableBy,
  type Actor,
} from "~/domain/access.server";
import type { Prisma } from "~/generated/prisma/client";
import { readWriteTransaction } from "~/lib/db.server";
import type { PatientProfileIds } from "~/domain/patients/profileLink";
import { DEFAULT_TIME_ZONE } from "~/lib/time";
import { recomputeFrom } from "~/domain/adherence/adherence.server";
import { audit, auditAlone, type AuditInput } from "~/domain/audit.server";
import { WEEKDAYS } from "~/domain/adherence/score";
import { isPairingOf } from "./sql.server";

export type ProfileCareSite = { id: string; name: string; timeZone: string };
declare const reached: unique symbol;
/** A patient findProfile let the actor open: only findProfile makes one. */
export type FoundProfile = {
  patientId: string;
  /** The care site the profile is seen through (the link's clinic_id, else the first shared). */
  careSite: ProfileCareSite | null;
  /** The link's pair_id, checked to be one of the patient's pairings. */
  pairId: string | null;
  readonly [reached]: true;
};

/**
 * The profile an actor may open, or null (404): provider admins (superadmin, abmadmin) any
 * patient; clinicadmin and clinician a patient accepted at one of their care sites
 * (access.server.ts patientPlacesReadableBy). A clinic_id must be such a care site (for provider
 * admins: one of the patient's), and a pair_id one of the patient's pairings; anything else is
 * null, never the data.
 */
export async function findProfile(
  actor: Actor,
  ids: PatientProfileIds,
): Promise<FoundProfile | null> {
  // On the read connection (access rules as SQL, access/people.server.ts): every view asks.
  const places: ProfileCareSite[] = readPatientPlacesReadableBy(actor, ids.profileId);
  let careSite: ProfileCareSite | null = null;
  if (ids.clinicId) {
    careSite = places.find((c) => c.id === ids.clinicId) ?? null;
    if (!careSite) return null;
  } else if (places.length > 0) {
    careSite = places[0];
  } else if (!isGlobal(actor)) {
    return null;
  }
  if (!careSite && !readPatientReadableBy(actor, ids.profileId)) return null;
  if (ids.pairId && !isPairingOf(ids.pairId, ids.profileId)) return null;
  return { patientId: ids.profileId, careSite, pairId: ids.pairId } as FoundProfile;
}

/** The care site zone a profile's days are counted in. */
export const profileZone = (found: FoundProfile) => found.careSite?.timeZone ?? DEFAULT_TIME_ZONE;

// ---------------------------------------------------------------------------------------------
// Edits
// ---------------------------------------------------------------------------------------------

type Where = { careSiteId?: string | null; ip?: string | null };

/** Whether the actor may change this patient (access.server.ts patientsEditableBy). */
async function mayEdit(db: Prisma.TransactionClient, actor: Actor, patientId: string) {
  const patient = await db.user.findFirst({
    where: { AND: [{ id: patientId }, patientsEditableBy(actor)] },
    select: { id: true },
  });
  return patient !== null;
}

/**
 * Sets the editable Patient Id (validated by the caller: 1..25 characters). False, and nothing
 * written, when the actor may not change this patient; so for every edit below.
 */
export async function updatePatientTag(actor: Actor, patientId: string, tag: string, where: Where) {
  return readWriteTransaction(async (tx) => {
    if (!(await mayEdit(tx, actor, patientId))) return false;
    await tx.patientProfile.upsert({
      where: { userId: patientId },
      create: { userId: patientId, patientTag: tag },
      update: { patientTag: tag },
    });
    await audit(
      patientEvent(actor, "patient.tag_updated", patientId, where, { patientTag: tag }),
      tx,
    );
    return true;
  });
}

/**
 * The account toggle (spec 3 §2.2): on = accepted (the account is active), off = blocked (the
 * account is disabled). Staff access to the profile does not depend on it.
 */
export async function setPatientAccountStatus(
  actor: Actor,
  patientId: string,
  accepted: boolean,
  where: Where,
) {
  return readWriteTransaction(async (tx) => {
    if (!(await mayEdit(tx, actor, patientId))) return false;
    await tx.user.update({
      where: { id: patientId },
      data: { status: accepted ? "active" : "disabled" },
    });
    await audit(
      patientEvent(actor, accepted ? "patient.activated" : "patient.blocked", patientId, where),
      tx,
    );
    return true;
  });
}

export async function addPatientNote(actor: Actor, patientId: string, body: string, where: Where) {
  return readWriteTransaction(async (tx) => {
    if (!(await mayEdit(tx, actor, patientId))) return false;
    await tx.patientNote.create({
      data: { patientId, careSiteId: where.careSiteId ?? null, authorId: actor.id, body },
    });
    await audit(patientEvent(actor, "patient.note_added", patientId, where), tx);
    return true;
  });
}

/**
 * A new therapy goal (the newest is Active), on one of the patient's pairings. It governs from
 * today (site zone) on, so the patient's adherence is recomputed from today before this returns.
 */
export async function setTherapyGoal(
  actor: Actor,
  input: { patientId: string; pairingId: string; timesPerDay: number; days: string[] },
  where: Where,
  now = new Date(),
) {
  const days = WEEKDAYS.filter((d) => input.days.includes(d));
  const ordered = [...days.filter((d) => d !== "sun"), ...days.filter((d) => d === "sun")];
  const set = await readWriteTransaction(async (tx) => {
    if (!(await mayEdit(tx, actor, input.patientId))) return false;
    const pairing = await tx.pairing.findFirst({
      where: { id: input.pairingId, patientId: input.patientId },
      select: { id: true },
    });
    if (!pairing) return false;
    await tx.therapyGoal.create({
      data: {
        patientId: input.patientId,
        pairingId: input.pairingId,
        timesPerDay: input.timesPerDay,
        days: ordered.join(","),
        createdById: actor.id,
        createdAt: now,
      },
    });
    await audit(
      patientEvent(actor, "patient.goal_set", input.patientId, where, {
        timesPerDay: input.timesPerDay,
        days: ordered,
      }),
      tx,
    );
    return true;
  });
  if (set) await recomputeFrom({ patientId: input.patientId, days: [now], now });
  return set;
}

/** An audit event about the patient, where it happened. */
function patientEvent(
  actor: { id: string },
  action: string,
  patientId: string,
  where: Where,
  detail?: Record<string, unknown>,
): AuditInput {
  return {
    actorId: actor.id,
    action,
    targetType: "User",
    targetId: patientId,
    careSiteId: where.careSiteId,
    ip: where.ip,
    detail,
  };
}

/** Every view of a profile is audited (issue 6). */
export function auditProfileView(
  actor: { id: string },
  patientId: string,
  where: Where,
  what = "viewed",
) {
  return auditAlone(patientEvent(actor, `patient.profile_${what}`, patientId, where));
}
