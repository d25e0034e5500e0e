// A failed post keeps what was typed (issue 20 item 6): every form of spec 1 answers a refused or
// invalid post with the values put back into its fields, passwords never, JavaScript off and on.
// The registration's "Change my details" brings the form back filled.
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import {
  anyCareSiteId,
  createCareSite,
  createInvitation,
  createUser,
  latestCode,
  latestEmailCode,
  PASSWORD,
} from "./support/db";
import { expect, reachCodeStep, test } from "./support/fixtures";

const NEW_PASSWORD = "Register-1!";
const NOT_UPDATED = "Clinic was not updated. Please check the highlighted field and try again.";
const field = (page: Page, name: string) => page.locator(`#field-${name}`);
const fieldError = (page: Page, name: string) => page.locator(`#field-${name}-error`);
const hex = () => crypto.randomBytes(4).toString("hex");

/**
 * Every field keeps its value; no password is put back into the page (with JavaScript the browser
 * may keep what was typed in a password box, but the page never writes it into a value).
 */
async function expectValues(page: Page, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) {
    await expect(field(page, name), name).toHaveValue(value);
  }
  const passwords = page.locator('input[type="password"]');
  for (let i = 0; i < (await passwords.count()); i++) {
    await expect(passwords.nth(i)).not.toHaveAttribute("value");
  }
}

function newPerson() {
  const username = `e2e.keep.${hex()}`;
  return {
    username,
    email: `${username}@example.test`,
    firstName: "Dana",
    lastName: "Brooks",
    phone: `512${crypto.randomInt(2e6, 1e7)}`,
  };
}

type Person = ReturnType<typeof newPerson>;

async function fillRegistration(page: Page, person: Person, options: { email?: boolean } = {}) {
  await field(page, "username").fill(person.username);
  await field(page, "password").fill(NEW_PASSWORD);
  await field(page, "confirmPassword").fill(NEW_PASSWORD);
  await field(page, "firstName").fill(person.firstName);
  await field(page, "lastName").fill(person.lastName);
  await field(page, "phone").fill(person.phone);
  if (options.email !== false) await field(page, "email").fill(person.email);
}

test("sign-in: a wrong code stays in its box; a missing password keeps the username", async ({
  page,
}) => {
  const user = await createUser("clinician");
  await page.goto("/");
  await page.getByLabel("Username or email").fill(user.username);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(fieldError(page, "password")).toHaveText("Required");
  await expectValues(page, { usernameOrEmail: user.username });

  const code = await reachCodeStep(page, user.username, PASSWORD, user.phone);
  const wrong = code === "0000" ? "1111" : "0000";
  await page.getByLabel("Verification code").fill(wrong);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(
    page.getByText("Incorrect Code. Please check your code and try again."),
  ).toBeVisible();
  await expectValues(page, { code: wrong });
});

test("forgot password by email: an unknown or invalid address stays in the box", async ({
  page,
}) => {
  const unknown = `nobody.${hex()}@example.test`;
  await page.goto("/restorepasswordwithemail");
  await page.getByLabel("Email").fill(unknown);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(
    page.getByText("Incorrect email. Please check your email address and try again."),
  ).toBeVisible();
  await expectValues(page, { email: unknown });

  await page.getByLabel("Email").fill("nobody@");
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(fieldError(page, "email")).toHaveText("Invalid Email");
  await expectValues(page, { email: "nobody@" });
});

test("forgot password by phone: an unknown number stays in the box; so does a wrong code", async ({
  page,
}) => {
  const unknown = `1737${crypto.randomInt(2e6, 1e7)}`;
  await page.goto("/restorepasswordwithphone");
  await page.getByLabel("Phone number").fill(unknown);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(
    page.getByText("Incorrect Phone number. Please check your Phone number and try again."),
  ).toBeVisible();
  await expectValues(page, { phonenumber: unknown });

  const user = await createUser("clinician");
  const started = Date.now() - 1000;
  await page.getByLabel("Phone number").fill(user.phone);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  const code = latestCode(user.phone, started);
  const wrong = code === "0000" ? "1111" : "0000";
  await page.getByLabel("Verification code").fill(wrong);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(
    page.getByText("Incorrect Code. Please check your code and try again."),
  ).toBeVisible();
  await expectValues(page, { code: wrong });
});

test("registration: an email that exists keeps every other value; Change my details comes back filled", async ({
  page,
}) => {
  const existing = await createUser("clinician");
  const person = newPerson();
  await page.goto("/signup");
  await fillRegistration(page, { ...person, email: existing.email });
  await page.getByRole("button", { name: "Next" }).click();
  await expect(fieldError(page, "email")).toHaveText("Email address already exists");
  const kept = {
    username: person.username,
    firstName: person.firstName,
    lastName: person.lastName,
    phoneCountry: "1",
    phone: person.phone,
    email: existing.email,
  };
  await expectValues(page, kept);

  // A mismatched confirmation: refused, the values stay, the passwords do not.
  await field(page, "email").fill(person.email);
  await field(page, "password").fill(NEW_PASSWORD);
  await field(page, "confirmPassword").fill("Register-2!");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(fieldError(page, "confirmPassword")).toHaveText("Passwords must match");
  await expectValues(page, { ...kept, email: person.email });

  await field(page, "password").fill(NEW_PASSWORD);
  await field(page, "confirmPassword").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await page.getByRole("button", { name: "Change my details" }).click();
  await expect(page.getByRole("button", { name: "Next" })).toBeVisible();
  await expectValues(page, { ...kept, email: person.email });
});

test("registration inside the app keeps the values of a refused post and after Change my details", async ({
  page,
  signInAs,
}) => {
  const existing = await createUser("clinician");
  await signInAs((await createUser("clinicadmin")).id);
  const person = newPerson();
  await page.goto("/app/signup");
  await fillRegistration(page, { ...person, username: existing.username });
  await page.getByRole("button", { name: "Next" }).click();
  await expect(fieldError(page, "username")).toHaveText("Username already exists");
  const kept = {
    username: existing.username,
    firstName: person.firstName,
    lastName: person.lastName,
    phone: person.phone,
    email: person.email,
  };
  await expectValues(page, kept);

  await field(page, "username").fill(person.username);
  await field(page, "password").fill(NEW_PASSWORD);
  await field(page, "confirmPassword").fill(NEW_PASSWORD);
  await field(page, "confirmPassword").press("Enter");
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await page.getByRole("button", { name: "Change my details" }).click();
  await expect(page.getByRole("button", { name: "Next" })).toBeVisible();
  await expectValues(page, { ...kept, username: person.username });
});

test("an invitation's registration keeps the values of a refused post and after Change my details", async ({
  page,
}) => {
  const taken = await createUser("clinician");
  const invitation = await createInvitation({ careSiteId: anyCareSiteId() });
  const person = newPerson();
  await page.goto(`/acceptinvite?param1=${encodeURIComponent(invitation.token)}`);
  // The phone of an existing account: status 222 of spec 1 §8.
  await fillRegistration(page, { ...person, phone: taken.phone.slice(1) }, { email: false });
  await page.getByRole("button", { name: "Verify Phone Number" }).click();
  await expect(fieldError(page, "phone")).toHaveText(
    "This mobile number is already registered with us. Kindly try another number if you're registering a different account.",
  );
  const kept = {
    username: person.username,
    firstName: person.firstName,
    lastName: person.lastName,
    phone: taken.phone.slice(1),
    email: invitation.email,
  };
  await expectValues(page, kept);

  await field(page, "password").fill(NEW_PASSWORD);
  await field(page, "confirmPassword").fill(NEW_PASSWORD);
  await field(page, "phone").fill(person.phone);
  await page.getByRole("button", { name: "Verify Phone Number" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await page.getByRole("button", { name: "Change my details" }).click();
  await expect(page.getByRole("button", { name: "Verify Phone Number" })).toBeVisible();
  await expectValues(page, { ...kept, phone: person.phone });
});

test("password and security: a taken email, a taken phone and a wrong code stay in their boxes", async ({
  page,
  signInAs,
}) => {
  const user = await createUser("clinician");
  const other = await createUser("clinician");
  await signInAs(user.id);

  await page.goto("/app/PasswordAndSecurity?panel=email");
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("New email address").fill(other.email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("Email address already exists")).toBeVisible();
  await expectValues(page, { newEmail: other.email });

  const newEmail = `new.${user.username}@example.test`;
  const before = Date.now() - 1000;
  await page.getByLabel("New email address").fill(newEmail);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText(`We sent a 4-digit verification code to ${newEmail}`)).toBeVisible();
  const code = latestEmailCode(newEmail, before);
  const wrong = code === "0000" ? "1111" : "0000";
  await page.getByLabel("Verification code").fill(wrong);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByText("Incorrect Code. Please check your code and try again."),
  ).toBeVisible();
  await expectValues(page, { code: wrong });

  await page.goto("/app/PasswordAndSecurity?panel=phone");
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel(/New phone number/).fill(other.phone);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(
    page.getByText(
      "This mobile number is already registered with us. Kindly try another number if you're registering a different account.",
    ),
  ).toBeVisible();
  await expectValues(page, { newPhone: other.phone });
});

test("edit user profile: an invalid field keeps every value typed", async ({ page, signInAs }) => {
  const user = await createUser("clinician");
  await signInAs(user.id);
  await page.goto("/app/settings");
  const typed = {
    firstName: "Robin",
    lastName: "Hale",
    addressLine1: "12 Elm Street",
    addressLine2: "Suite 4",
    city: "Austin",
    state: "Texas",
    zip: "1",
  };
  for (const [name, value] of Object.entries(typed)) await field(page, name).fill(value);
  // Leave the last box first: with JavaScript its message appears on blur and moves the button,
  // which would swallow a click made at the same time.
  await field(page, "zip").press("Tab");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(fieldError(page, "zip")).toHaveText("Must be at least 3 characters");
  await expect(page.getByText("Please fix the inputs with errors")).toBeVisible();
  await expect(
    page.getByText("Profile was not updated. Please check the highlighted field and try again."),
  ).toBeVisible();
  await expectValues(page, { ...typed, country: "United States" });
});

test("care site profile: an invalid field and a taken account number keep every value typed", async ({
  page,
  signInAs,
}) => {
  const site = createCareSite();
  const other = createCareSite();
  await signInAs((await createUser("superadmin")).id);
  const otherNumber = `ARC${crypto.randomInt(1e8, 1e9)}`;
  const { withPrisma } = await import("./support/db");
  await withPrisma((client) =>
    client.careSite.update({ where: { id: other.id }, data: { accountNumber: otherNumber } }),
  );
  await page.goto(`/app/clinicprofiledetails?c_id=${site.id}`);
  const typed = {
    accountNumber: "ARC12",
    name: "Riverside Care",
    addressLine1: "1 River Road",
    city: "Austin",
    state: "Texas",
    zip: "78701",
    website: "riverside.example.com",
  };
  for (const [name, value] of Object.entries(typed)) await field(page, name).fill(value);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(fieldError(page, "accountNumber")).toHaveText("Must be at least 12 characters");
  await expect(page.getByText(NOT_UPDATED)).toBeVisible();
  await expectValues(page, typed);

  await field(page, "accountNumber").fill(otherNumber);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(fieldError(page, "accountNumber")).toHaveText("accountnumber alraedy exists");
  await expectValues(page, { ...typed, accountNumber: otherNumber });
});

test("care site details dialog: an invalid field keeps every value typed", async ({
  page,
  signInAs,
}) => {
  const site = createCareSite();
  await signInAs((await createUser("clinicadmin", { careSiteIds: [site.id] })).id);
  await page.goto(`/app/caresitesettingdashboard?c=${site.id}&dialog=details`);
  const typed = {
    name: "Riverside Care",
    addressLine1: "1 River Road",
    addressLine2: "Floor 2",
    city: "Austin",
    state: "Texas",
    zip: "7",
    website: "riverside.example.com",
  };
  for (const [name, value] of Object.entries(typed)) await field(page, name).fill(value);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(fieldError(page, "zip")).toHaveText("Must be at least 3 characters");
  await expect(page.getByText(NOT_UPDATED)).toBeVisible();
  await expectValues(page, typed);
});
