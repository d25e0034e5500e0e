// No page of spec 1 scrolls sideways at 1024x768 (issue 20 item 11), and no label breaks a word
// in two to fit: each role's pages, JavaScript off and on.
import { createCareSite, createUser, db } from "./support/db";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

test.use({ viewport: { width: 1024, height: 768 } });

/** The page's width, and the label or heading words the browser had to split over two lines. */
async function layoutOf(page: Page) {
  return page.evaluate(() => {
    const broken: string[] = [];
    const texts = document.querySelectorAll("label, h1, h2, h3, h4, h5, h6, .card-body dt, th");
    for (const element of texts) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          // A word on one line has one box (a hyphenated compound may wrap at its hyphen).
          const lines = new Set(
            [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
          );
          if (lines.size > 1 && !match[0].includes("-")) broken.push(match[0]);
        }
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, broken };
  });
}

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
