// The patient profile's goal dialog and live rules (spec 3 §2.3, §4, §5, §8, §9; issue 22 items 1,
// 2, 7, 12, 14), JavaScript off and on: a typed count is submitted with Enter and with Submit, the
// count rules, the goal's wording, today's bar in progress, the toast's 6 s, the range pickers'
// live rules, and a refused CSV range that keeps its dates.
import type { Page } from "@playwright/test";
import { expectHiddenAfter, pauseClock } from "./support/clock";
import { db } from "./support/db";
import { expect, test } from "./support/fixtures";
import { expectClean, watch } from "./support/pageChecks";
import { careSiteWithTherapyPatient, chicagoDayText } from "./support/therapy";

const SAVED = "Therapy Goals are set successfully";

test.use({ viewport: { width: 1024, height: 768 } });

/** A care site's clinician on the profile of its patient with a paired device (one day of data). */
async function openProfile(page: Page, signInAs: (id: string) => Promise<void>) {
  const world = await careSiteWithTherapyPatient({ days: 1 });
  const database = db();
  const pairing = database
    .prepare(`SELECT id FROM "Pairing" WHERE patientId = ? AND unpairedAt IS NULL`)
    .get(world.patient.id) as { id: string };
  database.close();
  const json = JSON.stringify({
    profile_id: world.patient.id,
    clinic_id: world.siteId,
    pair_id: pairing.id,
  });
  const href = `/app/PatientProfile?p=${encodeURIComponent(Buffer.from(json).toString("base64"))}`;
  await signInAs(world.clinician.id);
  await page.goto(href);
  await expect(page.getByTestId("patient-name")).toContainText(world.patient.username);
  return { world, href };
}

async function openGoalDialog(page: Page) {
  await page.getByRole("link", { name: "Set new therapy goals" }).click();
  const dialog = page.getByRole("dialog", { name: "Set new therapy goals" });
  await expect(dialog).toBeVisible();
  // With JavaScript, wait for React: the live rules start then.
  if (test.info().project.use.javaScriptEnabled) {
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  }
  return dialog;
}

test("a count typed into the goal box is submitted with Enter; one is worded '1 therapy a day'", async ({
  page,
  signInAs,
}) => {
  await openProfile(page, signInAs);
  const dialog = await openGoalDialog(page);
  const box = dialog.getByLabel("Number of therapies per day");
  await box.fill("1");
  await box.press("Enter");
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("active-goal")).toHaveText(
    "1 therapy a day on Mon, Tue, Wed, Thu, Fri, Sat, Sun",
  );
  await expect(page.getByRole("table", { name: "Therapy Goal History" })).toContainText("Active");
});

test("a count typed into the goal box is submitted with Submit", async ({ page, signInAs }) => {
  await openProfile(page, signInAs);
  const dialog = await openGoalDialog(page);
  await dialog.getByLabel("Sat").uncheck();
  await dialog.getByLabel("Sun").uncheck();
  await dialog.getByLabel("Number of therapies per day").fill("3");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(page.getByTestId("active-goal")).toHaveText(
    "3 therapies a day on Mon, Tue, Wed, Thu, Fri",
  );
});

test("a count above 24 is refused with the spec's message; a non-digit is ignored or refused", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  await openProfile(page, signInAs);
  const dialog = await openGoalDialog(page);
  const box = dialog.getByLabel("Number of therapies per day");
  await box.fill("25");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "Number of therapies per day can not greater than 24",
  );
  await expect(box).toHaveValue("25");
  await expect(page.getByTestId("active-goal")).toHaveCount(0);

  if (javaScriptEnabled) {
    // §5: a non-digit keystroke is ignored.
    await box.fill("");
    await box.pressSequentially("2x");
    await expect(box).toHaveValue("2");
  } else {
    // Without JavaScript the letter arrives: the server refuses it and says why.
    await box.fill("2x");
    await dialog.getByRole("button", { name: "Submit" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(
      "Enter digits only in Number of therapies per day.",
    );
  }
  await expect(page.getByTestId("active-goal")).toHaveCount(0);
});

test("minus and plus step the count and never leave 0..24; Submit posts the stepped count", async ({
  page,
  signInAs,
}) => {
  await openProfile(page, signInAs);
  const dialog = await openGoalDialog(page);
  const box = dialog.getByLabel("Number of therapies per day");
  await dialog.getByRole("button", { name: "More therapies per day" }).click();
  await expect(box).toHaveValue("1");
  await box.fill("24");
  await dialog.getByRole("button", { name: "Fewer therapies per day" }).click();
  await expect(box).toHaveValue("23");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expect(page.getByTestId("active-goal")).toContainText("23 therapies a day");
});

test("with JavaScript, Submit is disabled while the count is 0 or empty or no weekday is ticked", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "a live rule: without JavaScript the server refuses instead");
  await openProfile(page, signInAs);
  const dialog = await openGoalDialog(page);
  const submit = dialog.getByRole("button", { name: "Submit" });
  const box = dialog.getByLabel("Number of therapies per day");
  await expect(submit).toBeDisabled();
  await expect(dialog.getByRole("button", { name: "Fewer therapies per day" })).toBeDisabled();
  await box.fill("2");
  await expect(submit).toBeEnabled();
  for (const day of ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]) {
    await dialog.getByLabel(day).uncheck();
  }
  await expect(submit).toBeDisabled();
  // Enter does nothing either: its default button follows the same rule.
  await box.press("Enter");
  await dialog.getByLabel("Wed").check();
  await expect(submit).toBeEnabled();
  await box.fill("");
  await expect(submit).toBeDisabled();
  await box.fill("24");
  await expect(dialog.getByRole("button", { name: "More therapies per day" })).toBeDisabled();
  await expect(page.getByTestId("active-goal")).toHaveCount(0);
});

test("today's bar is in progress, not missed, while the care site's day lasts", async ({
  page,
  signInAs,
}) => {
  await openProfile(page, signInAs);
  const dialog = await openGoalDialog(page);
  await dialog.getByLabel("Number of therapies per day").fill("2");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  // The fixture's patient had no therapy today: the goal is not met yet, and the day goes on.
  const today = page.locator(`rect.calendar-bar[data-day="${chicagoDayText(0)}"]`);
  await expect(today).toHaveAttribute("data-status", "inProgress");
  await expect(today.locator("title")).toContainText("in progress, 0 of 2 therapies so far");
  const days = page.getByTestId("adherence-days").locator("li");
  await expect(days.last()).toContainText("0 of 2, in progress");
});

test("the profile hydrates without errors, and its toast hides after 6 s (stays without JavaScript)", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  const problems = watch(page);
  await openProfile(page, signInAs);
  if (javaScriptEnabled) {
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await expectClean(page, problems);
    await pauseClock(page);
  }
  const dialog = await openGoalDialog(page);
  await dialog.getByLabel("Number of therapies per day").fill("2");
  await dialog.getByRole("button", { name: "Submit" }).click();
  const toast = page.getByRole("status").filter({ hasText: SAVED });
  if (javaScriptEnabled) {
    await expectHiddenAfter(page, toast, 6000);
    expect(problems).toEqual([]);
  } else {
    await expect(toast).toBeVisible();
    await toast.getByRole("button", { name: "Close" }).click();
    await expect(toast).toBeHidden();
  }
});

test("with JavaScript, the graph range's and the CSV's To wait for From, their buttons for both", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "a live rule: without JavaScript the server refuses instead");
  await openProfile(page, signInAs);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const from = page.locator("#graph-range-from");
  const to = page.locator("#graph-range-to");
  const apply = page.getByRole("button", { name: "Apply" });
  await expect(to).toBeDisabled();
  await expect(apply).toBeDisabled();
  await from.fill(chicagoDayText(5));
  await expect(to).toBeEnabled();
  await expect(to).toHaveAttribute("min", chicagoDayText(5));
  await expect(to).toHaveAttribute("max", chicagoDayText(0));
  await expect(apply).toBeDisabled();
  await to.fill(chicagoDayText(2));
  await expect(apply).toBeEnabled();

  // The CSV's From/To follow the same rules (filled with the graph range's days at first).
  const csvFrom = page.locator("#csv-from");
  const csvTo = page.locator("#csv-to");
  const download = page.getByRole("button", { name: "Download CSV" });
  await expect(download).toBeEnabled();
  await csvFrom.fill("");
  await expect(csvTo).toBeDisabled();
  await expect(download).toBeDisabled();
  await csvFrom.fill(chicagoDayText(3));
  await expect(csvTo).toHaveAttribute("min", chicagoDayText(3));
  await expect(download).toBeEnabled();
  await csvTo.fill(chicagoDayText(4));
  await expect(download).toBeDisabled();
});

test("a refused CSV range comes back with its dates and 'Download Failed'", async ({
  page,
  signInAs,
}) => {
  const { href } = await openProfile(page, signInAs);
  const p = new URL(href, "http://x").searchParams.get("p")!;
  const [later, earlier] = [chicagoDayText(2), chicagoDayText(5)];
  await page.goto(
    `/app/PatientProfile/csv?${new URLSearchParams({ p, from: later, to: earlier })}`,
  );
  await expect(
    page.getByText('Download Failed: "To" date cannot be before "From" date.'),
  ).toBeVisible();
  await expect(page.locator("#csv-from")).toHaveValue(later);
  await expect(page.locator("#csv-to")).toHaveValue(earlier);
});
