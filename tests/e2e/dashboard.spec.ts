// The care site dashboard (spec 2 §2) on the demo world, JavaScript off and on: every card's list,
// sorting, paging and the CSV download.
import { userByUsername } from "./support/db";
import { expect, test } from "./support/fixtures";
import { careSiteWithDeviations } from "./support/therapy";

const CARDS = [
  "Adherence below 75%",
  "Adherence below 50%",
  "Adherence below 25%",
  "Update Therapy Goals",
  "Missed 3 or more days",
  "Never Transmitted",
  "Total",
  "Without Deviations",
  "With Deviations",
];

test("each card opens its list; lists sort, page and download as CSV", async ({
  page,
  signInAs,
}) => {
  await signInAs(userByUsername("demo.siteadmin").id);
  await page.goto("/app");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Care Site Dashboard");
  await expect(page.getByText(/Dashboard data as of \d\d \w{3} \d{4}/)).toBeVisible();

  for (const card of CARDS) {
    const count = Number(
      await page
        .getByRole("link", { name: new RegExp(`^${card}: \\d+$`) })
        .getAttribute("aria-label")
        .then((l) => l!.split(": ")[1]),
    );
    await page.getByRole("link", { name: card, exact: true }).click();
    const list = page.locator("#list");
    await expect(list.getByRole("heading", { level: 2 })).toBeVisible();
    const rows = list.locator("tbody tr");
    // Every card counts the patients of its list (the Transmissions card too).
    if (count === 0) await expect(list.getByText("No data found")).toBeVisible();
    else {
      await expect(rows).toHaveCount(Math.min(count, 10));
      if (count > 10)
        await expect(list.getByText(`Page 1 of ${Math.ceil(count / 10)} (${count})`)).toBeVisible();
    }
    const csv = await page.request.get(
      (await list.getByRole("link", { name: "Download CSV" }).getAttribute("href"))!,
    );
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    expect((await csv.text()).split("\n")[0]).toContain('"Last Name","First Name"');
  }

  // Sort and page the biggest list: adherence below 75%.
  await page.getByRole("link", { name: "Adherence below 75%", exact: true }).click();
  const list = page.locator("#list");
  // Sorted by last name, ascending, to begin with; a click on the header turns it round.
  await expect(list.getByRole("columnheader", { name: /Last Name/ })).toHaveAttribute(
    "aria-sort",
    "ascending",
  );
  const firstAsc = await list.locator("tbody tr").first().locator("td").nth(1).innerText();
  await list.getByRole("link", { name: /^Last Name/ }).click();
  await expect(list.getByRole("columnheader", { name: /Last Name/ })).toHaveAttribute(
    "aria-sort",
    "descending",
  );
  const firstDesc = await list.locator("tbody tr").first().locator("td").nth(1).innerText();
  expect(firstDesc.localeCompare(firstAsc)).toBeGreaterThanOrEqual(0);
  const next = list.getByRole("link", { name: "Next" });
  if (await next.isVisible()) {
    await next.click();
    await expect(list.getByText(/Page 2 of/)).toBeVisible();
  }
});

test("the range switches between day, week, month and From/To with the spec's date rule", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  await signInAs(userByUsername("demo.clinician").id);
  await page.goto("/app");
  await page.getByRole("link", { name: "Month" }).click();
  await expect(page.getByRole("link", { name: "Month" })).toHaveAttribute("aria-current", "true");
  await page.getByLabel("From", { exact: true }).fill("2026-11-10");
  await page.getByLabel("To", { exact: true }).fill("2026-11-01");
  // With JavaScript the rule runs as the user types (date-ranges.spec.ts); without, on the server.
  if (javaScriptEnabled) {
    await expect(page.getByRole("button", { name: "Apply" })).toBeDisabled();
  } else {
    await page.getByRole("button", { name: "Apply" }).click();
  }
  await expect(page.getByText('"To" date cannot be before "From" date.')).toBeVisible();
});

test("Transmission Without Deviations lists only patients whose chip says no, as many as its card counts", async ({
  page,
  signInAs,
}) => {
  // Patients who transmitted on each of the last 3 days: one never deviated, one on one day, one
  // on every day. Each is in exactly one of Without and With; Total = Without + With.
  const world = await careSiteWithDeviations();
  const { clean, mixed, deviating } = world.patients;
  await signInAs(world.clinician.id);
  await page.goto("/app");
  const list = page.locator("#list");
  const chipOf = (patient: { username: string }) =>
    list.locator("tbody tr", { hasText: patient.username }).locator(".badge");
  const lists = [
    { card: "Without Deviations", heading: "Transmission Without Deviations", chips: [[clean, "no"]] },
    { card: "With Deviations", heading: "Transmission With Deviations", chips: [[mixed, "yes"], [deviating, "yes"]] },
    { card: "Total", heading: "Total Transmission", chips: [[clean, "no"], [mixed, "yes"], [deviating, "yes"]] },
  ] as const; // prettier-ignore
  for (const { card, heading, chips } of lists) {
    const count = chips.length;
    await expect(page.getByRole("link", { name: `${card}: ${count}`, exact: true })).toBeVisible();
    await page.getByRole("link", { name: card, exact: true }).click();
    await expect(list.getByRole("heading", { level: 2 })).toHaveText(heading);
    // The list holds the card's count of patients, each with its chip.
    await expect(list.locator("tbody tr")).toHaveCount(count);
    for (const [patient, chip] of chips) await expect(chipOf(patient)).toHaveText(chip);
    const csv = await page.request.get(
      (await list.getByRole("link", { name: "Download CSV" }).getAttribute("href"))!,
    );
    const lines = (await csv.text()).split("\n").filter((l) => l.trim());
    expect(lines.length - 1, `${card} CSV rows`).toBe(count);
  }
});
