// Pairing a device with a patient on the patient profile (/app/PatientProfile, intents pair and
// unpair; DESIGN.md §5): who may, one device per patient and one patient per device, audit events,
// the profile's new pair_id after each change, and 404 across care sites.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { patientProfileHref } from "~/lib/patientProfileLink";
import { sessionStorage } from "~/lib/session.server";
import { createDevice } from "~/models/device.server";
import { action, loader, pairingMessages } from "~/routes/app.PatientProfile";
import { createCareSite, createUser, uid } from "../support/factories";
import { bodyOf, Browser, locationOf, statusOf } from "../support/requests";
import { signedInBrowser } from "../support/session";

type LoaderData = Exclude<Awaited<ReturnType<typeof loader>>, Response>;

const profile = (patientId: string, clinicId: string | null = null, pairId: string | null = null) =>
  patientProfileHref({ profileId: patientId, clinicId, pairId });

async function device() {
  const result = await createDevice({
    serial: uid("PD").replace(/[^A-Za-z0-9]/g, ""),
    type: "cough",
  });
  if (!result.ok) throw new Error(result.error);
  return result.device;
}

const open = (browser: Browser, path: string) => browser.run(loader, browser.get(path));

const submit = (browser: Browser, path: string, fields: Record<string, string>) =>
  browser.run(action, browser.post(path, fields));

async function view(browser: Browser, path: string) {
  const result = await open(browser, path);
  expect(statusOf(result)).toBe(200);
  return bodyOf<LoaderData>(result);
}

async function flashOf(browser: Browser) {
  const session = await sessionStorage.getSession(browser.cookie);
  return session.get("flash")?.message;
}

async function world() {
  const site = await createCareSite();
  const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
  const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
  const browser = await signedInBrowser(clinician.id);
  return { site, clinician, patient, browser, href: profile(patient.id, site.id) };
}

const openPairings = (where: { deviceId?: string; patientId?: string }) =>
  prisma.pairing.findMany({ where: { ...where, unpairedAt: null } });

describe("pairing on the patient profile", () => {
  it("shows no device, pairs one by serial (audited), then shows it under the new pair_id", async () => {
    const { site, clinician, patient, browser, href } = await world();
    const d = await device();

    const empty = await view(browser, href);
    expect(empty.canPair).toBe(true);
    expect(empty.view.patient.deviceSerial).toBeNull();
    expect(empty.view.pairId).toBeNull();

    const result = await submit(browser, href, { intent: "pair", serial: ` ${d.serial} ` });
    const [pairing] = await openPairings({ patientId: patient.id });
    expect(locationOf(result)).toBe(profile(patient.id, site.id, pairing.id));
    expect(await flashOf(browser)).toBe(pairingMessages.paired);

    expect(pairing).toMatchObject({
      deviceId: d.id,
      careSiteId: site.id,
      pairedById: clinician.id,
      unpairedAt: null,
    });
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "device.paired", targetId: pairing.id },
    });
    expect(event).toMatchObject({ actorId: clinician.id, careSiteId: site.id });

    const shown = await view(browser, locationOf(result)!);
    expect(shown.view.patient.deviceSerial).toBe(d.serial);
    expect(shown.view.pairId).toBe(pairing.id);
  });

  it("a serial typed in another letter case finds the device", async () => {
    const { patient, browser, href } = await world();
    const d = await device();
    await submit(browser, href, { intent: "pair", serial: d.serial.toLowerCase() });
    expect((await openPairings({ patientId: patient.id }))[0]?.deviceId).toBe(d.id);
  });

  it("an unknown or empty serial is refused with the field's message and changes nothing", async () => {
    const { browser, href } = await world();
    const before = await prisma.pairing.count();
    for (const [serial, message] of [
      ["NOSUCH0001", pairingMessages.noDevice],
      ["bad serial!", pairingMessages.noDevice],
      ["", pairingMessages.serialRequired],
      ["   ", pairingMessages.serialRequired],
    ]) {
      const result = await submit(browser, href, { intent: "pair", serial });
      expect(statusOf(result)).toBe(400);
      expect(await bodyOf(result)).toEqual({ form: "pair", value: serial.trim(), error: message });
    }
    expect(await prisma.pairing.count()).toBe(before);
  });

  it("one patient per device: pairing it elsewhere ends the first patient's pairing", async () => {
    const { site, patient, browser, href } = await world();
    const second = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    const d = await device();
    await submit(browser, href, { intent: "pair", serial: d.serial });
    await submit(browser, profile(second.id, site.id), { intent: "pair", serial: d.serial });

    expect(await openPairings({ patientId: patient.id })).toEqual([]);
    const open2 = await openPairings({ deviceId: d.id });
    expect(open2.map((p) => p.patientId)).toEqual([second.id]);
    const ended = await prisma.pairing.findFirstOrThrow({ where: { patientId: patient.id } });
    expect(ended.unpairedAt).not.toBeNull();
    expect(
      await prisma.auditEvent.count({ where: { action: "device.unpaired", targetId: ended.id } }),
    ).toBe(1);
    expect((await view(browser, href)).view.patient.deviceSerial).toBeNull();
  });

  it("one device per patient: a new device replaces the old one", async () => {
    const { site, patient, browser, href } = await world();
    const first = await device();
    const second = await device();
    await submit(browser, href, { intent: "pair", serial: first.serial });
    const result = await submit(browser, href, { intent: "pair", serial: second.serial });
    const current = await openPairings({ patientId: patient.id });
    expect(current.map((p) => p.deviceId)).toEqual([second.id]);
    expect(await openPairings({ deviceId: first.id })).toEqual([]);
    expect(locationOf(result)).toBe(profile(patient.id, site.id, current[0].id));
  });

  it("pairing the device the patient already has changes nothing", async () => {
    const { site, patient, browser, href } = await world();
    const d = await device();
    await submit(browser, href, { intent: "pair", serial: d.serial });
    const [before] = await openPairings({ patientId: patient.id });
    const again = await submit(browser, href, { intent: "pair", serial: d.serial });
    expect(locationOf(again)).toBe(profile(patient.id, site.id, before.id));
    const after = await prisma.pairing.findMany({ where: { patientId: patient.id } });
    expect(after.map((p) => p.id)).toEqual([before.id]);
    expect(
      await prisma.auditEvent.count({ where: { action: "device.paired", targetId: before.id } }),
    ).toBe(1);
  });

  it("unpairs (audited) and drops the pair_id; a second Unpair is harmless", async () => {
    const { site, patient, browser, href } = await world();
    const d = await device();
    await submit(browser, href, { intent: "pair", serial: d.serial });
    const [pairing] = await openPairings({ patientId: patient.id });
    const paired = profile(patient.id, site.id, pairing.id);

    const result = await submit(browser, paired, { intent: "unpair" });
    expect(locationOf(result)).toBe(href);
    expect(await flashOf(browser)).toBe(pairingMessages.unpaired);
    expect(await openPairings({ patientId: patient.id })).toEqual([]);
    expect(
      await prisma.auditEvent.count({ where: { action: "device.unpaired", targetId: pairing.id } }),
    ).toBe(1);
    const shown = await view(browser, href);
    expect(shown.view.patient.deviceSerial).toBeNull();
    expect(shown.view.pairId).toBeNull();

    expect(locationOf(await submit(browser, href, { intent: "unpair" }))).toBe(href);
    expect(
      await prisma.auditEvent.count({ where: { action: "device.unpaired", targetId: pairing.id } }),
    ).toBe(1);
  });

  it("the pairing belongs to the care site the profile is seen through", async () => {
    const { site, clinician, patient, browser } = await world();
    const other = await createCareSite();
    await prisma.membership.createMany({
      data: [
        { careSiteId: other.id, userId: clinician.id, role: "clinician", status: "accepted" },
        { careSiteId: other.id, userId: patient.id, role: "patient", status: "accepted" },
      ],
    });
    const d = await device();
    await submit(browser, profile(patient.id, other.id), { intent: "pair", serial: d.serial });
    const [pairing] = await openPairings({ patientId: patient.id });
    expect(pairing.careSiteId).toBe(other.id);
    expect(pairing.careSiteId).not.toBe(site.id);
  });

  it("an unknown intent is a 400", async () => {
    const { browser, href } = await world();
    expect(statusOf(await submit(browser, href, { intent: "drop" }))).toBe(400);
  });
});

describe("who may pair", () => {
  it("a care site admin of the patient's care site may", async () => {
    const { site, patient, href } = await world();
    const admin = await createUser({ role: "clinicadmin", careSites: [{ id: site.id }] });
    const browser = await signedInBrowser(admin.id);
    expect((await view(browser, href)).canPair).toBe(true);
    const d = await device();
    await submit(browser, href, { intent: "pair", serial: d.serial });
    const [pairing] = await openPairings({ patientId: patient.id });
    expect(pairing).toMatchObject({ deviceId: d.id, pairedById: admin.id, careSiteId: site.id });
  });

  it("staff of another care site get 404 and change nothing", async () => {
    const { patient, browser: own, href } = await world();
    const d = await device();
    await submit(own, href, { intent: "pair", serial: d.serial });
    const before = await prisma.pairing.findMany({ where: { patientId: patient.id } });

    const elsewhere = await createCareSite();
    for (const role of ["clinician", "clinicadmin"]) {
      const stranger = await createUser({ role, careSites: [{ id: elsewhere.id }] });
      const browser = await signedInBrowser(stranger.id);
      for (const path of [href, profile(patient.id), profile(patient.id, elsewhere.id)]) {
        expect(statusOf(await open(browser, path))).toBe(404);
        expect(statusOf(await submit(browser, path, { intent: "unpair" }))).toBe(404);
        const other = await device();
        expect(
          statusOf(await submit(browser, path, { intent: "pair", serial: other.serial })),
        ).toBe(404);
      }
    }
    expect(await prisma.pairing.findMany({ where: { patientId: patient.id } })).toEqual(before);
  });

  it("404 when the staff membership or the patient's is not accepted, or the id is not a patient", async () => {
    const site = await createCareSite();
    const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    const pendingStaff = await createUser({
      role: "clinician",
      careSites: [{ id: site.id, status: "pending" }],
    });
    const pending = await signedInBrowser(pendingStaff.id);
    expect(statusOf(await open(pending, profile(patient.id, site.id)))).toBe(404);
    expect(statusOf(await open(pending, profile(patient.id)))).toBe(404);

    const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    const browser = await signedInBrowser(clinician.id);
    expect(statusOf(await open(browser, profile(patient.id, site.id)))).toBe(200);
    const blockedPatient = await createUser({
      role: "patient",
      careSites: [{ id: site.id, status: "blocked" }],
    });
    expect(statusOf(await open(browser, profile(blockedPatient.id, site.id)))).toBe(404);
    const colleague = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    expect(statusOf(await open(browser, profile(colleague.id, site.id)))).toBe(404);
    expect(statusOf(await open(browser, profile("no-such-user", site.id)))).toBe(404);
  });

  it("the provider's admins may view but get 403 on pair and unpair; patients get 403; signed out goes to /", async () => {
    const { patient, browser: own, href } = await world();
    const d = await device();
    await submit(own, href, { intent: "pair", serial: d.serial });
    const before = await prisma.pairing.findMany({ where: { patientId: patient.id } });

    for (const role of ["superadmin", "abmadmin"]) {
      const admin = await createUser({ role });
      const browser = await signedInBrowser(admin.id);
      expect((await view(browser, href)).canPair).toBe(false);
      expect(statusOf(await submit(browser, href, { intent: "unpair" }))).toBe(403);
      const other = await device();
      expect(statusOf(await submit(browser, href, { intent: "pair", serial: other.serial }))).toBe(
        403,
      );
    }
    expect(await prisma.pairing.findMany({ where: { patientId: patient.id } })).toEqual(before);

    const self = await signedInBrowser(patient.id);
    expect(statusOf(await open(self, href))).toBe(403);
    expect(statusOf(await submit(self, href, { intent: "unpair" }))).toBe(403);
    expect(locationOf(await open(new Browser(), href))).toBe("/");
    expect(locationOf(await submit(new Browser(), href, { intent: "unpair" }))).toBe("/");
    expect(await prisma.pairing.findMany({ where: { patientId: patient.id } })).toEqual(before);
  });
});
