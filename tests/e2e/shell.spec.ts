// The signed-in shell around every page: unknown paths, the expired screen, signed-out visits.
import { anyCareSiteId, createUser, db } from "./support/db";
import { expect, test } from "./support/fixtures";

test("a signed-out visit to /app lands on /", async ({ page }) => {
  await page.goto("/app/PatientProfile");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Next" })).toBeVisible();
});

test("an unknown /app path shows OPPS! inside the shell", async ({ page, signInAs }) => {
  const user = await createUser("clinician", { careSiteIds: [anyCareSiteId()] });
  await signInAs(user.id);
  const response = await page.goto("/app/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("OPPS! Page not found")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
});

test("a session idle for 30 minutes shows the expired screen", async ({ page, signInAs }) => {
  const user = await createUser("abmadmin");
  await signInAs(user.id);
  const database = db();
  database
    .prepare(`UPDATE "Session" SET lastSeenAt = ? WHERE userId = ?`)
    .run(Date.now() - 31 * 60_000, user.id);
  database.close();
  await page.goto("/app");
  await expect(page.getByRole("heading", { name: "Your session has expired" })).toBeVisible();
  await page.getByRole("link", { name: "Click here" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel("Username or email")).toBeVisible();
});

test("a care site user switches the dashboard's care site", async ({ page, signInAs }) => {
  const database = db();
  const sites = database.prepare(`SELECT id, name FROM "CareSite" ORDER BY name LIMIT 2`).all() as {
    id: string;
    name: string;
  }[];
  database.close();
  const user = await createUser("clinicadmin", { careSiteIds: sites.map((s) => s.id) });
  await signInAs(user.id);
  await page.goto("/app");
  await expect(page.getByLabel("Care Site")).toHaveValue(sites[0].id);
  await page.getByLabel("Care Site").selectOption(sites[1].id);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByLabel("Care Site")).toHaveValue(sites[1].id);
  await expect(page.getByText(/Dashboard data as of \d\d \w{3} \d{4}/)).toBeVisible();
});
