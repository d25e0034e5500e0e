// The texts of spec 1 §8 (the error catalogue) and the messages of §4 and §5, letter for letter,
// misspellings included ("erros", "numer", "vaild"), on the screens that show them (issue 20
// item 8), JavaScript off and on. Each check matches an element's whole text.
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import {
  anyCareSiteId,
  createCareSite,
  createInvitation,
  createUser,
  db,
  expireCodes,
  latestCode,
  latestEmailCode,
  PASSWORD,
} from "./support/db";
import { expect, reachCodeStep, submitPassword, test } from "./support/fixtures";

const NEW_PASSWORD = "Texts-pass1!";
const field = (page: Page, name: string) => page.locator(`#field-${name}`);
const hex = () => crypto.randomBytes(4).toString("hex");

/**
 * Submits a box's form with Enter, its default button. With JavaScript a box's message comes and
 * goes as it loses focus; a click on a button just below would lose the focus first, the message
 * would move the button, and the click could land beside it.
 */
async function submitFrom(page: Page, name: string | RegExp) {
  await (typeof name === "string" ? field(page, name) : page.getByLabel(name)).press("Enter");
}

/** An element whose whole text is `text` is shown. */
async function shows(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
}

const wrongCode = (code: string | null) => (code === "0000" ? "1111" : "0000");

async function enterCode(page: Page, code: string, button = "Verify") {
  await page.getByLabel("Verification code").fill(code);
  await page.getByRole("button", { name: button, exact: true }).click();
}

/** Expires the codes sent to a phone or email that belong to no account yet (registration). */
function expireCodesTo(destination: string) {
  const database = db();
  try {
    database
      .prepare(`UPDATE "OneTimeCode" SET expiresAt = ? WHERE destination = ?`)
      .run(Date.now() - 1000, destination);
  } finally {
    database.close();
  }
}

test("sign-in: credentials 404 and 400, code 400 and 404, code resent", async ({ page }) => {
  const patient = await createUser("patient");
  await submitPassword(page, patient.username, PASSWORD);
  // "Login 400: the server's message is shown" (ours: a patient's account).
  await shows(page, "This portal is for care site staff. Patients use the ARC Connect app.");

  const user = await createUser("clinician");
  await submitPassword(page, user.username, "Wrong-pass1!");
  await shows(page, "Incorrect email or password. Please check your login and try again.");

  const code = await reachCodeStep(page, user.username, PASSWORD, user.phone);
  await enterCode(page, wrongCode(code));
  await shows(page, "Incorrect Code. Please check your code and try again.");
  expireCodes(user.id);
  await enterCode(page, code);
  await shows(page, "Verification code is expired! Please try again with new one");
  await page.getByRole("button", { name: "Resend Verification code" }).click();
  await shows(page, "New Verification code has been sent to your registered mobile!");
});

test("the sign-in page links to self-registration", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("Don't have an account?")).toBeVisible();
  await page.getByRole("link", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByLabel("Username", { exact: true })).toBeVisible();
});

test("forgot password by email: invalid input, 404, code 400 and 404, resent, reset success", async ({
  page,
}) => {
  await page.goto("/restorepasswordwithemail");
  await page.getByRole("button", { name: "Send code" }).click();
  await shows(page, "Please fix the input erros");
  await page.getByLabel("Email").fill(`nobody.${hex()}@example.test`);
  await submitFrom(page, "email");
  await shows(page, "Incorrect email. Please check your email address and try again.");
  await expect(page.getByText("Please fix the input erros")).toHaveCount(0);

  const user = await createUser("clinician");
  const started = Date.now() - 1000;
  await page.getByLabel("Email").fill(user.email);
  await submitFrom(page, "email");
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  const code = latestEmailCode(user.email, started);
  await enterCode(page, wrongCode(code));
  await shows(page, "Incorrect Code. Please check your code and try again.");
  expireCodes(user.id);
  await enterCode(page, code!);
  await shows(page, "Verification code is expired! Please try again with new one");
  const resent = Date.now() - 1000;
  await page.getByRole("button", { name: "Resend Verification code" }).click();
  await shows(page, "New Verification code has been sent to your email!");

  await enterCode(page, latestEmailCode(user.email, resent)!);
  await expect(page.getByRole("heading", { name: "Create New Password" })).toBeVisible();
  await page.getByLabel("New password").fill("weakpass");
  await page.getByLabel("Confirm password").fill("otherpass");
  await page.getByRole("button", { name: "Save" }).click();
  await shows(page, "Passwords must match");
  await shows(page, "Please fix the input erros");
  await page.getByLabel("New password").fill(NEW_PASSWORD);
  await page.getByLabel("Confirm password").fill(NEW_PASSWORD);
  await submitFrom(page, "confirmPassword");
  await shows(page, "Password updated successfully");
  await shows(page, "Your Password has been updated successfully");
  await expect(page.getByRole("link", { name: "Please Login" })).toBeVisible();
});

test("forgot password by phone: invalid input, 404, code resent to the mobile", async ({
  page,
}) => {
  await page.goto("/restorepasswordwithphone");
  await page.getByLabel("Phone number").fill("512-555-O123");
  await page.getByRole("button", { name: "Send code" }).click();
  await shows(page, "Enter valid phone number");
  await shows(page, "Please fix the input erros");
  await page.getByLabel("Phone number").fill(`1737${crypto.randomInt(2e6, 1e7)}`);
  await submitFrom(page, "phonenumber");
  await shows(page, "Incorrect Phone number. Please check your Phone number and try again.");

  const user = await createUser("clinician");
  await page.getByLabel("Phone number").fill(user.phone);
  await submitFrom(page, "phonenumber");
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await page.getByRole("button", { name: "Resend Verification code" }).click();
  await shows(page, "New Verification code has been sent to your registered mobile!");
});

test("self-registration: taken username and email, code 400 and 404, code resent, success", async ({
  page,
}) => {
  const existing = await createUser("clinician");
  const username = `e2e.texts.${hex()}`;
  const phone = `512${crypto.randomInt(2e6, 1e7)}`;
  await page.goto("/signup");
  await field(page, "username").fill(existing.username);
  await field(page, "password").fill(NEW_PASSWORD);
  await field(page, "confirmPassword").fill(NEW_PASSWORD);
  await field(page, "firstName").fill("Dana");
  await field(page, "lastName").fill("Brooks");
  await field(page, "phone").fill(phone);
  await field(page, "email").fill(existing.email);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.locator("#field-username-error")).toHaveText("Username already exists");
  await expect(page.locator("#field-email-error")).toHaveText("Email address already exists");

  await field(page, "username").fill(username);
  await field(page, "email").fill(`${username}@example.test`);
  await field(page, "password").fill(NEW_PASSWORD);
  await field(page, "confirmPassword").fill(NEW_PASSWORD);
  const started = Date.now() - 1000;
  await submitFrom(page, "confirmPassword");
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  const code = latestCode(`1${phone}`, started);
  await enterCode(page, wrongCode(code), "Submit");
  await shows(page, "Incorrect code! Please try again.");
  expireCodesTo(`1${phone}`);
  await enterCode(page, code!, "Submit");
  await shows(page, "Verification code is expired! Please try again with new one");
  const resent = Date.now() - 1000;
  await page.getByRole("button", { name: "Resend Verification code" }).click();
  await shows(page, "New Verification code has been sent to your registered mobile!");
  await enterCode(page, latestCode(`1${phone}`, resent)!, "Submit");
  await shows(page, "You have been successfully registered. We are glad that you joined us");
});

test("invited registration: 209, 222, an empty number, Submit before verifying, phone verified", async ({
  page,
  javaScriptEnabled,
}) => {
  const taken = await createUser("clinician");
  const invitation = await createInvitation({ careSiteId: anyCareSiteId() });
  const phone = `512${crypto.randomInt(2e6, 1e7)}`;
  await page.goto(`/acceptinvite?param1=${encodeURIComponent(invitation.token)}`);
  const fill = async (number: string) => {
    await field(page, "username").fill(`e2e.inv.${hex()}`);
    await field(page, "password").fill(NEW_PASSWORD);
    await field(page, "confirmPassword").fill(NEW_PASSWORD);
    await field(page, "firstName").fill("Dana");
    await field(page, "lastName").fill("Brooks");
    await field(page, "phone").fill(number);
    await submitFrom(page, "phone");
  };
  if (!javaScriptEnabled) {
    // With JavaScript the browser's check answers first, with the registration form's own
    // messages (Required, Enter valid phone number): these two are the server's.
    await fill("");
    await expect(page.locator("#field-phone-error")).toHaveText(
      "Please enter your mobile number and try again.",
    );
    await fill("512-555-O123");
    await expect(page.locator("#field-phone-error")).toHaveText("Please enter a valid number");
  }
  await fill(taken.phone.slice(1));
  await expect(page.locator("#field-phone-error")).toHaveText(
    "This mobile number is already registered with us. Kindly try another number if you're registering a different account.",
  );

  const started = Date.now() - 1000;
  await fill(phone);
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await page.getByRole("button", { name: "Submit" }).click();
  await shows(page, "Please verify your mobile number before submitting.");
  // With JavaScript the 4th digit verifies the code (§4.3); without, the Verify button does.
  await page.getByLabel("Verification code").fill(latestCode(`1${phone}`, started)!);
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Verify", exact: true }).click();
  await shows(page, "Your mobile numer has been successfully verified.");
});

test("password and security: every message of §5.4 and §8", async ({ page, signInAs }) => {
  const user = await createUser("clinician");
  const other = await createUser("clinician");
  await signInAs(user.id);

  await page.goto("/app/PasswordAndSecurity?panel=phone");
  await page.getByRole("button", { name: "Continue" }).click();
  await shows(page, "Please enter your password to continue!");
  await page.getByLabel("Current password").fill("abc");
  await submitFrom(page, "currentPassword");
  await shows(page, "Please Confirm your Password to continue.");
  await page.getByLabel("Current password").fill("Wrong-pass1!");
  await submitFrom(page, "currentPassword");
  await shows(page, "Incorrect Password! Please check your password and try again.");
  await page.getByLabel("Current password").fill(PASSWORD);
  await submitFrom(page, "currentPassword");
  await page.getByRole("button", { name: "Send code" }).click();
  await shows(page, "Please enter your Phone number to continue!");
  await page.getByLabel(/New phone number/).fill("1234");
  await submitFrom(page, "newPhone");
  await shows(page, "Please enter a vaild Phone number to continue!");
  await page.getByLabel(/New phone number/).fill(other.phone);
  await submitFrom(page, "newPhone");
  await shows(
    page,
    "This mobile number is already registered with us. Kindly try another number if you're registering a different account.",
  );
  const newPhone = `1512${crypto.randomInt(2e6, 1e7)}`;
  await page.getByLabel(/New phone number/).fill(newPhone);
  await submitFrom(page, "newPhone");
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await page.getByRole("button", { name: "Save" }).click();
  await shows(page, "Please Enter verification code");
  await page.getByLabel("Verification code").fill(wrongCode(latestCode(newPhone)));
  await submitFrom(page, "code");
  await shows(page, "Incorrect code! Please try again.");

  await page.goto("/app/PasswordAndSecurity?panel=email");
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Continue" }).click();
  const newEmail = `new.${user.username}@example.test`;
  await page.getByLabel("New email address").fill(other.email);
  await page.getByRole("button", { name: "Send code" }).click();
  await shows(page, "Email address already exists");
  await page.getByLabel("New email address").fill(newEmail);
  await submitFrom(page, "newEmail");
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await enterCode(page, wrongCode(latestEmailCode(newEmail)), "Save");
  await shows(page, "Incorrect Code. Please check your code and try again.");

  await page.goto("/app/PasswordAndSecurity?panel=password");
  await page.getByLabel("Old password").fill(PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm new password").fill(PASSWORD);
  await page.getByRole("button", { name: "Save" }).click();
  await shows(page, "New password cannot be same as Old password!");
  await page.getByLabel("Old password").fill(PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
  await submitFrom(page, "confirmPassword");
  await shows(page, "Your password has been updated successfully");
});

test("edit user profile: failure texts, the state list, success", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  await signInAs((await createUser("clinician")).id);
  await page.goto("/app/settings");
  await field(page, "firstName").fill("Robin");
  await field(page, "lastName").fill("Hale");
  await field(page, "addressLine1").fill("12 Elm Street");
  await field(page, "addressLine2").fill("Suite 4");
  await field(page, "city").fill("Austin");
  await field(page, "state").fill("Nowhere");
  await field(page, "zip").fill("78701");
  await field(page, "zip").press("Tab");
  await page.getByRole("button", { name: "Submit" }).click();
  await shows(page, "Please select an appropriate state from the dropdown");
  await shows(page, "Please fix the inputs with errors");
  await shows(page, "Profile was not updated. Please check the highlighted field and try again.");
  await field(page, "state").fill("Texas");
  await field(page, "state").press("Tab");
  if (javaScriptEnabled) {
    await expect(
      page.getByText("Please select an appropriate state from the dropdown"),
    ).toHaveCount(0);
  }
  await page.getByRole("button", { name: "Submit" }).click();
  await shows(page, "Profile was updated successfully");
  await expect(page.getByText("Please fix the inputs with errors")).toHaveCount(0);
});

test("care site profile and details dialog: failure and success texts", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  const site = createCareSite();
  await signInAs((await createUser("superadmin")).id);
  await page.goto(`/app/clinicprofiledetails?c_id=${site.id}`);
  await field(page, "accountNumber").fill(`TXT${crypto.randomInt(1e8, 1e9)}`);
  await field(page, "name").fill("Riverside Care");
  await field(page, "website").fill("riverside.example.com");
  await field(page, "city").fill("Austin");
  await field(page, "state").fill("Texas");
  await field(page, "zip").fill("7");
  // With JavaScript the box's message appears as it loses focus: leave it before clicking.
  await field(page, "zip").press("Tab");
  if (javaScriptEnabled) await expect(page.locator("#field-zip-error")).toBeVisible();
  await page.getByRole("button", { name: "Submit" }).click();
  await shows(page, "Clinic was not updated. Please check the highlighted field and try again.");
  await field(page, "zip").fill("78701");
  await submitFrom(page, "zip");
  await shows(page, "Clinic was updated successfully");

  const other = createCareSite();
  await signInAs((await createUser("clinicadmin", { careSiteIds: [other.id] })).id);
  await page.goto(`/app/caresitesettingdashboard?c=${other.id}&dialog=details`);
  await field(page, "name").fill("Riverside Care");
  await field(page, "addressLine1").fill("1 River Road");
  await field(page, "addressLine2").fill("Floor 2");
  await field(page, "city").fill("Austin");
  await field(page, "state").fill("Texas");
  await field(page, "zip").fill("78701");
  await field(page, "website").fill("riverside.example.com");
  await page.getByRole("button", { name: "Submit" }).click();
  await shows(page, "Care Site Details updated successfully");
});

test("every field shows its own message at once: a weak password and a different confirmation", async ({
  page,
  signInAs,
}) => {
  const pattern =
    "Password must be at least 8 characters long and contain an uppercase letter, a lowercase letter, a digit and a special character (-+_!@#$%^&*.,?)";
  await page.goto("/signup");
  await field(page, "username").fill("abc");
  await field(page, "password").fill("weakpass");
  await field(page, "confirmPassword").fill("otherpass");
  await submitFrom(page, "confirmPassword");
  await expect(page.locator("#field-username-error")).toHaveText("Must be at least 6 characters");
  await expect(page.locator("#field-password-error")).toHaveText(pattern);
  await expect(page.locator("#field-confirmPassword-error")).toHaveText("Passwords must match");

  await signInAs((await createUser("clinician")).id);
  await page.goto("/app/PasswordAndSecurity?panel=password");
  await page.getByLabel("New password", { exact: true }).fill("weakpass");
  await page.getByLabel("Confirm new password").fill("otherpass");
  await submitFrom(page, "confirmPassword");
  await expect(page.locator("#field-oldPassword-error")).toHaveText(
    "Please enter your password to continue!",
  );
  await expect(page.locator("#field-newPassword-error")).toHaveText(pattern);
  await expect(page.locator("#field-confirmPassword-error")).toHaveText("Password must match");
});
