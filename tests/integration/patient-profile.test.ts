// The patient profile (/app/PatientProfile?p=..., spec 3 §2–§9) and its downloads through their real
// loaders and actions: who may open it (findProfile), the `p` codec's bad inputs, view audits, the
// Patient Id, the account toggle, notes, therapy goals with the adherence they govern, the PDF and
// the transmissions CSV.
import { describe, expect, it } from "vitest";
import { loadActor } from "~/domain/access.server";
import { prisma } from "~/lib/db.server";
import { patientProfileHref } from "~/domain/patients/profileLink";
import { sessionStorage } from "~/lib/session.server";
import { dayInZone } from "~/lib/time";
import { createDevice, pairDevice } from "~/domain/devices/device.server";
import { ingestTransmission } from "~/domain/devices/ingest.server";
import { action, loader } from "~/routes/app.PatientProfile";
import { loader as csvLoader } from "~/routes/app.PatientProfile.csv";
import { loader as pdfLoader } from "~/routes/app.PatientProfile.pdf";
import { parseTransmission } from "~/domain/devices/schema";
import { goalDraftOf, profileMessages } from "~/domain/patients/schema";
import type { FormReplyData } from "~/lib/form.server";
import { createCareSite, createUser, uid } from "../support/factories";
import { pdfText } from "../support/pdfText";
import { bodyOf, Browser, locationOf, statusOf } from "../support/requests";
import { signedInBrowser } from "../support/session";
import { STANDARD_PRESCRIPTION } from "../../scripts/sim/client";

type LoaderData = Exclude<Awaited<ReturnType<typeof loader>>, Response>;

const ALL_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

const profile = (patientId: string, clinicId: string | null = null, pairId: string | null = null) =>
  patientProfileHref({ profileId: patientId, clinicId, pairId });

/** The same `p` (and any other parameters) on one of the profile's resource routes. */
const download = (href: string, kind: "pdf" | "csv", extra = "") =>
  href.replace("/app/PatientProfile?", `/app/PatientProfile/${kind}?`) + extra;

const withP = (p: string) => `/app/PatientProfile?p=${encodeURIComponent(p)}`;
const base64 = (text: string) => Buffer.from(text).toString("base64");

const open = (browser: Browser, path: string) => browser.run(loader, browser.get(path));
const openPdf = (browser: Browser, path: string) =>
  browser.run(pdfLoader, browser.get(download(path, "pdf")));
const openCsv = (browser: Browser, path: string, extra = "") =>
  browser.run(csvLoader, browser.get(download(path, "csv", extra)));

const submit = (browser: Browser, path: string, fields: Record<string, string | string[]>) =>
  browser.run(action, browser.post(path, fields));

async function view(browser: Browser, path: string) {
  const result = await open(browser, path);
  expect(statusOf(result)).toBe(200);
  return (await bodyOf<LoaderData>(result)).view;
}

async function flashOf(browser: Browser) {
  const session = await sessionStorage.getSession(browser.cookie);
  return session.get("flash")?.message;
}

async function device() {
  const result = await createDevice({
    serial: uid("PP").replace(/[^A-Za-z0-9]/g, ""),
    type: "cough",
  });
  if (!result.ok) throw new Error(result.error);
  return { id: result.device.id, serial: result.device.serial };
}

async function world() {
  const site = await createCareSite();
  const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
  const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
  const browser = await signedInBrowser(clinician.id);
  return { site, clinician, patient, browser, href: profile(patient.id, site.id) };
}

/** Pairs a new device through the profile; returns it and the profile URL with the new pair_id. */
async function pairNewDevice(browser: Browser, href: string) {
  const d = await device();
  const result = await submit(browser, href, { intent: "pair", serial: d.serial });
  const location = locationOf(result);
  if (!location) throw new Error(`not paired: ${statusOf(result)}`);
  const pairing = await prisma.pairing.findFirstOrThrow({
    where: { deviceId: d.id, unpairedAt: null },
  });
  return { device: d, pairingId: pairing.id, href: location };
}

const auditCount = (action: string, actorId: string, targetId: string) =>
  prisma.auditEvent.count({ where: { action, actorId, targetId } });

describe("who may open a profile (findProfile)", () => {
  it("staff of the patient's care site: 200 for the page, the PDF and the CSV, each audited", async () => {
    const { site, patient, href } = await world();
    for (const role of ["clinician", "clinicadmin"]) {
      const staff = await createUser({ role, careSites: [{ id: site.id }] });
      const browser = await signedInBrowser(staff.id);

      const page = await view(browser, href);
      expect(page.patient.id).toBe(patient.id);
      expect(page.careSite?.id).toBe(site.id);
      const viewed = await prisma.auditEvent.findMany({
        where: { action: "patient.profile_viewed", actorId: staff.id },
      });
      expect(viewed).toHaveLength(1);
      expect(viewed[0]).toMatchObject({ targetId: patient.id, careSiteId: site.id });

      expect(statusOf(await openPdf(browser, href))).toBe(200);
      expect(await auditCount("patient.profile_pdf", staff.id, patient.id)).toBe(1);
      expect(statusOf(await openCsv(browser, href))).toBe(200);
      expect(await auditCount("patient.profile_csv", staff.id, patient.id)).toBe(1);
    }
  });

  it("staff of another care site get 404 for the page, the PDF and the CSV, and nothing is audited", async () => {
    const { site, patient } = await world();
    const elsewhere = await createCareSite();
    for (const role of ["clinician", "clinicadmin"]) {
      const stranger = await createUser({ role, careSites: [{ id: elsewhere.id }] });
      const browser = await signedInBrowser(stranger.id);
      for (const href of [
        profile(patient.id, site.id),
        profile(patient.id),
        profile(patient.id, elsewhere.id),
      ]) {
        expect(statusOf(await open(browser, href))).toBe(404);
        expect(statusOf(await openPdf(browser, href))).toBe(404);
        expect(statusOf(await openCsv(browser, href))).toBe(404);
      }
      expect(await prisma.auditEvent.count({ where: { actorId: stranger.id } })).toBe(0);
    }
  });

  it("the provider's admins may open any patient, with or without a clinic_id", async () => {
    const { site, patient } = await world();
    for (const role of ["superadmin", "abmadmin"]) {
      const admin = await createUser({ role });
      const browser = await signedInBrowser(admin.id);
      expect((await view(browser, profile(patient.id, site.id))).careSite?.id).toBe(site.id);
      expect((await view(browser, profile(patient.id))).careSite?.id).toBe(site.id);
      expect(await auditCount("patient.profile_viewed", admin.id, patient.id)).toBe(2);
      expect(statusOf(await openPdf(browser, profile(patient.id)))).toBe(200);
      expect(statusOf(await openCsv(browser, profile(patient.id)))).toBe(200);
    }
  });

  it("a patient gets 403 and a signed-out visitor goes to /", async () => {
    const { patient, href } = await world();
    const self = await signedInBrowser(patient.id);
    expect(statusOf(await open(self, href))).toBe(403);
    expect(statusOf(await openPdf(self, href))).toBe(403);
    expect(statusOf(await openCsv(self, href))).toBe(403);
    expect(statusOf(await submit(self, href, { intent: "note", note: "hi" }))).toBe(403);
    for (const result of [
      await open(new Browser(), href),
      await openPdf(new Browser(), href),
      await openCsv(new Browser(), href),
    ]) {
      expect(statusOf(result)).toBe(302);
      expect(locationOf(result)).toBe("/");
    }
  });

  it("a malformed or foreign p is 404, never 500", async () => {
    const { site, clinician, patient, browser } = await world();
    const otherSite = await createCareSite();
    await prisma.membership.create({
      data: {
        careSiteId: otherSite.id,
        userId: clinician.id,
        role: "clinician",
        status: "accepted",
      },
    });
    const otherPatient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    const d = await device();
    const paired = await pairDevice({
      actor: await loadActor(clinician),
      patientId: otherPatient.id,
      careSiteId: site.id,
      serial: d.serial,
    });
    if (paired.status !== "paired") throw new Error("not paired");

    const bad = [
      "/app/PatientProfile",
      withP(""),
      withP("!!! not base64 !!!"),
      withP(base64("not json")),
      withP(base64("null")),
      withP(base64("42")),
      withP(base64(JSON.stringify({ clinic_id: site.id, pair_id: null }))),
      withP(base64(JSON.stringify({ profile_id: 7, clinic_id: site.id }))),
      profile(patient.id, otherSite.id),
      profile(patient.id, site.id, paired.pairingId),
      profile(patient.id, null, paired.pairingId),
    ];
    for (const href of bad) {
      expect(statusOf(await open(browser, href)), href).toBe(404);
      expect(statusOf(await openPdf(browser, href)), href).toBe(404);
      expect(statusOf(await openCsv(browser, href)), href).toBe(404);
      expect(statusOf(await submit(browser, href, { intent: "note", note: "x" })), href).toBe(404);
    }
    expect(await prisma.patientNote.count({ where: { authorId: clinician.id } })).toBe(0);
    expect(await view(browser, profile(otherPatient.id, site.id, paired.pairingId))).toMatchObject({
      pairId: paired.pairingId,
    });
  });
});

describe("Patient Id", () => {
  it("refuses an empty one and one of 26 characters, saves one of 25 (audited) and shows it", async () => {
    const { clinician, patient, browser, href } = await world();

    for (const [value, error] of [
      ["", "Enter a Patient ID  to continue."],
      ["   ", "Enter a Patient ID  to continue."],
      ["A".repeat(26), "Must be less than 25 characters."],
    ]) {
      const result = await submit(browser, href, { intent: "patientTag", patientTag: value });
      expect(statusOf(result)).toBe(400);
      expect(await bodyOf(result)).toEqual({
        fieldErrors: { patientTag: error },
        repopulateFields: { intent: "patientTag", patientTag: value },
      });
    }
    expect(await prisma.patientProfile.findUnique({ where: { userId: patient.id } })).toBeNull();

    const tag = "P-".padEnd(25, "7");
    expect(tag).toHaveLength(25);
    const saved = await submit(browser, href, { intent: "patientTag", patientTag: ` ${tag} ` });
    expect(locationOf(saved)).toBe(href);
    expect(await flashOf(browser)).toBe(profileMessages.patientTagSaved);
    const row = await prisma.patientProfile.findUniqueOrThrow({ where: { userId: patient.id } });
    expect(row.patientTag).toBe(tag);
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "patient.tag_updated", targetId: patient.id },
    });
    expect(event.actorId).toBe(clinician.id);
    expect(JSON.parse(event.detail!)).toEqual({ patientTag: tag });

    expect((await view(browser, href)).patient.patientTag).toBe(tag);
  });
});

describe("account toggle", () => {
  it("deactivates and activates the patient's account, audited, with a flash", async () => {
    const { patient, browser, href } = await world();

    expect(locationOf(await submit(browser, href, { intent: "deactivate", confirm: "1" }))).toBe(
      href,
    );
    expect(await flashOf(browser)).toBe(profileMessages.deactivated);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: patient.id } })).status).toBe(
      "disabled",
    );
    expect(
      await prisma.auditEvent.count({ where: { action: "patient.blocked", targetId: patient.id } }),
    ).toBe(1);
    expect((await view(browser, href)).patient).toMatchObject({
      accepted: false,
      statusText: "INACTIVE",
    });

    expect(locationOf(await submit(browser, href, { intent: "activate", confirm: "1" }))).toBe(
      href,
    );
    expect(await flashOf(browser)).toBe("Patient profile has been activated!");
    expect((await prisma.user.findUniqueOrThrow({ where: { id: patient.id } })).status).toBe(
      "active",
    );
    expect(
      await prisma.auditEvent.count({
        where: { action: "patient.activated", targetId: patient.id },
      }),
    ).toBe(1);
    expect((await view(browser, href)).patient).toMatchObject({
      accepted: true,
      statusText: "ACTIVE",
    });
  });
});

describe("notes", () => {
  it("refuses an empty note; saves one with a flash and shows the latest", async () => {
    const { site, clinician, patient, browser, href } = await world();

    const empty = await submit(browser, href, { intent: "note", note: "  " });
    expect(statusOf(empty)).toBe(400);
    expect(await bodyOf(empty)).toEqual({
      fieldErrors: { note: "Enter a note." },
      repopulateFields: { intent: "note", note: "  " },
    });
    expect(await prisma.patientNote.count({ where: { patientId: patient.id } })).toBe(0);
    expect((await view(browser, href)).note).toBeNull();

    await submit(browser, href, { intent: "note", note: "First note" });
    const saved = await submit(browser, href, {
      intent: "note",
      note: " Uses the vest twice daily ",
    });
    expect(locationOf(saved)).toBe(href);
    expect(await flashOf(browser)).toBe("Notes added successfully");

    const notes = await prisma.patientNote.findMany({
      where: { patientId: patient.id },
      orderBy: { createdAt: "asc" },
    });
    expect(notes.map((n) => n.body)).toEqual(["First note", "Uses the vest twice daily"]);
    expect(notes[1]).toMatchObject({ authorId: clinician.id, careSiteId: site.id });
    expect(
      await prisma.auditEvent.count({
        where: { action: "patient.note_added", targetId: patient.id },
      }),
    ).toBe(2);

    expect((await view(browser, href)).note).toMatchObject({
      body: "Uses the vest twice daily",
      by: `Test ${clinician.lastName}`,
    });
  });
});

describe("therapy goals", () => {
  const goalsOf = (patientId: string) => prisma.therapyGoal.findMany({ where: { patientId } });

  it("minus and plus step the count within 0..24 and save nothing", async () => {
    const { patient, browser, href } = await world();
    for (const [intent, count, expected] of [
      ["goal-plus", "0", "1"],
      ["goal-plus", "", "1"],
      ["goal-minus", "0", "0"],
      ["goal-minus", "3", "2"],
      ["goal-plus", "24", "24"],
      ["goal-plus", "1a2", "13"],
    ]) {
      const result = await submit(browser, href, { intent, count, days: ["wed", "mon", "xyz"] });
      expect(statusOf(result)).toBe(200);
      expect(await bodyOf(result)).toEqual({
        fieldErrors: {},
        repopulateFields: { intent, days: ["mon", "wed"], count: expected },
      });
    }
    expect(await goalsOf(patient.id)).toEqual([]);
  });

  it("refuses a goal without a paired device", async () => {
    const { patient, browser, href } = await world();
    const result = await submit(browser, href, { intent: "goal", count: "2", days: ALL_DAYS });
    expect(statusOf(result)).toBe(400);
    expect(await bodyOf(result)).toEqual({
      fieldErrors: { "": profileMessages.goalNoDevice },
      repopulateFields: { intent: "goal", count: "2", days: ALL_DAYS },
    });
    expect(await goalsOf(patient.id)).toEqual([]);
  });

  it("refuses more than 24, 0, no weekday and a count with anything but digits", async () => {
    const { patient, browser, href } = await world();
    const paired = await pairNewDevice(browser, href);
    for (const [count, days, expected, error] of [
      ["25", ALL_DAYS, "25", "Number of therapies per day can not greater than 24"],
      ["0", ALL_DAYS, "0", profileMessages.goalNoCount],
      ["", ALL_DAYS, "", profileMessages.goalNoCount],
      ["2", [], "2", profileMessages.goalNoDays],
      ["1a2", ALL_DAYS, "12", profileMessages.goalDigitsOnly],
    ] as const) {
      const result = await submit(browser, paired.href, { intent: "goal", count, days: [...days] });
      expect(statusOf(result)).toBe(400);
      const body = await bodyOf<FormReplyData>(result);
      const field = error === profileMessages.goalNoDays ? "days" : "count";
      expect(body.fieldErrors).toEqual({ [field]: error });
      // The dialog shows the values again as the rules read them (digits only, known weekdays);
      // a count that was not digits only is refused with its own message (issue 22 item 1).
      expect(goalDraftOf(body.repopulateFields)).toEqual({ days: [...days], count: expected });
    }
    expect(await goalsOf(patient.id)).toEqual([]);
  });

  it("sets a goal (audited), recomputes today's adherence and lists the history", async () => {
    const { site, clinician, patient, browser, href } = await world();
    const paired = await pairNewDevice(browser, href);
    const today = dayInZone(new Date(), site.timeZone);
    const todayRow = () =>
      prisma.dailyAdherence.findUnique({
        where: { patientId_day: { patientId: patient.id, day: today } },
      });

    // A first goal that leaves today out, so that the second one visibly changes today's row.
    const weekday = ALL_DAYS[(new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7];
    const otherDays = ALL_DAYS.filter((d) => d !== weekday);
    await submit(browser, paired.href, { intent: "goal", count: "3", days: otherDays });
    expect(await todayRow()).toMatchObject({ isGoalDay: false });

    const result = await submit(browser, paired.href, {
      intent: "goal",
      count: "2",
      days: [...ALL_DAYS].reverse(),
    });
    expect(locationOf(result)).toBe(paired.href);
    expect(await flashOf(browser)).toBe("Therapy Goals are set successfully");

    const goals = await prisma.therapyGoal.findMany({
      where: { patientId: patient.id },
      orderBy: { createdAt: "desc" },
    });
    expect(goals).toHaveLength(2);
    expect(goals[0]).toMatchObject({
      createdById: clinician.id,
      pairingId: paired.pairingId,
      timesPerDay: 2,
      days: "mon,tue,wed,thu,fri,sat,sun",
    });
    expect(goals[1]).toMatchObject({ timesPerDay: 3, days: otherDays.join(",") });
    expect(
      await prisma.auditEvent.count({
        where: { action: "patient.goal_set", targetId: patient.id },
      }),
    ).toBe(2);
    expect(await todayRow()).toMatchObject({ isGoalDay: true, timesPerDay: 2 });

    const shown = await view(browser, paired.href);
    expect(shown.goals).toHaveLength(2);
    expect(shown.goals[0]).toMatchObject({
      id: goals[0].id,
      timesPerDay: 2,
      days: ALL_DAYS,
      status: "Active",
      createdBy: `Test ${clinician.lastName}`,
    });
    expect(shown.goals[1]).toMatchObject({ id: goals[1].id, timesPerDay: 3, status: "Inactive" });
    // Today is not over: its goal is in progress, not missed (issue 22 item 12).
    expect(shown.adherence.calendar.at(-1)?.text).toBe("0 of 2, in progress");
  });
});

describe("downloads", () => {
  it("the PDF report names the patient and the device", async () => {
    const { patient, browser, href } = await world();
    const paired = await pairNewDevice(browser, href);
    const result = await openPdf(browser, paired.href);
    expect(statusOf(result)).toBe(200);
    const response = result as Response;
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    const disposition = response.headers.get("Content-Disposition") ?? "";
    expect(disposition.endsWith('ARC Connect.pdf"')).toBe(true);
    expect(disposition).toBe(
      `attachment; filename="${patient.lastName}_${patient.firstName}_ARC Connect.pdf"`,
    );
    const { text } = await pdfText(Buffer.from(await response.arrayBuffer()));
    expect(text).toContain(`Name ${patient.firstName} ${patient.lastName}\n`);
    expect(text).toContain(`Device serial ${paired.device.serial}\n`);
  });

  it("the CSV lists the transmissions sent From..To; a reversed range goes back with Download Failed", async () => {
    const { patient, browser, href } = await world();
    const paired = await pairNewDevice(browser, href);
    const prescription = { ...STANDARD_PRESCRIPTION, cycles: 2 };
    const delivered = { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 };
    // Noon in Chicago (the care site's zone) on 18, 19 and 20 Nov 2026.
    for (const [n, day] of [
      [1, "2026-11-18"],
      [2, "2026-11-19"],
      [3, "2026-11-20"],
    ] as const) {
      const parsed = parseTransmission({
        sentAt: `${day}T18:00:00Z`,
        hmr: 100 + n,
        prescription,
        therapies: [
          {
            eventId: `E${n}`,
            startedAt: `${day}T17:00:00Z`,
            mode: "Auto",
            delivered,
            cycles: [1, 2].map((c) => ({ n: c, P_IP: 38, E_V: 1200, P_F: 250, SPO2: 96, O_F: 1 })),
          },
        ],
      });
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      const ingested = await ingestTransmission(paired.device, parsed.data);
      expect(ingested).toMatchObject({ patientId: patient.id, therapiesAccepted: 1 });
    }

    const result = await openCsv(browser, paired.href, "&from=2026-11-18&to=2026-11-19");
    expect(statusOf(result)).toBe(200);
    const response = result as Response;
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="${patient.lastName}_${patient.firstName}_transmissions_2026-11-18_2026-11-19.csv"`,
    );
    const [stamp, table] = (await response.text()).split(/\r?\n\r?\n/);
    // The report's stamp: window, who generated it when, and the adherence rule.
    const stampLines = stamp.split(/\r?\n/);
    expect(stampLines[0]).toBe(`"Transmissions of","${patient.firstName} ${patient.lastName}"`);
    expect(stampLines[1]).toBe('"Data window","18-Nov-2026 to 19-Nov-2026"');
    expect(stampLines[2]).toMatch(/^"Generated","\d{2}-\w{3}-\d{4} \d{2}:\d{2} \w+ by .+ \(.+\)"$/);
    expect(stampLines[3]).toMatch(/^"Adherence rule","Day adherence = /);
    const lines = table.split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      '"Received","Sent","Device serial","Therapies","Duplicates","Deviating therapies",' +
        '"Therapy adjustment","HMR","First therapy","Last therapy"',
    );
    const s = paired.device.serial;
    expect(lines[1]).toMatch(
      new RegExp(
        `^"[^"]+","18-Nov-2026 12:00","${s}",1,0,0,"No",101,"18-Nov-2026 11:00","18-Nov-2026 11:00"$`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^"[^"]+","19-Nov-2026 12:00","${s}",1,0,0,"No",102,"19-Nov-2026 11:00","19-Nov-2026 11:00"$`,
      ),
    );

    const reversed = await openCsv(browser, paired.href, "&from=2026-11-19&to=2026-11-18");
    expect(statusOf(reversed)).toBe(302);
    // Back with the dates as chosen (issue 22 item 7).
    expect(locationOf(reversed)).toBe(`${paired.href}&csvFrom=2026-11-19&csvTo=2026-11-18`);
    const flash = await flashOf(browser);
    expect(flash).toContain("Download Failed");
    expect(flash).toContain('"To" date cannot be before "From" date.');
  });
});
