// Submit of the profile and care site forms (spec 1 §2.7, §2.9, §4.6): with JavaScript disabled
// while the form equals the saved data, before and after a save, with a spinner while saving;
// without JavaScript always enabled, and an unchanged Submit says there is nothing to save.
import type { Page } from "@playwright/test";
import { createCareSite, createUser } from "./support/db";
import { expect, test } from "./support/fixtures";

/** Holds the next form post until `release` is called, so the page can be seen while it saves. */
async function holdNextPost(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/*", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    await released;
    await route.fallback();
  });
  return release;
}

type Screen = {
  name: string;
  /** Opens the form as a user allowed to edit it; returns how to open it again. */
  open: (page: Page, signInAs: (id: string) => Promise<void>) => Promise<() => Promise<unknown>>;
  field: string;
  saved: string;
};

const screens: Screen[] = [
  {
    name: "Edit user profile",
    open: async (page, signInAs) => {
      const user = await createUser("clinician");
      await signInAs(user.id);
      // A valid saved profile first, so the edit below is the only change.
      await page.goto("/app/settings");
      const reopen = () => page.goto("/app/settings");
      await page.getByLabel("Last name").fill("Stone");
      await page.getByLabel("Address line 1").fill("1200 Congress Ave");
      await page.getByLabel("Address line 2").fill("Suite 100");
      await page.getByLabel("Country").selectOption("United States");
      await page.getByLabel("State").fill("Texas");
      await page.getByLabel("City").fill("Austin");
      await page.getByLabel("Zip").fill("78701");
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(page.getByText("Profile was updated successfully")).toBeVisible();
      await reopen();
      return reopen;
    },
    field: "City",
    saved: "Profile was updated successfully",
  },
  {
    name: "Care Site Profile",
    open: async (page, signInAs) => {
      const site = createCareSite("Dirty Form Clinic");
      const admin = await createUser("superadmin");
      await signInAs(admin.id);
      const reopen = () => page.goto(`/app/clinicprofiledetails?c_id=${site.id}`);
      await reopen();
      return reopen;
    },
    field: "City",
    saved: "Clinic was updated successfully",
  },
  {
    name: "care site settings details dialog",
    open: async (page, signInAs) => {
      const site = createCareSite("Dirty Form Clinic");
      const admin = await createUser("clinicadmin", { careSiteIds: [site.id] });
      await signInAs(admin.id);
      const reopen = () => page.goto(`/app/caresitesettingdashboard?c=${site.id}&dialog=details`);
      await reopen();
      // The dialog requires the address and website the factory's care site lacks.
      await page.getByLabel("Address line 1").fill("1200 Congress Ave");
      await page.getByLabel("Address line 2").fill("Suite 100");
      await page.getByLabel("Website").fill("www.example.com");
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(page.getByText("Care Site Details updated successfully")).toBeVisible();
      await reopen();
      return reopen;
    },
    field: "City",
    saved: "Care Site Details updated successfully",
  },
];

for (const screen of screens) {
  test(`${screen.name}: Submit is disabled while nothing changed, before and after a save`, async ({
    page,
    signInAs,
    javaScriptEnabled,
  }) => {
    const reopen = await screen.open(page, signInAs);
    const submit = page.getByRole("button", { name: "Submit" });
    const field = page.getByLabel(screen.field, { exact: true });
    if (!javaScriptEnabled) {
      await expect(submit).toBeEnabled();
      await submit.click();
      await expect(page.getByText(/^Nothing to save/)).toBeVisible();
      return;
    }
    await expect(submit).toBeDisabled();
    const before = await field.inputValue();
    await field.fill("Dallas");
    await expect(submit).toBeEnabled();
    await field.fill(before);
    await expect(submit).toBeDisabled();

    await field.fill("Houston");
    const release = await holdNextPost(page);
    await submit.click();
    await expect(submit).toBeDisabled();
    await expect(submit.locator(".spinner-border")).toBeVisible();
    release();
    await expect(page.getByText(screen.saved)).toBeVisible();
    await page.unrouteAll({ behavior: "wait" });
    // The details dialog closes on success; the others stay open.
    if (screen.name.includes("dialog")) await reopen();
    await expect(field).toHaveValue("Houston");
    await expect(submit).toBeDisabled();
    await expect(submit.locator(".spinner-border")).toHaveCount(0);
    await field.fill("Waco");
    await expect(submit).toBeEnabled();
  });
}
