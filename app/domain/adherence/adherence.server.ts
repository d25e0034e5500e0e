// The adherence engine's storage side: reads therapies, goals and pairings, lets
// domain/adherence/score.ts do the maths, and keeps DailyAdherence (one row per patient and
// calendar day) current. Its statements are in sql/recompute.server.ts; the care-site-scoped
// queries the dashboards read (DESIGN.md §5) in sql/dashboard.server.ts.
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
import { readWriteTransaction } from "~/lib/db.server";
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
import { careSiteTimeZone } from "./sql/dashboard.server";
import {
  contextRows,
  deleteRows,
  dequeue,
  ensureStandingRows,
  finalisedPatients,
  newestDays,
  newestTransmissions,
  sentBefore,
  streaksBefore,
  writeStanding,
  type StandingValues,
  pairedPatientsOnly,
  queuedPatients,
  upsertRows,
  windowRows,
  type Tx,
} from "./sql/recompute.server";
import { toMs } from "./sql/rows";

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

async function loadContexts(db: Tx, patientIds: string[]) {
  const [pairings, memberships, goals] = await contextRows(db, patientIds);

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
    const [therapies, transmissions] = await windowRows(tx, [...plans.keys()], loMs, hiMs, DAY_MS);
    // The missed-days streak carries on from the newest row before the first day written.
    const carried =
      range.fromDay === null
        ? new Map<string, number>()
        : await streaksBefore(tx, new Map([...plans].map(([id, p]) => [id, p.from])));

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
        missedBefore: carried.get(id) ?? 0,
      });
      for (const row of rows) written.push({ ...row, patientId: id });
    }
  }

  // Replace the range: rows the plan no longer covers (before a first pairing, past today) go.
  if (range.fromDay === null) {
    await deleteRows.all(tx, patientIds);
  } else if (fromDays) {
    await deleteRows.fromDays(tx, fromDays);
  } else {
    const last = range.toDay === null ? "9999-12-31" : addDays(range.toDay, SCORE_WINDOW_DAYS - 1);
    await deleteRows.range(tx, patientIds, range.fromDay as string, last);
  }
  for (const part of chunks(written, ROWS_PER_INSERT)) await upsertRows(tx, part);
  await refreshStanding(tx, patientIds, contexts);
  return written.length;
}

/**
 * Rewrites the PatientStanding rows (the care site dashboard's, one per care site the patient is
 * an accepted member of) of some patients from their DailyAdherence rows and transmissions, in
 * the recompute's transaction: the dashboard never sees rows and standing disagree.
 */
async function refreshStanding(
  tx: Tx,
  patientIds: string[],
  contexts: Map<string, PatientContext>,
) {
  await ensureStandingRows(tx, patientIds);
  const [days, sent] = await Promise.all([
    newestDays(tx, patientIds),
    newestTransmissions(tx, patientIds),
  ]);
  const daysOf = new Map<string, typeof days>();
  for (const d of days) {
    let list = daysOf.get(d.patientId);
    if (!list) daysOf.set(d.patientId, (list = []));
    list.push(d); // newest first
  }
  const values = new Map<string, StandingValues>();
  const asks: [string, number, 0 | 1][] = [];
  for (const t of sent) {
    const ctx = contexts.get(t.patientId)!;
    const rows = daysOf.get(t.patientId) ?? [];
    const day1 = rows[0]?.day ?? null;
    const slots = day1 === null ? [null, null, null] : [day1, addDays(day1, -1), addDays(day1, -2)];
    const v: StandingValues = {
      patientId: t.patientId,
      days: slots as StandingValues["days"],
      scores: slots.map((day) => {
        const row = rows.find((r) => r.day === day);
        return row?.score == null ? null : Number(row.score);
      }) as StandingValues["scores"],
      // The newest row up to the day: the streak carries over days with no row.
      missed: slots.map((day) => {
        const row = day === null ? undefined : rows.find((r) => r.day <= day);
        return row !== undefined && Number(row.streak) >= MISSED_DAYS_THRESHOLD;
      }) as StandingValues["missed"],
      transmitted: Boolean(Number(t.transmitted)),
      lastSentAt: t.lastSentAt == null ? null : toMs(t.lastSentAt),
      lastSentBeforeAt: null,
      lastDeviatingAt: t.lastDeviatingAt == null ? null : toMs(t.lastDeviatingAt),
      lastDeviatingBeforeAt: null,
    };
    values.set(t.patientId, v);
    const startOfDay = (at: number) => dayStart(dayMapper(ctx.homeZone)(at), ctx.homeZone);
    if (v.lastSentAt !== null) asks.push([t.patientId, startOfDay(v.lastSentAt), 0]);
    if (v.lastDeviatingAt !== null) asks.push([t.patientId, startOfDay(v.lastDeviatingAt), 1]);
  }
  for (const b of await sentBefore(tx, asks)) {
    const at = b.sentAt == null ? null : toMs(b.sentAt);
    const v = values.get(b.patientId)!;
    if (Number(b.deviating)) v.lastDeviatingBeforeAt = at;
    else v.lastSentBeforeAt = at;
  }
  await writeStanding(tx, [...values.values()]);
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
  const queued = await queuedPatients();
  let rows = 0;
  for (const batch of chunks(queued, PATIENTS_PER_TRANSACTION)) {
    const fromDay = new Map(batch.map((q) => [q.patientId, toMs(q.fromAt)]));
    rows += await readWriteTransaction(async (tx) => {
      const written = await recomputeBatch(tx, [...fromDay.keys()], { fromDay, toDay: null, now });
      await dequeue(tx, batch);
      return written;
    });
  }
  return { patients: queued.length, rows };
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
  return recompute(await finalisedPatients(careSiteId), { fromDay, toDay, now });
}

export function finaliseDay(careSiteId: string, day: string, now = new Date()) {
  return finaliseDays(careSiteId, day, day, now);
}

/**
 * Recomputes every patient's whole history (first pairing day to today) and deletes the rows of
 * patients who were never paired: for the demo seed, the tests and repairs.
 */
export async function rebuildAll(now = new Date()): Promise<RecomputeResult> {
  return recompute(await pairedPatientsOnly(), { fromDay: null, toDay: null, now });
}

/** The day a care site's dashboard shows ("Dashboard data as of" yesterday in its zone). */
export async function dashboardDay(careSiteId: string, now = new Date()) {
  return yesterdayInZone(now, await careSiteTimeZone(careSiteId));
}
