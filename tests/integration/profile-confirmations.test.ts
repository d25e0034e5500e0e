// The patient profile's confirmations at the HTTP level (issue 22 items 5, 10, 11): a post that
// turns the account on or off, unpairs the device, or would end a pairing of the patient's that
// the page did not show, changes nothing unless it carries its dialog's confirmation; without it
// the answer is the dialog (a redirect to its `?dialog=` address), or the page with a message.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { patientProfileHref } from "~/domain/patients/profileLink";
import { sessionStorage } from "~/lib/session.server";
import { createDevice } from "~/domain/devices/device.server";
import { action } from "~/routes/app.PatientProfile";
import { pairingMessages, profileMessages } from "~/domain/patients/schema";
import { createCareSite, createUser, uid } from "../support/factories";
import { Browser, locationOf, statusOf } from "../support/requests";
import { signedInBrowser } from "../support/session";

const profile = (patientId: string, clinicId: string, pairId: string | null = null) =>
  patientProfileHref({ profileId: patientId, clinicId, pairId });

const submit = (browser: Browser, path: string, fields: Record<string, string>) =>
  browser.run(action, browser.post(path, fields));

async function flashOf(browser: Browser) {
  const session = await sessionStorage.getSession(browser.cookie);
  return session.get("flash") as { kind: string; message: string } | undefined;
}

async function device() {
  const result = await createDevice({
    serial: uid("PC").replace(/[^A-Za-z0-9]/g, ""),
    type: "cough",
  });
  if (!result.ok) throw new Error(result.error);
  return result.device;
}

async function world() {
  const site = await createCareSite();
  const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
  const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
  const browser = await signedInBrowser(clinician.id);
  return { site, clinician, patient, browser, href: profile(patient.id, site.id) };
}

const statusOfUser = async (id: string) =>
  (await prisma.user.findUniqueOrThrow({ where: { id } })).status;

const openPairings = (where: { deviceId?: string; patientId?: string }) =>
  prisma.pairing.findMany({ where: { ...where, unpairedAt: null } });

const pairNow = (deviceId: string, patientId: string, careSiteId: string) =>
  prisma.pairing.create({ data: { deviceId, patientId, careSiteId } });

describe("a post without its confirmation changes nothing", () => {
  it("Account on and off: the post answers with the dialog unless it carries confirm=1", async () => {
    const { patient, browser, href } = await world();
    for (const confirm of [undefined, "", "0", "yes"]) {
      const fields: Record<string, string> = confirm === undefined ? {} : { confirm };
      const off = await submit(browser, href, { intent: "deactivate", ...fields });
      expect(locationOf(off)).toBe(`${href}&dialog=deactivate`);
      expect(await statusOfUser(patient.id)).toBe("active");
    }
    expect(await prisma.auditEvent.count({ where: { targetId: patient.id } })).toBe(0);

    const confirmed = await submit(browser, href, { intent: "deactivate", confirm: "1" });
    expect(locationOf(confirmed)).toBe(href);
    expect((await flashOf(browser))?.message).toBe(profileMessages.deactivated);
    expect(await statusOfUser(patient.id)).toBe("disabled");

    const on = await submit(browser, `${href}&dialog=activate`, { intent: "activate" });
    expect(locationOf(on)).toBe(`${href}&dialog=activate`);
    expect(await statusOfUser(patient.id)).toBe("disabled");
    const activated = await submit(browser, `${href}&dialog=activate`, {
      intent: "activate",
      confirm: "1",
    });
    expect(locationOf(activated)).toBe(href);
    expect((await flashOf(browser))?.message).toBe(profileMessages.activated);
    expect(await statusOfUser(patient.id)).toBe("active");
  });

  it("Unpair: the post answers with the dialog unless it names the pairing the dialog showed", async () => {
    const { site, patient, browser, href } = await world();
    const d = await device();
    const pairing = await pairNow(d.id, patient.id, site.id);
    const shown = profile(patient.id, site.id, pairing.id);

    for (const confirm of [undefined, "", "1", "some-other-pairing"]) {
      const fields: Record<string, string> = confirm === undefined ? {} : { confirm };
      const asked = await submit(browser, shown, { intent: "unpair", ...fields });
      expect(locationOf(asked)).toBe(`${shown}&dialog=unpair`);
      expect(await openPairings({ patientId: patient.id })).toEqual([pairing]);
    }
    // A confirmation given for the patient's previous device does not unpair the new one.
    const next = await device();
    await prisma.pairing.update({ where: { id: pairing.id }, data: { unpairedAt: new Date() } });
    const replaced = await pairNow(next.id, patient.id, site.id);
    const stale = await submit(browser, shown, { intent: "unpair", confirm: pairing.id });
    expect(locationOf(stale)).toBe(`${shown}&dialog=unpair`);
    expect(await openPairings({ patientId: patient.id })).toEqual([replaced]);
    expect(
      await prisma.auditEvent.count({
        where: { action: "device.unpaired", targetId: replaced.id },
      }),
    ).toBe(0);

    const confirmed = await submit(browser, shown, { intent: "unpair", confirm: replaced.id });
    expect(locationOf(confirmed)).toBe(href);
    expect((await flashOf(browser))?.message).toBe(pairingMessages.unpaired);
    expect(await openPairings({ patientId: patient.id })).toEqual([]);
    // Nothing left to unpair: a repeated confirmation is harmless.
    const again = await submit(browser, shown, { intent: "unpair", confirm: replaced.id });
    expect(locationOf(again)).toBe(href);
  });

  it("Pair device never replaces the patient's device: the page comes back with a message", async () => {
    const { site, patient, browser, href } = await world();
    const holder = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    const theirs = await device();
    const spare = await device();
    const held = await device();
    const heldPairing = await pairNow(held.id, holder.id, site.id);
    const pairing = await pairNow(theirs.id, patient.id, site.id);
    const posts: Record<string, string>[] = [
      { serial: spare.serial },
      { serial: held.serial },
      { serial: held.serial, confirm: heldPairing.id },
      { serial: "NOSUCH0001" },
    ];
    for (const fields of posts) {
      const result = await submit(browser, href, { intent: "pair", ...fields });
      expect(locationOf(result)).toBe(profile(patient.id, site.id, pairing.id));
      expect(await flashOf(browser)).toEqual({
        kind: "danger",
        message: pairingMessages.patientHasDevice,
      });
      expect(await openPairings({ patientId: patient.id })).toEqual([pairing]);
      expect(await openPairings({ deviceId: held.id })).toEqual([heldPairing]);
      expect(await openPairings({ deviceId: spare.id })).toEqual([]);
    }
    // The device the patient has: nothing to do, as before.
    const same = await submit(browser, href, { intent: "pair", serial: theirs.serial });
    expect(statusOf(same)).toBe(302);
    expect(locationOf(same)).toBe(profile(patient.id, site.id, pairing.id));
    expect(await openPairings({ patientId: patient.id })).toEqual([pairing]);
  });
});
