// Pairing a device with a patient on the patient profile (/app/PatientProfile, intents pair and
// unpair; DESIGN.md §5): who may, one device per patient and one patient per device, audit events,
// the profile's new pair_id after each change, and 404 across care sites. Issue 18: a device
// paired at another care site reads as an unknown serial, a move between two patients of one care
// site is confirmed first and audited, and a pairing is unpaired by staff of its own care site.
// The cell-by-cell rule table is tests/integration/access-pairing.test.ts.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { patientProfileHref } from "~/domain/patients/profileLink";
import { sessionStorage } from "~/lib/session.server";
import { createDevice } from "~/domain/devices/device.server";
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

/** The 400 of a refused Pair device: the serial's message and the serial to show again. */
const refusal = (serial: string, error: string) => ({
  fieldErrors: { serial: error },
  repopulateFields: { intent: "pair", serial },
});

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
      // A serial that fails the form's rule comes back as typed; one looked up, trimmed.
      const value = message === pairingMessages.serialRequired ? serial : serial.trim();
      expect(await bodyOf(result)).toEqual(refusal(value, message));
    }
    expect(await prisma.pairing.count()).toBe(before);
  });

  it("one patient per device: pairing it elsewhere (confirmed) ends the first patient's pairing", async () => {
    const { site, patient, browser, href } = await world();
    const second = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    const d = await device();
    await submit(browser, href, { intent: "pair", serial: d.serial });
    const asked = await submit(browser, profile(second.id, site.id), {
      intent: "pair",
      serial: d.serial,
    });
    const { pairingId } = await bodyOf<{ pairingId: string }>(asked);
    await submit(browser, profile(second.id, site.id), {
      intent: "pair",
      serial: d.serial,
      confirm: pairingId,
    });

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

  it("one device per patient: a new device does not replace the old one unasked (issue 22)", async () => {
    const { site, patient, browser, href } = await world();
    const first = await device();
    const second = await device();
    await submit(browser, href, { intent: "pair", serial: first.serial });
    const result = await submit(browser, href, { intent: "pair", serial: second.serial });
    const current = await openPairings({ patientId: patient.id });
    expect(current.map((p) => p.deviceId)).toEqual([first.id]);
    expect(await openPairings({ deviceId: second.id })).toEqual([]);
    expect(locationOf(result)).toBe(profile(patient.id, site.id, current[0].id));
    expect(await flashOf(browser)).toBe(pairingMessages.patientHasDevice);
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

    const result = await submit(browser, paired, { intent: "unpair", confirm: pairing.id });
    expect(locationOf(result)).toBe(href);
    expect(await flashOf(browser)).toBe(pairingMessages.unpaired);
    expect(await openPairings({ patientId: patient.id })).toEqual([]);
    expect(
      await prisma.auditEvent.count({ where: { action: "device.unpaired", targetId: pairing.id } }),
    ).toBe(1);
    const shown = await view(browser, href);
    expect(shown.view.patient.deviceSerial).toBeNull();
    expect(shown.view.pairId).toBeNull();

    expect(locationOf(await submit(browser, href, { intent: "unpair", confirm: pairing.id }))).toBe(
      href,
    );
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
        expect(
          statusOf(await submit(browser, path, { intent: "unpair", confirm: before[0].id })),
        ).toBe(404);
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
      expect(
        statusOf(await submit(browser, href, { intent: "unpair", confirm: before[0].id })),
      ).toBe(403);
      const other = await device();
      expect(statusOf(await submit(browser, href, { intent: "pair", serial: other.serial }))).toBe(
        403,
      );
    }
    expect(await prisma.pairing.findMany({ where: { patientId: patient.id } })).toEqual(before);

    const self = await signedInBrowser(patient.id);
    expect(statusOf(await open(self, href))).toBe(403);
    expect(statusOf(await submit(self, href, { intent: "unpair", confirm: before[0].id }))).toBe(
      403,
    );
    expect(locationOf(await open(new Browser(), href))).toBe("/");
    expect(
      locationOf(await submit(new Browser(), href, { intent: "unpair", confirm: before[0].id })),
    ).toBe("/");
    expect(await prisma.pairing.findMany({ where: { patientId: patient.id } })).toEqual(before);
  });
});

describe("pairing across care sites (issue 18)", () => {
  /** A patient of another care site with `d` paired there by its own clinician. */
  async function pairedElsewhere(d: { serial: string }) {
    const site = await createCareSite();
    const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    const browser = await signedInBrowser(clinician.id);
    await submit(browser, profile(patient.id, site.id), { intent: "pair", serial: d.serial });
    const [pairing] = await openPairings({ patientId: patient.id });
    expect(pairing).toBeDefined();
    return { site, patient, pairing };
  }

  const withoutValue = (body: Record<string, unknown>) => ({ ...body, repopulateFields: {} });

  it("staff of A pairing a serial paired at B get the unknown-serial answer; B's pairing stays open", async () => {
    const { site, patient, href } = await world();
    const d = await device();
    const b = await pairedElsewhere(d);
    for (const role of ["clinician", "clinicadmin"]) {
      const staff = await createUser({ role, careSites: [{ id: site.id }] });
      const browser = await signedInBrowser(staff.id);
      const mine = await submit(browser, href, { intent: "pair", serial: "NOSUCH0002" });
      for (const serial of [d.serial, d.serial.toLowerCase(), ` ${d.serial} `]) {
        const result = await submit(browser, href, { intent: "pair", serial });
        expect(statusOf(result)).toBe(statusOf(mine));
        expect(statusOf(result)).toBe(400);
        expect(await bodyOf(result)).toEqual(refusal(serial.trim(), pairingMessages.noDevice));
        expect(withoutValue(await bodyOf(result))).toEqual(withoutValue(await bodyOf(mine)));
        // With confirm set (a forged second step) it is still refused.
        const forged = await submit(browser, href, {
          intent: "pair",
          serial,
          confirm: b.pairing.id,
        });
        expect(statusOf(forged)).toBe(400);
        expect(withoutValue(await bodyOf(forged))).toEqual(withoutValue(await bodyOf(mine)));
      }
      expect(
        await prisma.auditEvent.count({
          where: { actorId: staff.id, action: { startsWith: "device." } },
        }),
      ).toBe(0);
    }
    expect(await openPairings({ deviceId: d.id })).toEqual([b.pairing]);
    expect(await openPairings({ patientId: patient.id })).toEqual([]);
  });

  it("staff of both care sites cannot move B's device to A's patient either (not a move inside A)", async () => {
    const { site, patient } = await world();
    const d = await device();
    const b = await pairedElsewhere(d);
    const both = await createUser({
      role: "clinician",
      careSites: [{ id: site.id }, { id: b.site.id }],
    });
    const browser = await signedInBrowser(both.id);
    const result = await submit(browser, profile(patient.id, site.id), {
      intent: "pair",
      serial: d.serial,
    });
    expect(statusOf(result)).toBe(400);
    expect(await bodyOf(result)).toEqual(refusal(d.serial, pairingMessages.noDevice));
    expect(await openPairings({ deviceId: d.id })).toEqual([b.pairing]);
  });

  it("a pairing without a care site belongs to its patient's care sites", async () => {
    const { site, patient, browser, href } = await world();
    // Paired where no care site is recorded, with a patient of another care site: refused.
    const stranger = await createUser({
      role: "patient",
      careSites: [{ id: (await createCareSite()).id }],
    });
    const foreign = await device();
    const foreignPairing = await prisma.pairing.create({
      data: { deviceId: foreign.id, patientId: stranger.id, careSiteId: null },
    });
    const refused = await submit(browser, href, { intent: "pair", serial: foreign.serial });
    expect(statusOf(refused)).toBe(400);
    expect(await bodyOf(refused)).toEqual(refusal(foreign.serial, pairingMessages.noDevice));
    expect((await openPairings({ deviceId: foreign.id })).map((p) => p.id)).toEqual([
      foreignPairing.id,
    ]);

    // With a patient of this care site: a move inside it, confirmed first.
    const neighbour = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    const local = await device();
    const localPairing = await prisma.pairing.create({
      data: { deviceId: local.id, patientId: neighbour.id, careSiteId: null },
    });
    const asked = await submit(browser, href, { intent: "pair", serial: local.serial });
    expect(statusOf(asked)).toBe(200);
    expect(await bodyOf(asked)).toMatchObject({ form: "pairMove", pairingId: localPairing.id });
    const moved = await submit(browser, href, {
      intent: "pair",
      serial: local.serial,
      confirm: localPairing.id,
    });
    const [now] = await openPairings({ patientId: patient.id });
    expect(now).toMatchObject({ deviceId: local.id, careSiteId: site.id });
    expect(locationOf(moved)).toBe(profile(patient.id, site.id, now.id));
  });

  it("moving a device between two patients of one care site asks first, then moves it and audits the move", async () => {
    const { site, clinician, patient, browser, href } = await world();
    const first = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    await prisma.user.update({
      where: { id: first.id },
      data: { firstName: "Ada", lastName: "Lovelace" },
    });
    const d = await device();
    await submit(browser, profile(first.id, site.id), { intent: "pair", serial: d.serial });
    const [from] = await openPairings({ deviceId: d.id });

    // The first post moves nothing: it answers with what would happen.
    const asked = await submit(browser, href, { intent: "pair", serial: d.serial.toLowerCase() });
    expect(statusOf(asked)).toBe(200);
    expect(await bodyOf(asked)).toEqual({
      form: "pairMove",
      serial: d.serial,
      pairingId: from.id,
      fromName: "Ada Lovelace",
    });
    expect(await openPairings({ deviceId: d.id })).toEqual([from]);
    expect(await openPairings({ patientId: patient.id })).toEqual([]);

    // A confirm naming another pairing (stale, or forged) asks again and moves nothing.
    const stale = await submit(browser, href, { intent: "pair", serial: d.serial, confirm: "x" });
    expect(await bodyOf(stale)).toMatchObject({ form: "pairMove", pairingId: from.id });
    expect(await openPairings({ deviceId: d.id })).toEqual([from]);

    // Confirmed: moved in one go, with the pairing events and a device.moved event.
    const moved = await submit(browser, href, {
      intent: "pair",
      serial: d.serial,
      confirm: from.id,
    });
    const [to] = await openPairings({ deviceId: d.id });
    expect(to).toMatchObject({
      patientId: patient.id,
      careSiteId: site.id,
      pairedById: clinician.id,
    });
    expect(await openPairings({ patientId: first.id })).toEqual([]);
    expect(locationOf(moved)).toBe(profile(patient.id, site.id, to.id));
    expect(await flashOf(browser)).toBe(pairingMessages.moved);

    const events = await prisma.auditEvent.findMany({
      where: {
        actorId: clinician.id,
        action: { in: ["device.unpaired", "device.paired", "device.moved"] },
        at: to.pairedAt,
      },
      orderBy: { action: "asc" },
    });
    expect(events.map((e) => [e.action, e.targetId, e.careSiteId])).toEqual([
      ["device.moved", d.id, site.id],
      ["device.paired", to.id, site.id],
      ["device.unpaired", from.id, site.id],
    ]);
    expect(JSON.parse(events[0].detail!)).toEqual({
      serial: d.serial,
      fromPatientId: first.id,
      fromPairingId: from.id,
      toPatientId: patient.id,
      toPairingId: to.id,
    });

    // The same confirmation again (a resubmitted form) finds the device already here.
    const again = await submit(browser, href, {
      intent: "pair",
      serial: d.serial,
      confirm: from.id,
    });
    expect(locationOf(again)).toBe(profile(patient.id, site.id, to.id));
    expect(
      await prisma.auditEvent.count({ where: { action: "device.moved", targetId: d.id } }),
    ).toBe(1);
  });

  it("a patient's device paired at another care site is unpaired there, not here", async () => {
    const { site, patient, browser, href } = await world();
    const b = await createCareSite();
    await prisma.membership.create({
      data: { careSiteId: b.id, userId: patient.id, role: "patient", status: "accepted" },
    });
    const bStaff = await createUser({ role: "clinician", careSites: [{ id: b.id }] });
    const d = await device();
    await submit(await signedInBrowser(bStaff.id), profile(patient.id, b.id), {
      intent: "pair",
      serial: d.serial,
    });
    const [pairing] = await openPairings({ patientId: patient.id });
    expect(pairing.careSiteId).toBe(b.id);

    const shown = await view(browser, href);
    expect(shown).toMatchObject({ canPair: true, canUnpair: false });
    expect(statusOf(await submit(browser, href, { intent: "unpair", confirm: pairing.id }))).toBe(
      403,
    );
    const other = await device();
    const replaced = await submit(browser, href, { intent: "pair", serial: other.serial });
    expect(statusOf(replaced)).toBe(400);
    expect(await bodyOf(replaced)).toEqual(refusal(other.serial, pairingMessages.pairedElsewhere));
    expect(await openPairings({ patientId: patient.id })).toEqual([pairing]);

    // B's staff see it as theirs.
    const bView = await view(await signedInBrowser(bStaff.id), profile(patient.id, b.id));
    expect(bView).toMatchObject({ canPair: true, canUnpair: true });
    // And A's staff may pair again once B has unpaired it.
    await submit(await signedInBrowser(bStaff.id), profile(patient.id, b.id), {
      intent: "unpair",
      confirm: pairing.id,
    });
    expect((await view(browser, href)).canUnpair).toBe(true);
    await submit(browser, href, { intent: "pair", serial: other.serial });
    expect((await openPairings({ patientId: patient.id }))[0]).toMatchObject({
      deviceId: other.id,
      careSiteId: site.id,
    });
  });
});
