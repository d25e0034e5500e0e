// The care site dashboard's per-site rows (PatientStanding, issue 23) stay right: after
// transmissions through the app's ingest and the adherence worker's pass, across the day boundary
// with no ingest, after a goal change, an unpairing, membership and name changes, and after
// rebuildAll. Each time every card and list is compared with the per-patient statements that
// read the base rows (DailyAdherence, Transmission, TherapyGoal, Pairing, Membership) directly:
// sql/dashboard.server.ts adherenceAsOf, missedThreeOrMore, neverTransmitted, goalsUpdated,
// transmissionStats (what the dashboard computed before the standing rows).
import { TZDate } from "@date-fns/tz";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { yesterdayInZone } from "~/lib/time";
import {
  finaliseDays,
  processAdherenceQueue,
  rebuildAll,
  recomputeFrom,
} from "~/domain/adherence/adherence.server";
import { CATEGORIES, dashboardOf, type Category } from "~/domain/adherence/dashboard.server";
import {
  adherenceAsOf,
  goalsUpdated,
  missedThreeOrMore,
  neverTransmitted,
  transmissionStats,
} from "~/domain/adherence/sql/dashboard.server";
import { addDays } from "~/domain/adherence/score";
import { DeviceClient, STANDARD_PRESCRIPTION, type TherapyRecord } from "../../scripts/sim/client";
import { createCareSite, createPairedPatient } from "../support/factories";
import { startDeviceApiServer } from "../support/deviceApiServer";

const ZONE = "America/Chicago";
const DAY_MS = 86_400_000;

let api: Awaited<ReturnType<typeof startDeviceApiServer>>;
beforeAll(async () => {
  api = await startDeviceApiServer();
});
afterAll(() => api.close());

function at(day: string, hour: number) {
  const [y, m, d] = day.split("-").map(Number);
  return new TZDate(y, m - 1, d, hour, 0, ZONE).toISOString();
}

let event = 0;
function therapy(day: string, hour: number, deviates = false): TherapyRecord {
  return {
    eventId: `S-${++event}`,
    startedAt: at(day, hour),
    mode: "Auto",
    delivered: { P_P: 0, P_T: 10, I_P: deviates ? 43 : 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 },
    cycles: Array.from({ length: 5 }, (_, i) => ({
      n: i + 1,
      P_IP: 38,
      E_V: 1200,
      P_F: 250,
      SPO2: 96,
      O_F: 1 as const,
    })),
  };
}

async function patient(siteId: string, pairedAt: Date, name: string) {
  const made = await createPairedPatient(siteId, {
    firstName: name,
    lastName: `Standing${name}`,
    pairedAt,
  });
  return { ...made, client: new DeviceClient(api.url, made.device.serial, made.token) };
}

const sorted = (ids: string[]) => [...ids].sort();

/** Every category's patients by the reference statements, as of `now`'s yesterday (week range). */
async function reference(siteId: string, now: Date) {
  const day = yesterdayInZone(now, ZONE);
  const from = addDays(day, -6);
  const scored = (await adherenceAsOf(siteId, day)).filter((s) => s.score !== null) as {
    patientId: string;
    score: number;
  }[];
  const stats = await transmissionStats(siteId, from, day);
  const ids = (rows: { patientId: string }[]) => sorted(rows.map((r) => r.patientId));
  return {
    lists: {
      below75: ids(scored.filter((s) => s.score < 0.75)),
      below50: ids(scored.filter((s) => s.score < 0.5)),
      below25: ids(scored.filter((s) => s.score < 0.25)),
      updatedGoals: ids(await goalsUpdated(siteId, from, day)),
      missed: ids(await missedThreeOrMore(siteId, day)),
      never: ids(await neverTransmitted(siteId)),
      total: ids(stats),
      withDeviation: ids(stats.filter((s) => s.deviating > 0)),
      withoutDeviation: ids(stats.filter((s) => s.deviating === 0)),
    } satisfies Record<Category, string[]>,
    totals: new Map(stats.map((s) => [s.patientId, s.total])),
  };
}

/** What the dashboard shows: each card, and each list's patients (one page holds them all). */
async function shown(siteId: string, now: Date) {
  const params = { q: "", sort: "lastName" as const, order: "asc" as const, page: 1 };
  const view = (list: Category | null) =>
    dashboardOf(siteId, { search: new URLSearchParams(), list, params, now });
  const { counts } = await view(null);
  const lists = {} as Record<Category, string[]>;
  const totals = new Map<string, number>();
  for (const c of CATEGORIES) {
    const list = (await view(c)).list!;
    expect(list.total).toBe(counts[c]);
    lists[c] = sorted(list.rows.map((r) => r.patientId));
    for (const r of list.rows)
      if (r.totalTransmission !== undefined) totals.set(r.patientId, r.totalTransmission);
  }
  return { counts, lists, totals };
}

async function expectAgrees(siteId: string, now: Date) {
  const [want, got] = [await reference(siteId, now), await shown(siteId, now)];
  expect(got.lists).toEqual(want.lists);
  for (const c of CATEGORIES) expect(got.counts[c]).toBe(want.lists[c].length);
  expect(got.totals).toEqual(want.totals);
  return got;
}

const standingOf = (siteId: string) =>
  prisma.patientStanding.findMany({ where: { careSiteId: siteId }, orderBy: { patientId: "asc" } });

describe("the care site dashboard's standing rows", () => {
  it("agree with the base rows through ingest, the day boundary, goal, pairing, membership and name changes, and rebuildAll", async () => {
    const site = await createCareSite();
    const other = await createCareSite();
    const now = new Date();
    const yesterday = yesterdayInZone(now, ZONE);
    const week = Array.from({ length: 7 }, (_, i) => addDays(yesterday, i - 6));
    const pairedAt = new Date(`${addDays(yesterday, -12)}T12:00:00Z`);

    const ann = await patient(site.id, pairedAt, "Ann"); // 2 a day: 100 %
    const ben = await patient(site.id, pairedAt, "Ben"); // 1 a day, one deviating: 50 %
    const cal = await patient(site.id, pairedAt, "Cal"); // stops after 3 days: missed
    const dee = await patient(site.id, pairedAt, "Dee"); // never transmits
    const eve = await patient(site.id, pairedAt, "Eve"); // once, before the range
    const fay = await patient(site.id, pairedAt, "Fay"); // also a member of another site
    await prisma.membership.create({
      data: {
        careSiteId: other.id,
        userId: fay.patient.id,
        role: "patient",
        status: "accepted",
        acceptedAt: now,
      },
    });

    const send = (p: { client: DeviceClient }, day: string, therapies: TherapyRecord[]) =>
      p.client.sendTransmission({ sentAt: at(day, 21), hmr: 100, prescription: STANDARD_PRESCRIPTION, therapies }); // prettier-ignore
    await send(eve, addDays(yesterday, -10), [therapy(addDays(yesterday, -10), 9)]);
    for (const [i, day] of week.entries()) {
      await send(ann, day, [therapy(day, 9), therapy(day, 15)]);
      await send(ben, day, [therapy(day, 10, i === 3)]);
      if (i < 3) await send(cal, day, [therapy(day, 8), therapy(day, 18)]);
      await send(fay, day, [therapy(day, 11)]);
    }
    // Today's transmissions are past the range (the week ends yesterday).
    await send(ann, addDays(yesterday, 1), [therapy(addDays(yesterday, 1), 9)]);

    // The adherence worker's pass (what ingest queued), in its transactions.
    await processAdherenceQueue(now);
    const first = await expectAgrees(site.id, now);
    expect(first.lists.never).toEqual([dee.patient.id]);
    expect(first.lists.missed).toContain(cal.patient.id);
    expect(first.lists.withDeviation).toEqual([ben.patient.id]);
    expect(first.counts.total).toBe(4);
    expect((await standingOf(other.id)).map((s) => s.patientId)).toEqual([fay.patient.id]);

    // The day boundary: tomorrow and the day after, no ingest, no finalising.
    await expectAgrees(site.id, new Date(now.getTime() + DAY_MS));
    const later = new Date(now.getTime() + 2 * DAY_MS);
    await expectAgrees(site.id, later);
    // The nightly finalising of that day, then again.
    await finaliseDays(site.id, yesterdayInZone(later, ZONE), yesterdayInZone(later, ZONE), later);
    await expectAgrees(site.id, later);
    await finaliseDays(site.id, yesterday, yesterday, now);

    // A goal change (as the profile's setTherapyGoal does: the goal, then recomputeFrom).
    const changedAt = new Date(at(yesterday, 11));
    await prisma.therapyGoal.create({
      data: { patientId: ann.patient.id, timesPerDay: 3, days: "mon,tue,wed,thu,fri,sat,sun", createdAt: changedAt }, // prettier-ignore
    });
    await recomputeFrom({ patientId: ann.patient.id, days: [changedAt], now });
    const goal = await expectAgrees(site.id, now);
    expect(goal.lists.updatedGoals).toEqual([ann.patient.id]);

    // Unpairing: Dee is no longer "Never Transmitted" (no recompute needed).
    await prisma.pairing.updateMany({
      where: { patientId: dee.patient.id },
      data: { unpairedAt: now },
    });
    expect((await expectAgrees(site.id, now)).counts.never).toBe(0);

    // Membership: Ben blocked leaves every card of the site; accepted again, he is back after
    // the worker's pass (the trigger queued him: no other site had his values).
    await prisma.membership.updateMany({
      where: { careSiteId: site.id, userId: ben.patient.id },
      data: { status: "blocked" },
    });
    const blocked = await expectAgrees(site.id, now);
    expect(blocked.lists.withDeviation).toEqual([]);
    expect((await standingOf(site.id)).map((s) => s.patientId)).not.toContain(ben.patient.id);
    await prisma.membership.updateMany({
      where: { careSiteId: site.id, userId: ben.patient.id },
      data: { status: "accepted" },
    });
    expect(await prisma.adherenceQueue.count({ where: { patientId: ben.patient.id } })).toBe(1);
    await processAdherenceQueue(now);
    expect((await expectAgrees(site.id, now)).lists.withDeviation).toEqual([ben.patient.id]);
    // Fay leaves the other site: her row there goes, this site's stays.
    await prisma.membership.deleteMany({ where: { careSiteId: other.id, userId: fay.patient.id } });
    expect(await standingOf(other.id)).toEqual([]);
    // Fay joins it again: her values are copied from this site's row at once.
    await prisma.membership.create({
      data: { careSiteId: other.id, userId: fay.patient.id, role: "patient", status: "accepted" },
    });
    const [here] = (await standingOf(site.id)).filter((s) => s.patientId === fay.patient.id);
    const [there] = await standingOf(other.id);
    expect({ ...there, careSiteId: site.id }).toEqual(here);

    // A name change reorders the list at once.
    await prisma.user.update({ where: { id: ann.patient.id }, data: { lastName: "Zz" } });
    const params = { q: "", sort: "lastName" as const, order: "asc" as const, page: 1 };
    const total = await dashboardOf(site.id, { search: new URLSearchParams(), list: "total", params, now }); // prettier-ignore
    expect(total.list!.rows.at(-1)).toMatchObject({ patientId: ann.patient.id, lastName: "Zz" });

    // rebuildAll rewrites every patient's days from the first pairing (Dee's, only finalised
    // from yesterday so far, gain their missed days): the standing follows the rows it wrote.
    await rebuildAll(now);
    const rebuilt = await expectAgrees(site.id, now);
    expect(rebuilt.lists.missed).toContain(cal.patient.id);
  });
});
