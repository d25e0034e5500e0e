// The adherence engine on a real SQLite file: DailyAdherence rows after transmissions, late
// transmissions, the finalising job (once per care site and day, catch-up) and the dashboard
// queries, all against hand-computed values.
import { TZDate } from "@date-fns/tz";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { finaliseAdherence, finaliseAdherenceJob, SITE_MARKER_JOB } from "~/jobs/adherence.server";
import { runJob } from "~/jobs/scheduler.server";
import {
  recomputeFrom,
  dashboardDay,
  finaliseDays,
  rebuildAll,
  recomputePatientDays,
} from "~/domain/adherence/adherence.server";
import {
  adherenceAsOf,
  adherenceBelow,
  goalsUpdated,
  missedThreeOrMore,
  neverTransmitted,
  therapyAdjustments,
  transmissionStats,
} from "~/domain/adherence/sql/dashboard.server";
import { createCareSite, createUser, uid } from "../support/factories";

const ALL = "mon,tue,wed,thu,fri,sat,sun";
const r12 = (x: number) => Number(x.toFixed(12));
const CHICAGO = "America/Chicago";

/** The instant of a wall-clock time in a zone, e.g. at("2026-03-02", "08:00"). */
function at(day: string, time: string, timeZone = CHICAGO) {
  const [y, m, d] = day.split("-").map(Number);
  const [h, min] = time.split(":").map(Number);
  return new Date(new TZDate(y, m - 1, d, h, min, timeZone).getTime());
}

async function siteIn(timeZone: string) {
  const site = await createCareSite();
  return prisma.careSite.update({ where: { id: site.id }, data: { timeZone } });
}

type Setup = {
  site: { id: string };
  pairedAt?: Date | null; // null: never paired
  goals?: { at: Date; timesPerDay: number; days?: string }[];
  membership?: string;
};

/** A patient member of the site with a device paired and goals set. */
async function patientAt({ site, pairedAt, goals = [], membership = "accepted" }: Setup) {
  const patient = await createUser({
    role: "patient",
    careSites: [{ id: site.id, status: membership }],
  });
  const device = await prisma.device.create({
    data: { serial: uid("SN"), type: "cough", tokenHash: uid("hash") },
  });
  const rx = await prisma.prescription.create({
    data: {
      deviceId: device.id,
      mode: "Auto",
      cycles: 5,
      pauseP: 0,
      pauseT: 10,
      inspP: 40,
      inspT: 20,
      expP: -40,
      expT: 20,
      oscillation: false,
    },
  });
  const pairing =
    pairedAt === null
      ? null
      : await prisma.pairing.create({
          data: {
            deviceId: device.id,
            patientId: patient.id,
            careSiteId: site.id,
            pairedAt: pairedAt ?? at("2026-03-01", "09:00"),
          },
        });
  for (const g of goals) {
    await prisma.therapyGoal.create({
      data: {
        patientId: patient.id,
        pairingId: pairing?.id,
        timesPerDay: g.timesPerDay,
        days: g.days ?? ALL,
        createdAt: g.at,
      },
    });
  }
  return { patient, device, rx, pairing };
}

type Patient = Awaited<ReturnType<typeof patientAt>>;
type TherapyInput = { startedAt: Date; completed?: boolean; deviates?: boolean };

/** A transmission with its therapies, as the ingest commits it. */
async function transmit(
  p: Patient,
  therapies: TherapyInput[],
  options: { sentAt?: Date; hmr?: number; therapyAdjustment?: boolean } = {},
) {
  const last = Math.max(...therapies.map((t) => t.startedAt.getTime()));
  const sentAt = options.sentAt ?? new Date(last + 30 * 60_000);
  const tx = await prisma.transmission.create({
    data: {
      deviceId: p.device.id,
      pairingId: p.pairing?.id,
      patientId: p.patient.id,
      prescriptionId: p.rx.id,
      sentAt,
      receivedAt: new Date(sentAt.getTime() + 5_000),
      hmr: options.hmr ?? null,
      therapiesAccepted: therapies.length,
      deviatingTherapies: therapies.filter((t) => t.deviates ?? !(t.completed ?? true)).length,
      therapyAdjustment: options.therapyAdjustment ?? false,
    },
  });
  for (const t of therapies) {
    const completed = t.completed ?? true;
    await prisma.therapy.create({
      data: {
        deviceId: p.device.id,
        eventId: uid("E"),
        transmissionId: tx.id,
        prescriptionId: p.rx.id,
        pairingId: p.pairing?.id,
        patientId: p.patient.id,
        startedAt: t.startedAt,
        mode: "Auto",
        prescribedCycles: 5,
        cyclesDelivered: completed ? 5 : 3,
        completed,
        deviates: t.deviates ?? !completed,
        pauseP: 0,
        pauseT: 10,
        inspP: 40,
        inspT: 20,
        expP: -40,
        expT: 20,
        oscillation: false,
      },
    });
  }
  return tx;
}

async function rowsOf(patientId: string) {
  return prisma.dailyAdherence.findMany({
    where: { patientId },
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

const scoresOf = async (patientId: string) =>
  Object.fromEntries((await rowsOf(patientId)).map((r) => [r.day, r.score]));

describe("DailyAdherence after transmissions", () => {
  // Paired 1 Mar 09:00 Chicago; goal twice a day, every day, set 2 Mar 00:30 (governs from 2 Mar).
  const now = at("2026-03-06", "12:00");
  let p: Patient;

  beforeAll(async () => {
    const site = await siteIn(CHICAGO);
    p = await patientAt({
      site,
      pairedAt: at("2026-03-01", "09:00"),
      goals: [{ at: at("2026-03-02", "00:30"), timesPerDay: 2 }],
    });
    // Mar 2: two done (the second at 18:00 local is already Mar 3 in UTC)
    await transmit(
      p,
      [{ startedAt: at("2026-03-02", "08:00") }, { startedAt: at("2026-03-02", "18:00") }],
      {
        hmr: 10.5,
      },
    );
    // Mar 3: one done, one stopped early; Mar 4: nothing; Mar 5: three done
    await transmit(p, [
      { startedAt: at("2026-03-03", "08:00") },
      { startedAt: at("2026-03-03", "18:00"), completed: false },
    ]);
    await transmit(p, [
      { startedAt: at("2026-03-05", "08:00") },
      { startedAt: at("2026-03-05", "12:00") },
      { startedAt: at("2026-03-05", "18:00") },
    ]);
  });

  it("writes every day from the first pairing to today, with exact scores", async () => {
    const result = await recomputePatientDays(p.patient.id, "2026-02-25", "2026-03-05", now);
    expect(result).toEqual({ patients: 1, rows: 6 });
    const rows = await rowsOf(p.patient.id);
    const row = (day: string, r: Partial<(typeof rows)[number]>) => ({
      day,
      isGoalDay: true,
      timesPerDay: 2,
      therapies: 0,
      completed: 0,
      dayAdherence: 0,
      maxHmr: null,
      ...r,
    });
    expect(
      rows.map((r) => ({ ...r, score: r.score === null ? null : Number(r.score.toFixed(12)) })),
    ).toEqual([
      // the pairing day: no goal yet
      row("2026-03-01", { isGoalDay: false, timesPerDay: null, dayAdherence: null, score: null }),
      row("2026-03-02", { therapies: 2, completed: 2, dayAdherence: 1, score: 1, maxHmr: 10.5 }),
      row("2026-03-03", {
        therapies: 2,
        completed: 1,
        dayAdherence: 0.5,
        score: r12((6 + 3.5) / 13),
      }),
      row("2026-03-04", { score: r12((5 + 3) / 18) }),
      row("2026-03-05", {
        therapies: 3,
        completed: 3,
        dayAdherence: 1,
        score: r12((4 + 2.5 + 7) / 22),
      }),
      // today, provisional
      row("2026-03-06", { score: r12((3 + 2 + 6) / 25) }),
    ]);
  });

  it("updates a late transmission's old day and the days after it, not the days before", async () => {
    await recomputePatientDays(p.patient.id, "2026-03-01", "2026-03-05", now);
    // A marker on Mar 3 shows whether recomputeFrom rewrote it.
    await prisma.dailyAdherence.update({
      where: { patientId_day: { patientId: p.patient.id, day: "2026-03-03" } },
      data: { score: 0.123 },
    });
    // Mar 4's two therapies arrive on Mar 6 (the device was offline).
    const startedAts = [at("2026-03-04", "08:00"), at("2026-03-04", "19:30")];
    await transmit(
      p,
      startedAts.map((startedAt) => ({ startedAt })),
      { sentAt: at("2026-03-06", "10:00") },
    );
    await recomputeFrom({ patientId: p.patient.id, days: startedAts, now });
    const rows = Object.fromEntries((await rowsOf(p.patient.id)).map((r) => [r.day, r]));
    expect(rows["2026-03-03"].score).toBe(0.123);
    expect(rows["2026-03-04"]).toMatchObject({ therapies: 2, completed: 2, dayAdherence: 1 });
    expect(rows["2026-03-04"].score).toBeCloseTo((5 + 3 + 7) / 18, 12);
    expect(rows["2026-03-05"].score).toBeCloseTo((4 + 2.5 + 6 + 7) / 22, 12);
    expect(rows["2026-03-06"].score).toBeCloseTo((3 + 2 + 5 + 6) / 25, 12);
  });

  it("a late transmission more than a week old rewrites that day and everything after it", async () => {
    const later = at("2026-03-20", "12:00");
    await recomputePatientDays(p.patient.id, "2026-03-01", "2026-03-20", later);
    const before = await scoresOf(p.patient.id);
    expect(before["2026-03-10"]).toBeCloseTo((1 * 1 + 2 * 1) / 28, 12); // Mar 4, 5 done
    expect(before["2026-03-16"]).toBe(0);
    for (const [day, score] of [
      ["2026-03-09", 0.111],
      ["2026-03-18", 0.222],
    ] as const) {
      await prisma.dailyAdherence.update({
        where: { patientId_day: { patientId: p.patient.id, day } },
        data: { score },
      });
    }
    const startedAts = [at("2026-03-10", "08:00"), at("2026-03-10", "20:00")];
    await transmit(
      p,
      startedAts.map((startedAt) => ({ startedAt })),
      { sentAt: at("2026-03-20", "09:00") },
    );
    await recomputeFrom({ patientId: p.patient.id, days: startedAts, now: later });
    const after = await scoresOf(p.patient.id);
    expect(after["2026-03-09"]).toBe(0.111); // before the late day: untouched
    // Mar 4..10: Mar 4 (w 1), Mar 5 (w 2), Mar 10 (w 7) done
    expect(after["2026-03-10"]).toBeCloseTo(10 / 28, 12);
    expect(after["2026-03-16"]).toBeCloseTo(1 / 28, 12); // Mar 10 is D-6
    expect(after["2026-03-17"]).toBe(0);
    expect(after["2026-03-18"]).toBe(0); // rewritten
    expect(Object.keys(after).at(-1)).toBe("2026-03-20");
  });

  it("an instant before the first pairing recomputes from the first pairing day", async () => {
    const later = at("2026-03-20", "12:00");
    await recomputeFrom({
      patientId: p.patient.id,
      days: [at("2026-02-10", "09:00")],
      now: later,
    });
    const rows = await rowsOf(p.patient.id);
    expect(rows[0].day).toBe("2026-03-01");
    expect(rows).toHaveLength(20);
    // Mar 9 (marked above) is recomputed: Mar 3 (w 1, .5), Mar 4 (w 2), Mar 5 (w 3)
    expect(rows.find((r) => r.day === "2026-03-09")!.score).toBeCloseTo(5.5 / 28, 12);
  });
});

describe("the finalising job", () => {
  // Chicago is on CDT from 8 Mar; Honolulu is UTC-10 all year.
  let chicago: { id: string };
  let honolulu: { id: string };
  let pc: Patient;
  let ph: Patient;

  const markers = async (site: { id: string }) =>
    (
      await prisma.jobRun.findMany({
        where: { job: SITE_MARKER_JOB, runKey: { startsWith: `${site.id}:` } },
        orderBy: { runKey: "asc" },
        select: { runKey: true, status: true },
      })
    ).map((m) => `${m.runKey.slice(site.id.length + 1)} ${m.status}`);
  const daysOf = async (p: Patient) => (await rowsOf(p.patient.id)).map((r) => r.day);

  beforeAll(async () => {
    chicago = await siteIn(CHICAGO);
    honolulu = await siteIn("Pacific/Honolulu");
    pc = await patientAt({
      site: chicago,
      pairedAt: at("2026-03-01", "09:00"),
      goals: [{ at: at("2026-03-01", "09:30"), timesPerDay: 1 }],
    });
    ph = await patientAt({
      site: honolulu,
      pairedAt: at("2026-03-01", "09:00", "Pacific/Honolulu"),
      goals: [{ at: at("2026-03-01", "09:30", "Pacific/Honolulu"), timesPerDay: 1 }],
    });
    // No recomputeFrom: only finalising makes rows.
    await transmit(pc, [{ startedAt: at("2026-03-09", "09:00") }]);
  });

  it("finalises each site's yesterday once its local clock passed 00:05", async () => {
    const first = new Date("2026-03-10T06:10:00Z"); // Chicago 01:10 Mar 10, Honolulu 20:10 Mar 9
    const run = await runJob(finaliseAdherenceJob, first);
    expect(run.skipped).toBe(false);
    expect(run).not.toHaveProperty("error");
    expect(await markers(chicago)).toEqual(["2026-03-09 succeeded"]);
    expect(await markers(honolulu)).toEqual(["2026-03-08 succeeded"]);
    // The finalised day and, for the scores after it, today.
    expect(await daysOf(pc)).toEqual(["2026-03-09", "2026-03-10"]);
    expect(await daysOf(ph)).toEqual(["2026-03-08", "2026-03-09"]);
    const [mar9] = await rowsOf(pc.patient.id);
    expect(mar9).toMatchObject({ isGoalDay: true, therapies: 1, completed: 1, dayAdherence: 1 });
    expect(mar9.score).toBeCloseTo(7 / 28, 12); // Mar 3..8 none, Mar 9 done
    expect((await rowsOf(ph.patient.id))[0]).toMatchObject({ therapies: 0, score: 0 });

    // The same slot again: the scheduler's own JobRun skips it.
    expect((await runJob(finaliseAdherenceJob, first)).skipped).toBe(true);
    const slots = await prisma.jobRun.findMany({
      where: { job: "finalise-adherence", runKey: "2026-03-10T06:10" },
      select: { status: true },
    });
    expect(slots).toEqual([{ status: "succeeded" }]);
  });

  it("does not finalise a day twice", async () => {
    await prisma.dailyAdherence.update({
      where: { patientId_day: { patientId: pc.patient.id, day: "2026-03-09" } },
      data: { score: 0.5 },
    });
    const run = await runJob(finaliseAdherenceJob, new Date("2026-03-10T07:10:00Z"));
    expect(run.skipped).toBe(false);
    expect(await markers(chicago)).toEqual(["2026-03-09 succeeded"]);
    expect(await markers(honolulu)).toEqual(["2026-03-08 succeeded"]);
    expect((await rowsOf(pc.patient.id))[0].score).toBe(0.5); // not recomputed
  });

  it("catches up the days it missed", async () => {
    await finaliseAdherence(new Date("2026-03-13T06:10:00Z"));
    expect(await markers(chicago)).toEqual(
      ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12"].map((d) => `${d} succeeded`),
    );
    expect(await markers(honolulu)).toEqual(
      ["2026-03-08", "2026-03-09", "2026-03-10", "2026-03-11"].map((d) => `${d} succeeded`),
    );
    expect(await daysOf(pc)).toEqual([
      "2026-03-09",
      "2026-03-10",
      "2026-03-11",
      "2026-03-12",
      "2026-03-13",
    ]);
    expect((await rowsOf(pc.patient.id))[0].score).toBe(0.5); // Mar 9 was done already
    expect((await scoresOf(pc.patient.id))["2026-03-12"]).toBeCloseTo(4 / 28, 12);
  });

  it("waits for 00:05 in the site's zone", async () => {
    await finaliseAdherence(new Date("2026-03-13T10:03:00Z")); // Honolulu 00:03 Mar 13
    expect((await markers(honolulu)).at(-1)).toBe("2026-03-11 succeeded");
    await finaliseAdherence(new Date("2026-03-13T10:06:00Z")); // Honolulu 00:06 Mar 13
    expect((await markers(honolulu)).at(-1)).toBe("2026-03-12 succeeded");
    expect(await markers(chicago)).toHaveLength(4);
  });

  it("catches up at most 14 days", async () => {
    await finaliseAdherence(new Date("2026-04-10T06:10:00Z")); // Chicago: yesterday Apr 9
    const days = (await markers(chicago)).map((m) => m.slice(0, 10));
    expect(days.slice(0, 4)).toEqual(["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12"]);
    expect(days.slice(4)).toHaveLength(14);
    expect(days[4]).toBe("2026-03-27");
    expect(days.at(-1)).toBe("2026-04-09");
  });
});

describe("dashboard queries", () => {
  // Everyone paired 1 Jun 09:00 Chicago with a goal set at 10:00 (governs from 1 Jun). The
  // dashboard day is 10 Jun (a Wednesday); its score window is Jun 4..10.
  const now = at("2026-06-11", "12:00");
  const day = "2026-06-10";
  const paired = at("2026-06-01", "09:00");
  const goal = (timesPerDay: number, days = ALL) => ({
    at: at("2026-06-01", "10:00"),
    timesPerDay,
    days,
  });
  let site: { id: string };
  const ids: Record<string, string> = {};
  const names = (rows: { patientId: string }[]) =>
    rows.map((r) => Object.keys(ids).find((k) => ids[k] === r.patientId) ?? r.patientId).sort();

  beforeAll(async () => {
    site = await siteIn(CHICAGO);
    const other = await siteIn(CHICAGO);
    const make = async (name: string, setup: Omit<Setup, "site"> & { site?: { id: string } }) => {
      const p = await patientAt({ site, pairedAt: paired, goals: [goal(1)], ...setup });
      ids[name] = p.patient.id;
      return p;
    };
    const p1 = await make("P1", {});
    await transmit(p1, [{ startedAt: at("2026-06-03", "09:00") }]); // before the range
    await transmit(p1, [
      { startedAt: at("2026-06-09", "09:00"), deviates: true },
      { startedAt: at("2026-06-09", "12:00"), completed: false },
    ]);
    await transmit(p1, [{ startedAt: at("2026-06-09", "19:00") }]);

    const p2 = await make("P2", {
      goals: [goal(1), { at: at("2026-06-09", "10:00"), timesPerDay: 1, days: ALL }],
    });
    for (const d of ["06", "07", "08", "09"])
      await transmit(p2, [{ startedAt: at(`2026-06-${d}`, "09:00") }]);

    const p3 = await make("P3", {});
    for (let d = 2; d <= 10; d++) {
      await transmit(p3, [{ startedAt: at(`2026-06-${String(d).padStart(2, "0")}`, "09:00") }], {
        therapyAdjustment: d === 10,
      });
    }
    // sent 04:45Z on Jun 11: still Jun 10 in Chicago
    await transmit(p3, [{ startedAt: at("2026-06-10", "23:30") }], {
      sentAt: at("2026-06-10", "23:45"),
    });
    await transmit(p3, [{ startedAt: at("2026-06-11", "00:30") }]); // Jun 11: outside

    await make("P4", {}); // paired, never transmitted
    await make("P5", { pairedAt: null, goals: [] }); // never paired
    await make("P6", { membership: "pending" }); // not (yet) the site's patient
    await make("P7", { site: other }); // another site's patient

    const p8 = await make("P8", { goals: [goal(1, "mon,wed,fri")] });
    await transmit(p8, [{ startedAt: at("2026-06-03", "09:00") }]); // then nothing on Jun 5, 8, 10
    const p9 = await make("P9", { goals: [goal(1, "mon,wed,fri")] });
    await transmit(p9, [
      { startedAt: at("2026-06-03", "09:00"), deviates: true },
      { startedAt: at("2026-06-05", "09:00") },
    ]);

    await finaliseDays(site.id, "2026-06-01", day, now);
    await finaliseDays(other.id, "2026-06-01", day, now);
  });

  it("says which day the dashboard shows", async () => {
    expect(await dashboardDay(site.id, now)).toBe(day);
  });

  it("scores every patient of the site as of the day", async () => {
    const scores = await adherenceAsOf(site.id, day);
    const byName = Object.fromEntries(scores.map((s) => [names([s])[0], s.score]));
    expect(Object.keys(byName).sort()).toEqual(["P1", "P2", "P3", "P4", "P5", "P8", "P9"]);
    expect(byName.P1).toBeCloseTo(6 / 28, 12); // Jun 9 only
    expect(byName.P2).toBeCloseTo((3 + 4 + 5 + 6) / 28, 12); // Jun 6..9
    expect(byName.P3).toBe(1);
    expect(byName.P4).toBe(0);
    expect(byName.P5).toBeNull();
    expect(byName.P8).toBe(0); // Jun 5, 8, 10 missed
    expect(byName.P9).toBeCloseTo(2 / 14, 12); // Jun 5 (w 2) done, Jun 8 (w 5), Jun 10 (w 7) not
  });

  it("lists patients below 75, 50 and 25 %", async () => {
    expect(names(await adherenceBelow(site.id, day, 0.75))).toEqual(["P1", "P2", "P4", "P8", "P9"]);
    expect(names(await adherenceBelow(site.id, day, 0.5))).toEqual(["P1", "P4", "P8", "P9"]);
    expect(names(await adherenceBelow(site.id, day, 0.25))).toEqual(["P1", "P4", "P8", "P9"]);
  });

  it("lists patients who missed their last 3 or more goal days", async () => {
    expect(names(await missedThreeOrMore(site.id, day))).toEqual(["P4", "P8"]);
    // as of Jun 8: P8 has missed Jun 5 and 8 only; P1 missed Jun 6, 7, 8 (Jun 9 came later)
    expect(names(await missedThreeOrMore(site.id, "2026-06-08"))).toEqual(["P1", "P4"]);
  });

  it("lists paired patients who never transmitted", async () => {
    expect(names(await neverTransmitted(site.id))).toEqual(["P4"]);
  });

  it("lists goal changes, not first goals", async () => {
    expect(await goalsUpdated(site.id, "2026-06-01", day)).toEqual([
      { patientId: ids.P2, changedOn: "2026-06-09" },
    ]);
    expect(await goalsUpdated(site.id, "2026-06-10", "2026-06-10")).toEqual([]);
  });

  it("counts transmissions and deviations by the day they were sent", async () => {
    const stats = await transmissionStats(site.id, "2026-06-04", day);
    expect(
      Object.fromEntries(stats.map((s) => [names([s])[0], { ...s, patientId: undefined }])),
    ).toEqual({
      P1: { patientId: undefined, total: 2, deviating: 1, therapies: 3, deviatingTherapies: 2 },
      P2: { patientId: undefined, total: 4, deviating: 0, therapies: 4, deviatingTherapies: 0 },
      P3: { patientId: undefined, total: 8, deviating: 0, therapies: 8, deviatingTherapies: 0 },
      // sent Jun 5 with a deviating therapy of Jun 3: counted whole on the day it was sent
      P9: { patientId: undefined, total: 1, deviating: 1, therapies: 2, deviatingTherapies: 1 },
    });
  });

  it("lists therapy adjustments", async () => {
    expect(await therapyAdjustments(site.id, "2026-06-04", day)).toEqual([
      { patientId: ids.P3, adjustments: 1, adjustedOn: "2026-06-10" },
    ]);
    expect(await therapyAdjustments(site.id, "2026-06-04", "2026-06-09")).toEqual([]);
  });

  it("rebuildAll gives the same rows as the incremental path", async () => {
    const before = await Promise.all(Object.values(ids).map((id) => rowsOf(id)));
    const result = await rebuildAll(now);
    expect(result.patients).toBeGreaterThanOrEqual(8);
    const after = await Promise.all(Object.values(ids).map((id) => rowsOf(id)));
    expect(after).toEqual(before);
    expect(after[Object.keys(ids).indexOf("P5")]).toEqual([]);
    expect(after[0][0].day).toBe("2026-06-01");
  });
});
