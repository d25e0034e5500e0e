// The log decryption dialog and the therapy dashboard (spec 3 §2.7, §2.8), JavaScript off and on:
// a generated log uploaded from the landing page, its CSV, the dashboard with a narrower range,
// two selected therapies, two graphs in the report and the PDF's text; and the messages of an
// invalid name, an already-decrypted file and a corrupt file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { writeDeviceLog, type DeviceLogOptions } from "../../scripts/make-device-log";
import { pdfText } from "../support/pdfText";
import { expect, test } from "./support/fixtures";

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-e2e-logs-"));
test.afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

async function makeLog(options: Partial<DeviceLogOptions> & { deviceId: string }) {
  const dir = fs.mkdtempSync(path.join(workDir, "log-"));
  return writeDeviceLog({
    type: "cough",
    from: "2026-10-01",
    to: "2026-10-10",
    therapiesPerDay: 2,
    seed: 11,
    dir,
    ...options,
  });
}

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

/** From the landing page's button to the dialog's result view (or its message). */
async function upload(page: Page, file: string, expectResult = true) {
  await page.goto("/");
  await page.getByRole("link", { name: "Decrypt Log Files" }).click();
  const dialog = page.getByRole("dialog", { name: "Decrypt Log File" });
  if (jsOn()) await expect(dialog.locator("form.decrypt-upload[data-enhanced]")).toBeAttached();
  await dialog.getByLabel("Log file").setInputFiles(file);
  const submit = dialog.getByRole("button", { name: "Upload and decrypt" });
  // With JavaScript a wrong name is refused before anything is sent.
  if (jsOn() && (await submit.isDisabled())) return dialog;
  if (jsOn() && expectResult) {
    // Checked before the upload: the metadata and the estimate show.
    await expect(dialog.getByText("Estimated processing time")).toBeVisible();
  }
  await submit.click();
  if (jsOn() && expectResult) await dialog.getByRole("link", { name: "Proceed" }).click();
  return dialog;
}

test("a cough log: upload, CSV, dashboard, range, selection, two graphs and the PDF", async ({
  page,
}) => {
  const log = await makeLog({ deviceId: `E2E${Date.now().toString(36).toUpperCase()}` });
  const serial = path.basename(log.path).split("_")[0].slice(1);

  const dialog = await upload(page, log.path);
  const result = dialog.getByTestId("decrypt-result");
  await expect(result).toContainText(log.fileName);
  await expect(result).toContainText("01-10-2026");
  await expect(result).toContainText("10-10-2026");

  // The CSV of the whole log: the device's rows, decrypted.
  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download CSV Report" }).click(),
  ]);
  const lines = fs
    .readFileSync((await csv.path())!, "utf8")
    .trim()
    .split("\n");
  expect(lines[0]).toBe("Event ID,Event Type,Log Type,Time Stamp,Value");
  expect(lines).toHaveLength(1 + log.rows);
  expect(lines.filter((l) => l.includes(",THERAPY,"))).toHaveLength(20);

  // From > To in the dialog's filter: the spec's two messages, no download.
  await dialog.getByLabel("From").fill("2026-10-05");
  await dialog.getByLabel("To").fill("2026-10-02");
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog.getByText('"From" date cannot be after "To" date.')).toBeVisible();
  await expect(dialog.getByText('"To" date cannot be before "From" date.')).toBeVisible();

  await dialog.getByLabel("From").fill("2026-10-01");
  await dialog.getByLabel("To").fill("2026-10-10");
  await dialog.getByRole("button", { name: "Apply" }).click();
  await dialog.getByRole("link", { name: "Generate Pdf / Dashboard" }).click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${serial} Therapy Dashboard`);
  if (jsOn()) {
    // The guided tour opens on a first visit (a JavaScript extra).
    const tour = page.getByRole("dialog", { name: "Guided tour" });
    await expect(tour).toContainText("Step 1 of 6");
    await tour.getByRole("button", { name: "Close" }).click();
  }
  const table = page.getByRole("complementary", { name: "Therapy Table" });
  await expect(table.getByText("Page 1 of 2 (20)")).toBeVisible();

  // A date outside the log's therapy dates, then a narrower range.
  await page.getByLabel("From", { exact: true }).fill("2026-09-20");
  // With JavaScript the message shows as typed and Apply stays disabled (decrypt-range.spec.ts).
  if (jsOn()) await expect(page.getByRole("button", { name: "Apply" })).toBeDisabled();
  else await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Date must be between 01-10-2026 and 10-10-2026")).toBeVisible();
  await page.getByLabel("From", { exact: true }).fill("2026-10-03");
  await page.getByLabel("To", { exact: true }).fill("2026-10-05");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/startDate=2026-10-03&endDate=2026-10-05/);
  await expect(table.locator('input[name="eventId"]')).toHaveCount(6);

  // The summary of the range.
  await page.getByRole("link", { name: "Summary" }).click();
  const summary = page.getByRole("dialog", { name: "Therapy Summary" });
  // Counts are whole numbers; averages keep two decimals (DEVICE-LOG-FORMAT.md).
  await expect(summary.getByRole("row", { name: /Total Therapies/ }).locator("td")).toHaveText("6");
  await expect(summary.getByRole("row", { name: /Days Without Therapy/ }).locator("td")).toHaveText(
    "0",
  );
  await expect(summary.getByRole("row", { name: /Average Therapies per Day/ })).toContainText(
    "2.00",
  );
  await summary.getByRole("link", { name: "Close" }).click();

  // Two therapies ticked: the graph is theirs.
  const boxes = table.locator('input[name="eventId"]');
  if (jsOn()) {
    // Each tick is saved at once, once the page's script has attached its handlers.
    const enhanced = page.locator(".therapy-dashboard[data-enhanced]");
    for (const index of [0, 2]) {
      await expect(enhanced).toBeAttached();
      await Promise.all([page.waitForNavigation(), boxes.nth(index).check()]);
    }
  } else {
    await boxes.nth(0).check();
    await boxes.nth(2).check();
    await table.getByRole("button", { name: "Update selection" }).click();
  }
  await expect(page.getByTestId("graph-label")).toHaveText("Selected Therapies");
  await expect(boxes.nth(0)).toBeChecked();
  await expect(boxes.nth(2)).toBeChecked();
  await expect(boxes.nth(1)).not.toBeChecked();

  // An annotation; blank text is refused.
  const annotation = page.getByRole("form", { name: "Add Annotation" }).first();
  await annotation.getByLabel("Position x (point)").fill("2");
  await annotation.getByLabel("Position y (cm H2O)").fill("30");
  if (!jsOn()) {
    await annotation.getByLabel("Text").fill("   ");
    await annotation.getByRole("button", { name: "Add" }).click();
    await expect(page.getByText("Please enter the annotation text.")).toBeVisible();
    await page.getByRole("dialog", { name: "Add Annotation" }).getByLabel("Text").fill("Cough");
    await page
      .getByRole("dialog", { name: "Add Annotation" })
      .getByRole("button", { name: "Add" })
      .click();
  } else {
    await expect(annotation.getByRole("button", { name: "Add" })).toBeDisabled();
    await annotation.getByLabel("Text").fill("Cough");
    await annotation.getByRole("button", { name: "Add" }).click();
  }
  await expect(page.locator(".chart-scroll svg")).toContainText("Cough");

  // Two graphs: the selection's, then the whole range's.
  await page.getByRole("button", { name: "Add Graph to Report" }).click();
  await expect(page.getByText("Graph added to the report.")).toBeVisible();
  await table.getByRole("button", { name: /Clear selection/ }).click();
  await expect(page.getByTestId("graph-label")).toHaveCount(0);
  await page.getByRole("button", { name: "Add Graph to Report" }).click();
  await expect(page.getByText("Graph added to the report.")).toBeVisible();

  await page.getByRole("button", { name: /Generate Report/ }).click();
  const drawer = page.getByRole("complementary", { name: "Generate Report" });
  await expect(drawer.getByText("Selected Graphs: 2")).toBeVisible();
  await expect(drawer.getByText("(Selected Therapies)")).toHaveCount(1);
  await drawer.getByRole("link", { name: "Preview" }).first().click();
  const viewer = page.getByRole("dialog", { name: "Image Viewer" });
  await viewer.getByRole("link", { name: "Zoom In" }).click();
  await expect(page).toHaveURL(/zoom=1.2/);
  await viewer.getByRole("link", { name: "Close", exact: true }).last().click();

  const [pdf] = await Promise.all([
    page.waitForEvent("download"),
    drawer.getByRole("link", { name: "Download" }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(
    `ARC_Connect_Cough_${serial}_TherapyReport_2026-10-03_2026-10-05.pdf`,
  );
  const { text, pages } = await pdfText(fs.readFileSync((await pdf.path())!));
  expect(text).toContain("Therapy Compliance Report");
  expect(text).toContain(serial);
  expect(text).toContain("(Selected Therapies)");
  expect(text).toContain("Confidential Report Generated on");
  expect(text).toMatch(/Total Therapies 6 Therapy Period/);
  expect(text).toMatch(/Days Without Therapy 0\n/);
  expect(text).toContain("Cough");
  expect(pages).toBe(2);
});

test("an invalid name, an already decrypted file and a corrupt file each get their message", async ({
  page,
}) => {
  const good = await makeLog({ deviceId: "BAD1" });
  const renamed = path.join(path.dirname(good.path), "CBAD1_31042026_101010_system.csv");
  fs.copyFileSync(good.path, renamed);
  const cases = [
    {
      file: renamed,
      message: "Invalid File uploaded please upload BiWaze System encrypted log file",
    },
    {
      file: (await makeLog({ deviceId: "BAD2", decrypted: true })).path,
      message: "Looks like you have uploaded already decrypted file",
    },
    {
      file: (await makeLog({ deviceId: "BAD3", corruptRecord: 5 })).path,
      message:
        "Error occurred! The encrypted file is corrupted. Please re-download it from the device and try again",
    },
  ];
  for (const { file, message } of cases) {
    const dialog = await upload(page, file, false);
    await expect(dialog.getByText(message)).toBeVisible();
    await expect(dialog.getByTestId("decrypt-result")).toHaveCount(0);
  }
});
