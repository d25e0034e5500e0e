// The patient profile's confirmations (issue 22 items 5, 10, 11), JavaScript off and on: the
// account switch asks both ways, Unpair device asks naming the device and the patient, and a Pair
// device post never ends a pairing nobody was shown (another patient's: the Move device dialog;
// the patient's own, paired after the page was shown: refused). The first click changes nothing,
// Cancel/No changes nothing, the confirmation does it; each step is checked in the database.
import crypto from "node:crypto";
import { patientProfileHref } from "../../app/domain/patients/profileLink";
import { createCareSite, createDevice, createUser, db } from "./support/db";
import { expectClean, watch } from "./support/pageChecks";
import { expect, test } from "./support/fixtures";
import type { Page } from "@playwright/test";

test.use({ viewport: { width: 1024, height: 768 } });

function pairWith(deviceId: string, patientId: string, careSiteId: string) {
  const id = `p_${crypto.randomBytes(6).toString("hex")}`;
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "Pairing" (id, deviceId, patientId, careSiteId, pairedAt) VALUES (?, ?, ?, ?, ?)`,
      )
      .run(id, deviceId, patientId, careSiteId, Date.now());
  } finally {
    database.close();
  }
  return id;
}

function unpair(pairingId: string) {
  const database = db();
  try {
    database.prepare(`UPDATE "Pairing" SET unpairedAt = ? WHERE id = ?`).run(Date.now(), pairingId);
  } finally {
    database.close();
  }
}

/** The patients the device is paired with now. */
function holdersOf(deviceId: string) {
  const database = db();
  try {
    return database
      .prepare(`SELECT patientId FROM "Pairing" WHERE deviceId = ? AND unpairedAt IS NULL`)
      .all(deviceId)
      .map((row) => (row as { patientId: string }).patientId);
  } finally {
    database.close();
  }
}

function statusOf(userId: string) {
  const database = db();
  try {
    return (
      database.prepare(`SELECT status FROM "User" WHERE id = ?`).get(userId) as {
        status: string;
      }
    ).status;
  } finally {
    database.close();
  }
}

const serialOf = () => `E2EC${crypto.randomBytes(4).toString("hex").toUpperCase()}`;

async function world() {
  const site = createCareSite();
  const clinician = await createUser("clinician", { careSiteIds: [site.id] });
  const patient = await createUser("patient", { careSiteIds: [site.id] });
  const href = patientProfileHref({ profileId: patient.id, clinicId: site.id, pairId: null });
  return { site, clinician, patient, href, name: `Erin ${patient.username}` };
}

/** The header's control of that name, a link or a button (the page may hydrate one day). */
const headerControl = (page: Page, name: string) => {
  const header = page.getByRole("region", { name: "Patient" });
  return header
    .getByRole("link", { name, exact: true })
    .or(header.getByRole("button", { name, exact: true }))
    .or(header.getByRole("switch", { name, exact: true }));
};

test("the account switch asks before turning the account off and before turning it on", async ({
  page,
  signInAs,
}) => {
  const problems = watch(page);
  const { clinician, patient, href } = await world();
  await signInAs(clinician.id);
  await page.goto(href);
  await expect(page.getByTestId("patient-status")).toHaveText("ACTIVE");

  // Off: asked first; No changes nothing.
  const confirmation = page.getByRole("dialog", { name: "Confirmation" });
  await headerControl(page, "Account on").click();
  await expect(confirmation).toContainText("Deactivate the account");
  expect(statusOf(patient.id)).toBe("active");
  await confirmation.getByRole("link", { name: "No" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("patient-status")).toHaveText("ACTIVE");
  expect(statusOf(patient.id)).toBe("active");

  // Yes turns it off.
  await headerControl(page, "Account on").click();
  await confirmation.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("Patient profile has been deactivated.")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("patient-status")).toHaveText("INACTIVE");
  expect(statusOf(patient.id)).toBe("disabled");

  // On: asked with the spec's question; No, then Yes.
  await headerControl(page, "Account off").click();
  await expect(confirmation).toContainText("Activate the account");
  await confirmation.getByRole("link", { name: "No" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(statusOf(patient.id)).toBe("disabled");
  await headerControl(page, "Account off").click();
  await confirmation.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("Patient profile has been activated!")).toBeVisible();
  await expect(page.getByTestId("patient-status")).toHaveText("ACTIVE");
  expect(statusOf(patient.id)).toBe("active");
  await expectClean(page, problems);
});

test("Unpair device asks first, naming the device and the patient; Cancel keeps it", async ({
  page,
  signInAs,
}) => {
  const problems = watch(page);
  const { site, clinician, patient, href, name } = await world();
  const device = createDevice(serialOf());
  pairWith(device.id, patient.id, site.id);
  await signInAs(clinician.id);
  await page.goto(href);
  await expect(page.getByTestId("device-serial")).toHaveText(device.serial);

  const dialog = page.getByRole("dialog", { name: "Unpair device" });
  const question =
    `Unpair device ${device.serial} from ${name}? Its therapy data will no longer reach ` +
    `${name}'s profile.`;
  await headerControl(page, "Unpair device").click();
  await expect(dialog).toContainText(question);
  expect(holdersOf(device.id)).toEqual([patient.id]);
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("device-serial")).toHaveText(device.serial);
  expect(holdersOf(device.id)).toEqual([patient.id]);

  await headerControl(page, "Unpair device").click();
  await dialog.getByRole("button", { name: "Unpair" }).click();
  await expect(page.getByText("Device unpaired.")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("device-serial")).toHaveText("No device");
  expect(holdersOf(device.id)).toEqual([]);
  await expectClean(page, problems);
});

test("an Unpair confirmed for a device the patient no longer has asks again about the new one", async ({
  page,
  signInAs,
}) => {
  const { site, clinician, patient, href, name } = await world();
  const first = createDevice(serialOf());
  const second = createDevice(serialOf());
  const firstPairing = pairWith(first.id, patient.id, site.id);
  await signInAs(clinician.id);
  await page.goto(href);
  await headerControl(page, "Unpair device").click();
  const dialog = page.getByRole("dialog", { name: "Unpair device" });
  await expect(dialog).toContainText(first.serial);

  // Meanwhile the patient's device is replaced by another.
  unpair(firstPairing);
  pairWith(second.id, patient.id, site.id);
  await dialog.getByRole("button", { name: "Unpair" }).click();
  await expect(dialog).toContainText(`Unpair device ${second.serial} from ${name}?`);
  expect(holdersOf(second.id)).toEqual([patient.id]);
  await dialog.getByRole("button", { name: "Unpair" }).click();
  await expect(page.getByText("Device unpaired.")).toBeVisible();
  expect(holdersOf(second.id)).toEqual([]);
});

test("a device of another patient of the care site moves only after a dialog naming that patient", async ({
  page,
  signInAs,
}) => {
  const problems = watch(page);
  const { site, clinician, patient, href, name } = await world();
  const holder = await createUser("patient", { careSiteIds: [site.id] });
  const third = await createUser("patient", { careSiteIds: [site.id] });
  const device = createDevice(serialOf());
  const holderPairing = pairWith(device.id, holder.id, site.id);
  await signInAs(clinician.id);
  await page.goto(href);

  const dialog = page.getByRole("dialog", { name: "Move device" });
  const question = (from: string) =>
    `This device (${device.serial}) is paired with ${from}. Moving it ends that pairing, ` +
    `and from now on its transmissions go to ${name}.`;
  await page.getByLabel("Device serial").fill(device.serial);
  await headerControl(page, "Pair device").click();
  await expect(dialog).toContainText(question(`Erin ${holder.username}`));
  expect(holdersOf(device.id)).toEqual([holder.id]);
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("device-serial")).toHaveText("No device");
  expect(holdersOf(device.id)).toEqual([holder.id]);

  // Asked again; meanwhile the device went to a third patient: the confirmation names the one it
  // was given for, so it asks again, naming the third patient.
  await page.getByLabel("Device serial").fill(device.serial);
  await headerControl(page, "Pair device").click();
  await expect(dialog).toContainText(question(`Erin ${holder.username}`));
  unpair(holderPairing);
  pairWith(device.id, third.id, site.id);
  await dialog.getByRole("button", { name: "Move device" }).click();
  await expect(dialog).toContainText(question(`Erin ${third.username}`));
  expect(holdersOf(device.id)).toEqual([third.id]);

  await dialog.getByRole("button", { name: "Move device" }).click();
  await expect(page.getByText("Device moved.")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("device-serial")).toHaveText(device.serial);
  expect(holdersOf(device.id)).toEqual([patient.id]);
  await expectClean(page, problems);
});

test("Pair device on a page shown before the patient got a device does not replace that device", async ({
  page,
  signInAs,
}) => {
  const { site, clinician, patient, href } = await world();
  const holder = await createUser("patient", { careSiteIds: [site.id] });
  const theirs = createDevice(serialOf());
  const spare = createDevice(serialOf());
  const held = createDevice(serialOf());
  pairWith(held.id, holder.id, site.id);
  await signInAs(clinician.id);
  // A free device, then another patient's: neither replaces the device paired meanwhile.
  for (const serial of [spare.serial, held.serial]) {
    await page.goto(href);
    await expect(page.getByTestId("device-serial")).toHaveText("No device");
    // Meanwhile someone else pairs a device with the patient; this page still offers Pair device.
    const meanwhile = pairWith(theirs.id, patient.id, site.id);
    await page.getByLabel("Device serial").fill(serial);
    await headerControl(page, "Pair device").click();
    await expect(
      page.getByText("This patient already has a paired device. Unpair it first."),
    ).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByTestId("device-serial")).toHaveText(theirs.serial);
    expect(holdersOf(theirs.id)).toEqual([patient.id]);
    expect(holdersOf(spare.id)).toEqual([]);
    expect(holdersOf(held.id)).toEqual([holder.id]);
    unpair(meanwhile);
  }
});
