// No password is ever rendered back into the page (issue 19): every form with a password field,
// posted without JavaScript so that the server's HTML is what the browser shows, answers a failed
// post with the other values kept and the password fields empty. The secret must appear nowhere
// in the answer, neither in a `value` attribute nor in the data Remix embeds for hydration.
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { createInvitation, createUser } from "./support/db";
import { TEST_DEVICE_STATS_PASSWORD } from "./support/env";
import { expect, test } from "./support/fixtures";

const secret = () => `Echo-${crypto.randomBytes(6).toString("hex")}9!`;

/** Fills every password field of the page's form with `value`, submits it, returns the answer's HTML. */
async function postPasswords(page: Page, value: string, fill?: (page: Page) => Promise<void>) {
  const form = page.locator("form", { has: page.locator('input[type="password"]') }).first();
  const fields = form.locator('input[type="password"]');
  const count = await fields.count();
  expect(count, "a password field on the page").toBeGreaterThan(0);
  for (let i = 0; i < count; i++) await fields.nth(i).fill(value);
  await fill?.(page);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    form.locator('[type="submit"]').first().click(),
  ]);
  await page.waitForLoadState("load");
  return { status: response.status(), body: await response.text(), html: await page.content() };
}

async function expectNoEcho(page: Page, value: string, answer: { body: string; html: string }) {
  expect(answer.body).not.toContain(value);
  expect(answer.html).not.toContain(value);
  const fields = page.locator('input[type="password"]');
  for (let i = 0; i < (await fields.count()); i++) await expect(fields.nth(i)).toHaveValue("");
}

test.beforeEach(({ javaScriptEnabled }) => {
  test.skip(javaScriptEnabled, "the server's HTML is what is checked: JavaScript off");
});

test("sign-in: a missing username and a wrong password", async ({ page }) => {
  const user = await createUser("clinician");
  await page.goto("/");
  const password = secret();
  const missing = await postPasswords(page, password);
  expect(missing.status).toBe(400);
  await expectNoEcho(page, password, missing);

  await page.goto("/");
  const wrong = await postPasswords(page, password, (p) =>
    p.getByLabel("Username or email").fill(user.username),
  );
  await expect(page.getByLabel("Username or email")).toHaveValue(user.username);
  await expectNoEcho(page, password, wrong);
});

test("device statistics: a wrong password", async ({ page }) => {
  await page.goto("/deviceStats");
  const password = secret();
  expect(password).not.toBe(TEST_DEVICE_STATS_PASSWORD);
  await expectNoEcho(page, password, await postPasswords(page, password));
});

test("password and security: a wrong current password, a new password that fails", async ({
  page,
  signInAs,
}) => {
  const user = await createUser("clinician");
  await signInAs(user.id);
  await page.goto("/app/PasswordAndSecurity?panel=email");
  const password = secret();
  await expectNoEcho(page, password, await postPasswords(page, password));

  await page.goto("/app/PasswordAndSecurity?panel=password");
  const change = await postPasswords(page, password, (p) =>
    p.getByLabel("Confirm new password").fill(`${password}-other`),
  );
  expect(change.status).toBe(400);
  await expectNoEcho(page, password, change);
});

test("registration from an invitation: passwords that do not match", async ({ page }) => {
  const invitation = await createInvitation({ role: "clinician" });
  await page.goto(`/signup?param1=${encodeURIComponent(invitation.token)}`);
  await expect(page.getByText("Link verified")).toBeVisible();
  const password = secret();
  const answer = await postPasswords(page, password, (p) =>
    p.locator('input[name="confirmPassword"]').fill(`${password}-other`),
  );
  expect(answer.status).toBe(400);
  await expectNoEcho(page, password, answer);
  await expectNoEcho(page, `${password}-other`, answer);
});
