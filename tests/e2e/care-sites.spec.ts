// The super admin adds a care site and invites its admin, who registers from the emailed link and
// signs in (issue 4's walk, JavaScript off and on).
import crypto from "node:crypto";
import { createUser, db, latestCode } from "./support/db";
import { clearSession, expect, signInThroughForm, test } from "./support/fixtures";

function invitationLinkSentTo(email: string) {
  const database = db();
  try {
    const row = database
      .prepare(
        `SELECT body FROM "OutboxMessage" WHERE "to" = ? AND channel = 'email' ORDER BY createdAt DESC LIMIT 1`,
      )
      .get(email) as { body: string } | undefined;
    const url = row?.body.match(/https?:\/\/\S+\/acceptinvite\?param1=\S+/)?.[0];
    return url ? new URL(url) : null;
  } finally {
    database.close();
  }
}

test("the super admin adds a care site and invites its admin, who registers from the email and signs in", async ({
  page,
  signInAs,
  context,
  javaScriptEnabled,
}) => {
  const tag = crypto.randomBytes(3).toString("hex").replace(/\d/g, "x");
  const siteName = `Riverbend Clinic ${tag}`.replace(/[^A-Za-z ]/g, "");
  const superadmin = await createUser("superadmin");
  await signInAs(superadmin.id);

  await page.goto("/app");
  await page.getByRole("link", { name: /Add Care Site/ }).click();
  await page.getByLabel("Care Site Name*").fill(siteName);
  await page.getByLabel("Country*").selectOption("United States");
  await page.getByLabel("State*").fill("Texas");
  await page.getByLabel("City*").fill("Austin");
  await page.getByLabel("Zip*").fill("78701");
  await page.getByRole("button", { name: "Add Care Site" }).click();
  await expect(page.getByText("Clinic added successfully")).toBeVisible();
  // Other tests add care sites too: find it by name rather than on the first page.
  const search = page.getByRole("searchbox", { name: "Name, City, State, Zip" });
  await search.fill(siteName);
  await search.press("Enter");
  await expect(page.getByRole("link", { name: siteName })).toBeVisible();

  // Invite Care Site Admin: a new email, the role preset, the new care site ticked.
  const adminEmail = `admin.${tag}.${Date.now()}@example.test`;
  await page.getByRole("link", { name: /Invite Care Site Admin/ }).click();
  await page.getByLabel("Email").fill(adminEmail);
  await page.getByRole("button", { name: "Next" }).first().click();
  await expect(page.getByLabel("Role")).toHaveValue("clinicadmin");
  await page.getByLabel(siteName).check();
  await page.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByText("Invitation sent successfully")).toBeVisible();

  // The invitee follows the emailed link, signed out.
  await clearSession(page, context);
  const link = invitationLinkSentTo(adminEmail);
  expect(link, "an invitation email with the link").not.toBeNull();
  await page.goto(`${link!.pathname}${link!.search}`);
  await expect(page.getByText("Link verified")).toBeVisible();
  const username = `admin${tag}${Date.now() % 100000}`;
  const phone = `512${crypto.randomInt(2_000_000, 10_000_000)}`;
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill("Welcome-1!");
  await page.getByLabel("Confirm password").fill("Welcome-1!");
  await page.getByLabel("First name").fill("Robin");
  await page.getByLabel("Last name").fill("Hale");
  await page.getByLabel("Mobile phone").fill(phone);
  const before = Date.now() - 1000;
  await page.getByRole("button", { name: "Verify Phone Number" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await page.getByLabel("Verification code").fill(latestCode(`1${phone}`, before)!);
  // With JavaScript the 4th digit verifies the code (spec 1 §4.3); without, the Verify button does.
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Your mobile numer has been successfully verified.")).toBeVisible();
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(
    page.getByText("You have been successfully registered. We are glad that you joined us"),
  ).toBeVisible();

  await signInThroughForm(page, username, "Welcome-1!", `1${phone}`);
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Care Site Dashboard");
  await expect(page.getByLabel("Care Site")).toContainText(siteName);
});

test("a clinician of one care site gets 404 for another care site's management page and CSV", async ({
  page,
  signInAs,
}) => {
  const database = db();
  const sites = database.prepare(`SELECT id FROM "CareSite" ORDER BY name LIMIT 2`).all() as {
    id: string;
  }[];
  database.close();
  const clinician = await createUser("clinician", { careSiteIds: [sites[0].id] });
  await signInAs(clinician.id);
  expect((await page.goto(`/app/caresitesettingdashboard?c=${sites[0].id}`))?.status()).toBe(200);
  expect((await page.goto(`/app/caresitesettingdashboard?c=${sites[1].id}`))?.status()).toBe(404);
  const csv = await page.request.get(
    `/app/caresitesettingdashboard/csv?c=${sites[1].id}&view=patient`,
  );
  expect(csv.status()).toBe(404);
  const own = await page.request.get(
    `/app/caresitesettingdashboard/csv?c=${sites[0].id}&view=patient`,
  );
  expect(own.status()).toBe(200);
  expect(own.headers()["content-type"]).toContain("text/csv");
});
