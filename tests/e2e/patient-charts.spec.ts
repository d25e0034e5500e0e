// Issue 22 item 3 on a real patient (7 days of therapies sent through the device API), JavaScript
// off and on: the profile's trend charts carry visible titles, the drill-down's time axis never
// repeats a label, and the patient PDF labels every day under every chart, with the page's titles
// and whole-hour HMR ticks.
import fs from "node:fs";
import { pdfText } from "../support/pdfText";
import type { Locator } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { careSiteWithTherapyPatient } from "./support/therapy";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The times a drill-down chart writes on its x axis (its only HH:mm texts), in order. */
async function axisTimes(svg: Locator) {
  const texts = await svg.locator("text").allTextContents();
  return texts.filter((t) => /^\d{2}:\d{2}$/.test(t));
}

test("the profile's trend charts are titled, the drill-down's times distinct, the PDF's days all labelled", async ({
  page,
  signInAs,
}) => {
  const world = await careSiteWithTherapyPatient();
  await signInAs(world.clinician.id);
  await page.goto("/app");
  await page.getByRole("link", { name: "Total", exact: true }).click();
  await page.locator("#list").getByRole("link", { name: world.patient.username }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Patient Profile");

  for (const title of [
    "Peak expiratory flow (PEF) per day",
    "Expiratory volume (Ex Vol) per day",
    "Peak inspiratory pressure (PIP) per day",
  ]) {
    // Drawn as text in the chart, not only its accessible name.
    await expect(page.locator("svg text", { hasText: title })).toHaveCount(1);
  }

  // A day's cycles: five cycles of one therapy at 10:00 read "10:00" once.
  await page.getByRole("navigation", { name: "Cycles of a day" }).getByRole("link").first().click();
  const drill = page.getByRole("group", { name: /^Cycles of / });
  await expect(drill).toBeVisible();
  const chart = drill.locator("svg").first();
  await expect(
    chart.locator("text", { hasText: "Peak expiratory flow (PEF) per cycle" }),
  ).toHaveCount(1);
  const times = await axisTimes(chart);
  expect(times.length).toBeGreaterThanOrEqual(1);
  expect(new Set(times).size).toBe(times.length);

  // The PDF of the default range, the last 7 days.
  const url = new URL(page.url());
  const p = url.searchParams.get("p")!;
  const response = await page.request.get(`/app/PatientProfile/pdf?${new URLSearchParams({ p })}`);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  const pdf = await response.body();
  fs.writeFileSync(test.info().outputPath("report.pdf"), pdf);
  const lines = (await pdfText(pdf)).text.split(/[\n\f]/);
  const dayLines = lines.filter((l) => /^(\d{2}-[A-Z][a-z]{2}-\d{4} ?)+$/.test(l));
  const titles = [
    "Completed therapies vs goal (per day) Goal Completed",
    "Adherence score history (%)",
    "Peak expiratory flow (PEF) per day (L/min)",
    "Expiratory volume (Ex Vol) per day (ml)",
    "Peak inspiratory pressure (PIP) per day (cmH2O)",
    "Hour meter reading (HMR) per day (hours)",
  ];
  for (const title of titles) expect(lines).toContain(title);
  // One line of day labels per chart, each with all 7 days, distinct and in order.
  const chartDays = dayLines.filter((l) => l.split(" ").length > 1);
  expect(chartDays).toHaveLength(titles.length);
  for (const line of chartDays) {
    const days = line.split(" ");
    expect(days).toHaveLength(7);
    expect(new Set(days).size).toBe(7);
    expect(days.every((d) => MONTHS.includes(d.slice(3, 6)))).toBe(true);
  }
  // The HMR axis: whole hours (readings 193..199 in this world).
  const hmr = lines.indexOf("Hour meter reading (HMR) per day (hours)");
  const ticks = lines.slice(hmr + 1, lines.indexOf(chartDays[chartDays.length - 1], hmr));
  expect(ticks.length).toBeGreaterThanOrEqual(2);
  expect(ticks.length).toBeLessThanOrEqual(8);
  expect(ticks.every((t) => /^\d+$/.test(t))).toBe(true);
});
