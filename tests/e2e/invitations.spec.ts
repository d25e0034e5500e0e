// The invitation life cycle in Chromium (spec 2 §2, §4, §5), JavaScript off and on.
import { anyCareSiteId, createUser, db } from "./support/db";
import { expect, test } from "./support/fixtures";

function careSiteName(id: string) {
  const database = db();
  try {
    return (
      database.prepare(`SELECT name FROM "CareSite" WHERE id = ?`).get(id) as { name: string }
    ).name;
  } finally {
    database.close();
  }
}

function membershipStatus(userId: string, careSiteId: string) {
  const database = db();
  try {
    const row = database
      .prepare(`SELECT status FROM "Membership" WHERE userId = ? AND careSiteId = ?`)
      .get(userId, careSiteId) as { status: string } | undefined;
    return row?.status ?? null;
  } finally {
    database.close();
  }
}

test("a care site admin invites a clinician and a patient; the clinician accepts, deactivates, reactivates; the admin revokes", async ({
  page,
  signInAs,
}) => {
  const siteId = anyCareSiteId();
  const site = careSiteName(siteId);
  const admin = await createUser("clinicadmin", { careSiteIds: [siteId] });
  const clinician = await createUser("clinician");
  const patientEmail = `patient.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;

  await signInAs(admin.id);
  await page.goto("/app/clinicadmin");
  await page.getByRole("link", { name: /New invitation/ }).click();
  await page.getByLabel("Email").fill(clinician.email);
  await page.getByRole("button", { name: "Next" }).first().click();
  await expect(page.getByLabel("Role")).toHaveValue("clinician");
  await page.getByLabel(site).check();
  await page.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByText("Invitation sent successfully")).toBeVisible();
  await page.getByRole("link", { name: "OK" }).click();

  // A patient without an account: pick the role, then the care site.
  await page.getByRole("link", { name: /New invitation/ }).click();
  await page.getByLabel("Email").fill(patientEmail);
  await page.getByRole("button", { name: "Next" }).first().click();
  await page.getByLabel("Role").selectOption("patient");
  await page.getByRole("button", { name: "Next" }).nth(1).click();
  await page.getByLabel(site).check();
  await page.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByText("Invitation sent successfully")).toBeVisible();
  await page.getByRole("link", { name: "OK" }).click();
  await page.getByRole("link", { name: patientEmail }).click();
  await expect(page.getByText(`${patientEmail} has not accepted the invitation`)).toBeVisible();

  // The clinician accepts from Received invitations.
  await signInAs(clinician.id);
  await page.goto("/app/cliniciantable?list=received");
  await page.getByRole("link", { name: "Accept" }).click();
  await expect(page.getByText(`Accept the invitation from ${site}?`)).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByRole("cell", { name: "Accepted" })).toBeVisible();
  expect(membershipStatus(clinician.id, siteId)).toBe("accepted");
  await page.goto("/app");
  await expect(page.getByLabel("Care Site")).toContainText(site);

  // Deactivate and reactivate from the received side.
  await page.goto("/app/cliniciantable?list=received");
  await page.getByRole("link", { name: "Deactivate" }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByRole("cell", { name: "Blocked" })).toBeVisible();
  expect(membershipStatus(clinician.id, siteId)).toBe("blocked");
  await page.getByRole("link", { name: "Reactivate" }).click();
  await expect(page.getByText("Are you Sure You want to Activate ?")).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByRole("cell", { name: "Accepted" })).toBeVisible();
  expect(membershipStatus(clinician.id, siteId)).toBe("accepted");

  // The admin revokes: the clinician's access to the care site ends at once.
  await signInAs(admin.id);
  await page.goto("/app/clinicadmin?list=sent");
  const row = page.getByRole("row").filter({ hasText: clinician.email });
  await row.getByRole("link", { name: "Revoke" }).click();
  await expect(page.getByText("Revoke access?")).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(row.getByRole("cell", { name: "Blocked" })).toBeVisible();
  expect(membershipStatus(clinician.id, siteId)).toBe("blocked");
  await signInAs(clinician.id);
  await page.goto("/app");
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByText("No clinic found")).toBeVisible();
});

test("Select all ticks every care site of the dialog, also after client-side steps", async ({
  page,
  signInAs,
}) => {
  const abmadmin = await createUser("abmadmin");
  await signInAs(abmadmin.id);
  await page.goto("/app/invitation");
  await page.getByRole("link", { name: /New invitation/ }).click();
  await page.getByLabel("Email").fill(`select.all.${Date.now()}@example.test`);
  await page.getByRole("button", { name: "Next" }).first().click();
  // An ABM admin invites care site admins only: the role comes preset with the care sites.
  await expect(page.getByLabel("Role")).toHaveValue("clinicadmin");
  const boxes = page.locator('input[name="careSiteId"]');
  await expect(boxes.first()).toBeVisible();
  await expect(boxes.first()).not.toBeChecked();
  await page.getByRole("button", { name: "Select all" }).click();
  await expect(page).toHaveURL(/[?&]all=1/);
  // The URL changes when the new page starts to arrive: wait for its boxes before counting them.
  await expect(boxes.first()).toBeChecked();
  const count = await boxes.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) await expect(boxes.nth(i)).toBeChecked();
});

test("the invitation success message clears after 5 s with JavaScript; without, OK closes it", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  const siteId = anyCareSiteId();
  const admin = await createUser("clinicadmin", { careSiteIds: [siteId] });
  await signInAs(admin.id);
  await page.goto("/app/clinicadmin");
  await page.getByRole("link", { name: /New invitation/ }).click();
  await page.getByLabel("Email").fill(`cleared.${Date.now()}@example.test`);
  await page.getByRole("button", { name: "Next" }).first().click();
  await page.getByLabel("Role").selectOption("clinician");
  await page.getByRole("button", { name: "Next" }).last().click();
  await page.getByLabel(careSiteName(siteId)).check();
  const message = page.getByRole("status").filter({ hasText: "Invitation sent successfully" });
  if (javaScriptEnabled) {
    // The clock stands still from the post on: only runFor moves it (spec 2 §9: 5 s).
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
  }
  await page.getByRole("button", { name: "Send Invitation" }).click();
  await expect(message).toBeVisible();
  if (javaScriptEnabled) {
    await page.clock.runFor(4950);
    await expect(message).toBeVisible();
    await page.clock.runFor(100);
    await expect(message).toBeHidden();
    await expect(page).not.toHaveURL(/dialog=/);
  } else {
    await page.getByRole("link", { name: "OK" }).click();
    await expect(message).toBeHidden();
  }
});
