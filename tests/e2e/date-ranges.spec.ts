// The From/To range of the care site dashboard (spec 2 §5 "Other": To disabled until From is
// chosen, To not before From, no dates after today; issue 21 item 3). With JavaScript the rules
// apply as the user types; without it nothing is disabled, the form posts and the server refuses
// a wrong range with the same texts.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { careSiteWithDeviations, chicagoDayText } from "./support/therapy";

test.use({ viewport: { width: 1024, height: 768 } });

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

function rangeForm(page: Page) {
  return {
    from: page.getByLabel("From", { exact: true }),
    to: page.getByLabel("To", { exact: true }),
    apply: page.getByRole("button", { name: "Apply" }),
  };
}

/** The Transmissions card's Total (patients who transmitted in the range). */
const totalCard = (page: Page, n: number) =>
  page.getByRole("link", { name: `Total: ${n}`, exact: true });

test("with JavaScript, To waits for From, may not be before it or after today, and Apply waits for a valid range", async ({
  page,
  signInAs,
}) => {
  test.skip(!jsOn(), "the live rules need JavaScript (the next test is the no-js path)");
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  // Three patients who transmitted on each of the last 3 days.
  const world = await careSiteWithDeviations();
  await signInAs(world.clinician.id);
  await page.goto("/app?list=total");
  const { from, to, apply } = rangeForm(page);
  const today = chicagoDayText(0);

  // Before From: To disabled with no minimum, Apply disabled; both stop at today.
  await expect(to).toBeDisabled();
  await expect(apply).toBeDisabled();
  expect(await to.getAttribute("min")).toBeNull();
  await expect(from).toHaveAttribute("max", today);
  await expect(to).toHaveAttribute("max", today);

  // From chosen: To enabled, From its minimum; Apply waits for To.
  await from.fill(chicagoDayText(30));
  await expect(to).toBeEnabled();
  await expect(to).toHaveAttribute("min", chicagoDayText(30));
  await expect(apply).toBeDisabled();

  // A To before From, then after today: flagged with the server's texts, Apply stays disabled.
  await to.fill(chicagoDayText(31));
  await expect(page.getByText('"To" date cannot be before "From" date.')).toBeVisible();
  await expect(to).toHaveAttribute("aria-invalid", "true");
  await expect(apply).toBeDisabled();
  await to.fill(chicagoDayText(-1));
  await expect(page.getByText("Dates after today cannot be chosen.")).toBeVisible();
  await expect(apply).toBeDisabled();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(1024);

  // A valid range before the transmissions applies: the cards and the list follow.
  await to.fill(chicagoDayText(20));
  await expect(page.getByText("Dates after today cannot be chosen.")).toBeHidden();
  await expect(apply).toBeEnabled();
  await apply.click();
  await expect(page.getByText(`${chicagoDayText(30)} to ${chicagoDayText(20)}`)).toBeVisible();
  await expect(totalCard(page, 0)).toBeVisible();
  await expect(page.locator("#list").getByText("No data found")).toBeVisible();
  await expect(to).toHaveValue(chicagoDayText(20));

  // From moved past To flags To (it keeps its day); a To up to today makes it a range again.
  await from.fill(chicagoDayText(10));
  await expect(page.getByText('"To" date cannot be before "From" date.')).toBeVisible();
  await expect(to).toHaveAttribute("min", chicagoDayText(10));
  await expect(apply).toBeDisabled();
  await to.fill(today);
  await expect(apply).toBeEnabled();
  await apply.click();
  await expect(page.getByText(`${chicagoDayText(10)} to ${today}`)).toBeVisible();
  await expect(totalCard(page, 3)).toBeVisible();
  await expect(page.locator("#list tbody tr")).toHaveCount(3);
  expect(page.url()).toContain("list=total");

  // Clearing From disables To again.
  await from.fill("");
  await expect(to).toBeDisabled();
  await expect(apply).toBeDisabled();
  expect(problems).toEqual([]);
});

test("without JavaScript nothing is disabled: the form posts and the server refuses a wrong range", async ({
  page,
  signInAs,
}) => {
  test.skip(jsOn(), "the no-js path");
  const world = await careSiteWithDeviations();
  await signInAs(world.clinician.id);
  await page.goto("/app?list=total");
  const { from, to, apply } = rangeForm(page);
  await expect(to).toBeEnabled();
  await expect(apply).toBeEnabled();
  expect(await to.getAttribute("min")).toBeNull();

  // To before From: the server's refusal, the typed days kept, the default week shown.
  await from.fill(chicagoDayText(10));
  await to.fill(chicagoDayText(20));
  await apply.click();
  await expect(page.getByRole("alert")).toHaveText('"To" date cannot be before "From" date.');
  await expect(from).toHaveValue(chicagoDayText(10));
  await expect(to).toHaveValue(chicagoDayText(20));
  await expect(totalCard(page, 3)).toBeVisible();

  // A valid range posts and the cards and list follow.
  await from.fill(chicagoDayText(30));
  await apply.click();
  await expect(page.getByText(`${chicagoDayText(30)} to ${chicagoDayText(20)}`)).toBeVisible();
  await expect(totalCard(page, 0)).toBeVisible();
  await expect(page.locator("#list").getByText("No data found")).toBeVisible();
});
