// The patient profile (spec 3 §2.2–§2.4), JavaScript off and on: opened from the dashboard, a goal
// set with the plus button changes today's adherence, a note, the PDF (its text read back) and the
// CSV; and another care site's clinician gets 404 for all three.
import fs from "node:fs";
import { pdfText } from "../support/pdfText";
import { expect, test } from "./support/fixtures";
import { careSiteWithTherapyPatient } from "./support/therapy";

test("a clinician opens a profile from the dashboard, sets a goal, adds a note and downloads the reports", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  const world = await careSiteWithTherapyPatient();
  await signInAs(world.clinician.id);
  await page.goto("/app");
  await page.getByRole("link", { name: "Total", exact: true }).click();
  const list = page.locator("#list");
  await list.getByRole("link", { name: world.patient.username }).first().click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Patient Profile");
  await expect(page.getByTestId("patient-name")).toHaveText(`Erin ${world.patient.username}`);
  await expect(page.getByTestId("device-serial")).toHaveText(world.serial);
  // No goal yet: no score, and today's bar has no goal.
  await expect(page.getByTestId("adherence-score")).toHaveText("-");
  const days = page.getByTestId("adherence-days").locator("li");
  await expect(days.last()).toContainText("no goal");
  // The therapy of a past day, with its cycle details readable without JavaScript.
  const profileUrl = page.url();
  await page
    .getByLabel("Therapy day")
    .fill(new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10));
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByTestId("therapy-mode")).toHaveText("Therapy Mode: Auto");
  await page.getByText("Cycle details").click();
  await expect(page.getByRole("table", { name: "Cycle details" })).toContainText("Cycle 1");

  // Set new therapy goals: all days ticked, the count starts at 0; plus twice, then Submit.
  await page.goto(profileUrl);
  await page.getByRole("link", { name: "Set new therapy goals" }).click();
  const dialog = page.getByRole("dialog", { name: "Set new therapy goals" });
  // With JavaScript Submit waits for a count; without, the server refuses 0 (therapy-goal.spec.ts).
  if (javaScriptEnabled) {
    await expect(dialog.getByRole("button", { name: "Submit" })).toBeDisabled();
  }
  await expect(dialog.getByLabel("Sun")).toBeChecked();
  await dialog.getByRole("button", { name: "More therapies per day" }).click();
  await expect(dialog.getByLabel("Number of therapies per day")).toHaveValue("1");
  await dialog.getByRole("button", { name: "More therapies per day" }).click();
  await expect(dialog.getByLabel("Number of therapies per day")).toHaveValue("2");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Therapy Goals are set successfully")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("active-goal")).toContainText("2 therapies a day on Mon, Tue");
  // The goal counts from today: today's bar is now judged against it.
  await expect(days.last()).toContainText("0 of 2");
  await expect(page.getByRole("table", { name: "Therapy Goal History" })).toContainText("Active");

  // A note.
  await page.getByRole("link", { name: "Note", exact: true }).click();
  await page.getByLabel("Add a note").fill("Cough assist twice daily; check the mask fit.");
  await page.getByRole("button", { name: "Save" }).last().click();
  await expect(page.getByText("Notes added successfully")).toBeVisible();
  await page.getByRole("link", { name: "Note", exact: true }).click();
  await expect(page.getByLabel("Latest note")).toContainText("check the mask fit");
  await page.getByRole("link", { name: "Close" }).click();

  // The PDF, its text read back.
  const [pdfDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download PDF" }).click(),
  ]);
  expect(pdfDownload.suggestedFilename()).toMatch(/^e2e_\w+_Erin_ARC Connect\.pdf$/);
  const { text } = await pdfText(fs.readFileSync((await pdfDownload.path())!));
  expect(text).toContain(`Erin ${world.patient.username}`);
  expect(text).toContain(world.serial);
  expect(text).toMatch(/Generated on .* by Erin /);
  expect(text).toContain("Active");

  // The CSV of transmissions for the default range (the last 7 days).
  const [csvDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  const [stamp, table] = fs.readFileSync((await csvDownload.path())!, "utf8").split("\n\n");
  expect(stamp).toContain('"Data window",');
  expect(stamp).toMatch(/"Generated",".* by Erin /);
  const csv = table.trim().split("\n");
  expect(csv[0]).toContain('"Device serial"');
  expect(csv).toHaveLength(1 + 7);
  expect(csv[1]).toContain(world.serial);
});

test("a clinician of another care site gets 404 for the profile, its PDF and its CSV", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  test.skip(
    javaScriptEnabled,
    "HTTP-level: the 404s are the server's answers to page.request, the same whatever the browser runs; the no-js run checks them",
  );
  const world = await careSiteWithTherapyPatient({ days: 1 });
  const other = await careSiteWithTherapyPatient({ days: 1 });
  await signInAs(world.clinician.id);
  await page.goto("/app");
  await page.getByRole("link", { name: "Total", exact: true }).click();
  await page.locator("#list").getByRole("link", { name: world.patient.username }).first().click();
  const own = new URL(page.url());
  expect((await page.request.get(own.toString())).status()).toBe(200);

  await signInAs(other.clinician.id);
  for (const path of [
    "/app/PatientProfile",
    "/app/PatientProfile/pdf",
    "/app/PatientProfile/csv",
  ]) {
    const response = await page.request.get(`${path}${own.search}`, { maxRedirects: 0 });
    expect(response.status(), path).toBe(404);
  }
  // A made-up parameter is 404 too, never a 500.
  const junk = await page.request.get("/app/PatientProfile?p=not-base64!", { maxRedirects: 0 });
  expect(junk.status()).toBe(404);
});

test("Patients: search the care site's patients, sort them and open a profile", async ({
  page,
  signInAs,
}) => {
  const world = await careSiteWithTherapyPatient({ days: 1 });
  await signInAs(world.clinician.id);
  await page.goto("/app");
  await page.getByRole("link", { name: "Patients" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Patients");
  await page.getByRole("link", { name: "Decrypt log file" }).click();
  await expect(page.getByRole("dialog", { name: "Decrypt Log File" })).toBeVisible();
  await page.getByRole("link", { name: "Close" }).click();
  const table = page.getByRole("table", { name: "Patient report" });
  // Only this care site's one patient, whatever the search; a search for someone else finds nobody.
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await page.getByRole("searchbox", { name: "Search by" }).fill("nobody-by-this-name");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(table.getByText("No data found")).toBeVisible();
  await page.getByRole("searchbox", { name: "Search by" }).fill(`erin ${world.patient.username}`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table.locator("tbody tr")).toContainText(`E2E Therapy ${world.siteId}`);
  await table.getByRole("link", { name: /Last name/ }).click();
  await expect(table.getByRole("columnheader", { name: /Last name/ })).toHaveAttribute(
    "aria-sort",
    "descending",
  );
  await table.getByRole("link", { name: world.patient.username }).click();
  await expect(page.getByTestId("patient-name")).toHaveText(`Erin ${world.patient.username}`);
});
