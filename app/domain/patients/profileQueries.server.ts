// What the patient profile shows (spec 3 §2.2–§2.4) and its downloads read, for a patient
// findProfile let the actor open (profile.server.ts): header, notes, goals, adherence days,
// therapies, trends, transmissions and the report's therapy summary. The page's reads on every
// view and the trends are raw SQL (sql.server.ts), where a benchmark showed it pays.
import { BoundedCache } from "~/lib/boundedCache";
import { prisma } from "~/lib/db.server";
import { addDays, dayMapper, dayRange, dayStart } from "~/domain/adherence/score";
import {
  readAdherenceDays,
  readAdherenceSeries,
  readGoals,
  readLatestNote,
  readPatient,
  TREND_KEYS,
  transmissionVersion,
  trendRows,
  type TrendKey,
} from "./sql.server";

/** The patient's header and details (a FoundProfile's patient always exists: else a 404). */
export async function getPatient(patientId: string) {
  const patient = readPatient(patientId);
  if (!patient) throw new Error(`No patient ${patientId}`);
  return patient;
}

export async function getLatestNote(patientId: string) {
  return readLatestNote(patientId);
}

/** Goal history, newest (Active) first. */
export async function listGoals(patientId: string) {
  return readGoals(patientId).map((g, i) => ({
    ...g,
    days: g.days.split(",").filter(Boolean),
    active: i === 0,
    createdBy: g.createdBy ? `${g.createdBy.firstName} ${g.createdBy.lastName}` : null,
  }));
}

/** The DailyAdherence rows of fromDay..toDay (days without a row are absent). */
export async function adherenceDays(patientId: string, fromDay: string, toDay: string) {
  return readAdherenceDays(patientId, fromDay, toDay);
}

/** The score and HMR of each day of fromDay..toDay with a row, as [day, score, maxHmr]. */
export async function adherenceSeries(patientId: string, fromDay: string, toDay: string) {
  return readAdherenceSeries(patientId, fromDay, toDay);
}

/**
 * The patient's therapies and cycles as of now (sql.server.ts transmissionVersion): what is read
 * from them is kept under it, and a new transmission makes a new version. Read it before the data.
 */
export const therapyVersion = transmissionVersion;

/** Reads about therapies, kept per version; entries are shared, callers never change them. */
export const therapyReadCache = new BoundedCache<unknown>({ maxEntries: 1_000 });

async function keptPerVersion<T>(
  key: string[],
  version: string | undefined,
  read: () => Promise<T>,
) {
  if (version === undefined) return read();
  const full = [...key, version].join("|");
  const hit = therapyReadCache.get(full);
  if (hit !== undefined) return hit as T;
  const value = await read();
  therapyReadCache.set(full, value);
  return value;
}

/** The day (site zone) of the patient's latest therapy up to `today`, or null without any. */
export function latestTherapyDay(patientId: string, zone: string, today: string, version?: string) {
  return keptPerVersion(["latest", patientId, zone, today], version, async () => {
    const latest = await prisma.therapy.findFirst({
      where: { patientId, startedAt: { lt: new Date(dayStart(addDays(today, 1), zone)) } },
      orderBy: { startedAt: "desc" },
      select: { startedAt: true },
    });
    return latest ? dayMapper(zone)(latest.startedAt.getTime()) : null;
  });
}

/** The therapies that started on a day (site zone), earliest first, with their cycles. */
export function therapiesOnDay(patientId: string, zone: string, day: string, version?: string) {
  return keptPerVersion(["day", patientId, zone, day], version, () =>
    readTherapiesOnDay(patientId, zone, day),
  );
}

function readTherapiesOnDay(patientId: string, zone: string, day: string) {
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

/** The cycles of the therapies that started in [from, to) (epoch ms), in start order. */
async function cyclesBetween(patientId: string, from: number, to: number) {
  const therapies = await prisma.therapy.findMany({
    where: { patientId, startedAt: { gte: new Date(from), lt: new Date(to) } },
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
    select: {
      startedAt: true,
      cycles: {
        orderBy: { n: "asc" },
        select: { peakFlow: true, expVolume: true, peakInspP: true },
      },
    },
  });
  return therapies.flatMap((t) => t.cycles.map((c) => ({ startedAt: t.startedAt, ...c })));
}

export type TrendDay = {
  day: string;
  peakFlow: number | null;
  expVolume: number | null;
  peakInspP: number | null;
};

/**
 * Trend series already summed, by patient, zone, range and the patient's transmission version:
 * two years sum 44,000 cycles (tens of milliseconds in SQLite), and a new transmission changes the
 * version, so the next view sums again. Entries are shared: callers never change them.
 */
export const trendCache = new BoundedCache<readonly Readonly<TrendDay>[]>({ maxEntries: 500 });

/**
 * Therapy trends (spec 3 §2.2): per day of fromDay..toDay, the average peak expiratory flow,
 * expiratory volume and peak inspiratory pressure of that day's cycles (null without any).
 * SQLite sums the cycles per therapy (a row per therapy, not per cycle: two years are 4,400 rows
 * instead of 44,000, docs/performance.md "Patient profile"); the days are counted here, in the
 * care site's zone. Kept in trendCache until the patient's next transmission.
 */
export async function trendDays(
  patientId: string,
  zone: string,
  fromDay: string,
  toDay: string,
  version?: string,
): Promise<readonly Readonly<TrendDay>[]> {
  // The version is read before the rows: rows newer than their key only cost one more summing.
  const key = [patientId, zone, fromDay, toDay, version ?? (await therapyVersion(patientId))].join(
    "|",
  );
  const hit = trendCache.get(key);
  if (hit) return hit;
  const days = await sumTrendDays(patientId, zone, fromDay, toDay);
  trendCache.set(key, days);
  return days;
}

async function sumTrendDays(
  patientId: string,
  zone: string,
  fromDay: string,
  toDay: string,
): Promise<TrendDay[]> {
  const rows = await trendRows(
    patientId,
    dayStart(fromDay, zone),
    dayStart(addDays(toDay, 1), zone),
  );
  const dayOf = dayMapper(zone);
  const sums = new Map<string, Record<TrendKey, [number, number]>>();
  for (const r of rows) {
    const day = dayOf(r.startedAt.getTime());
    let s = sums.get(day);
    if (!s) sums.set(day, (s = { peakFlow: [0, 0], expVolume: [0, 0], peakInspP: [0, 0] }));
    for (const k of TREND_KEYS) {
      s[k][0] += r[`${k}Sum`] ?? 0;
      s[k][1] += Number(r[`${k}N`]);
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
  const rows = await cyclesBetween(patientId, dayStart(day, zone), dayStart(addDays(day, 1), zone));
  const time = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  return rows.map((r) => ({
    time: time.format(r.startedAt),
    peakFlow: r.peakFlow,
    expVolume: r.expVolume,
    peakInspP: r.peakInspP,
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
  const where = { patientId, startedAt: { gte: new Date(from), lt: new Date(to) } };
  // One statement: the therapies grouped by (completed, deviates), at most four groups.
  const groups = await prisma.therapy.groupBy({
    by: ["completed", "deviates"],
    where,
    _count: { _all: true },
    _sum: { cyclesDelivered: true },
  });
  const count = (keep: (g: (typeof groups)[number]) => boolean) =>
    groups.filter(keep).reduce((n, g) => n + g._count._all, 0);
  const therapies = count(() => true);
  const cycles = groups.reduce((n, g) => n + (g._sum.cyclesDelivered ?? 0), 0);
  const transmissions = await prisma.transmission.count({
    where: {
      patientId,
      sentAt: { gte: new Date(from), lt: new Date(to) },
      therapiesAccepted: { gt: 0 },
    },
  });
  return {
    therapies,
    completed: count((g) => g.completed),
    deviating: count((g) => g.deviates),
    averageCyclesPerTherapy: therapies === 0 ? null : cycles / therapies,
    transmissions,
  };
}
