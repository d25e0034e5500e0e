// The patient profile's kept work (issue 23): trend sums kept per patient, range and transmission
// version (profileQueries.server.ts trendCache) and charts kept per exact data (ui/charts/
// svg.server.tsx chartSvgCache). What is kept must never be shown once the data changed: a new
// transmission changes the trend charts at once, a goal change the adherence charts, another range
// other charts. And a page load sends each chart once: in the markup, not again in the hydration
// data (ui/charts/hydration.server.ts).
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { dayInZone } from "~/lib/time";
import { addDays } from "~/domain/adherence/score";
import { processAdherenceQueue } from "~/domain/adherence/adherence.server";
import { ingestTransmission } from "~/domain/devices/ingest.server";
import { parseTransmission } from "~/domain/devices/schema";
import { findProfile, setTherapyGoal } from "~/domain/patients/profile.server";
import { trendCache } from "~/domain/patients/profileQueries.server";
import {
  adherenceSeriesCache,
  chartsInMarkupOnly,
  loadProfileView,
} from "~/domain/patients/profileView.server";
import { patientProfileHref } from "~/domain/patients/profileLink";
import { chartSvgCache } from "~/ui/charts/svg.server";
import { isDocumentRequest } from "~/ui/charts/hydration.server";
import { loader } from "~/routes/app.PatientProfile";
import { actorOf, createCareSite, createPairedPatient, createUser } from "../support/factories";
import { signedInBrowser } from "../support/session";
import { STANDARD_PRESCRIPTION } from "../../scripts/sim/client";

const ALL_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

async function world() {
  const site = await createCareSite();
  const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
  const now = new Date();
  const paired = await createPairedPatient(site.id, {
    firstName: "Cache",
    lastName: "Patient",
    pairedAt: new Date(now.getTime() - 30 * 86_400_000),
  });
  const pairing = await prisma.pairing.findFirstOrThrow({
    where: { patientId: paired.patient.id, unpairedAt: null },
  });
  const actor = await actorOf(clinician);
  const found = await findProfile(actor, {
    profileId: paired.patient.id,
    clinicId: site.id,
    pairId: pairing.id,
  });
  if (!found) throw new Error("profile not found");
  const show = (query = "") => loadProfileView(found, "Imperial", new URLSearchParams(query), now);
  const today = dayInZone(now, site.timeZone);
  return { site, clinician, actor, paired, pairing, found, show, now, today };
}

/** A transmission with one therapy at noon UTC of `day`, its cycles at the given peak flows. */
async function transmit(device: { id: string }, day: string, eventId: string, flows: number[]) {
  const parsed = parseTransmission({
    sentAt: `${day}T13:00:00Z`,
    hmr: 120,
    prescription: { ...STANDARD_PRESCRIPTION, cycles: flows.length },
    therapies: [
      {
        eventId,
        startedAt: `${day}T12:00:00Z`,
        mode: "Auto",
        delivered: { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 },
        cycles: flows.map((flow, i) => ({
          n: i + 1,
          P_IP: 38,
          E_V: 1200,
          P_F: flow,
          SPO2: 96,
          O_F: 1,
        })),
      },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return ingestTransmission(device, parsed.data);
}

const peakFlowOf = (view: Awaited<ReturnType<typeof loadProfileView>>, day: string) =>
  view.trends.days.find((d) => d.day === day);

describe("kept trend sums and charts", () => {
  it("a new transmission for the patient changes the trend charts at once", async () => {
    const { paired, show, today } = await world();
    const day = addDays(today, -2);
    await transmit(paired.device, day, "E1", [200, 220]);

    const first = await show();
    const again = await show();
    // Kept: the same view again reads the same sums and the same chart strings.
    expect(again.trends.charts.peakFlow).toBe(first.trends.charts.peakFlow);
    expect(peakFlowOf(first, day)).toBeDefined();
    expect(first.trends.charts.peakFlow).toContain("<path");

    // A second therapy the same day, at other flows: the day's average and its chart change.
    await transmit(paired.device, day, "E2", [400, 420]);
    const after = await show();
    expect(after.trends.charts.peakFlow).not.toBe(first.trends.charts.peakFlow);
    const sums = await prisma.cycle.aggregate({
      where: { therapy: { patientId: paired.patient.id } },
      _avg: { peakFlow: true },
    });
    expect(sums._avg.peakFlow).toBe(310);
    // The chart's value axis now reaches the new average (310 L/min): 350 is a tick.
    expect(after.trends.charts.peakFlow).toContain(">350<");
    expect(first.trends.charts.peakFlow).not.toContain(">350<");
  });

  it("a goal change changes the adherence charts at once", async () => {
    const { actor, paired, pairing, show, today, now } = await world();
    const before = await show();
    const weekday = ALL_DAYS[(new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7];

    // A goal that leaves today out, then one of 5 every day: today's calendar bar and text change.
    const set = (timesPerDay: number, days: string[]) =>
      setTherapyGoal(
        actor,
        { patientId: paired.patient.id, pairingId: pairing.id, timesPerDay, days },
        { careSiteId: null },
        now,
      );
    expect(
      await set(
        3,
        ALL_DAYS.filter((d) => d !== weekday),
      ),
    ).toBe(true);
    const noGoalToday = await show();
    expect(noGoalToday.adherence.calendar.at(-1)?.text).toBe("0, no goal");

    expect(await set(5, ALL_DAYS)).toBe(true);
    const goalToday = await show();
    expect(goalToday.adherence.calendar.at(-1)?.text).toBe("0 of 5, in progress");
    expect(goalToday.adherence.calendarSvg).not.toBe(noGoalToday.adherence.calendarSvg);
    expect(goalToday.goals[0]).toMatchObject({ timesPerDay: 5, status: "Active" });
    expect(before.goals[0]?.timesPerDay).toBe(2);
  });

  it("a recomputed day changes the range's score history and HMR charts at once", async () => {
    const { paired, show, today, now } = await world();
    const day = addDays(today, -2);
    const before = await show();
    expect(await show()).toMatchObject({
      adherence: { historySvg: before.adherence.historySvg },
      trends: { hmrSvg: before.trends.hmrSvg },
    });

    // A transmission two days ago (HMR 120), once the adherence engine has worked it: that day
    // has an HMR and a score now, in the week's charts.
    await transmit(paired.device, day, "E1", [200, 220]);
    await processAdherenceQueue(now);
    const after = await show();
    expect(after.trends.hmrSvg).not.toBe(before.trends.hmrSvg);
    expect(after.adherence.historySvg).not.toBe(before.adherence.historySvg);
    // Another range draws its own, and the week's come back unchanged.
    const month = await show("range=month");
    expect(month.trends.hmrSvg).not.toBe(after.trends.hmrSvg);
    expect((await show()).trends.hmrSvg).toBe(after.trends.hmrSvg);
  });

  it("another range gets its own sums and charts", async () => {
    const { paired, show, today } = await world();
    const early = addDays(today, -20);
    await transmit(paired.device, early, "E1", [150, 170]);

    const week = await show();
    const month = await show("range=month");
    expect(peakFlowOf(week, early)).toBeUndefined();
    expect(peakFlowOf(month, early)).toBeDefined();
    expect(month.trends.charts.peakFlow).not.toBe(week.trends.charts.peakFlow);
    expect(week.trends.charts.peakFlow).toContain("no data");
    // Back to the week: the week's chart again, not the month's.
    expect((await show()).trends.charts.peakFlow).toBe(week.trends.charts.peakFlow);
  });

  it("the caches stay within their bounds", async () => {
    expect(trendCache.size).toBeLessThanOrEqual(500);
    expect(chartSvgCache.totalWeight).toBeLessThanOrEqual(8_000_000);
    expect(adherenceSeriesCache.totalWeight).toBeLessThanOrEqual(2_000_000);
  });
});

describe("charts sent once on a page load", () => {
  it("a page load's data leaves the chart markup out; a data request carries it", async () => {
    const { site, clinician, paired, pairing } = await world();
    const browser = await signedInBrowser(clinician.id);
    const href = patientProfileHref({
      profileId: paired.patient.id,
      clinicId: site.id,
      pairId: pairing.id,
    });
    const request = (headers: Record<string, string>) =>
      new Request(`http://localhost${href}`, { headers: { Cookie: browser.cookie, ...headers } });
    const page = request({
      Accept: "text/html,application/xhtml+xml",
      "Sec-Fetch-Dest": "document",
    });
    const data = request({ Accept: "*/*", "Sec-Fetch-Dest": "empty" });
    expect(isDocumentRequest(page)).toBe(true);
    expect(isDocumentRequest(data)).toBe(false);

    type Data = { view: Awaited<ReturnType<typeof loadProfileView>> };
    const pageView = ((await loader({ request: page, params: {}, context: {} })) as Data).view;
    const dataView = ((await loader({ request: data, params: {}, context: {} })) as Data).view;
    // The server render reads the markup in both; only the data request's encodes it.
    expect(pageView.adherence.gaugeSvg).toContain("<svg");
    expect(pageView.trends.charts.peakFlow).toContain("<svg");
    expect(JSON.stringify(pageView)).not.toContain("<svg");
    expect(JSON.stringify(dataView).match(/<svg/g)).toHaveLength(8);
  });

  it("chartsInMarkupOnly hides the drill-down's charts too", async () => {
    const { show, today } = await world();
    const view = await show(`range=month&trendDay=${addDays(today, -3)}`);
    expect(view.trends.drillDown).not.toBeNull();
    chartsInMarkupOnly(view);
    expect(view.trends.drillDown?.charts.peakFlow).toContain("<svg");
    expect(Object.keys(view.trends.drillDown?.charts ?? {})).toEqual([]);
  });
});
