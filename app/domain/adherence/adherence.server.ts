// The adherence engine's storage side: reads therapies, goals and pairings, lets
// domain/adherence/score.ts do the maths, and keeps DailyAdherence (one row per patient and
// calendar day) current; plus the care-site-scoped queries the dashboards read (DESIGN.md §5).
//
// Rules (docs/decisions.md, "Adherence"):
// - Every row is derived from the raw data (therapies, goals, pairings), never from other rows,
//   so recomputing any range is idempotent and a late transmission is handled by recomputing
//   from its earliest day.
// - A therapy's day is its startedAt in the zone of the care site of the pairing it came through;
//   a goal's day is its createdAt in the zone of its pairing's care site; with no such care site,
//   the zone of the patient's first accepted membership; else America/Chicago.
// - Rows run from the patient's first pairing day to the patient's "today" (the zone of the
//   newest pairing's care site): today's row is provisional until the day is finalised.
import { Prisma } from "~/generated/prisma/client";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { DEFAULT_TIME_ZONE, dayInZone, yesterdayInZone } from "~/lib/time";
import {
  addDays,
  buildDailyRows,
  dayMapper,
  dayStart,
  MISSED_DAYS_THRESHOLD,
  SCORE_WINDOW_DAYS,
  type DailyRow,
  type DayCounts,
  type GoalInput,
} from "~/domain/adherence/score";

type Tx = Parameters<Parameters<typeof readWriteTransaction>[0]>[0];
type Db = Tx | typeof prisma;

const DAY_MS = 86_400_000;
/** Zones lie within UTC-12..UTC+14: two days either side of a UTC day cover any zone's day. */
const ZONE_MARGIN_MS = 2 * DAY_MS;
/**
 * Patients recomputed per transaction: each stays well under Prisma's 5 s limit for interactive
 * transactions (100 patients × a week is a few ms; 25 patients × a year of history ~0.2 s).
 */
const PATIENTS_PER_TRANSACTION = 100;
const PATIENTS_PER_REBUILD_TRANSACTION = 25;
/** Rows per INSERT statement. */
const ROWS_PER_INSERT = 5000;

const toMs = (v: unknown) => (v instanceof Date ? v.getTime() : Number(v));
const utcMidnight = (day: string) => Date.parse(`${day}T00:00:00Z`);
const minDay = (a: string, b: string) => (a < b ? a : b);
const maxDay = (a: string, b: string) => (a > b ? a : b);

function chunks<T>(items: readonly T[], size: number) {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// ---------------------------------------------------------------------------------------------
// What a patient's days are computed from
// ---------------------------------------------------------------------------------------------

type PatientContext = {
  defaultZone: string;
  homeZone: string;
  zoneOfPairing: Map<string, string>;
  firstPairingDay: string | null;
  goals: (GoalInput & { pairingId: string | null })[];
};

async function loadContexts(db: Db, patientIds: string[]) {
  const ids = Prisma.join(patientIds);
  const [pairings, memberships, goals] = await Promise.all([
    db.$queryRaw<
      { id: string; patientId: string; pairedAt: unknown; timeZone: string | null }[]
    >(Prisma.sql`
      SELECT p.id, p.patientId, p.pairedAt, c.timeZone
      FROM "Pairing" p LEFT JOIN "CareSite" c ON c.id = p.careSiteId
      WHERE p.patientId IN (${ids})`),
    db.$queryRaw<{ userId: string; timeZone: string }[]>(Prisma.sql`
      SELECT m.userId, c.timeZone
      FROM "Membership" m JOIN "CareSite" c ON c.id = m.careSiteId
      WHERE m.userId IN (${ids}) AND m.status = 'accepted'
      ORDER BY m.acceptedAt IS NULL, m.acceptedAt, m.createdAt, m.id`),
    db.$queryRaw<
      {
        patientId: string;
        pairingId: string | null;
        timesPerDay: number;
        days: string;
        createdAt: unknown;
      }[]
    >(Prisma.sql`
      SELECT patientId, pairingId, timesPerDay, days, createdAt
      FROM "TherapyGoal" WHERE patientId IN (${ids})
      ORDER BY createdAt, id`),
  ]);

  const contexts = new Map<string, PatientContext>();
  for (const id of patientIds) {
    contexts.set(id, {
      defaultZone: DEFAULT_TIME_ZONE,
      homeZone: DEFAULT_TIME_ZONE,
      zoneOfPairing: new Map(),
      firstPairingDay: null,
      goals: [],
    });
  }
  const seenMembership = new Set<string>();
  for (const m of memberships) {
    if (seenMembership.has(m.userId)) continue;
    seenMembership.add(m.userId);
    contexts.get(m.userId)!.defaultZone = m.timeZone;
  }
  const firstPairedAt = new Map<string, number>();
  const lastPairedAt = new Map<string, number>();
  for (const p of pairings) {
    const ctx = contexts.get(p.patientId)!;
    const zone = p.timeZone ?? ctx.defaultZone;
    ctx.zoneOfPairing.set(p.id, zone);
    const at = toMs(p.pairedAt);
    const first = firstPairedAt.get(p.patientId);
    if (first === undefined || at < first) {
      firstPairedAt.set(p.patientId, at);
      ctx.firstPairingDay = dayInZone(new Date(at), zone);
    }
    const last = lastPairedAt.get(p.patientId);
    if (last === undefined || at >= last) {
      lastPairedAt.set(p.patientId, at);
      ctx.homeZone = zone;
    }
  }
  for (const ctx of contexts.values())
    if (ctx.zoneOfPairing.size === 0) ctx.homeZone = ctx.defaultZone;
  for (const g of goals) {
    const ctx = contexts.get(g.patientId)!;
    const zone = (g.pairingId && ctx.zoneOfPairing.get(g.pairingId)) || ctx.defaultZone;
    ctx.goals.push({
      pairingId: g.pairingId,
      timesPerDay: Number(g.timesPerDay),
      days: g.days,
      createdDay: dayMapper(zone)(toMs(g.createdAt)),
    });
  }
  return contexts;
}

const zoneOf = (ctx: PatientContext, pairingId: string | null) =>
  (pairingId && ctx.zoneOfPairing.get(pairingId)) || ctx.defaultZone;

// ---------------------------------------------------------------------------------------------
// Recomputing
// ---------------------------------------------------------------------------------------------

type Range = {
  /**
   * first day to write; null: each patient's first pairing day (and older rows are deleted);
   * a Map: per patient, the earliest instant (ms) new data was brought for, which is recomputed
   * from the day it falls on in whichever of the patient's zones gives the earliest day
   */
  fromDay: string | null | Map<string, number>;
  /** last day whose own data changed; the 6 days after it are rewritten too (their scores) */
  toDay: string | null;
  now: Date;
};

export type RecomputeResult = { patients: number; rows: number };

/** Recomputes the DailyAdherence rows of some patients, a transaction per batch of patients. */
async function recompute(patientIds: string[], range: Range): Promise<RecomputeResult> {
  const unique = [...new Set(patientIds)];
  const size = range.fromDay === null ? PATIENTS_PER_REBUILD_TRANSACTION : PATIENTS_PER_TRANSACTION;
  let rows = 0;
  for (const batch of chunks(unique, size)) {
    rows += await readWriteTransaction((tx) => recomputeBatch(tx, batch, range));
  }
  return { patients: unique.length, rows };
}

async function recomputeBatch(tx: Tx, patientIds: string[], range: Range) {
  const contexts = await loadContexts(tx, patientIds);

  // Each patient's days: from (the range's start or the first pairing day) to the end of the
  // range plus the 6 days whose scores look back at it, never past the patient's today.
  const fromDays =
    range.fromDay instanceof Map
      ? new Map([...range.fromDay].map(([id, at]) => [id, earliestDay(contexts.get(id)!, at)]))
      : null;
  const plans = new Map<string, { from: string; to: string }>();
  for (const [id, ctx] of contexts) {
    if (ctx.firstPairingDay === null) continue;
    const today = dayInZone(range.now, ctx.homeZone);
    const wanted = fromDays ? fromDays.get(id)! : (range.fromDay as string | null);
    const from = maxDay(wanted ?? ctx.firstPairingDay, ctx.firstPairingDay);
    const to =
      range.toDay === null ? today : minDay(addDays(range.toDay, SCORE_WINDOW_DAYS - 1), today);
    if (from <= to) plans.set(id, { from, to });
  }

  const written: (DailyRow & { patientId: string })[] = [];
  if (plans.size > 0) {
    let lo = "9999-12-31";
    let hi = "0000-01-01";
    for (const p of plans.values()) {
      lo = minDay(lo, p.from);
      hi = maxDay(hi, p.to);
    }
    const loMs = utcMidnight(addDays(lo, -(SCORE_WINDOW_DAYS - 1))) - ZONE_MARGIN_MS;
    const hiMs = utcMidnight(addDays(hi, 1)) + ZONE_MARGIN_MS;
    const ids = Prisma.join([...plans.keys()]);
    const [therapies, transmissions] = await Promise.all([
      tx.$queryRaw<
        { patientId: string; pairingId: string | null; startedAt: unknown; completed: unknown }[]
      >(Prisma.sql`
        SELECT patientId, pairingId, startedAt, completed FROM "Therapy"
        WHERE patientId IN (${ids}) AND startedAt >= ${loMs} AND startedAt < ${hiMs}`),
      // The day's highest hour-meter reading, by the day the device sent it (received moments
      // later; receivedAt carries the index).
      tx.$queryRaw<
        { patientId: string; pairingId: string | null; sentAt: unknown; hmr: number }[]
      >(Prisma.sql`
        SELECT patientId, pairingId, sentAt, hmr FROM "Transmission"
        WHERE patientId IN (${ids}) AND receivedAt >= ${loMs} AND receivedAt < ${hiMs + DAY_MS}
          AND sentAt >= ${loMs} AND sentAt < ${hiMs} AND hmr IS NOT NULL`),
    ]);

    const counts = new Map<string, Map<string, DayCounts>>();
    for (const t of therapies) {
      const ctx = contexts.get(t.patientId)!;
      const day = dayMapper(zoneOf(ctx, t.pairingId))(toMs(t.startedAt));
      let perDay = counts.get(t.patientId);
      if (!perDay) counts.set(t.patientId, (perDay = new Map()));
      let c = perDay.get(day);
      if (!c) perDay.set(day, (c = { therapies: 0, completed: 0 }));
      c.therapies++;
      if (Number(t.completed)) c.completed++;
    }
    const hmr = new Map<string, Map<string, number>>();
    for (const t of transmissions) {
      const ctx = contexts.get(t.patientId)!;
      const day = dayMapper(zoneOf(ctx, t.pairingId))(toMs(t.sentAt));
      let perDay = hmr.get(t.patientId);
      if (!perDay) hmr.set(t.patientId, (perDay = new Map()));
      const value = Number(t.hmr);
      if (!(perDay.get(day)! >= value)) perDay.set(day, value);
    }

    for (const [id, plan] of plans) {
      const ctx = contexts.get(id)!;
      const rows = buildDailyRows({
        goals: ctx.goals,
        firstPairingDay: ctx.firstPairingDay,
        counts: counts.get(id) ?? new Map(),
        maxHmr: hmr.get(id),
        fromDay: plan.from,
        toDay: plan.to,
      });
      for (const row of rows) written.push({ ...row, patientId: id });
    }
  }

  // Replace the range: rows the plan no longer covers (before a first pairing, past today) go.
  const all = Prisma.join(patientIds);
  if (range.fromDay === null) {
    await tx.$executeRaw`DELETE FROM "DailyAdherence" WHERE patientId IN (${all})`;
  } else if (fromDays) {
    const json = JSON.stringify([...fromDays]);
    await tx.$executeRaw`DELETE FROM "DailyAdherence" WHERE rowid IN (
      SELECT d.rowid FROM json_each(${json}) j
      JOIN "DailyAdherence" d ON d.patientId = j.value ->> 0 AND d.day >= j.value ->> 1)`;
  } else {
    const last = range.toDay === null ? "9999-12-31" : addDays(range.toDay, SCORE_WINDOW_DAYS - 1);
    await tx.$executeRaw`DELETE FROM "DailyAdherence"
      WHERE patientId IN (${all}) AND day >= ${range.fromDay} AND day <= ${last}`;
  }
  // The rows travel as one JSON text per statement: SQLite unpacks it (json_each) far faster
  // than binding nine parameters a row.
  for (const part of chunks(written, ROWS_PER_INSERT)) {
    const json = JSON.stringify(
      part.map((r) => [
        r.patientId,
        r.day,
        r.isGoalDay ? 1 : 0,
        r.timesPerDay,
        r.therapies,
        r.completed,
        r.dayAdherence,
        r.score,
        r.maxHmr,
      ]),
    );
    await tx.$executeRaw`INSERT INTO "DailyAdherence"
      (patientId, day, isGoalDay, timesPerDay, therapies, completed, dayAdherence, score, maxHmr)
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5,
        value ->> 6, value ->> 7, value ->> 8
      FROM json_each(${json})
      WHERE true
      ON CONFLICT (patientId, day) DO UPDATE SET
        isGoalDay = excluded.isGoalDay, timesPerDay = excluded.timesPerDay,
        therapies = excluded.therapies, completed = excluded.completed,
        dayAdherence = excluded.dayAdherence, score = excluded.score, maxHmr = excluded.maxHmr`;
  }
  return written.length;
}

/**
 * Rewrites a patient's DailyAdherence rows for fromDay..toDay and the 6 days after toDay (their
 * scores look back into the range), never past the patient's today, in one transaction. Days
 * before the first pairing get no row.
 */
export function recomputePatientDays(
  patientId: string,
  fromDay: string,
  toDay: string,
  now = new Date(),
) {
  return recompute([patientId], { fromDay, toDay, now });
}

/** The earliest day an instant falls on in any zone the patient's data can be counted in. */
function earliestDay(ctx: PatientContext, at: number) {
  let earliest: string | null = null;
  for (const zone of new Set([ctx.defaultZone, ...ctx.zoneOfPairing.values()])) {
    const day = dayMapper(zone)(at);
    if (earliest === null || day < earliest) earliest = day;
  }
  return earliest!;
}

/**
 * Recomputes a patient's rows for a change at `days` (instants: therapies' startedAt, a
 * transmission's sentAt, a new goal's moment): from the earliest of their days to the patient's
 * today, so a late transmission for an old day updates that day and every day after it (the 6
 * after it weigh it in their scores). processAdherenceQueue does the same for the patients ingest
 * queued.
 */
export async function recomputeFrom(input: {
  patientId: string;
  days: Date[];
  now?: Date;
}): Promise<RecomputeResult> {
  if (input.days.length === 0) return { patients: 0, rows: 0 };
  const from = Math.min(...input.days.map((d) => d.getTime()));
  return recompute([input.patientId], {
    fromDay: new Map([[input.patientId, from]]),
    toDay: null,
    now: input.now ?? new Date(),
  });
}

// ---------------------------------------------------------------------------------------------
// The queue ingest writes (AdherenceQueue)
// ---------------------------------------------------------------------------------------------

const queueListeners = new Set<() => void>();

/** Ingest calls this after committing queued work; the adherence worker listens. */
export function notifyAdherenceQueued() {
  for (const listener of queueListeners) listener();
}

export function onAdherenceQueued(listener: () => void) {
  queueListeners.add(listener);
  return () => void queueListeners.delete(listener);
}

/**
 * Recomputes every patient in AdherenceQueue from its queued instant, 100 patients per
 * transaction, and removes each row in the same transaction unless ingest changed it meanwhile
 * (its seq grew; it is then done again on the next pass). Safe to run at any time and twice.
 */
export async function processAdherenceQueue(now = new Date()): Promise<RecomputeResult> {
  const queued = await prisma.$queryRaw<{ patientId: string; fromAt: unknown; seq: unknown }[]>`
    SELECT patientId, fromAt, seq FROM "AdherenceQueue" ORDER BY patientId`;
  let rows = 0;
  for (const batch of chunks(queued, PATIENTS_PER_TRANSACTION)) {
    const fromDay = new Map(batch.map((q) => [q.patientId, toMs(q.fromAt)]));
    const done = JSON.stringify(batch.map((q) => [q.patientId, Number(q.seq)]));
    rows += await readWriteTransaction(async (tx) => {
      const written = await recomputeBatch(tx, [...fromDay.keys()], { fromDay, toDay: null, now });
      await tx.$executeRaw`DELETE FROM "AdherenceQueue" WHERE rowid IN (
        SELECT q.rowid FROM json_each(${done}) j
        JOIN "AdherenceQueue" q ON q.patientId = j.value ->> 0 AND q.seq = j.value ->> 1)`;
      return written;
    });
  }
  return { patients: queued.length, rows };
}

/** The patients a care site's days are finalised for: accepted patient members, current pairings. */
async function sitePatients(careSiteId: string) {
  const rows = await prisma.$queryRaw<{ patientId: string }[]>(Prisma.sql`
    SELECT userId AS patientId FROM "Membership"
    WHERE careSiteId = ${careSiteId} AND role = 'patient' AND status = 'accepted'
    UNION
    SELECT patientId FROM "Pairing" WHERE careSiteId = ${careSiteId} AND unpairedAt IS NULL`);
  return rows.map((r) => r.patientId);
}

/**
 * Finalises fromDay..toDay of a care site: every patient of the site gets those days (zero rows
 * on days without a transmission) and the scores of the 6 days after.
 */
export async function finaliseDays(
  careSiteId: string,
  fromDay: string,
  toDay: string,
  now = new Date(),
) {
  return recompute(await sitePatients(careSiteId), { fromDay, toDay, now });
}

export function finaliseDay(careSiteId: string, day: string, now = new Date()) {
  return finaliseDays(careSiteId, day, day, now);
}

/**
 * Recomputes every patient's whole history (first pairing day to today) and deletes the rows of
 * patients who were never paired: for the demo seed, the tests and repairs.
 */
export async function rebuildAll(now = new Date()): Promise<RecomputeResult> {
  const rows = await prisma.$queryRaw<{ patientId: string }[]>(
    Prisma.sql`SELECT DISTINCT patientId FROM "Pairing" ORDER BY patientId`,
  );
  await prisma.$executeRaw`DELETE FROM "DailyAdherence"
    WHERE patientId NOT IN (SELECT patientId FROM "Pairing")`;
  return recompute(
    rows.map((r) => r.patientId),
    { fromDay: null, toDay: null, now },
  );
}

// ---------------------------------------------------------------------------------------------
// Dashboard queries (care-site scoped: the site's accepted patient members)
// ---------------------------------------------------------------------------------------------

// The site's patients drive every query (CROSS JOIN keeps them the outer loop in SQLite), so each
// one reads only those patients' rows through the (patientId, …) indexes, however big the tables.
const sitePatientsSql = (careSiteId: string) => Prisma.sql`
  SELECT userId FROM "Membership"
  WHERE careSiteId = ${careSiteId} AND role = 'patient' AND status = 'accepted'`;

/** A care site's time zone (an unknown id gets the default zone). */
export async function careSiteTimeZone(careSiteId: string) {
  const site = await prisma.careSite.findUnique({
    where: { id: careSiteId },
    select: { timeZone: true },
  });
  return site?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** The day a care site's dashboard shows ("Dashboard data as of" yesterday in its zone). */
export async function dashboardDay(careSiteId: string, now = new Date()) {
  return yesterdayInZone(now, await careSiteTimeZone(careSiteId));
}

/** Instants [from, to) covering fromDay..toDay in a zone. */
function instantRange(fromDay: string, toDay: string, timeZone: string) {
  return { from: dayStart(fromDay, timeZone), to: dayStart(addDays(toDay, 1), timeZone) };
}

export type PatientScore = { patientId: string; score: number | null };

/** Every patient of the site with the score as of `day` (null: no score, shown "-"). */
export async function adherenceAsOf(careSiteId: string, day: string): Promise<PatientScore[]> {
  return prisma.$queryRaw<PatientScore[]>(Prisma.sql`
    SELECT p.userId AS patientId, da.score AS score
    FROM (${sitePatientsSql(careSiteId)}) p
    LEFT JOIN "DailyAdherence" da ON da.patientId = p.userId AND da.day = ${day}
    ORDER BY p.userId`);
}

/** Patients whose score as of `day` is below `threshold` (0.75, 0.5, 0.25). */
export async function adherenceBelow(
  careSiteId: string,
  day: string,
  threshold: number,
): Promise<{ patientId: string; score: number }[]> {
  return prisma.$queryRaw<{ patientId: string; score: number }[]>(Prisma.sql`
    SELECT p.userId AS patientId, da.score AS score
    FROM (${sitePatientsSql(careSiteId)}) p
    JOIN "DailyAdherence" da ON da.patientId = p.userId AND da.day = ${day}
    WHERE da.score < ${threshold}
    ORDER BY p.userId`);
}

/**
 * Patients whose last `minDays` (3) goal days up to `day` all had no therapy. Walks each
 * patient's rows backwards from `day` on the primary key and stops after `minDays` goal days.
 */
export async function missedThreeOrMore(
  careSiteId: string,
  day: string,
  minDays = MISSED_DAYS_THRESHOLD,
): Promise<{ patientId: string }[]> {
  return prisma.$queryRaw<{ patientId: string }[]>(Prisma.sql`
    SELECT p.userId AS patientId
    FROM (${sitePatientsSql(careSiteId)}) p
    WHERE (
      SELECT COUNT(*) FROM (
        SELECT da.therapies FROM "DailyAdherence" da
        WHERE da.patientId = p.userId AND da.day <= ${day} AND da.isGoalDay = 1
        ORDER BY da.day DESC LIMIT ${minDays}
      ) last WHERE last.therapies = 0
    ) = ${minDays}
    ORDER BY p.userId`);
}

/** Patients with a current pairing from whom no transmission has ever been received. */
export async function neverTransmitted(careSiteId: string): Promise<{ patientId: string }[]> {
  return prisma.$queryRaw<{ patientId: string }[]>(Prisma.sql`
    SELECT p.userId AS patientId
    FROM (${sitePatientsSql(careSiteId)}) p
    WHERE EXISTS (SELECT 1 FROM "Pairing" pr WHERE pr.patientId = p.userId AND pr.unpairedAt IS NULL)
      AND NOT EXISTS (SELECT 1 FROM "Transmission" t WHERE t.patientId = p.userId)
    ORDER BY p.userId`);
}

/**
 * Patients whose therapy goal was changed in fromDay..toDay (site zone): a goal set in the range
 * that replaced an earlier one (the first goal, set at pairing, is not a change). `changedOn` is
 * the day of the latest such change.
 */
export async function goalsUpdated(
  careSiteId: string,
  fromDay: string,
  toDay: string,
): Promise<{ patientId: string; changedOn: string }[]> {
  const zone = await careSiteTimeZone(careSiteId);
  const { from, to } = instantRange(fromDay, toDay, zone);
  const rows = await prisma.$queryRaw<{ patientId: string; changedAt: unknown }[]>(Prisma.sql`
    SELECT g.patientId AS patientId, MAX(g.createdAt) AS changedAt
    FROM (${sitePatientsSql(careSiteId)}) p
    CROSS JOIN "TherapyGoal" g ON g.patientId = p.userId AND g.createdAt >= ${from} AND g.createdAt < ${to}
    WHERE EXISTS (
      SELECT 1 FROM "TherapyGoal" e WHERE e.patientId = g.patientId
        AND (e.createdAt < g.createdAt OR (e.createdAt = g.createdAt AND e.id < g.id)))
    GROUP BY g.patientId
    ORDER BY g.patientId`);
  return rows.map((r) => ({
    patientId: r.patientId,
    changedOn: dayInZone(new Date(toMs(r.changedAt)), zone),
  }));
}

export type TransmissionStats = {
  patientId: string;
  /** transmissions sent in the range that brought at least one therapy */
  total: number;
  /** of those, the ones with a deviating therapy */
  deviating: number;
  therapies: number;
  deviatingTherapies: number;
};

/**
 * Transmissions per patient in fromDay..toDay (site zone), by the day the device sent them: a
 * transmission counts when it brought at least one new therapy, and deviates when one of its
 * therapies deviates. Only patients with such transmissions are returned. Deviation percentage =
 * deviatingTherapies / therapies (score.ts deviationShare). Reads one covering index of
 * Transmission (docs/decisions.md, "Transmissions in a range").
 */
export async function transmissionStats(
  careSiteId: string,
  fromDay: string,
  toDay: string,
): Promise<TransmissionStats[]> {
  const zone = await careSiteTimeZone(careSiteId);
  const { from, to } = instantRange(fromDay, toDay, zone);
  const rows = await prisma.$queryRaw<Record<keyof TransmissionStats, unknown>[]>(Prisma.sql`
    SELECT p.userId AS patientId,
      COUNT(*) AS total,
      SUM(t.deviatingTherapies > 0) AS deviating,
      SUM(t.therapiesAccepted) AS therapies,
      SUM(t.deviatingTherapies) AS deviatingTherapies
    FROM (${sitePatientsSql(careSiteId)}) p
    CROSS JOIN "Transmission" t ON t.patientId = p.userId
      AND t.sentAt >= ${from} AND t.sentAt < ${to} AND t.therapiesAccepted > 0
    -- Grouped by the membership's userId: the site's membership index yields it in order, so
    -- SQLite needs no temporary b-tree.
    GROUP BY p.userId
    ORDER BY p.userId`);
  return rows.map((r) => ({
    patientId: String(r.patientId),
    total: Number(r.total),
    deviating: Number(r.deviating),
    therapies: Number(r.therapies),
    deviatingTherapies: Number(r.deviatingTherapies),
  }));
}

/**
 * Patients whose device reported changed prescribed settings (a therapy adjustment) in a
 * transmission received in fromDay..toDay (site zone); `adjustedOn` is the latest such day.
 */
export async function therapyAdjustments(
  careSiteId: string,
  fromDay: string,
  toDay: string,
): Promise<{ patientId: string; adjustments: number; adjustedOn: string }[]> {
  const zone = await careSiteTimeZone(careSiteId);
  const { from, to } = instantRange(fromDay, toDay, zone);
  const rows = await prisma.$queryRaw<
    { patientId: string; adjustments: unknown; adjustedAt: unknown }[]
  >(Prisma.sql`
    SELECT t.patientId AS patientId, COUNT(*) AS adjustments, MAX(t.receivedAt) AS adjustedAt
    FROM (${sitePatientsSql(careSiteId)}) p
    CROSS JOIN "Transmission" t ON t.patientId = p.userId AND t.receivedAt >= ${from} AND t.receivedAt < ${to}
    WHERE t.therapyAdjustment = 1
    GROUP BY t.patientId
    ORDER BY t.patientId`);
  return rows.map((r) => ({
    patientId: r.patientId,
    adjustments: Number(r.adjustments),
    adjustedOn: dayInZone(new Date(toMs(r.adjustedAt)), zone),
  }));
}
