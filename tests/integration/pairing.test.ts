// Pairing a device with a patient on /app/patients/{patientId}/device (DESIGN.md §5): who may,
// one device per patient and one patient per device, audit events, and 404 across care sites.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { sessionStorage } from "~/lib/session.server";
import { createDevice } from "~/models/device.server";
import { action, loader, pairingMessages } from "~/routes/app.patients.$patientId.device";
import { createCareSite, createUser, uid } from "../support/factories";
import { bodyOf, Browser, locationOf, statusOf } from "../support/requests";
import { signedInBrowser } from "../support/session";

type LoaderData = Exclude<Awaited<ReturnType<typeof loader>>, Response>;

const pagePath = (patientId: string) => `/app/patients/${patientId}/device`;

async function device() {
  const result = await createDevice({
    serial: uid("PD").replace(/[^A-Za-z0-9]/g, ""),
    type: "cough",
  });
  if (!result.ok) throw new Error(result.error);
  return result.device;
}

/** Runs the route's loader or action with its patientId, returning a thrown Response. */
async function run(fn: typeof loader | typeof action, request: Request, patientId: string) {
  try {
    return await fn({ request, params: { patientId }, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const open = (browser: Browser, patientId: string) =>
  run(loader, browser.get(pagePath(patientId)), patientId);

const submit = (browser: Browser, patientId: string, fields: Record<string, string>) =>
  run(action, browser.post(pagePath(patientId), fields), patientId);

async function flashOf(browser: Browser) {
  const session = await sessionStorage.getSession(browser.cookie);
  return session.get("flash")?.message;
}

async function world() {
  const site = await createCareSite();
  const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
  const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
  const browser = await signedInBrowser(clinician.id);
  return { site, clinician, patient, browser };
}

const openPairings = (where: { deviceId?: string; patientId?: string }) =>
  prisma.pairing.findMany({ where: { ...where, unpairedAt: null } });

describe("pairing page", () => {
  it("shows no device, pairs one by serial (audited), then shows it", async () => {
    const { site, clinician, patient, browser } = await world();
    const d = await device();

    const empty = await open(browser, patient.id);
    expect(statusOf(empty)).toBe(200);
    expect((await bodyOf<LoaderData>(empty)).device).toBeNull();

    const result = await submit(browser, patient.id, { intent: "pair", serial: ` ${d.serial} ` });
    expect(locationOf(result)).toBe(pagePath(patient.id));
    expect(await flashOf(browser)).toBe(pairingMessages.paired);

    const [pairing] = await openPairings({ patientId: patient.id });
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

    const shown = await bodyOf<LoaderData>(await open(browser, patient.id));
    expect(shown.device).toMatchObject({ serial: d.serial, type: "cough", lastSeen: null });
    expect(shown.device!.pairedSince).toMatch(/\d{2} \w{3} \d{4}, \d{2}:\d{2}/);
  });

  it("a serial typed in another letter case finds the device", async () => {
    const { patient, browser } = await world();
    const d = await device();
    await submit(browser, patient.id, { intent: "pair", serial: d.serial.toLowerCase() });
    expect((await openPairings({ patientId: patient.id }))[0]?.deviceId).toBe(d.id);
  });

  it("an unknown or empty serial is refused with the field's message and changes nothing", async () => {
    const { patient, browser } = await world();
    const before = await prisma.pairing.count();
    for (const [serial, message] of [
      ["NOSUCH0001", pairingMessages.noDevice],
      ["bad serial!", pairingMessages.noDevice],
      ["", pairingMessages.serialRequired],
    ]) {
      const result = await submit(browser, patient.id, { intent: "pair", serial });
      expect(statusOf(result)).toBe(400);
      expect(await bodyOf(result)).toEqual({ serial: serial.trim(), error: message });
    }
    expect(await prisma.pairing.count()).toBe(before);
  });

  it("one patient per device: pairing it elsewhere ends the first patient's pairing", async () => {
    const { site, patient, browser } = await world();
    const second = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    const d = await device();
    await submit(browser, patient.id, { intent: "pair", serial: d.serial });
    await submit(browser, second.id, { intent: "pair", serial: d.serial });

    expect(await openPairings({ patientId: patient.id })).toEqual([]);
    const open2 = await openPairings({ deviceId: d.id });
    expect(open2.map((p) => p.patientId)).toEqual([second.id]);
    const ended = await prisma.pairing.findFirstOrThrow({ where: { patientId: patient.id } });
    expect(ended.unpairedAt).not.toBeNull();
    expect(
      await prisma.auditEvent.count({ where: { action: "device.unpaired", targetId: ended.id } }),
    ).toBe(1);
  });

  it("one device per patient: a new device replaces the old one", async () => {
    const { patient, browser } = await world();
    const first = await device();
    const second = await device();
    await submit(browser, patient.id, { intent: "pair", serial: first.serial });
    await submit(browser, patient.id, { intent: "pair", serial: second.serial });
    const current = await openPairings({ patientId: patient.id });
    expect(current.map((p) => p.deviceId)).toEqual([second.id]);
    expect(await openPairings({ deviceId: first.id })).toEqual([]);
  });

  it("pairing the device the patient already has changes nothing", async () => {
    const { patient, browser } = await world();
    const d = await device();
    await submit(browser, patient.id, { intent: "pair", serial: d.serial });
    const [before] = await openPairings({ patientId: patient.id });
    const again = await submit(browser, patient.id, { intent: "pair", serial: d.serial });
    expect(locationOf(again)).toBe(pagePath(patient.id));
    const after = await prisma.pairing.findMany({ where: { patientId: patient.id } });
    expect(after.map((p) => p.id)).toEqual([before.id]);
  });

  it("unpairs (audited); a second Unpair is harmless", async () => {
    const { patient, browser } = await world();
    const d = await device();
    await submit(browser, patient.id, { intent: "pair", serial: d.serial });
    const [pairing] = await openPairings({ patientId: patient.id });

    const result = await submit(browser, patient.id, { intent: "unpair" });
    expect(locationOf(result)).toBe(pagePath(patient.id));
    expect(await flashOf(browser)).toBe(pairingMessages.unpaired);
    expect(await openPairings({ patientId: patient.id })).toEqual([]);
    expect(
      await prisma.auditEvent.count({ where: { action: "device.unpaired", targetId: pairing.id } }),
    ).toBe(1);
    expect((await bodyOf<LoaderData>(await open(browser, patient.id))).device).toBeNull();

    expect(locationOf(await submit(browser, patient.id, { intent: "unpair" }))).toBe(
      pagePath(patient.id),
    );
  });

  it("an unknown intent is a 400", async () => {
    const { patient, browser } = await world();
    expect(statusOf(await submit(browser, patient.id, { intent: "drop" }))).toBe(400);
  });
});

describe("who may pair", () => {
  it("a care site admin of the patient's care site may", async () => {
    const { site, patient } = await world();
    const admin = await createUser({ role: "clinicadmin", careSites: [{ id: site.id }] });
    const browser = await signedInBrowser(admin.id);
    expect(statusOf(await open(browser, patient.id))).toBe(200);
  });

  it("staff of another care site get 404 and change nothing", async () => {
    const { patient, browser: own } = await world();
    const d = await device();
    await submit(own, patient.id, { intent: "pair", serial: d.serial });
    const before = await prisma.pairing.findMany({ where: { patientId: patient.id } });

    const elsewhere = await createCareSite();
    for (const role of ["clinician", "clinicadmin"]) {
      const stranger = await createUser({ role, careSites: [{ id: elsewhere.id }] });
      const browser = await signedInBrowser(stranger.id);
      expect(statusOf(await open(browser, patient.id))).toBe(404);
      expect(statusOf(await submit(browser, patient.id, { intent: "unpair" }))).toBe(404);
      const other = await device();
      expect(
        statusOf(await submit(browser, patient.id, { intent: "pair", serial: other.serial })),
      ).toBe(404);
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
    expect(statusOf(await open(await signedInBrowser(pendingStaff.id), patient.id))).toBe(404);

    const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    const browser = await signedInBrowser(clinician.id);
    const blockedPatient = await createUser({
      role: "patient",
      careSites: [{ id: site.id, status: "blocked" }],
    });
    expect(statusOf(await open(browser, blockedPatient.id))).toBe(404);
    const colleague = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    expect(statusOf(await open(browser, colleague.id))).toBe(404);
    expect(statusOf(await open(browser, "no-such-user"))).toBe(404);
  });

  it("the provider's admins and patients get 403; a signed-out visitor goes to /", async () => {
    const { patient } = await world();
    for (const role of ["superadmin", "abmadmin"]) {
      const admin = await createUser({ role });
      expect(statusOf(await open(await signedInBrowser(admin.id), patient.id))).toBe(403);
    }
    expect(statusOf(await open(await signedInBrowser(patient.id), patient.id))).toBe(403);
    const result = await open(new Browser(), patient.id);
    expect(locationOf(result)).toBe("/");
  });
});
