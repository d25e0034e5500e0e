// Forgotten password (spec 1 §2.5, §4.2, §5.2, §8): by email and by text message, and the
// messages of each step, in Chromium with JavaScript off and on.
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import {
  anyCareSiteId,
  createUser,
  latestCode,
  latestEmailCode,
  passwordHashOf,
} from "./support/db";
import { expect, signInThroughForm, test } from "./support/fixtures";

const NEW_PASSWORD = "Reset-pass2!";
// app/lib/validation.ts PASSWORD_PATTERN_MESSAGE
const PASSWORD_PATTERN_MESSAGE =
  "Password must be at least 8 characters long and contain an uppercase letter, a lowercase letter, a digit and a special character (-+_!@#$%^&*.,?)";

const fieldError = (page: Page, name: string) => page.locator(`#field-${name}-error`);

const maskedEmail = (email: string) => {
  const [name, domain] = email.split("@");
  return `${name.slice(0, 2)}${"*".repeat(name.length - 2)}@${domain}`;
};
const maskedPhone = (phone: string) => `+${"*".repeat(phone.length - 3)}${phone.slice(-3)}`;

/** Verify, then Create New Password with a new password, then the success panel. */
async function finishReset(page: Page, code: string) {
  await page.getByLabel("Verification code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("heading", { name: "Create New Password" })).toBeVisible();
  await page.getByLabel("New password").fill(NEW_PASSWORD);
  await page.getByLabel("Confirm password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Your Password has been updated successfully")).toBeVisible();
  await page.getByRole("link", { name: "Please Login" }).click();
  await expect(page).toHaveURL(/\/$/);
}

test("a password reset by email, then a sign-in with the new password", async ({ page }) => {
  const user = await createUser("clinicadmin", { careSiteIds: [anyCareSiteId()] });
  const oldHash = passwordHashOf(user.id);
  await page.goto("/");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgotpassword$/);
  await page.getByRole("link", { name: "Reset by email" }).click();
  await expect(page).toHaveURL(/\/restorepasswordwithemail$/);

  const started = Date.now() - 1000;
  await page.getByLabel("Email").fill(`  ${user.email.toUpperCase()}  `);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toContainText(
    maskedEmail(user.email),
  );
  const code = latestEmailCode(user.email, started);
  expect(code, "a code emailed to the account's address").toMatch(/^\d{4}$/);
  expect(latestCode(user.phone, started), "nothing texted").toBeNull();

  await finishReset(page, code!);
  expect(passwordHashOf(user.id)).not.toBe(oldHash);
  await signInThroughForm(page, user.username, NEW_PASSWORD, user.phone);
  await expect(page).toHaveURL(/\/app$/);
});

test("a password reset by text message, then a sign-in with the new password", async ({ page }) => {
  const user = await createUser("clinician", { careSiteIds: [anyCareSiteId()] });
  const oldHash = passwordHashOf(user.id);
  await page.goto("/");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgotpassword$/);
  await page.getByRole("link", { name: "Reset by text message" }).click();
  await expect(page).toHaveURL(/\/restorepasswordwithphone$/);

  const started = Date.now() - 1000;
  // Stored with the country code 1; typed without it.
  expect(user.phone).toMatch(/^1\d{10}$/);
  await page.getByLabel("Phone number").fill(user.phone.slice(1));
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toContainText(
    maskedPhone(user.phone),
  );
  const code = latestCode(user.phone, started);
  expect(code, "a code texted to the account's phone").toMatch(/^\d{4}$/);
  expect(latestEmailCode(user.email, started), "nothing emailed").toBeNull();

  await finishReset(page, code!);
  expect(passwordHashOf(user.id)).not.toBe(oldHash);
  await signInThroughForm(page, user.username, NEW_PASSWORD, user.phone);
  await expect(page).toHaveURL(/\/app$/);
});

test("an unknown email gets the spec's message", async ({ page }) => {
  await page.goto("/restorepasswordwithemail");
  await page
    .getByLabel("Email")
    .fill(`nobody.${crypto.randomBytes(4).toString("hex")}@example.test`);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(
    page.getByText("Incorrect email. Please check your email address and try again."),
  ).toBeVisible();
  await expect(page.getByLabel("Verification code")).toHaveCount(0);
});

test("an unknown phone number gets the spec's message", async ({ page }) => {
  await page.goto("/restorepasswordwithphone");
  await page.getByLabel("Phone number").fill(`1737${crypto.randomInt(2e6, 1e7)}`);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(
    page.getByText("Incorrect Phone number. Please check your Phone number and try again."),
  ).toBeVisible();
  await expect(page.getByLabel("Verification code")).toHaveCount(0);
});

test("a wrong code, a mismatched confirmation and a weak password get the spec's messages", async ({
  page,
}) => {
  const user = await createUser("abmadmin");
  const oldHash = passwordHashOf(user.id);
  await page.goto("/restorepasswordwithemail");
  const started = Date.now() - 1000;
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  const code = latestEmailCode(user.email, started);
  expect(code).toMatch(/^\d{4}$/);

  await page.getByLabel("Verification code").fill(code === "0000" ? "1111" : "0000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(
    page.getByText("Incorrect Code. Please check your code and try again."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Create New Password" })).toHaveCount(0);

  await page.getByLabel("Verification code").fill(code!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("heading", { name: "Create New Password" })).toBeVisible();

  await page.getByLabel("New password").fill(NEW_PASSWORD);
  await page.getByLabel("Confirm password").fill("Reset-pass3!");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(fieldError(page, "confirmPassword")).toHaveText("Passwords must match");
  await expect(fieldError(page, "password")).toHaveCount(0);

  await page.getByLabel("New password").fill("weakpass");
  await page.getByLabel("Confirm password").fill("weakpass");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(fieldError(page, "password")).toHaveText(PASSWORD_PATTERN_MESSAGE);
  await expect(fieldError(page, "confirmPassword")).toHaveCount(0);

  await expect(page.getByText("Your Password has been updated successfully")).toHaveCount(0);
  expect(passwordHashOf(user.id), "the password is unchanged").toBe(oldHash);
});
