// The announcement cards under the staff dashboards (spec 2 §1): feedback survey, tutorials under
// Resources, news on social media, with the installation's links (the test server sets none, so
// the defaults of app/lib/env.server.ts). Hiding them by configuration is tested on the env module
// (tests/unit/announcement-links.test.ts).
import { anyCareSiteId, createUser } from "./support/db";
import { expect, test } from "./support/fixtures";

const DEFAULTS = {
  "Take the survey": "https://www.abmrc.com/contact-us/",
  "View tutorials": "https://www.abmrc.com/",
  "Follow us": "https://www.abmrc.com/",
};

for (const role of ["clinicadmin", "clinician", "superadmin", "abmadmin"] as const) {
  test(`the ${role}'s dashboard shows the announcement cards with the default links`, async ({
    page,
    signInAs,
  }) => {
    const user = await createUser(
      role,
      role === "clinicadmin" || role === "clinician" ? { careSiteIds: [anyCareSiteId()] } : {},
    );
    await signInAs(user.id);
    await page.goto("/app");
    const cards = page.getByRole("region", { name: "Announcements" });
    await expect(cards.getByRole("heading", { name: "Feedback survey" })).toBeVisible();
    await expect(cards.getByText("Resources")).toBeVisible();
    await expect(cards.getByRole("heading", { name: "Tutorials" })).toBeVisible();
    await expect(cards.getByRole("heading", { name: "News on social media" })).toBeVisible();
    for (const [name, href] of Object.entries(DEFAULTS)) {
      const link = cards.getByRole("link", { name });
      await expect(link).toHaveAttribute("href", href);
      // Other sites open in a new tab that cannot reach back into the portal.
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", "noopener noreferrer");
    }
  });
}
