// The therapy simulation: a patient's use of a device day by day, after their goal and their
// adherence profile, sent to the portal in evening transmissions (now and then a day late).
import type { Prisma } from "../../app/generated/prisma/client";
import {
  buildCycle,
  buildPrescription,
  buildTherapy,
  buildTherapyGoal,
  buildTransmission,
  pad,
  type Settings,
} from "../factories";
import { at, dayOf, shiftDay, weekday } from "./calendar";
import { PROFILES, SLOT_TIMES, type Profile, type SiteDef } from "./content";
import { adjustedSettings, newPrescription, type DeviceState } from "./devices";
import { round1, type Rng } from "./random";
import type { Ctx, Person } from "./world";

export type Goal = { timesPerDay: number; days: Set<string>; from: string };
export type Span = {
  pairing: { id: string };
  dev: DeviceState;
  from: string; // first day with data
  to: string; // last day with data
  adjustDay?: string; // the day the clinic changes the device's prescription
};
export type PatientSim = {
  id: string | null; // null: an unpaired device (data attributed to nobody)
  site: SiteDef;
  rng: Rng;
  profile: Profile;
  goals: Goal[];
  stopFrom?: string; // "missing": no therapy from this day on
  devRate: number; // share of therapies with a delivered-setting deviation
  volume: number;
  flow: number;
  spo2: number | null;
  acc: number;
};

type TherapyFields = Omit<
  Prisma.TherapyCreateManyInput,
  "transmissionId" | "prescriptionId" | "startedAt"
> & {
  id: string;
  startedAt: number;
  deviates: boolean;
};
type Pending = { therapy: TherapyFields; cycles: Prisma.CycleCreateManyInput[]; end: number };

/** Simulates a device's use by one patient over a span of days, writing transmissions and therapies. */
export function simulate(ctx: Ctx, p: PatientSim, span: Span) {
  const { w, seq } = ctx;
  const { dev, pairing } = span;
  const tz = p.site.timeZone;
  const prof = PROFILES[p.profile];
  const r = p.rng;
  let pending: Pending[] = [];
  let adjusted = !span.adjustDay;

  const flush = (day: string) => {
    if (!dev.rx) throw new Error("device without prescription");
    const lastEnd = Math.max(...pending.map((t) => t.end));
    let sentAt = at(day, 20 * 60 + 20 + r.int(0, 130), tz) + r.int(0, 59) * 1000;
    if (sentAt < lastEnd + 10 * 60_000) sentAt = lastEnd + r.int(10, 40) * 60_000;
    const receivedAt = sentAt + r.int(2, 95) * 1000;
    const id = `seed-tx-${pad(++seq.tx, 6)}`;
    const adjustment = dev.rxPending && dev.rx.isAdjustment;
    if (dev.rxPending) {
      dev.rx.firstSeenAt = receivedAt;
      w.Prescription.push(buildPrescription(dev.rx));
      dev.rxPending = false;
    }
    let deviating = 0;
    for (const t of pending) {
      if (t.therapy.deviates) deviating++;
      dev.hmr += (t.end - t.therapy.startedAt) / 3_600_000;
      w.Therapy.push(buildTherapy({ ...t.therapy, transmissionId: id, prescriptionId: dev.rx.id }));
      for (const c of t.cycles) w.Cycle.push(c);
    }
    w.Transmission.push(
      buildTransmission({
        id,
        deviceId: dev.row.id!,
        pairingId: p.id ? pairing.id : null,
        patientId: p.id,
        prescriptionId: dev.rx.id,
        sentAt,
        receivedAt,
        hmr: round1(dev.hmr),
        therapiesAccepted: pending.length,
        therapiesDuplicate: r.chance(0.02) ? 1 : 0, // a therapy the relay sent twice
        deviatingTherapies: deviating,
        therapyAdjustment: adjustment,
      }),
    );
    dev.row.lastSeenAt = new Date(receivedAt);
    pending = [];
  };

  const therapy = (day: string, minutes: number, full: boolean) => {
    const rx = dev.rx!;
    const startedAt = at(day, minutes, tz) + r.int(0, 59) * 1000;
    const cyclesDelivered = full ? rx.cycles : r.int(1, rx.cycles - 1);
    // Delivered settings: the prescription within tolerance (±2 cmH2O, ±0.5 s are still fine) ...
    const d: Settings = {
      pauseP: rx.pauseP + (r.chance(0.1) ? r.pick([-1, 1]) : 0),
      pauseT: rx.pauseT + (r.chance(0.2) ? r.int(-3, 3) : 0),
      inspP: rx.inspP + (r.chance(0.4) ? r.pick([-2, -1, -1, 1, 1, 2]) : 0),
      inspT: rx.inspT + (r.chance(0.3) ? r.int(-5, 5) : 0),
      expP: rx.expP + (r.chance(0.4) ? r.pick([-2, -1, -1, 1, 1, 2]) : 0),
      expT: rx.expT + (r.chance(0.3) ? r.int(-5, 5) : 0),
      oscillation: rx.oscillation,
    };
    // ... unless this therapy deviates on a setting.
    if (r.chance(p.devRate)) {
      const kind = r.pick(["inspP", "expP", "inspT", "expT", "osc"] as const);
      if (kind === "inspP") d.inspP = rx.inspP - r.int(3, 8);
      else if (kind === "expP") d.expP = rx.expP + r.int(3, 8);
      else if (kind === "inspT") d.inspT = rx.inspT + r.pick([-1, 1]) * r.int(6, 10);
      else if (kind === "expT") d.expT = Math.max(1, rx.expT + r.pick([-1, 1]) * r.int(6, 10));
      else d.oscillation = !rx.oscillation;
    }
    const deviates =
      cyclesDelivered < rx.cycles ||
      Math.abs(d.pauseP - rx.pauseP) > 2 ||
      Math.abs(d.inspP - rx.inspP) > 2 ||
      Math.abs(d.expP - rx.expP) > 2 ||
      Math.abs(d.pauseT - rx.pauseT) > 5 ||
      Math.abs(d.inspT - rx.inspT) > 5 ||
      Math.abs(d.expT - rx.expT) > 5 ||
      d.oscillation !== rx.oscillation;
    const id = `seed-thr-${pad(++seq.therapy, 6)}`;
    const cycles: Prisma.CycleCreateManyInput[] = [];
    for (let n = 1; n <= cyclesDelivered; n++) {
      cycles.push(
        buildCycle({
          id: `seed-cyc-${pad(++seq.cycle, 7)}`,
          therapyId: id,
          n,
          peakInspP: round1(d.inspP * r.float(0.88, 1.0)),
          expVolume: Math.round(p.volume * r.float(0.85, 1.12)),
          peakFlow: Math.round(p.flow * r.float(0.85, 1.12)),
          spo2: p.spo2 === null ? null : Math.min(100, p.spo2 + r.int(-2, 1)),
          oscillation: d.oscillation,
        }),
      );
    }
    const seconds = (cyclesDelivered * (d.pauseT + d.inspT + d.expT)) / 10 + r.int(20, 90);
    pending.push({
      therapy: {
        id,
        deviceId: dev.row.id!,
        eventId: `T-${pad(++dev.eventNo, 6)}`,
        pairingId: p.id ? pairing.id : null,
        patientId: p.id,
        startedAt,
        mode: rx.mode,
        prescribedCycles: rx.cycles,
        cyclesDelivered,
        completed: cyclesDelivered >= rx.cycles,
        ...d,
        deviates,
      },
      cycles,
      end: startedAt + seconds * 1000,
    });
  };

  for (let day = span.from; day <= span.to; day = shiftDay(day, 1)) {
    if (!adjusted && span.adjustDay && day >= span.adjustDay && pending.length === 0) {
      newPrescription(ctx, dev, adjustedSettings(dev.rng, dev.rx!), true);
      adjusted = true;
    }
    let goal = p.goals[0];
    for (const g of p.goals) if (g.from <= day) goal = g;
    const stopped = p.stopFrom !== undefined && day >= p.stopFrom;
    const times: { minutes: number; full: boolean }[] = [];
    if (!stopped) {
      if (goal.days.has(weekday(day))) {
        const tpd = goal.timesPerDay;
        let done: number;
        if (prof.rate >= 0.9) {
          done = 0;
          for (let k = 0; k < tpd; k++) if (r.chance(prof.rate)) done++;
        } else {
          // An accumulator keeps the share close to the profile over any week, with day-to-day noise.
          p.acc += tpd * prof.rate * r.float(0.6, 1.4);
          done = Math.min(tpd, Math.floor(p.acc));
          p.acc -= Math.floor(p.acc);
        }
        const slots = r.shuffle([...SLOT_TIMES[tpd]]);
        slots.forEach((base, k) => {
          const minutes = Math.min(base + r.int(-40, 40), 19 * 60 + 40);
          if (k < done) times.push({ minutes, full: true });
          else if (r.chance(prof.partial)) times.push({ minutes, full: false });
        });
        if (r.chance(prof.extra))
          times.push({ minutes: 16 * 60 + 30 + r.int(-30, 30), full: true });
      } else if (r.chance(prof.offDay)) {
        times.push({ minutes: 10 * 60 + r.int(-60, 90), full: r.chance(0.85) });
      }
    }
    times.sort((a, b) => a.minutes - b.minutes);
    for (const t of times) therapy(day, t.minutes, t.full);
    if (pending.length === 0) continue;
    // Now and then the device cannot reach the relay and sends the day's therapies the next evening.
    const next = shiftDay(day, 1);
    const mayDefer = next <= span.to && (adjusted || !span.adjustDay || span.adjustDay > next);
    if (mayDefer && r.chance(0.03)) continue;
    flush(day);
  }
  if (pending.length > 0) flush(span.to);
}

/** Adds a goal row; it governs the days after it was set. */
export function addGoal(
  ctx: Ctx,
  p: PatientSim,
  pairingId: string,
  createdAt: number,
  timesPerDay: number,
  days: string,
  by: Person,
) {
  ctx.w.TherapyGoal.push(
    buildTherapyGoal({
      id: `seed-goal-${pad(++ctx.seq.goal, 3)}`,
      patientId: p.id!,
      pairingId,
      timesPerDay,
      days,
      createdById: by.id,
      createdAt,
    }),
  );
  p.goals.push({
    timesPerDay,
    days: new Set(days.split(",")),
    from: shiftDay(dayOf(createdAt, p.site.timeZone), 1),
  });
}
