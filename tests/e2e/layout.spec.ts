// No page of spec 1 scrolls sideways at 1024x768 (issue 20 item 11), and no label breaks a word
// in two to fit: each role's pages, JavaScript off and on.
import { createCareSite, createUser, db } from "./support/db";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { layoutOf } from "./support/pageChecks";

test.use({ viewport: { width: 1024, height: 768 } });

async function expectFits(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  const { scrollWidth, broken } = await layoutOf(page);
  expect(scrollWidth, `${path} is ${scrollWidth}px wide`).toBeLessThanOrEqual(1024);
  expect(broken, `${path}: words broken mid-word`).toEqual([]);
}

/** A care site whose name, address and website are as long as the forms allow. */
function wideCareSite() {
  const site = createCareSite("Front Range Breathing Center");
  const database = db();
  database
    .prepare(
      `UPDATE "CareSite" SET website = ?, addressLine1 = ?, addressLine2 = ?, phone = ? WHERE id = ?`,
    )
    .run(
      "https://www.frontrangebreathingandsleepcenter.example/locations/denver",
      "1719 East Nineteenth Avenue Professional Building",
      "Pulmonary Rehabilitation Wing, Floor 2",
      "13035550100",
      site.id,
    );
  database.close();
  return site.id;
}

const ROLE_PAGES = ["/app", "/app/settings", "/app/PasswordAndSecurity"];

for (const role of ["superadmin", "abmadmin"] as const) {
  test(`${role}: Care Site Profile and the account pages fit 1024 px`, async ({
    page,
    signInAs,
  }) => {
    const careSiteId = wideCareSite();
    const user = await createUser(role);
    await createUser("clinicadmin", { careSiteIds: [careSiteId] });
    const other = await createUser("clinician", { careSiteIds: [careSiteId] });
    await signInAs(user.id);
    await expectFits(page, `/app/clinicprofiledetails?c_id=${careSiteId}`);
    for (const path of [...ROLE_PAGES, `/app/userinfo/${other.id}`]) await expectFits(page, path);
  });
}

for (const role of ["clinicadmin", "clinician"] as const) {
  test(`${role}: care site settings and the account pages fit 1024 px`, async ({
    page,
    signInAs,
  }) => {
    const careSiteId = wideCareSite();
    const user = await createUser(role, { careSiteIds: [careSiteId] });
    const other = await createUser("clinician", { careSiteIds: [careSiteId] });
    await signInAs(user.id);
    const settings = `/app/caresitesettingdashboard?c=${careSiteId}`;
    await expectFits(page, settings);
    if (role === "clinicadmin") await expectFits(page, `${settings}&dialog=details`);
    for (const path of [...ROLE_PAGES, `/app/userinfo/${other.id}`]) await expectFits(page, path);
  });
}

test("the sign-up page fits 1024 px", async ({ page }) => {
  await expectFits(page, "/signup");
  await expectFits(page, "/");
});
