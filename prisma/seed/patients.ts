// The patients of the three care sites: who they are, how they joined, their device, goals and
// 90 days of use. Each site has 20 places (content.ts SLOTS); a few are special: a patient that
// never transmitted, patients without a device, a blocked one, a device replaced 35 days ago whose
// old unit went to a new patient.
import { buildPatientProfile, pad } from "../factories";
import { DAY_MS, WEEKDAYS, dayOf as dayInZone, shiftDay } from "./calendar";
import {
  ADULT_CONDITIONS,
  ALL_DAYS,
  ALLERGIES,
  BLOOD_TYPES,
  FEMALE,
  GOAL_DAYS,
  LAST,
  LAST_SLOT,
  MALE,
  NEVER_TRANSMITTED_SLOT,
  NO_DEVICE_SLOT,
  OTHER_CONDITIONS,
  PATIENTS_PER_SITE,
  RECENT_PAIRINGS,
  REPAIRED,
  REUSED_DEVICE,
  SITES,
  SLOTS,
  YOUNG_CONDITIONS,
  type SiteDef,
} from "./content";
import {
  addDevice,
  addPairing,
  newPrescription,
  randomSettings,
  settingsOf,
  type DeviceState,
} from "./devices";
import { addInvitation, addMembership, addUser, sitePhone } from "./people";
import { Rng, round1 } from "./random";
import type { Staff } from "./staff";
import { addGoal, simulate, type PatientSim } from "./therapy";
import { WINDOW_DAYS, type Ctx, type Person } from "./world";

/** Patients the notes and the chat refer to. */
export type Notable = Record<string, Person>;

export function addPatients(ctx: Ctx, staff: Staff): Notable {
  const { w, ago, todayDay, yesterday, windowStart } = ctx;
  const staffBy = staff.bySite;
  const dayOf = (ms: number, site: SiteDef) => dayInZone(ms, site.timeZone);
  const nameKeys = new Set<string>();
  let replacedDevice: DeviceState | null = null;
  let patientNo = 0;
  const notable: Notable = {};

  SITES.forEach((site, s) => {
    const staff = staffBy[site.id];
    for (let j = 0; j < PATIENTS_PER_SITE; j++) {
      const slot = SLOTS[j];
      const idx = ++patientNo;
      const id = `seed-user-${pad(100 + idx, 3)}`;
      const r = new Rng(`patient:${idx}`);

      // Who the patient is.
      const female = r.chance(0.5);
      let firstName = "";
      let lastName = "";
      do {
        firstName = r.pick(female ? FEMALE : MALE);
        lastName = r.pick(LAST);
      } while (nameKeys.has(`${firstName} ${lastName}`));
      nameKeys.add(`${firstName} ${lastName}`);
      const young = r.chance(0.25);
      const condition1 = r.pick(young ? YOUNG_CONDITIONS : ADULT_CONDITIONS);
      const age = young ? r.int(9, 32) : r.int(38, 88);
      const [ty] = todayDay.split("-").map(Number);
      const dateOfBirth = `${ty - age - 1}-${pad(r.int(1, 12), 2)}-${pad(r.int(1, 28), 2)}`;
      const child = age < 16;
      const others = r.shuffle([...OTHER_CONDITIONS]);
      const allergies = r.shuffle([...ALLERGIES]);
      const nAllergies = r.pick([0, 0, 1, 1, 1, 2, 3]);
      const nConditions = r.pick([0, 1, 1, 2]);

      // When they joined and how (special places first).
      const noDevice = j === NO_DEVICE_SLOT || (j === LAST_SLOT && s === 0);
      const blocked = j === LAST_SLOT && s > 0;
      const neverTransmitted = j === NEVER_TRANSMITTED_SLOT;
      const isRepaired = s === REPAIRED.site && j === REPAIRED.slot;
      const isReused = s === REUSED_DEVICE.site && j === REUSED_DEVICE.slot;
      const recentDays = RECENT_PAIRINGS[`${s}:${j}`];
      let pairedDaysAgo: number | null = null;
      if (!noDevice && !blocked) {
        if (neverTransmitted) pairedDaysAgo = r.int(3, 20);
        else if (isReused) pairedDaysAgo = 10;
        else if (recentDays !== undefined) pairedDaysAgo = recentDays;
        else pairedDaysAgo = r.int(WINDOW_DAYS + 5, 480);
      }
      const pairedAt =
        pairedDaysAgo === null ? null : ago(pairedDaysAgo, r.int(9 * 60, 16 * 60), site.timeZone);
      const invitedAt =
        pairedAt !== null
          ? pairedAt - r.int(1, 12) * DAY_MS - r.int(0, 5) * 3_600_000
          : ago(r.int(15, 400), r.int(9 * 60, 16 * 60), site.timeZone);
      const inviter = r.chance(0.6) ? r.pick(staff.clinicians) : r.pick(staff.admins);
      const acceptedAt = invitedAt + r.int(1, 40) * 3_600_000;

      const person = addUser(ctx, {
        id,
        role: "patient",
        firstName,
        lastName,
        phone: sitePhone(site, 200 + idx),
        email: `${`${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, "")}@homecare.example`,
        site,
        createdAt: acceptedAt,
        home: true,
        measuringUnit: "Imperial",
      });
      w.PatientProfile.push(
        buildPatientProfile({
          userId: id,
          patientTag: `P-${10000 + idx * 7 + (idx % 3)}`,
          dateOfBirth,
          gender: female ? "Female" : "Male",
          bloodType: r.pick(BLOOD_TYPES),
          heightIn: child
            ? round1(r.float(46, 62))
            : round1(female ? r.float(59, 69) : r.float(64, 76)),
          weightLb: child
            ? round1(r.float(48, 120))
            : round1(female ? r.float(98, 210) : r.float(125, 260)),
          existingCondition1: condition1,
          existingCondition2: nConditions >= 1 ? others[0] : null,
          existingCondition3: nConditions >= 2 ? others[1] : null,
          allergy1: nAllergies >= 1 ? allergies[0] : null,
          allergy2: nAllergies >= 2 ? allergies[1] : null,
          allergy3: nAllergies >= 3 ? allergies[2] : null,
          updatedAt: acceptedAt,
        }),
      );
      if (blocked) {
        const blockedAt = ago(r.int(20, 50), r.int(9 * 60, 16 * 60), site.timeZone);
        const m = addMembership(
          ctx,
          site,
          person,
          "patient",
          "blocked",
          invitedAt,
          acceptedAt,
          blockedAt,
        );
        addInvitation(ctx, {
          email: person.email,
          role: "patient",
          site,
          by: inviter,
          status: "blocked",
          createdAt: invitedAt,
          membershipId: m,
          updatedAt: blockedAt,
        });
        notable[`blocked${s}`] = person;
        continue;
      }
      const m = addMembership(ctx, site, person, "patient", "accepted", invitedAt, acceptedAt);
      addInvitation(ctx, {
        email: person.email,
        role: "patient",
        site,
        by: inviter,
        status: "accepted",
        createdAt: invitedAt,
        membershipId: m,
        updatedAt: acceptedAt,
      });
      if (noDevice || pairedAt === null) {
        notable[`noDevice${s}:${j}`] = person;
        continue;
      }

      // The device, its goal and its use.
      const sim: PatientSim = {
        id,
        site,
        rng: r,
        profile: slot.profile,
        goals: [],
        devRate: r.pick([0, 0, 0.02, 0.04, 0.08, 0.15, 0.3]),
        volume: child ? r.int(500, 1100) : r.int(900, 2300),
        flow: child ? r.int(120, 220) : r.int(160, 340),
        spo2: r.chance(0.55) ? r.pick([98, 97, 97, 96, 95, 94, 93, 91, 89]) : null,
        acc: r.next(),
      };
      const pairer = r.pick([...staff.clinicians, ...staff.admins]);
      const goalSetter = () => r.pick(staff.clinicians);
      const dev: DeviceState =
        isReused && replacedDevice
          ? replacedDevice
          : addDevice(ctx, pairedAt - r.int(10, 90) * DAY_MS);
      const unpairedAt = isRepaired ? ago(35, 11 * 60, site.timeZone) : null;
      const pairing = addPairing(ctx, dev, id, site, pairer, pairedAt, unpairedAt);
      const tpd = r.pick([1, 2, 2, 2, 3, 3, 4]);
      const days = slot.profile === "missing" ? ALL_DAYS : r.pick(GOAL_DAYS);
      addGoal(ctx, sim, pairing.id, pairedAt + r.int(5, 40) * 60_000, tpd, days, goalSetter());
      // Goal changes: in the last 7 days, or earlier within the 90 days.
      if (slot.goalChange && !neverTransmitted) {
        const daysAgo =
          slot.goalChange === "recent"
            ? r.int(1, 6)
            : r.int(15, Math.min(80, (pairedDaysAgo ?? 90) - 5));
        const newTpd = tpd >= 4 ? 3 : tpd <= 1 ? 2 : tpd + r.pick([-1, 1]);
        addGoal(
          ctx,
          sim,
          pairing.id,
          ago(daysAgo, r.int(9 * 60, 17 * 60), site.timeZone),
          newTpd,
          r.chance(0.7) ? days : r.pick(GOAL_DAYS),
          goalSetter(),
        );
      }
      if (slot.profile === "missing") sim.stopFrom = shiftDay(yesterday, -r.int(2, 6)); // 3 to 7 empty days
      if (neverTransmitted) {
        notable.neverTransmitted = person;
        continue;
      }

      const from = pairedDaysAgo! >= WINDOW_DAYS ? windowStart : shiftDay(dayOf(pairedAt, site), 1);
      if (isReused) {
        // The replaced device gets new settings for its new patient.
        newPrescription(
          ctx,
          dev,
          { ...randomSettings(dev.rng), cycles: dev.rx!.cycles === 6 ? 4 : dev.rx!.cycles + 1 },
          true,
        );
        simulate(ctx, sim, { pairing, dev, from, to: yesterday });
        notable.reused = person;
        continue;
      }
      newPrescription(ctx, dev, randomSettings(dev.rng), false);
      const adjustDay =
        slot.adjustment === "recent"
          ? shiftDay(yesterday, -r.int(0, 5))
          : slot.adjustment === "older"
            ? shiftDay(yesterday, -r.int(20, 70))
            : undefined;

      if (!isRepaired) {
        simulate(ctx, sim, { pairing, dev, from, to: yesterday, adjustDay });
        continue;
      }
      // The re-paired patient: device 1 until 35 days ago, then a replacement with the same settings.
      notable.repaired = person;
      const unpairDay = dayOf(unpairedAt!, site);
      simulate(ctx, sim, { pairing, dev, from, to: shiftDay(unpairDay, -1) });
      const dev2 = addDevice(ctx, unpairedAt! - 20 * DAY_MS);
      const pairing2 = addPairing(ctx, dev2, id, site, pairer, unpairedAt! + 30 * 60_000);
      const old = dev.rx!;
      newPrescription(ctx, dev2, settingsOf(old), false);
      addGoal(ctx, sim, pairing2.id, unpairedAt! + 45 * 60_000, tpd, days, goalSetter());
      simulate(ctx, sim, {
        pairing: pairing2,
        dev: dev2,
        from: shiftDay(unpairDay, 1),
        to: yesterday,
      });
      // The old device, back at the clinic, sends one more therapy the next day: attributed to nobody.
      const orphan: PatientSim = {
        ...sim,
        id: null,
        rng: new Rng("orphan"),
        profile: "excellent",
        goals: [{ timesPerDay: 1, days: new Set(WEEKDAYS), from: windowStart }],
        devRate: 0,
      };
      const orphanDay = shiftDay(unpairDay, 1);
      simulate(ctx, orphan, { pairing, dev, from: orphanDay, to: orphanDay });
      replacedDevice = dev;
    }
  });

  return notable;
}
