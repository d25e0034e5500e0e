// The patient lists open a profile with a click anywhere on a row, and by keyboard (spec 3 §2.5
// "a row click opens the patient profile", spec 2 §2 "patient rows open the patient profile"):
// the row's one link is stretched over the row, so it works without JavaScript too. A patient
// without a paired device says so (spec 3 §8, issue 22 items 9 and 14).
import crypto from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import * as factories from "../../prisma/factories";
import { createCareSite, createUser, withPrisma } from "./support/db";
import { expect, test } from "./support/fixtures";

const PROFILE = /\/app\/PatientProfile\?p=/;

function id(prefix: string) {
  return `${prefix}${crypto.randomBytes(6).toString("hex")}`;
}

/** A care site of its own with a clinician, a patient with a paired device and one without. */
async function careSiteWithPatients() {
  const site = createCareSite("Row Click Clinic");
  const clinician = await createUser("clinician", { careSiteIds: [site.id] });
  const paired = await createUser("patient", { careSiteIds: [site.id] });
  const unpaired = await createUser("patient", { careSiteIds: [site.id] });
  await withPrisma(async (client) => {
    const { device } = await factories.createDevice(client, {
      id: id("d_"),
      serial: id("ROW").toUpperCase(),
    });
    await factories.createPairing(client, {
      id: id("p_"),
      deviceId: device.id,
      patientId: paired.id,
      careSiteId: site.id,
      pairedAt: Date.now() - 86_400_000,
    });
  });
  return { site, clinician, paired, unpaired };
}

/**
 * Clicks a cell that holds no link of its own. Playwright would wait for the cell to receive
 * the click itself; the row's stretched link lies over it, as it should, so the click is made
 * where the cell is, and the browser's hit testing decides what it lands on.
 */
async function clickCell(cell: Locator) {
  await expect(cell).toBeVisible();
  await cell.click({ force: true });
}

const noDevice = (patient: { username: string }) =>
  `Erin ${patient.username} is not associated with any device`;

async function searchPatients(page: Page, text: string) {
  await page.goto(`/app/Reports?q=${encodeURIComponent(text)}`);
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(1);
  return rows.first();
}

test("Patients: a click on a row's Care Site name opens the profile; Tab to the row's link and Enter too", async ({
  page,
  signInAs,
}) => {
  const { site, clinician, paired } = await careSiteWithPatients();
  await signInAs(clinician.id);
  const row = await searchPatients(page, paired.username);
  await clickCell(row.getByRole("cell", { name: site.name }));
  await page.waitForURL(PROFILE);
  await expect(
    page.getByRole("heading", { name: new RegExp(paired.username) }).first(),
  ).toBeVisible();
  await expect(page.getByText(noDevice(paired))).toHaveCount(0);

  // The keyboard: the row's one link comes right after the last column header.
  const again = await searchPatients(page, paired.username);
  await expect(again.getByRole("link")).toHaveCount(1);
  await page.getByRole("link", { name: /^Care Site name/ }).focus();
  await page.keyboard.press("Tab");
  await expect(again.getByRole("link", { name: `Erin ${paired.username}` })).toBeFocused();
  await page.keyboard.press("Enter");
  await page.waitForURL(PROFILE);
});

test("Patients: a patient without a paired device opens the profile, which says '{first} {last} is not associated with any device'", async ({
  page,
  signInAs,
}) => {
  const { clinician, unpaired } = await careSiteWithPatients();
  await signInAs(clinician.id);
  const row = await searchPatients(page, unpaired.username);
  await clickCell(row.getByRole("cell").first());
  await page.waitForURL(PROFILE);
  await expect(page.getByRole("status").filter({ hasText: noDevice(unpaired) })).toHaveText(
    noDevice(unpaired),
  );
  // Where staff pair the device.
  await expect(page.getByRole("button", { name: "Pair device" })).toBeVisible();
});

test("care site dashboard and care site lists: a click anywhere on a patient row opens the profile, or says the patient has no device", async ({
  page,
  signInAs,
}) => {
  const { site, clinician, paired, unpaired } = await careSiteWithPatients();
  await signInAs(clinician.id);
  // The dashboard's lists hold paired patients only (Never Transmitted: paired, nothing sent).
  for (const list of [
    "/app?list=never",
    `/app/caresitesettingdashboard?c=${site.id}&view=patient`,
  ]) {
    await page.goto(list);
    const row = page.locator("tbody tr", { hasText: paired.username });
    await clickCell(row.getByRole("cell").first());
    await page.waitForURL(PROFILE);
  }
  // The care site's Patients list: the row stays, with the spec's notice (spec 2 §2).
  await page.goto(`/app/caresitesettingdashboard?c=${site.id}&view=patient`);
  await clickCell(
    page.locator("tbody tr", { hasText: unpaired.username }).getByRole("cell").first(),
  );
  await expect(page.getByRole("alert").filter({ hasText: noDevice(unpaired) })).toHaveText(
    noDevice(unpaired),
  );
  await expect(page).not.toHaveURL(PROFILE);
});
