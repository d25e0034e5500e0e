// /deviceStats (issue 10) with JavaScript off (the page sends none): a wrong password is refused,
// the right one opens the table; records posted by a device through the device API (real HTTP)
// appear; search, range, paging, page size, column chooser, profile dialog, CSV and xlsx downloads
// (the workbook opened with exceljs), delete all. Runs in the no-js project only (playwright.config.ts).
import fs from "node:fs";
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import ExcelJS from "exceljs";
import { DeviceClient } from "../../scripts/sim/client";
import { createDevice } from "./support/db";
import { E2E_PORT, TEST_DEVICE_STATS_PASSWORD } from "./support/env";
import { expect, test } from "./support/fixtures";

const MINUTE = 60_000;

/**
 * A datetime-local value in Chicago (the page's zone), `minutesAgo` before now, rounded down to the
 * picker's 5-minute step (step=300): a value off the step is refused by the browser's own form
 * validation, so the form would not be sent.
 */
function chicagoMinute(minutesAgo: number) {
  const FIVE_MINUTES = 5 * MINUTE;
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/Chicago",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(
    new Date(Math.floor((Date.now() - minutesAgo * MINUTE) / FIVE_MINUTES) * FIVE_MINUTES),
  );
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}`;
}

function record(minutesAgo: number, k: number, extra: Record<string, unknown> = {}) {
  return {
    device_type: "cough",
    core: k % 2 ? "Dual" : "Single",
    memory_usage_percentage: 40 + k,
    cpu_usage_percentage: 20 + k,
    temperature: 45,
    test: "soak",
    created_at: new Date(Date.now() - minutesAgo * MINUTE).toISOString(),
    test_type: "endurance",
    mode: "Auto",
    ...extra,
  };
}

const total = (page: Page) => page.getByTestId("stats-total");

test("device statistics without JavaScript: password, table, range, search, pages, columns, profile, exports, delete all", async ({
  page,
}) => {
  // A device posts its records through the device API.
  const serial = `STAT${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
  const device = createDevice(serial);
  const client = new DeviceClient(`http://127.0.0.1:${E2E_PORT}`, serial, device.token);
  const recent = Array.from({ length: 14 }, (_, k) => record(1 + k * 0.5, k));
  recent[0] = record(1, 0, {
    profile: [
      { step: 1, pressure: 40, seconds: 2 },
      { step: 2, pressure: -40, seconds: 1.5 },
    ],
  });
  const older = [record(120, 100), record(125, 101)];
  expect(await client.sendStats([...recent, ...older])).toEqual({ accepted: 16 });

  // The password box.
  await page.goto("/deviceStats");
  await expect(page.getByRole("table")).toHaveCount(0);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Open" }).click();
  await expect(page.getByRole("alert")).toHaveText("Wrong password.");
  await expect(page.getByRole("table")).toHaveCount(0);
  await page.getByLabel("Password").fill(TEST_DEVICE_STATS_PASSWORD);
  await page.getByRole("button", { name: "Open" }).click();

  // The last 10 minutes, searched by the device: its 14 recent records, 10 per page.
  await expect(page.getByTestId("stats-range")).toContainText("Last 10 minutes");
  await page.getByRole("searchbox", { name: "Search" }).fill(serial);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(total(page)).toHaveText("Total: 14");
  const table = page.getByRole("table");
  const headers = table.getByRole("columnheader");
  await expect(headers).toHaveCount(12);
  await expect(headers.first()).toHaveText("id");
  await expect(headers.last()).toHaveText("profile");
  await expect(table.getByRole("row")).toHaveCount(11);
  await expect(page.getByLabel("Averages")).toContainText("Average Single Core Memory Usage");
  // Single core: k = 0, 2, ..., 12 → memory 40..52, average 46.00.
  await expect(page.getByLabel("Averages")).toContainText("46.00");

  // Pages: Next, Last, First; go to page; rows per page.
  await page.getByRole("link", { name: "Next" }).click();
  await expect(table.getByRole("row")).toHaveCount(5);
  await page.getByRole("link", { name: "First" }).click();
  await expect(page.getByLabel("Page", { exact: true })).toHaveValue("1");
  await page.getByLabel("Page", { exact: true }).fill("2");
  await page.getByRole("button", { name: "Go" }).click();
  await expect(table.getByRole("row")).toHaveCount(5);
  await page.getByLabel("Rows per page").selectOption("50");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(table.getByRole("row")).toHaveCount(15);
  await expect(page.getByRole("link", { name: "Last" })).toHaveCount(0);

  // The range: a wrong one gets the spec's message; a right one shows the older records too.
  await page.getByRole("link", { name: "Pick Date Time Range" }).click();
  let picker = page.getByRole("dialog", { name: "Pick Date Time Range" });
  await picker.getByLabel("Start Date and Time").fill(chicagoMinute(60));
  await picker.getByLabel("End Date and Time").fill(chicagoMinute(180));
  await picker.getByRole("button", { name: "Fetch" }).click();
  picker = page.getByRole("dialog", { name: "Pick Date Time Range" });
  await expect(picker.getByRole("alert")).toHaveText(
    "End Date Time should be greater than Start Date and Time",
  );
  await picker.getByLabel("Start Date and Time").fill(chicagoMinute(180));
  await picker.getByLabel("End Date and Time").fill(chicagoMinute(-5));
  await picker.getByRole("button", { name: "Fetch" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("stats-range")).not.toContainText("Last 10 minutes");
  await expect(total(page)).toHaveText("Total: 16");
  // Clear goes back to the last 10 minutes.
  await page.getByRole("link", { name: "Pick Date Time Range" }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Clear" }).click();
  await expect(page.getByTestId("stats-range")).toContainText("Last 10 minutes");
  await expect(total(page)).toHaveText("Total: 14");

  // The column chooser: kept for the rest of the visit.
  await page.getByRole("link", { name: "Columns" }).click();
  const chooser = page.getByRole("dialog", { name: "Columns" });
  await chooser.getByLabel("test", { exact: true }).uncheck();
  await chooser.getByLabel("test_type", { exact: true }).check();
  await chooser.getByRole("button", { name: "Save" }).click();
  await expect(headers).toHaveCount(12);
  await expect(table.getByRole("columnheader", { name: "test_type" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "test", exact: true })).toHaveCount(0);
  await page.reload();
  await expect(table.getByRole("columnheader", { name: "test_type" })).toBeVisible();

  // The profile of the record that has one.
  await table.getByRole("link", { name: "View" }).click();
  const profile = page.getByRole("dialog", { name: "Profile Data" });
  await expect(profile.getByRole("columnheader", { name: "pressure" })).toBeVisible();
  await expect(profile.getByRole("row")).toHaveCount(3);
  await expect(profile.getByLabel("Raw JSON")).toHaveValue(/"pressure":-40/);
  await profile.getByRole("link", { name: "Close" }).click();

  // Exports of the range and search.
  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download" }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^DeviceStats_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv$/);
  const lines = fs
    .readFileSync((await csv.path())!, "utf8")
    .trim()
    .split("\n");
  expect(lines.filter((l) => l.includes(serial))).toHaveLength(14);
  expect(lines).toContain("Average Single Core Memory Usage,46.00");

  await page.getByLabel("Export format").selectOption("xlsx");
  const [xlsx] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download" }).click(),
  ]);
  expect(xlsx.suggestedFilename()).toMatch(/^DeviceStats_.*\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await xlsx.path())!);
  const sheet = workbook.getWorksheet("DeviceStats")!;
  expect(sheet.rowCount).toBe(15);
  expect(sheet.getRow(2).getCell(4).value).toBe(serial);
  expect(workbook.getWorksheet("Averages")!.getRow(1).values).toEqual([
    undefined,
    "Average Single Core Memory Usage",
    "46.00",
  ]);

  // Delete all, after the confirmation.
  await page.getByRole("link", { name: "Delete all" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirmation" });
  await expect(confirm).toContainText("Are you sure you want to delete the data from Data Base?");
  await confirm.getByRole("link", { name: "No" }).click();
  await expect(total(page)).toHaveText("Total: 14");
  await page.getByRole("link", { name: "Delete all" }).click();
  await page
    .getByRole("dialog", { name: "Confirmation" })
    .getByRole("button", { name: "Yes" })
    .click();
  await expect(page.getByRole("status")).toContainText("records deleted.");
  await expect(total(page)).toHaveText("Total: 0");
  await expect(page.getByText("No data found")).toBeVisible();
});
