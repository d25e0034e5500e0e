// Therapy data in through HTTP (the simulator's client), adherence and the care site dashboard out:
// the exact counts and lists DESIGN.md §5 gives for known patients.
import { TZDate } from "@date-fns/tz";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { yesterdayInZone } from "~/lib/time";
import { finaliseDays, processAdherenceQueue } from "~/domain/adherence/adherence.server";
import { careSiteDashboard, type Category } from "~/domain/adherence/dashboard.server";
import { addDays } from "~/domain/adherence/score";
import { DeviceClient, STANDARD_PRESCRIPTION, type TherapyRecord } from "../../scripts/sim/client";
import { actorOf, createCareSite, createPairedPatient, createUser } from "../support/factories";
import { startDeviceApiServer } from "../support/deviceApiServer";

const ZONE = "America/Chicago";
const RX = STANDARD_PRESCRIPTION;

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
function therapy(day: string, hour: number, options: { deviates?: boolean } = {}): TherapyRecord {
  const delivered = {
    P_P: 0,
    P_T: 10,
    I_P: options.deviates ? 43 : 40,
    I_T: 20,
    E_P: -40,
    E_T: 15,
    O_F: 1 as const,
  };
  return {
    eventId: `T-${++event}`,
    startedAt: at(day, hour),
    mode: "Auto",
    delivered,
    cycles: Array.from({ length: 5 }, (_, i) => ({
      n: i + 1,
      P_IP: 38,
      E_V: 1200,
      P_F: 250,
      SPO2: i === 0 ? null : 96,
      O_F: 1 as const,
    })),
  };
}

async function patientWithDevice(siteId: string, pairedAt: Date, name: string) {
  const { patient, device, token } = await createPairedPatient(siteId, {
    firstName: name,
    lastName: `Test${name}`,
    pairedAt,
  });
  return { patient, client: new DeviceClient(api.url, device.serial, token) };
}

describe("transmissions through HTTP make the dashboard", () => {
  it("gives exactly the counts and lists of DESIGN.md §5", async () => {
    const site = await createCareSite();
    const yesterday = yesterdayInZone(new Date(), ZONE);
    const week = Array.from({ length: 7 }, (_, i) => addDays(yesterday, i - 6)); // D-6 .. D
    const pairedAt = new Date(`${addDays(yesterday, -10)}T12:00:00Z`);

    const ann = await patientWithDevice(site.id, pairedAt, "Ann"); // 2 complete therapies a day: 100 %
    const ben = await patientWithDevice(site.id, pairedAt, "Ben"); // 1 a day: 50 %, one deviation
    const cal = await patientWithDevice(site.id, pairedAt, "Cal"); // 2 a day, then nothing for 3 days
    await patientWithDevice(site.id, pairedAt, "Dee"); // paired, never transmits

    for (const day of week) {
      const send = (client: DeviceClient, therapies: TherapyRecord[]) =>
        therapies.length
          ? client.sendTransmission({ sentAt: at(day, 21), hmr: 100, prescription: RX, therapies })
          : null;
      expect(await send(ann.client, [therapy(day, 9), therapy(day, 15)])).toMatchObject({
        therapiesAccepted: 2,
      });
      await send(ben.client, [therapy(day, 10, { deviates: day === week[3] })]);
      await send(cal.client, day < week[4] ? [therapy(day, 8), therapy(day, 18)] : []);
    }
    // The same day sent again changes nothing.
    const again = await ann.client.sendTransmission({
      sentAt: at(week[6], 22),
      hmr: 100,
      prescription: RX,
      therapies: [{ ...therapy(week[6], 9), eventId: `T-1` }],
    });
    expect(again.therapiesAccepted).toBe(0);
    // Ann's goal is set again (same goal) the day before yesterday: an "update therapy goals" row.
    await prisma.therapyGoal.create({
      data: {
        patientId: ann.patient.id,
        timesPerDay: 2,
        days: "mon,tue,wed,thu,fri,sat,sun",
        createdAt: new Date(at(week[5], 11)),
      },
    });
    // The nightly job's work: every patient's days, Dee's zero days included.
    await finaliseDays(site.id, week[0], yesterday);

    const params = { q: "", sort: "lastName" as const, order: "asc" as const, page: 1 };
    // Seen as a clinician of the care site (the dashboard is its staff's).
    const clinician = await actorOf(
      await createUser({ role: "clinician", careSites: [{ id: site.id }] }),
    );
    const view = async (list: Category | null) =>
      (await careSiteDashboard(clinician, site.id, {
        search: new URLSearchParams(),
        list,
        params,
      }))!;
    const dashboard = await view(null);
    expect(dashboard.counts).toEqual({
      below75: 3, // Ben 50 %, Cal 10/28 = 36 %, Dee 0 %
      below50: 2, // Cal, Dee
      below25: 1, // Dee
      updatedGoals: 1, // Ann
      missed: 2, // Cal and Dee: their last 3 goal days had no therapy
      never: 1, // Dee
      total: 3, // patients with transmissions in the week
      withoutDeviation: 2, // Ann, Cal
      withDeviation: 1, // Ben
    });

    const names = async (list: Category) => (await view(list)).list!.rows.map((r) => r.firstName);
    expect(await names("below75")).toEqual(["Ben", "Cal", "Dee"]);
    expect((await view("below75")).list!.rows.map((r) => r.scorePercent)).toEqual([50, 36, 0]);
    expect(await names("missed")).toEqual(["Cal", "Dee"]);
    expect(await names("never")).toEqual(["Dee"]);
    expect((await view("updatedGoals")).list!.rows).toMatchObject([{ firstName: "Ann" }]);
    expect((await view("withDeviation")).list!.rows).toMatchObject([
      { firstName: "Ben", totalTransmission: 7, deviation: "yes", deviationPercentage: 14 },
    ]);
    expect(
      (await view("total")).list!.rows.map((r) => [r.firstName, r.totalTransmission, r.deviation]),
    ).toEqual([
      ["Ann", 7, "no"],
      ["Ben", 7, "yes"],
      ["Cal", 4, "no"],
    ]);
  });
});

describe("the Transmissions card and lists count patients (docs/decisions.md)", () => {
  it("puts each patient who transmitted in exactly one of Without and With Deviations", async () => {
    const site = await createCareSite();
    const yesterday = yesterdayInZone(new Date(), ZONE);
    const days = [addDays(yesterday, -2), addDays(yesterday, -1), yesterday];
    const pairedAt = new Date(`${addDays(yesterday, -10)}T12:00:00Z`);
    const clean = await patientWithDevice(site.id, pairedAt, "Clean");
    const mixed = await patientWithDevice(site.id, pairedAt, "Mixed");
    const deviating = await patientWithDevice(site.id, pairedAt, "Deviating");
    for (const [i, day] of days.entries()) {
      const send = (client: DeviceClient, deviates: boolean) =>
        client.sendTransmission({
          sentAt: at(day, 21),
          hmr: 100 + i,
          prescription: RX,
          therapies: [therapy(day, 10, { deviates })],
        });
      await send(clean.client, false);
      await send(mixed.client, i === 1); // one deviating transmission of three
      await send(deviating.client, true);
    }
    // Transmissions before the range do not count: an old deviation of Clean's is outside it.
    await clean.client.sendTransmission({
      sentAt: at(addDays(yesterday, -9), 21),
      hmr: 90,
      prescription: RX,
      therapies: [therapy(addDays(yesterday, -9), 10, { deviates: true })],
    });
    // The cards read what the adherence worker wrote (PatientStanding, in its transaction): its pass.
    await processAdherenceQueue();

    const clinician = await actorOf(
      await createUser({ role: "clinician", careSites: [{ id: site.id }] }),
    );
    const params = { q: "", sort: "lastName" as const, order: "asc" as const, page: 1 };
    const view = async (list: Category | null) =>
      (await careSiteDashboard(clinician, site.id, {
        search: new URLSearchParams(),
        list,
        params,
      }))!;
    const { counts } = await view(null);
    expect([counts.total, counts.withoutDeviation, counts.withDeviation]).toEqual([3, 1, 2]);
    expect(counts.total).toBe(counts.withoutDeviation + counts.withDeviation);

    const rows = async (list: Category) => {
      const shown = (await view(list)).list!;
      expect(shown.total).toBe(counts[list]); // the paging footer's total is the card's count
      return shown.rows.map((r) => [r.firstName, r.totalTransmission, r.deviation]);
    };
    expect(await rows("withoutDeviation")).toEqual([["Clean", 3, "no"]]);
    expect(await rows("withDeviation")).toEqual([
      ["Deviating", 3, "yes"],
      ["Mixed", 3, "yes"],
    ]);
    expect(await rows("total")).toEqual([
      ["Clean", 3, "no"],
      ["Deviating", 3, "yes"],
      ["Mixed", 3, "yes"],
    ]);
    expect((await view("withDeviation")).list!.rows.map((r) => r.deviationPercentage)).toEqual([
      100, 33,
    ]);
  });
});
