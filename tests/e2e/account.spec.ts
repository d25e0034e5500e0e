// Password and Security and Edit user profile (spec 1 §2.6, §2.7, §4.4) in Chromium, JavaScript off and on.
import crypto from "node:crypto";
import sharp from "sharp";
import { createUser, db, latestCode, latestEmailCode, PASSWORD } from "./support/db";
import { expect, signInThroughForm, test } from "./support/fixtures";

function userRow(id: string) {
  const database = db();
  try {
    return database
      .prepare(`SELECT email, phone, measuringUnit, city, state, photoId FROM "User" WHERE id = ?`)
      .get(id) as {
      email: string;
      phone: string;
      measuringUnit: string;
      city: string | null;
      state: string | null;
      photoId: string | null;
    };
  } finally {
    database.close();
  }
}

test("change the email address: current password, new address, code, Save", async ({
  page,
  signInAs,
}) => {
  const user = await createUser("clinician");
  await signInAs(user.id);
  await page.goto("/app/PasswordAndSecurity");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
  await page.getByRole("link", { name: "Change email address" }).click();
  await expect(page.getByRole("link", { name: "Change email address" })).toHaveClass(/btn-orange/);
  await page.getByLabel("Current password").fill("Wrong-pass1!");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(
    page.getByText("Incorrect Password! Please check your password and try again."),
  ).toBeVisible();
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Continue" }).click();
  const newEmail = `new.${user.username}@example.test`;
  const before = Date.now() - 1000;
  await page.getByLabel("New email address").fill(newEmail);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText(`We sent a 4-digit verification code to ${newEmail}`)).toBeVisible();
  await page.getByLabel("Verification code").fill(latestEmailCode(newEmail, before)!);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Your email address has been updated successfully")).toBeVisible();
  expect(userRow(user.id).email).toBe(newEmail);
});

test("change the phone number with a code texted to it", async ({ page, signInAs }) => {
  const user = await createUser("abmadmin");
  await signInAs(user.id);
  await page.goto("/app/PasswordAndSecurity?panel=phone");
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel(/New phone number/).fill("1234");
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("Please enter a vaild Phone number to continue!")).toBeVisible();
  const national = `737${crypto.randomInt(2_000_000, 10_000_000)}`;
  const before = Date.now() - 1000;
  await page.getByLabel(/New phone number/).fill(national);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await page.getByLabel("Verification code").fill(latestCode(`1${national}`, before)!);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Your phone number has been updated successfully")).toBeVisible();
  expect(userRow(user.id).phone).toBe(`1${national}`);
});

test("change the password, then sign in with the new one", async ({ page, signInAs }) => {
  const user = await createUser("clinicadmin");
  await signInAs(user.id);
  await page.goto("/app/PasswordAndSecurity?panel=password");
  await page.getByLabel("Old password").fill(PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm new password").fill(PASSWORD);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("New password cannot be same as Old password!")).toBeVisible();
  await page.getByLabel("Old password").fill(PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill("Another-pass7?");
  await page.getByLabel("Confirm new password").fill("Another-pass7?");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Your password has been updated successfully")).toBeVisible();

  await page.getByLabel("Account menu").click();
  await page.getByRole("button", { name: "Log Out" }).click();
  // The sign-out's own navigation must end before the next one starts (else ERR_ABORTED).
  await expect(page).toHaveURL(/\/$/);
  await signInThroughForm(page, user.username, "Another-pass7?", user.phone);
  await expect(page).toHaveURL(/\/app(\/clinicadmin)?$/);
});

test("measuring units are saved per user; the panels follow the role", async ({
  page,
  signInAs,
}) => {
  const user = await createUser("clinician");
  await signInAs(user.id);
  await page.goto("/app/PasswordAndSecurity");
  await page.getByRole("link", { name: "Change Measuring units" }).click();
  await page.getByLabel("Metric (cm, kg)").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Your measuring units has been updated successfully")).toBeVisible();
  expect(userRow(user.id).measuringUnit).toBe("Metric");

  const superadmin = await createUser("superadmin");
  await signInAs(superadmin.id);
  await page.goto("/app/PasswordAndSecurity");
  await expect(page.getByRole("link", { name: "Change password" })).toBeVisible();
  for (const hidden of ["Change email address", "Change phone number", "Change Measuring units"]) {
    await expect(page.getByRole("link", { name: hidden })).toHaveCount(0);
  }
});

test("edit the profile and upload a photo", async ({ page, signInAs, javaScriptEnabled }) => {
  const user = await createUser("clinician");
  await signInAs(user.id);
  await page.goto("/app/settings");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit user profile");
  await expect(page.getByLabel("User name")).toHaveValue(user.username);
  await expect(page.getByLabel("Email")).toBeDisabled();
  const submit = page.getByRole("button", { name: "Submit" });
  if (javaScriptEnabled) await expect(submit).toBeDisabled();

  await page.getByLabel("First name").fill("Erin");
  await page.getByLabel("Last name").fill("Stone");
  await page.getByLabel("Address line 1").fill("1200 Congress Ave");
  await page.getByLabel("Address line 2").fill("Suite 100");
  await page.getByLabel("Country").selectOption("United States");
  await page.getByLabel("State").fill("Texass");
  await page.getByLabel("City").fill("Austin");
  await page.getByLabel("Zip").fill("78701");
  await submit.click();
  await expect(
    page.getByText("Please select an appropriate state from the dropdown"),
  ).toBeVisible();
  await page.getByLabel("State").fill("Texas");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Profile was updated successfully")).toBeVisible();
  expect(userRow(user.id)).toMatchObject({ city: "Austin", state: "Texas" });

  const png = await sharp({
    create: { width: 320, height: 200, channels: 3, background: "#f28c28" },
  })
    .png()
    .toBuffer();
  await page
    .getByLabel(/^Photo/)
    .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByText("Profile photo was updated successfully")).toBeVisible();
  const photoId = userRow(user.id).photoId;
  expect(photoId).not.toBeNull();
  await expect(page.getByAltText("Profile")).toHaveAttribute("src", `/photos/${photoId}`);
  const image = await page.request.get(`/photos/${photoId}`);
  expect(image.headers()["content-type"]).toBe("image/webp");
  const meta = await sharp(await image.body()).metadata();
  expect([meta.width, meta.height]).toEqual([256, 256]);
});
