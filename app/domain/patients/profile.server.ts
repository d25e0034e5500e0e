// The patient profile (spec 3 §2.2–§2.4, §3, §4): who may open it, what it shows, and its edits
// (Patient Id, account status, notes, therapy goals). Care-site scoping (DESIGN.md §5) comes from
// the access module (domain/access.server.ts): findProfile reads through patientPlacesReadableBy,
// and the readers below are called with the patient it returned (a FoundProfile); every edit checks
// patientsEditableBy again inside its own write.
import {
  isGlobal,
  patientPlacesReadableBy,
  patientsEditableBy,
  patientsReadableBy,
  type Actor,
} from "~/domain/access.server";
import { Prisma } from "~/generated/prisma/client";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import type { PatientProfileIds } from "~/domain/patients/profileLink";
import { DEFAULT_TIME_ZONE } from "~/lib/time";
import { recomputeFrom } from "~/domain/adherence/adherence.server";
import { audit, type AuditInput } from "~/domain/audit.server";
import { addDays, dayMapper, dayRange, dayStart, WEEKDAYS } from "~/domain/adherence/score";

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

const careSiteSelect = { id: true, name: true, timeZone: true } as const;

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
  const admin = isGlobal(actor);
  const memberships = await prisma.membership.findMany({
    where: { AND: [{ userId: ids.profileId }, patientPlacesReadableBy(actor)] },
    orderBy: { careSite: { name: "asc" } },
    select: { careSite: { select: careSiteSelect } },
  });
  let careSite: ProfileCareSite | null = null;
  if (ids.clinicId) {
    careSite = memberships.find((m) => m.careSite.id === ids.clinicId)?.careSite ?? null;
    if (!careSite) return null;
  } else if (memberships.length > 0) {
    careSite = memberships[0].careSite;
  } else if (!admin) {
    return null;
  }
  if (admin && !careSite) {
    const patient = await prisma.user.findFirst({
      where: { AND: [{ id: ids.profileId }, patientsReadableBy(actor)] },
      select: { id: true },
    });
    if (!patient) return null;
  }
  if (ids.pairId) {
    const pairing = await prisma.pairing.findFirst({
      where: { id: ids.pairId, patientId: ids.profileId },
      select: { id: true },
    });
    if (!pairing) return null;
  }
  return { patientId: ids.profileId, careSite, pairId: ids.pairId } as FoundProfile;
}

/** The care site zone a profile's days are counted in. */
export const profileZone = (found: FoundProfile) => found.careSite?.timeZone ?? DEFAULT_TIME_ZONE;

// ---------------------------------------------------------------------------------------------
// What the page shows
// ---------------------------------------------------------------------------------------------

export async function getPatient(patientId: string) {
  const user = await prisma.user.findUniqueOrThrow({
    where: { id: patientId },
    select: {
      id: true,
      firstName: true,
      lastName: true,
      email: true,
      phone: true,
      status: true,
      photoId: true,
      addressLine1: true,
      addressLine2: true,
      city: true,
      state: true,
      zip: true,
      country: true,
      patientProfile: {
        select: {
          patientTag: true,
          dateOfBirth: true,
          gender: true,
          bloodType: true,
          heightIn: true,
          weightLb: true,
          existingCondition1: true,
          existingCondition2: true,
          existingCondition3: true,
          allergy1: true,
          allergy2: true,
          allergy3: true,
        },
      },
      pairings: {
        where: { unpairedAt: null },
        orderBy: { pairedAt: "desc" },
        take: 1,
        select: { id: true, device: { select: { serial: true } } },
      },
    },
  });
  const { pairings, patientProfile, ...rest } = user;
  return {
    ...rest,
    profile: patientProfile,
    currentPairing: pairings[0] ? { id: pairings[0].id, serial: pairings[0].device.serial } : null,
  };
}

export function getLatestNote(patientId: string) {
  return prisma.patientNote.findFirst({
    where: { patientId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      body: true,
      createdAt: true,
      author: { select: { firstName: true, lastName: true } },
    },
  });
}

/** Goal history, newest (Active) first. */
export async function listGoals(patientId: string) {
  const goals = await prisma.therapyGoal.findMany({
    where: { patientId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      timesPerDay: true,
      days: true,
      createdAt: true,
      createdBy: { select: { firstName: true, lastName: true } },
    },
  });
  return goals.map((g, i) => ({
    ...g,
    days: g.days.split(",").filter(Boolean),
    active: i === 0,
    createdBy: g.createdBy ? `${g.createdBy.firstName} ${g.createdBy.lastName}` : null,
  }));
}

/** The DailyAdherence rows of fromDay..toDay (days without a row are absent). */
export function adherenceDays(patientId: string, fromDay: string, toDay: string) {
  return prisma.dailyAdherence.findMany({
    where: { patientId, day: { gte: fromDay, lte: toDay } },
    orderBy: { day: "asc" },
    select: {
      day: true,
      isGoalDay: true,
      timesPerDay: true,
      therapies: true,
      completed: true,
      dayAdherence: true,
      score: true,
      maxHmr: true,
    },
  });
}

/** The day (site zone) of the patient's latest therapy up to `today`, or null without any. */
export async function latestTherapyDay(patientId: string, zone: string, today: string) {
  const latest = await prisma.therapy.findFirst({
    where: { patientId, startedAt: { lt: new Date(dayStart(addDays(today, 1), zone)) } },
    orderBy: { startedAt: "desc" },
    select: { startedAt: true },
  });
  return latest ? dayMapper(zone)(latest.startedAt.getTime()) : null;
}

/** The therapies that started on a day (site zone), earliest first, with their cycles. */
export function therapiesOnDay(patientId: string, zone: string, day: string) {
  return prisma.therapy.findMany({
    where: {
      patientId,
      startedAt: {
        gte: new Date(dayStart(day, zone)),
        lt: new Date(dayStart(addDays(day, 1), zone)),
      },
    },
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      eventId: true,
      startedAt: true,
      mode: true,
      prescribedCycles: true,
      cyclesDelivered: true,
      completed: true,
      deviates: true,
      pauseP: true,
      inspP: true,
      expP: true,
      oscillation: true,
      cycles: {
        orderBy: { n: "asc" },
        select: {
          n: true,
          peakInspP: true,
          expVolume: true,
          peakFlow: true,
          spo2: true,
          oscillation: true,
        },
      },
    },
  });
}

type CycleRow = {
  startedAt: unknown;
  peakFlow: number | null;
  expVolume: number | null;
  peakInspP: number | null;
};

function cycleRows(patientId: string, from: number, to: number) {
  return prisma.$queryRaw<CycleRow[]>(Prisma.sql`
    SELECT t.startedAt AS startedAt, c.peakFlow AS peakFlow, c.expVolume AS expVolume,
      c.peakInspP AS peakInspP
    FROM "Therapy" t JOIN "Cycle" c ON c.therapyId = t.id
    WHERE t.patientId = ${patientId} AND t.startedAt >= ${from} AND t.startedAt < ${to}
    ORDER BY t.startedAt, c.n`);
}

const toMs = (v: unknown) => (v instanceof Date ? v.getTime() : Number(v));
const TREND_KEYS = ["peakFlow", "expVolume", "peakInspP"] as const;
type TrendKey = (typeof TREND_KEYS)[number];

/**
 * Therapy trends (spec 3 §2.2): per day of fromDay..toDay, the average peak expiratory flow,
 * expiratory volume and peak inspiratory pressure of that day's cycles (null without any).
 * SQLite sums the cycles per therapy (a row per therapy, not per cycle: two years are 4,400 rows
 * instead of 44,000, docs/performance.md "Patient profile"); the days are counted here, in the
 * care site's zone.
 */
export async function trendDays(patientId: string, zone: string, fromDay: string, toDay: string) {
  const rows = await prisma.$queryRaw<Record<string, unknown>[]>(Prisma.sql`
    SELECT t.startedAt AS startedAt,
      SUM(c.peakFlow) AS peakFlowSum, COUNT(c.peakFlow) AS peakFlowN,
      SUM(c.expVolume) AS expVolumeSum, COUNT(c.expVolume) AS expVolumeN,
      SUM(c.peakInspP) AS peakInspPSum, COUNT(c.peakInspP) AS peakInspPN
    FROM "Therapy" t JOIN "Cycle" c ON c.therapyId = t.id
    WHERE t.patientId = ${patientId}
      AND t.startedAt >= ${dayStart(fromDay, zone)} AND t.startedAt < ${dayStart(addDays(toDay, 1), zone)}
    GROUP BY t.id`);
  const dayOf = dayMapper(zone);
  const sums = new Map<string, Record<TrendKey, [number, number]>>();
  for (const r of rows) {
    const day = dayOf(toMs(r.startedAt));
    let s = sums.get(day);
    if (!s) sums.set(day, (s = { peakFlow: [0, 0], expVolume: [0, 0], peakInspP: [0, 0] }));
    for (const k of TREND_KEYS) {
      s[k][0] += Number(r[`${k}Sum`] ?? 0);
      s[k][1] += Number(r[`${k}N`] ?? 0);
    }
  }
  return dayRange(fromDay, toDay).map((day) => {
    const s = sums.get(day);
    const avg = (k: TrendKey) => (s && s[k][1] ? s[k][0] / s[k][1] : null);
    return {
      day,
      peakFlow: avg("peakFlow"),
      expVolume: avg("expVolume"),
      peakInspP: avg("peakInspP"),
    };
  });
}

/** The drill-down of one trend day: each cycle of that day with its start time (HH:mm, site zone). */
export async function trendCyclesOfDay(patientId: string, zone: string, day: string) {
  const rows = await cycleRows(patientId, dayStart(day, zone), dayStart(addDays(day, 1), zone));
  const time = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  return rows.map((r) => ({
    time: time.format(new Date(toMs(r.startedAt))),
    peakFlow: r.peakFlow === null ? null : Number(r.peakFlow),
    expVolume: r.expVolume === null ? null : Number(r.expVolume),
    peakInspP: r.peakInspP === null ? null : Number(r.peakInspP),
  }));
}

/** The transmissions of a patient sent in fromDay..toDay (site zone), for the CSV download. */
export async function transmissionsInRange(
  patientId: string,
  zone: string,
  fromDay: string,
  toDay: string,
) {
  const rows = await prisma.transmission.findMany({
    where: {
      patientId,
      sentAt: {
        gte: new Date(dayStart(fromDay, zone)),
        lt: new Date(dayStart(addDays(toDay, 1), zone)),
      },
    },
    orderBy: [{ sentAt: "asc" }, { id: "asc" }],
    select: {
      receivedAt: true,
      sentAt: true,
      hmr: true,
      therapiesAccepted: true,
      therapiesDuplicate: true,
      deviatingTherapies: true,
      therapyAdjustment: true,
      device: { select: { serial: true } },
      therapies: { select: { startedAt: true } },
    },
  });
  return rows.map((r) => {
    const starts = r.therapies.map((t) => t.startedAt.getTime());
    return {
      receivedAt: r.receivedAt,
      sentAt: r.sentAt,
      serial: r.device.serial,
      therapies: r.therapiesAccepted,
      duplicates: r.therapiesDuplicate,
      deviatingTherapies: r.deviatingTherapies,
      therapyAdjustment: r.therapyAdjustment,
      hmr: r.hmr,
      firstTherapyAt: starts.length ? new Date(Math.min(...starts)) : null,
      lastTherapyAt: starts.length ? new Date(Math.max(...starts)) : null,
    };
  });
}

/** Counts for the report's therapy summary over fromDay..toDay (site zone). */
export async function therapySummary(
  patientId: string,
  zone: string,
  fromDay: string,
  toDay: string,
) {
  const from = dayStart(fromDay, zone);
  const to = dayStart(addDays(toDay, 1), zone);
  const [row] = await prisma.$queryRaw<Record<string, unknown>[]>(Prisma.sql`
    SELECT COUNT(*) AS therapies, COALESCE(SUM(completed), 0) AS completed,
      COALESCE(SUM(deviates), 0) AS deviating, AVG(cyclesDelivered) AS averageCycles
    FROM "Therapy" WHERE patientId = ${patientId} AND startedAt >= ${from} AND startedAt < ${to}`);
  const transmissions = await prisma.transmission.count({
    where: {
      patientId,
      sentAt: { gte: new Date(from), lt: new Date(to) },
      therapiesAccepted: { gt: 0 },
    },
  });
  return {
    therapies: Number(row.therapies),
    completed: Number(row.completed),
    deviating: Number(row.deviating),
    averageCyclesPerTherapy: row.averageCycles === null ? null : Number(row.averageCycles),
    transmissions,
  };
}

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
  return audit(patientEvent(actor, `patient.profile_${what}`, patientId, where));
}
