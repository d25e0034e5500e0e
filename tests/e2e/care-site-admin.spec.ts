// Issue 21 items 5 and 10 and the care-site screens' timed messages (spec 2 §2, §4, §8, §9):
// - the super admin's people lists show people invited by email who have no account yet;
// - Add Care Site from the care site view (the provider admins' Care Site Profile) with its own
//   messages, refused to care site staff;
// - how long the messages of adding a care site stay (app/ui/delays.ts), on Playwright's clock.
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { expectHiddenAfter, pauseClock } from "./support/clock";
import { createCareSite, createInvitation, createUser, db } from "./support/db";
import { expect, test } from "./support/fixtures";

const ADDED_IN_VIEW = "Clinic has been added successfully !!";
const FAILED_IN_VIEW = "Something went wrong.Try again later";

/** Makes the database refuse to insert a care site of this name (and only it). */
function failCareSiteInsert(name: string) {
  const database = db();
  try {
    database.exec(
      `CREATE TRIGGER "fail_${crypto.randomBytes(4).toString("hex")}" BEFORE INSERT ON "CareSite"
       WHEN NEW.name = '${name}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
  } finally {
    database.close();
  }
}

/** A care site name of letters and spaces only, unique to the test. */
function siteName(prefix: string) {
  const tag = [...crypto.randomBytes(6)].map((b) => "abcdefghijklmnopqrstuvwxyz"[b % 26]).join("");
  return `${prefix} ${tag}`;
}

async function fillAddCareSite(page: Page, name: string) {
  const dialog = page.getByRole("dialog", { name: "Add Care Site" });
  await dialog.getByLabel("Care Site Name*").fill(name);
  await dialog.getByLabel("Country*").selectOption("United States");
  await dialog.getByLabel("State*").fill("Texas");
  await dialog.getByLabel("City*").fill("Austin");
  await dialog.getByLabel("Zip*").fill("78701");
  return dialog;
}

/**
 * Console errors and warnings and uncaught page errors (hydration warnings among them); not the
 * browser's note that a document answered 400, which is how a refused form comes back without
 * JavaScript.
 */
function watchConsole(page: Page) {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.text().includes("the server responded with a status of 400")) return;
    if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

test("the super admin sees an email invitee without an account as Pending with '-' names, and a click warns", async ({
  page,
  signInAs,
}) => {
  const problems = watchConsole(page);
  const invitation = await createInvitation({ role: "clinician" });
  const superadmin = await createUser("superadmin");
  await signInAs(superadmin.id);
  await page.goto("/app?tab=clinician");
  const search = page.getByRole("searchbox", { name: "First Name, Last Name, Email, Status" });
  await search.fill(invitation.email);
  await search.press("Enter");
  const row = page.getByRole("row").filter({ hasText: invitation.email });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell")).toHaveText(["", "-", "-", "Pending", invitation.email]);
  await row.getByRole("link").first().click();
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: `${invitation.email} has not accepted the invitation` }),
  ).toBeVisible();
  // The list stays as it was under the warning.
  await expect(page.getByRole("row").filter({ hasText: invitation.email })).toHaveCount(1);
  expect(problems).toEqual([]);
});

test("Add Care Site from the care site view: the same dialog and checks, its own success message", async ({
  page,
  signInAs,
}) => {
  const problems = watchConsole(page);
  const site = createCareSite("View Clinic");
  const admin = await createUser("abmadmin");
  await signInAs(admin.id);
  await page.goto(`/app/clinicprofiledetails?c_id=${site.id}`);
  await page.getByRole("link", { name: "Add Care Site" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Care Site" });
  await dialog.getByRole("button", { name: "Add Care Site" }).click();
  await expect(dialog.getByText("Please fix the inputs with errors")).toBeVisible();
  await expect(dialog.getByText("Required").first()).toBeVisible();
  await dialog.getByLabel("City*").fill("Austin1");
  await dialog.getByRole("button", { name: "Add Care Site" }).click();
  await expect(dialog.getByText("should contain only alphabets and/or space")).toBeVisible();
  await expect(dialog.getByLabel("City*")).toHaveValue("Austin1");

  const name = siteName("Lakeside Care");
  await fillAddCareSite(page, name);
  await dialog.getByRole("button", { name: "Add Care Site" }).click();
  await expect(page.getByRole("status").filter({ hasText: ADDED_IN_VIEW })).toHaveText(
    ADDED_IN_VIEW,
  );
  // The new care site is the one the page shows now.
  await expect(page).toHaveURL(/\/app\/clinicprofiledetails\?c_id=/);
  await expect(page).not.toHaveURL(new RegExp(site.id));
  await expect(page.getByLabel("Care Site Name", { exact: false }).first()).toHaveValue(name);
  await expect(dialog).toBeHidden();
  expect(problems).toEqual([]);
});

test("care site staff get no Add Care Site in their care site view", async ({ page, signInAs }) => {
  const site = createCareSite("Staff Clinic");
  const clinicadmin = await createUser("clinicadmin", { careSiteIds: [site.id] });
  await signInAs(clinicadmin.id);
  await page.goto(`/app/caresitesettingdashboard?c=${site.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Care Site");
  await expect(page.getByRole("link", { name: "Care site details" }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Add Care Site" })).toHaveCount(0);
  const refused = await page.request.post(`/app/clinicprofiledetails?c_id=${site.id}`, {
    form: { intent: "addCareSite" },
  });
  expect(refused.status()).toBe(403);
});

test.describe("timed messages of adding a care site (JavaScript)", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "timers need JavaScript");

  test("Dashboard: a pending invitee's row warning hides after 5000 ms, like the invitations' link popup (spec 2 §9)", async ({
    page,
    signInAs,
  }) => {
    const invitation = await createInvitation({ role: "clinician" });
    const superadmin = await createUser("superadmin");
    await signInAs(superadmin.id);
    await page.goto("/app?tab=clinician");
    const search = page.getByRole("searchbox", { name: "First Name, Last Name, Email, Status" });
    await search.fill(invitation.email);
    await search.press("Enter");
    const row = page.getByRole("row").filter({ hasText: invitation.email });
    await expect(row).toHaveCount(1);
    await pauseClock(page);
    await row.getByRole("link").first().click();
    await expectHiddenAfter(
      page,
      page
        .getByRole("alert")
        .filter({ hasText: `${invitation.email} has not accepted the invitation` }),
      5000,
    );
  });

  test("Dashboard: 'Clinic added successfully' hides after 5000 ms (spec 2 §9)", async ({
    page,
    signInAs,
  }) => {
    const superadmin = await createUser("superadmin");
    await signInAs(superadmin.id);
    await page.goto("/app?dialog=addCareSite");
    const dialog = await fillAddCareSite(page, siteName("Summit Care"));
    await pauseClock(page);
    await dialog.getByRole("button", { name: "Add Care Site" }).click();
    await expectHiddenAfter(
      page,
      page.getByRole("status").filter({ hasText: "Clinic added successfully" }),
      5000,
    );
  });

  test("care site view: 'Clinic has been added successfully !!' hides after 5000 ms (spec 2 §9)", async ({
    page,
    signInAs,
  }) => {
    const site = createCareSite("Timed Clinic");
    const superadmin = await createUser("superadmin");
    await signInAs(superadmin.id);
    await page.goto(`/app/clinicprofiledetails?c_id=${site.id}&dialog=addCareSite`);
    const dialog = await fillAddCareSite(page, siteName("Harbor Care"));
    await pauseClock(page);
    await dialog.getByRole("button", { name: "Add Care Site" }).click();
    await expectHiddenAfter(
      page,
      page.getByRole("status").filter({ hasText: ADDED_IN_VIEW }),
      5000,
    );
  });

  test("care site view: Invite's confirmation hides after 5000 ms (spec 2 §4, §9)", async ({
    page,
    signInAs,
  }) => {
    const site = createCareSite("Invite Clinic");
    const clinicadmin = await createUser("clinicadmin", { careSiteIds: [site.id] });
    await signInAs(clinicadmin.id);
    await page.goto(`/app/caresitesettingdashboard?c=${site.id}`);
    await page.getByRole("link", { name: "Invite Clinicians" }).click();
    await page.getByLabel("Email").fill(`view.${Date.now()}@example.test`);
    await page.getByRole("button", { name: "Next" }).first().click();
    await expect(page.getByLabel("Role")).toHaveValue("clinician");
    await page.getByRole("button", { name: "Next" }).last().click();
    await page.getByLabel(site.name).check();
    await pauseClock(page);
    await page.getByRole("button", { name: "Send Invitation" }).click();
    await expectHiddenAfter(
      page,
      page.getByRole("status").filter({ hasText: "Invitation sent successfully" }),
      5000,
    );
  });

  test("care site view: 'Something went wrong.Try again later' when the database refuses the write, hidden after 6000 ms", async ({
    page,
    signInAs,
  }) => {
    // The database refuses the insert after the checks passed, as a full disk or a write lock held
    // past the busy timeout would: a trigger that fails only this care site's row, so the test
    // server's other users write on. Nothing is added.
    const site = createCareSite("Failing Clinic");
    const superadmin = await createUser("superadmin");
    await signInAs(superadmin.id);
    await page.goto(`/app/clinicprofiledetails?c_id=${site.id}&dialog=addCareSite`);
    const name = siteName("Cedar Care");
    failCareSiteInsert(name);
    const dialog = await fillAddCareSite(page, name);
    await pauseClock(page);
    // The post waits until the button has been seen waiting (spec 2 §4: submitting is blocked, with
    // a spinner, while the create is in progress).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/app\/clinicprofiledetails/, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    const submit = dialog.getByRole("button", { name: "Add Care Site" });
    await submit.click();
    await expect(submit).toBeDisabled();
    await expect(submit.locator(".spinner-border")).toBeVisible();
    release();
    const message = page.getByRole("status").filter({ hasText: FAILED_IN_VIEW });
    await expect(message).toHaveText(FAILED_IN_VIEW);
    await expect(dialog).toBeHidden();
    await expectHiddenAfter(page, message, 6000);
    const check = db();
    try {
      expect(
        check.prepare(`SELECT COUNT(*) AS n FROM "CareSite" WHERE name = ?`).get(name),
      ).toEqual({ n: 0 });
    } finally {
      check.close();
    }
  });
});
