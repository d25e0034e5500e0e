// The Help Center (issue 9), JavaScript off and on: care site staff open it from the side bar, an
// empty post shows both required messages, a valid one is stored with its email queued for
// Customer Service. With JavaScript the description counts its characters and Submit is disabled
// while the message is being sent.
import { anyCareSiteId, createUser, db } from "./support/db";
import { expect, test } from "./support/fixtures";

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

function storedHelp(userId: string) {
  const database = db();
  try {
    return database
      .prepare(`SELECT subject, body FROM "HelpMessage" WHERE userId = ?`)
      .all(userId) as { subject: string; body: string }[];
  } finally {
    database.close();
  }
}

function queuedHelpEmails(senderEmail: string) {
  const database = db();
  try {
    return database
      .prepare(
        `SELECT "to", subject, body FROM "OutboxMessage" WHERE channel = 'email' AND body LIKE ?`,
      )
      .all(`%${senderEmail}%`) as { to: string; subject: string; body: string }[];
  } finally {
    database.close();
  }
}

for (const role of ["clinicadmin", "clinician"] as const) {
  test(`a ${role} writes to Customer Service from the Help Center`, async ({ page, signInAs }) => {
    const user = await createUser(role, { careSiteIds: [anyCareSiteId()] });
    await signInAs(user.id);

    await page.goto("/app/PasswordAndSecurity");
    await page.getByRole("link", { name: "Help Center" }).click();
    await expect(page).toHaveURL(/\/app\/help$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Help Center");
    const subject = page.getByLabel("Subject");
    const description = page.getByLabel("Description");
    const submit = page.getByRole("button", { name: "Submit" });

    if (jsOn()) {
      // The counter replaces the static limit once the page is hydrated.
      await expect(page.getByText("0/300", { exact: true })).toBeVisible();
    } else {
      await expect(page.getByText("at most 300 characters", { exact: true })).toBeVisible();
    }

    await submit.click();
    await expect(page.getByText("Subject is required")).toBeVisible();
    await expect(page.getByText("Description is required")).toBeVisible();
    expect(storedHelp(user.id)).toEqual([]);

    // One field missing: the other keeps what was typed.
    await subject.fill("Patient list is empty");
    await submit.click();
    await expect(page.getByText("Description is required")).toBeVisible();
    await expect(page.getByText("Subject is required")).toHaveCount(0);
    await expect(subject).toHaveValue("Patient list is empty");

    const text = "Since this morning the Patients page shows no one.";
    await description.fill(text);
    // With JavaScript the post is held back until the test has seen Submit disabled meanwhile.
    let letPostGo = () => {};
    if (jsOn()) {
      await expect(page.getByText(`${text.length}/300`, { exact: true })).toBeVisible();
      const held = new Promise<void>((resolve) => (letPostGo = resolve));
      await page.route("**/app/help*", async (route) => {
        if (route.request().method() === "POST") await held;
        await route.continue();
      });
    }
    await submit.click();
    if (jsOn()) await expect(submit).toBeDisabled();
    letPostGo();

    await expect(page.getByText("Your message has been sent to Customer Service")).toBeVisible();
    await expect(page).toHaveURL(/\/app\/help$/);
    // A fresh form for the next message.
    await expect(subject).toHaveValue("");
    await expect(description).toHaveValue("");
    await expect(submit).toBeEnabled();
    if (jsOn()) await expect(page.getByText("0/300", { exact: true })).toBeVisible();

    expect(storedHelp(user.id)).toEqual([{ subject: "Patient list is empty", body: text }]);
    expect(queuedHelpEmails(user.email)).toEqual([
      {
        to: "customerservice@arcconnect.example",
        subject: "ARC Connect help request: Patient list is empty",
        body: expect.stringContaining(`Description:\n${text}`),
      },
    ]);
  });
}

test("the description is limited to 300 characters", async ({ page, signInAs }) => {
  const user = await createUser("clinician", { careSiteIds: [anyCareSiteId()] });
  await signInAs(user.id);
  await page.goto("/app/help");
  if (jsOn()) await expect(page.getByText("0/300", { exact: true })).toBeVisible();
  await page.getByLabel("Subject").fill("s".repeat(60));
  await page.getByLabel("Description").fill("d".repeat(320));
  // The boxes take no more than the limits.
  await expect(page.getByLabel("Subject")).toHaveValue("s".repeat(50));
  await expect(page.getByLabel("Description")).toHaveValue("d".repeat(300));
  if (jsOn()) await expect(page.getByText("300/300", { exact: true })).toBeVisible();
});
