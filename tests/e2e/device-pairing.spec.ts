// Pairing a device on the patient profile across patients and care sites (issue 18), JavaScript
// off and on: a serial paired at another care site reads as unknown; taking a device from another
// patient of the same care site asks first (Cancel leaves it; Move device moves it).
import crypto from "node:crypto";
import { patientProfileHref } from "../../app/domain/patients/profileLink";
import { createCareSite, createDevice, createUser, db } from "./support/db";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

function pairWith(deviceId: string, patientId: string, careSiteId: string) {
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "Pairing" (id, deviceId, patientId, careSiteId, pairedAt) VALUES (?, ?, ?, ?, ?)`,
      )
      .run(
        `p_${crypto.randomBytes(6).toString("hex")}`,
        deviceId,
        patientId,
        careSiteId,
        Date.now(),
      );
  } finally {
    database.close();
  }
}

const serialOf = () => `E2EP${crypto.randomBytes(4).toString("hex").toUpperCase()}`;

/** Fails the test on any console error or warning, and on any uncaught page error. */
function watchConsole(page: Page) {
  const problems: string[] = [];
  page.on("console", (m) => {
    // The refused serials are 400 pages by design (POST, invalid input); Chromium logs each one.
    const refusal = /^Failed to load resource: .* status of 400 \(Bad Request\)$/.test(m.text());
    if ((m.type() === "error" || m.type() === "warning") && !refusal) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

test("a serial paired at another care site gets the answer of a serial that does not exist", async ({
  page,
  signInAs,
}) => {
  const problems = watchConsole(page);
  const site = createCareSite();
  const elsewhere = createCareSite();
  const clinician = await createUser("clinician", { careSiteIds: [site.id] });
  const patient = await createUser("patient", { careSiteIds: [site.id] });
  const stranger = await createUser("patient", { careSiteIds: [elsewhere.id] });
  const foreign = createDevice(serialOf());
  pairWith(foreign.id, stranger.id, elsewhere.id);

  await signInAs(clinician.id);
  await page.goto(patientProfileHref({ profileId: patient.id, clinicId: site.id, pairId: null }));
  const answers: string[] = [];
  for (const serial of [foreign.serial, "NOSUCH0001"]) {
    await page.getByLabel("Device serial").fill(serial);
    await page.getByRole("button", { name: "Pair device" }).click();
    await expect(page.getByText("No device with this serial.")).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByTestId("device-serial")).toHaveText("No device");
    // The page streams: compare the two answers once the whole page is there (its last control).
    await expect(page.getByRole("button", { name: "Download CSV" })).toBeVisible();
    answers.push((await page.locator("main").innerText()).replace(serial, "<serial>"));
  }
  expect(answers[0]).toBe(answers[1]);

  const database = db();
  try {
    const open = database
      .prepare(`SELECT patientId FROM "Pairing" WHERE deviceId = ? AND unpairedAt IS NULL`)
      .all(foreign.id);
    expect(open).toEqual([{ patientId: stranger.id }]);
  } finally {
    database.close();
  }
  expect(problems).toEqual([]);
});

test("a device moves to another patient of the care site only after confirmation (Cancel leaves it)", async ({
  page,
  signInAs,
}) => {
  const problems = watchConsole(page);
  const site = createCareSite();
  const clinician = await createUser("clinician", { careSiteIds: [site.id] });
  const holder = await createUser("patient", { careSiteIds: [site.id] });
  const patient = await createUser("patient", { careSiteIds: [site.id] });
  const device = createDevice(serialOf());
  pairWith(device.id, holder.id, site.id);
  const href = patientProfileHref({ profileId: patient.id, clinicId: site.id, pairId: null });
  const holderHref = patientProfileHref({ profileId: holder.id, clinicId: site.id, pairId: null });

  await signInAs(clinician.id);
  await page.goto(href);
  await expect(page.getByTestId("device-serial")).toHaveText("No device");

  // Asked first (the serial typed in lower case), and Cancel changes nothing.
  const question =
    `This device (${device.serial}) is paired with Erin ${holder.username}. Moving it ends that ` +
    `pairing, and from now on its transmissions go to Erin ${patient.username}.`;
  await page.getByLabel("Device serial").fill(device.serial.toLowerCase());
  await page.getByRole("button", { name: "Pair device" }).click();
  const dialog = page.getByRole("dialog", { name: "Move device" });
  await expect(dialog).toContainText(question);
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("device-serial")).toHaveText("No device");
  await page.goto(holderHref);
  await expect(page.getByTestId("device-serial")).toHaveText(device.serial);

  // Asked again, Move device moves it.
  await page.goto(href);
  await page.getByLabel("Device serial").fill(device.serial);
  await page.getByRole("button", { name: "Pair device" }).click();
  await dialog.getByRole("button", { name: "Move device" }).click();
  await expect(page.getByText("Device moved.")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("device-serial")).toHaveText(device.serial);
  await page.goto(holderHref);
  await expect(page.getByTestId("device-serial")).toHaveText("No device");
  expect(problems).toEqual([]);
});
