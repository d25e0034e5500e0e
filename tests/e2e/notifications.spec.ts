// The notification screens (issue 8), JavaScript off and on: the care site admin edits days,
// recipients and thresholds and saves; a clinician sees it all read-only; the summary's table,
// CSV and archive downloads. Each test makes its own care site, so nothing is shared.
import crypto from "node:crypto";
import fs from "node:fs";
import type { Download, Page } from "@playwright/test";
import { formatDay, yesterdayInZone } from "../../app/lib/time";
import { anyCareSiteId, createCareSite, createUser, db } from "./support/db";
import { expect, test } from "./support/fixtures";
import { archiveYesterday } from "./support/summary";
import { careSiteWithTherapyPatient } from "./support/therapy";

const ZONE = "America/Chicago";

function storedSettings(careSiteId: string) {
  const database = db();
  try {
    return database
      .prepare(
        `SELECT days, recipients, adherenceThreshold, spo2Threshold, therapyAdjustment
         FROM "NotificationSetting" WHERE careSiteId = ?`,
      )
      .get(careSiteId) as
      | {
          days: string;
          recipients: string;
          adherenceThreshold: number;
          spo2Threshold: number;
          therapyAdjustment: number;
        }
      | undefined;
  } finally {
    database.close();
  }
}

function saveSettings(careSiteId: string, recipients: string) {
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "NotificationSetting" (careSiteId, days, recipients, adherenceThreshold,
           spo2Threshold, therapyAdjustment, updatedAt)
         VALUES (?, 'tuesday,thursday', ?, 65, 92, 1, ?)`,
      )
      .run(careSiteId, recipients, Date.now());
  } finally {
    database.close();
  }
}

/** An archived summary, as the daily job (another engineer's) stores it. */
function archiveSummary(careSiteId: string, day: string, csv: string) {
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "NotificationSummary" (id, careSiteId, day, csv, rowCount, createdAt)
         VALUES (?, ?, ?, ?, 1, ?)`,
      )
      .run(`ns_${crypto.randomBytes(6).toString("hex")}`, careSiteId, day, csv, Date.now());
  } finally {
    database.close();
  }
}

async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return { name: download.suggestedFilename(), text: await readDownload(download) };
}

async function readDownload(download: Download) {
  return fs.readFileSync((await download.path())!, "utf8");
}

const chips = (page: Page) => page.getByRole("list", { name: "Recipients" }).getByRole("listitem");
const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const dayToggle = (page: Page, day: string) => page.getByText(day, { exact: true });
const onOff = (page: Page, title: string, choice: "ON" | "OFF") =>
  page.getByRole("radiogroup", { name: `${title} ON/OFF` }).getByText(choice, { exact: true });

test("the care site admin changes days, thresholds and recipients, and saves", async ({
  page,
  signInAs,
}) => {
  const site = createCareSite("Notify Clinic");
  const admin = await createUser("clinicadmin", { careSiteIds: [site.id] });
  await signInAs(admin.id);

  await page.goto("/app/notificationSummary");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Notification Summary");
  await expect(region(page, "Adherence")).toContainText("0 - 70%");
  await page.getByRole("link", { name: "Edit notification settings" }).click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Notifications");
  await expect(page.getByLabel("Care Site", { exact: true })).toHaveText(site.name);
  await expect(page.getByText("The email goes out at 7:00 am Central Time.")).toBeVisible();
  // Nothing to send to yet: Save waits for a recipient.
  await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();

  await dayToggle(page, "Monday").click();
  await dayToggle(page, "Friday").click();
  await page.getByLabel("Adherence threshold (0 - N%)").fill("60");
  await onOff(page, "SpO2", "OFF").click();
  await onOff(page, "Therapy Adjustments", "ON").click();

  // Recipients: a bad address is refused, two are added, one removed. Each Add re-renders the form
  // from what was posted, so the choices above are kept.
  await page.getByLabel("Email", { exact: true }).fill("not an email");
  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByText("Invalid Email")).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill("first.nurse@example.test");
  await page.getByRole("button", { name: "Add" }).click();
  await expect(chips(page)).toHaveText(["first.nurse@example.test×"]);
  await page.getByLabel("Email", { exact: true }).fill("Second.Nurse@Example.test");
  await page.getByRole("button", { name: "Add" }).click();
  await expect(chips(page)).toHaveText(["first.nurse@example.test×", "second.nurse@example.test×"]);
  await page.getByRole("button", { name: "Remove first.nurse@example.test" }).click();
  await expect(chips(page)).toHaveText(["second.nurse@example.test×"]);
  await expect(page.getByLabel("Monday")).toBeChecked();
  await expect(page.getByLabel("Friday")).toBeChecked();
  await expect(page.getByLabel("Tuesday")).not.toBeChecked();
  await expect(page.getByLabel("Adherence threshold (0 - N%)")).toHaveValue("60");
  expect(storedSettings(site.id), "nothing saved before Save").toBeUndefined();

  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/app\/notificationSummary$/);
  await expect(
    page.getByText("Notification settings has been updated successfully!"),
  ).toBeVisible();
  await expect(region(page, "Adherence")).toContainText("ON0 - 60%");
  await expect(region(page, "SpO2")).toContainText("OFF");
  await expect(region(page, "Therapy Adjustments")).toContainText("ON");
  expect(storedSettings(site.id)).toEqual({
    days: "monday,friday",
    recipients: "second.nurse@example.test",
    adherenceThreshold: 60,
    spo2Threshold: 0,
    therapyAdjustment: 1,
  });

  // Saving the same again changes nothing and stays on the page.
  await page.getByRole("link", { name: "Edit notification settings" }).click();
  await expect(page.getByLabel("SpO2 threshold (0 - N%)")).toHaveValue("90");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByText("Nothing to save: the notification settings are unchanged."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/app\/notificationsettings\?p=/);
});

test("a clinician sees the settings read-only, without Save, and cannot post", async ({
  page,
  signInAs,
}) => {
  const site = createCareSite("Notify Clinic");
  saveSettings(site.id, "lead@example.test");
  const clinician = await createUser("clinician", { careSiteIds: [site.id] });
  await signInAs(clinician.id);

  await page.goto("/app/notificationSummary");
  await expect(region(page, "SpO2")).toContainText("0 - 92%");
  await page.getByRole("link", { name: "Edit notification settings" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Notifications");
  await expect(page.getByLabel("Tuesday")).toBeChecked();
  await expect(page.getByLabel("Tuesday")).toBeDisabled();
  await expect(page.getByLabel("Monday")).toBeDisabled();
  await expect(page.getByLabel("Adherence threshold (0 - N%)")).toHaveValue("65");
  await expect(page.getByLabel("Adherence threshold (0 - N%)")).toBeDisabled();
  await expect(chips(page)).toHaveText(["lead@example.test"]);
  await expect(page.getByRole("main").getByRole("button")).toHaveCount(0);
  await expect(page.getByLabel("Email", { exact: true })).toHaveCount(0);

  const response = await page.request.post(page.url(), {
    form: {
      careSiteId: site.id,
      recipients: "lead@example.test",
      days: "monday",
      adherenceOn: "on",
      adherence: "50",
      intent: "save",
    },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
  expect(storedSettings(site.id)?.adherenceThreshold).toBe(65);
});

test("the summary shows yesterday's table with its CSV, and the archive downloads", async ({
  page,
  signInAs,
}) => {
  const site = createCareSite("Notify Clinic");
  const admin = await createUser("clinicadmin", { careSiteIds: [site.id] });
  const now = new Date();
  const yesterday = yesterdayInZone(now, ZONE);
  // Calendar maths on the day itself: the day before yesterday.
  const [y, m, d] = yesterday.split("-").map(Number);
  const twoDaysAgo = new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
  const archived =
    '"Last Name","First Name","Adherence %","SpO2","Deviation"\n"Doe","Jane",40,88,"yes"';
  archiveSummary(site.id, twoDaysAgo, archived);
  await signInAs(admin.id);

  await page.goto("/app/notificationSummary");
  await expect(page.getByLabel("Care Site")).toHaveValue(site.id);
  await expect(
    page.getByRole("heading", { name: `Notification for ${formatDay(yesterday)}` }),
  ).toBeVisible();
  const table = page.getByRole("table", { name: `Notification for ${formatDay(yesterday)}` });
  for (const header of ["Last Name", "First Name", "Adherence %", "SpO2", "Deviation"]) {
    await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
  }
  // No summary was made for yesterday: nothing is listed (never today's settings' list).
  await expect(table).toContainText("No data found");
  await expect(page.getByTitle("Rows shown / total")).toHaveText("Rows shown: 0/0");
  await expect(page.getByText("No summary has been made for this day.")).toBeVisible();

  // Sorting is a link: Last Name again sorts descending.
  await table.getByRole("link", { name: "Last Name" }).click();
  await expect(page).toHaveURL(/sort=lastName&order=desc/);

  const csv = await downloaded(page, () =>
    page.getByRole("link", { name: "Download CSV" }).click(),
  );
  expect(csv.name).toBe(`NotificationSummary_${yesterday}.csv`);
  expect(csv.text).toContain("Last Name");

  const archive = page.getByRole("table", { name: "Last 14 notifications summary" });
  await expect(archive.getByRole("row")).toHaveCount(15);
  const reportName = `Notification_Summary_${formatDay(twoDaysAgo, "dd_MMM_yyyy")}`;
  const report = await downloaded(page, () =>
    archive.getByRole("link", { name: reportName }).click(),
  );
  expect(report.name).toBe(`${reportName}.csv`);
  expect(report.text).toBe(archived);

  const emptyName = `Notification_Summary_${formatDay(yesterday, "dd_MMM_yyyy")}`;
  const empty = await downloaded(page, () =>
    archive.getByRole("link", { name: emptyName }).click(),
  );
  expect(empty.text).toBe("No notifications for this date");
});

test("the demo care site's summary lists yesterday's patients in pages of 10, sortable, with its CSV", async ({
  page,
  signInAs,
}) => {
  const siteId = anyCareSiteId();
  // The table is yesterday's summary (in the site's own zone: the demo site is in Denver) as
  // sent: made here, as 07:00 today made it (or already had).
  const database = db();
  const { timeZone } = database
    .prepare(`SELECT timeZone FROM "CareSite" WHERE id = ?`)
    .get(siteId) as { timeZone: string };
  database.close();
  const day = yesterdayInZone(new Date(), timeZone);
  archiveYesterday(siteId, day);
  const clinician = await createUser("clinician", { careSiteIds: [siteId] });
  await signInAs(clinician.id);
  await page.goto("/app/notificationSummary");
  const yesterday = formatDay(day);
  const table = page.getByRole("table", { name: `Notification for ${yesterday}` });
  const count = (await page.getByTitle("Rows shown / total").innerText()).match(/(\d+)\/(\d+)/)!;
  const [shown, total] = [Number(count[1]), Number(count[2])];
  expect(total, "the demo world has patients under its thresholds").toBeGreaterThan(0);
  expect(shown).toBe(Math.min(total, 10));
  await expect(table.locator("tbody tr")).toHaveCount(shown);

  // Adherence %, ascending then descending: the lowest score comes first, then last.
  const adherence = async () =>
    (await table.locator("tbody tr td:nth-child(4)").allInnerTexts())
      .filter((t) => t !== "-")
      .map((t) => Number.parseInt(t, 10));
  await table.getByRole("link", { name: "Adherence %" }).click();
  await expect(table.getByRole("columnheader", { name: /Adherence %/ })).toHaveAttribute(
    "aria-sort",
    "ascending",
  );
  const ascending = await adherence();
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  await table.getByRole("link", { name: /Adherence %/ }).click();
  await expect(table.getByRole("columnheader", { name: /Adherence %/ })).toHaveAttribute(
    "aria-sort",
    "descending",
  );
  const descending = await adherence();
  expect(descending).toEqual([...descending].sort((a, b) => b - a));

  const csv = await downloaded(page, () =>
    page.getByRole("link", { name: "Download CSV" }).click(),
  );
  const lines = csv.text.trim().split("\n");
  expect(lines[0]).toBe('"Last Name","First Name","Adherence %","SpO2","Deviation"');
  expect(lines).toHaveLength(total + 1);
});

function setThresholds(
  careSiteId: string,
  thresholds: { adherence: number; spo2: number; therapyAdjustment: boolean },
) {
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "NotificationSetting" (careSiteId, days, recipients, adherenceThreshold,
           spo2Threshold, therapyAdjustment, updatedAt)
         VALUES (?, 'monday,tuesday,wednesday,thursday,friday,saturday,sunday',
           'lead@example.test', ?, ?, ?, ?)`,
      )
      .run(
        careSiteId,
        thresholds.adherence,
        thresholds.spo2,
        thresholds.therapyAdjustment ? 1 : 0,
        Date.now(),
      );
  } finally {
    database.close();
  }
}

function archivedRowCount(careSiteId: string, day: string) {
  const database = db();
  try {
    return (
      database
        .prepare(`SELECT rowCount FROM "NotificationSummary" WHERE careSiteId = ? AND day = ?`)
        .get(careSiteId, day) as { rowCount: number } | undefined
    )?.rowCount;
  } finally {
    database.close();
  }
}

test("yesterday's table lists what its summary sent, not what the settings saved since would list", async ({
  page,
  signInAs,
}) => {
  // The patient's therapy of yesterday read SpO2 96 at its lowest.
  const { siteId, patient } = await careSiteWithTherapyPatient({ days: 2 });
  // Settings A: SpO2 under 97 lists the patient (adherence and therapy adjustments off).
  setThresholds(siteId, { adherence: 0, spo2: 97, therapyAdjustment: false });
  const { day, created } = archiveYesterday(siteId);
  expect(created).toBe(true);
  expect(archivedRowCount(siteId, day), "the summary sent listed the patient").toBe(1);

  // Settings B, saved through the form: SpO2 under 90 would list nobody today.
  const admin = await createUser("clinicadmin", { careSiteIds: [siteId] });
  await signInAs(admin.id);
  await page.goto("/app/notificationsettings");
  await page.getByLabel("SpO2 threshold (0 - N%)").fill("90");
  await page.getByRole("button", { name: "Save" }).click();
  // The save and the summary may take a while on a loaded machine: the test's own timeout.
  await page.waitForURL(/\/app\/notificationSummary$/);
  await expect(
    page.getByText("Notification settings has been updated successfully!"),
  ).toBeVisible();

  // The cards say the current settings; the table what was sent with A.
  await expect(region(page, "SpO2")).toContainText("ON0 - 90%");
  const table = page.getByRole("table", { name: `Notification for ${formatDay(day)}` });
  await expect(table.locator("tbody tr")).toHaveCount(1);
  const row = table.locator("tbody tr").first();
  await expect(row).toContainText(patient.username);
  await expect(row).toContainText("96%");
  await expect(page.getByTitle("Rows shown / total")).toHaveText("Rows shown: 1/1");
  await expect(page.getByText("No summary has been made for this day.")).toHaveCount(0);

  const csv = await downloaded(page, () =>
    page.getByRole("link", { name: "Download CSV" }).click(),
  );
  expect(csv.name).toBe(`NotificationSummary_${day}.csv`);
  const lines = csv.text.trim().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(patient.username);
});

test('an archive report reads "Loading data..." while its file is fetched; without JavaScript it is a plain download', async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  const site = createCareSite("Archive Clinic");
  const admin = await createUser("clinicadmin", { careSiteIds: [site.id] });
  const yesterday = yesterdayInZone(new Date(), ZONE);
  const [y, m, d] = yesterday.split("-").map(Number);
  const threeDaysAgo = new Date(Date.UTC(y, m - 1, d - 2)).toISOString().slice(0, 10);
  const csv = '"Last Name","First Name","Adherence %","SpO2","Deviation"\n"Roe","Ann",35,91,"no"';
  archiveSummary(site.id, threeDaysAgo, csv);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await signInAs(admin.id);
  await page.goto("/app/notificationSummary");

  const archive = page.getByRole("table", { name: "Last 14 notifications summary" });
  const reportName = `Notification_Summary_${formatDay(threeDaysAgo, "dd_MMM_yyyy")}`;
  const report = archive.getByRole("link", { name: reportName, exact: true });
  await expect(report).toHaveAttribute(
    "href",
    `/app/notificationSummary/csv?${new URLSearchParams({ c: site.id, day: threeDaysAgo })}`,
  );

  if (!javaScriptEnabled) {
    const file = await downloaded(page, () => report.click());
    expect(file).toEqual({ name: `${reportName}.csv`, text: csv });
    return;
  }

  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  // The file is held until the link has been seen loading.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/app/notificationSummary/csv?*", async (route) => {
    await held;
    await route.continue();
  });
  const download = page.waitForEvent("download");
  await report.click();
  const loading = archive.getByRole("link", { name: "Loading data...", exact: true });
  await expect(loading).toHaveText("Loading data...");
  await expect(archive.getByRole("link", { name: reportName, exact: true })).toHaveCount(0);
  release();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${reportName}.csv`);
  expect(await readDownload(file)).toBe(csv);
  await expect(report).toBeVisible();
  await expect(loading).toHaveCount(0);

  // A failed fetch saves the spec's text under the report's name.
  await page.unroute("**/app/notificationSummary/csv?*");
  await page.route("**/app/notificationSummary/csv?*", (route) =>
    route.fulfill({ status: 500, body: "boom" }),
  );
  const failed = await downloaded(page, () => report.click());
  expect(failed).toEqual({ name: `${reportName}.csv`, text: "No notifications for this date" });
  await expect(report).toBeVisible();
  expect(errors.filter((e) => !e.includes("500"))).toEqual([]);
});

/** The rows the weekday buttons sit on, and the labels the browser split inside a word. */
async function weekdayLayout(page: Page) {
  return page.locator(".weekday-toggles label").evaluateAll((labels) => {
    const rows = new Set(labels.map((label) => Math.round(label.getBoundingClientRect().top)));
    const broken = labels
      .filter((label) => {
        const range = document.createRange();
        range.selectNodeContents(label);
        const lines = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
        );
        return lines.size > 1;
      })
      .map((label) => label.textContent);
    const overflowing = labels
      .filter((label) => label.scrollWidth > label.clientWidth)
      .map((label) => label.textContent);
    return { rows: rows.size, broken, overflowing };
  });
}

test("the weekday buttons sit on one row at 1024 px and two under 1000 px, no label broken", async ({
  page,
  signInAs,
}) => {
  const site = createCareSite("Weekday Clinic");
  const admin = await createUser("clinicadmin", { careSiteIds: [site.id] });
  await signInAs(admin.id);
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto("/app/notificationsettings");
  await expect(page.locator(".weekday-toggles label")).toHaveCount(7);
  expect(await weekdayLayout(page)).toEqual({ rows: 1, broken: [], overflowing: [] });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  await page.setViewportSize({ width: 900, height: 768 });
  await expect.poll(async () => (await weekdayLayout(page)).rows).toBe(2);
  expect(await weekdayLayout(page)).toMatchObject({ broken: [], overflowing: [] });
});
