// Issue 22 on the therapy dashboard (/decrypt) and the decrypt dialog's result view, JavaScript
// off and on: the graph sizes to its box at 1024 and 1366 px; the date range's Apply and Clear
// are disabled while a date shows an error (spec 3 §4, §5; a script's extra); a refused CSV export
// keeps the typed dates and shows the message; the summary's counts are whole numbers.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { writeDeviceLog } from "../../scripts/make-device-log";
import { expect, test } from "./support/fixtures";
import { watch } from "./support/pageChecks";

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-e2e-range-"));
test.afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

/** A cough log of 2026-10-01..10 (2 therapies a day), uploaded over HTTP: the dialog's URL. */
async function uploadedLog(page: Page) {
  const deviceId = `RNG${Date.now().toString(36).toUpperCase()}${test.info().project.name.length}`;
  const log = await writeDeviceLog({
    type: "cough",
    deviceId,
    from: "2026-10-01",
    to: "2026-10-10",
    therapiesPerDay: 2,
    seed: 7,
    dir: fs.mkdtempSync(path.join(workDir, "log-")),
  });
  const response = await page.request.post("/decrypt/upload?back=/", {
    multipart: {
      "uploaded-csv": {
        name: log.fileName,
        mimeType: "text/csv",
        buffer: fs.readFileSync(log.path),
      },
    },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  const dialogUrl = response.headers().location;
  expect(dialogUrl).toMatch(/[?&]log=/);
  const uuid = new URL(dialogUrl, "http://x").searchParams.get("log")!;
  return { dialogUrl, uuid, serial: deviceId };
}

const dashboardUrl = (log: { uuid: string; serial: string }) =>
  `/decrypt?${new URLSearchParams({ uuid: log.uuid, id: log.serial })}`;

/** The graph's drawn width against its box's, and the page's own width. */
async function graphFit(page: Page) {
  return page.evaluate(() => {
    const box = document.querySelector(".chart-scroll") as HTMLElement;
    const svg = box.querySelector("svg") as SVGSVGElement;
    return {
      svg: svg.getBoundingClientRect().width,
      box: box.clientWidth,
      page: document.documentElement.scrollWidth,
    };
  });
}

test("the dashboard's graph sizes to its box at 1024 and 1366 px, without sideways scrolling", async ({
  page,
}) => {
  const log = await uploadedLog(page);
  // The tour would cover the page (a first visit): seen already.
  await page.addInitScript(() => localStorage.setItem("therapyDashboardTourSeen", "1"));
  for (const width of [1024, 1366, 1920]) {
    await page.setViewportSize({ width, height: 768 });
    await page.goto(dashboardUrl(log));
    await expect(page.locator(".chart-scroll svg")).toBeVisible();
    const fit = await graphFit(page);
    expect(fit.svg, `graph at ${width} px`).toBeLessThanOrEqual(fit.box + 0.5);
    // It fills its box rather than sitting small in it.
    expect(fit.svg, `graph at ${width} px`).toBeGreaterThan(fit.box - 4);
    expect(fit.page, `page at ${width} px`).toBeLessThanOrEqual(width);
  }
  // With the report drawer open too.
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(`${dashboardUrl(log)}&drawer=report`);
  const fit = await graphFit(page);
  expect(fit.svg).toBeLessThanOrEqual(fit.box + 0.5);
  expect(fit.page).toBeLessThanOrEqual(1024);
});

test("the dashboard's Apply and Clear are disabled while a date shows an error", async ({
  page,
}) => {
  test.skip(!jsOn(), "the page's script checks the dates as they are typed");
  const problems = watch(page);
  const log = await uploadedLog(page);
  await page.addInitScript(() => localStorage.setItem("therapyDashboardTourSeen", "1"));
  await page.goto(dashboardUrl(log));
  await expect(page.locator(".therapy-dashboard[data-enhanced]")).toBeAttached();
  const range = page.locator("form").filter({ has: page.getByRole("button", { name: "Apply" }) });
  const from = range.getByLabel("From", { exact: true });
  const to = range.getByLabel("To", { exact: true });
  const apply = range.getByRole("button", { name: "Apply" });
  const clear = range.getByRole("link", { name: "Clear" });
  await expect(apply).toBeEnabled();

  // Outside the log's therapy dates.
  await from.fill("2026-09-20");
  await expect(range.getByText("Date must be between 01-10-2026 and 10-10-2026")).toBeVisible();
  await expect(apply).toBeDisabled();
  await expect(clear).toHaveAttribute("aria-disabled", "true");

  // From after To: both messages.
  await from.fill("2026-10-06");
  await to.fill("2026-10-03");
  await expect(range.getByText('"From" date cannot be after "To" date.')).toBeVisible();
  await expect(range.getByText('"To" date cannot be before "From" date.')).toBeVisible();
  await expect(range.getByText(/Date must be between/)).toHaveCount(0);
  await expect(apply).toBeDisabled();

  // Both empty.
  await from.fill("");
  await to.fill("");
  await expect(range.getByText(/cannot be/)).toHaveCount(0);
  await expect(apply).toBeDisabled();
  await expect(clear).toHaveAttribute("aria-disabled", "true");

  // A good range: enabled again, and it applies.
  await from.fill("2026-10-03");
  await to.fill("2026-10-05");
  await expect(apply).toBeEnabled();
  await expect(clear).not.toHaveAttribute("aria-disabled", "true");
  await apply.click();
  await expect(page).toHaveURL(/startDate=2026-10-03&endDate=2026-10-05/);
  await expect(range.getByLabel("From", { exact: true })).toHaveValue("2026-10-03");
  expect(problems).toEqual([]);
});

test("a refused CSV export keeps the typed dates and shows why; a good one downloads them", async ({
  page,
}) => {
  const log = await uploadedLog(page);
  await page.goto(log.dialogUrl);
  const dialog = page.getByRole("dialog", { name: "Decrypt Log File" });
  await dialog.getByLabel("From").fill("2026-10-06");
  await dialog.getByLabel("To").fill("2026-10-02");
  await dialog.getByText("Download CSV Report").click();
  await expect(dialog.getByText('"From" date cannot be after "To" date.')).toBeVisible();
  await expect(dialog.getByText('"To" date cannot be before "From" date.')).toBeVisible();
  await expect(dialog.getByLabel("From")).toHaveValue("2026-10-06");
  await expect(dialog.getByLabel("To")).toHaveValue("2026-10-02");

  // Corrected and downloaded straight away (no Apply first): the file has the typed range.
  await dialog.getByLabel("From").fill("2026-10-02");
  await dialog.getByLabel("To").fill("2026-10-03");
  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download CSV Report" }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/_decrypted_2026-10-02_2026-10-03\.csv$/);
  const therapies = fs
    .readFileSync((await csv.path())!, "utf8")
    .split("\n")
    .filter((l) => l.includes(",THERAPY,"));
  expect(therapies).toHaveLength(4);
  await expect(dialog.getByLabel("From")).toHaveValue("2026-10-02");
});

test("the summary shows its counts as whole numbers", async ({ page }) => {
  const log = await uploadedLog(page);
  await page.addInitScript(() => localStorage.setItem("therapyDashboardTourSeen", "1"));
  await page.goto(`${dashboardUrl(log)}&dialog=summary`);
  const summary = page.getByRole("dialog", { name: "Therapy Summary" });
  const cell = (label: string) => summary.getByRole("row", { name: label }).locator("td");
  await expect(cell("Total Therapies")).toHaveText("20");
  await expect(cell("Days Without Therapy")).toHaveText("0");
  await expect(cell("Average Therapies per Day")).toHaveText("2.00");
});
