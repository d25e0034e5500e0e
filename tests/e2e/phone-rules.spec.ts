// The one phone rule of every form that takes a phone (issue 20 item 1): a number must be a valid
// number of its country (domain/phone.ts), with each screen's own message from the spec. A
// two-digit number once registered, and its code went to "112".
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import {
  createCareSite,
  createUser,
  db,
  latestCode,
  PASSWORD as PASSWORD_OF_TEST_USERS,
} from "./support/db";
import { expect, test } from "./support/fixtures";

const PASSWORD = "Register-1!";
const fieldError = (page: Page, name: string) => page.locator(`#field-${name}-error`);

function outboxTo(to: string) {
  const database = db();
  try {
    return (
      database.prepare(`SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE "to" = ?`).get(to) as {
        n: number;
      }
    ).n;
  } finally {
    database.close();
  }
}

test("registration refuses a two-digit phone: Enter valid phone number, no code", async ({
  page,
}) => {
  const username = `e2e.ph.${crypto.randomBytes(4).toString("hex")}`;
  await page.goto("/signup");
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("First name").fill("Dana");
  await page.getByLabel("Last name").fill("Brooks");
  await page.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
  const before = outboxTo("112");
  for (const bad of ["12", "555 010 0123"]) {
    await page.getByLabel("Mobile phone").fill(bad);
    await page.getByRole("button", { name: "Next" }).click();
    await expect(fieldError(page, "phone")).toHaveText("Enter valid phone number");
  }
  await expect(page.getByText("We sent a 4-digit verification code to")).toHaveCount(0);
  expect(outboxTo("112"), "no code texted to 112").toBe(before);
});

test("change phone refuses a number of 8 or more digits that is not a number of its country", async ({
  page,
  signInAs,
}) => {
  const user = await createUser("clinician");
  await signInAs(user.id);
  await page.goto("/app/PasswordAndSecurity?panel=phone");
  await page.getByLabel("Current password").fill(PASSWORD_OF_TEST_USERS);
  await page.getByRole("button", { name: "Continue" }).click();
  for (const bad of ["12345678", "555 010 0123"]) {
    await page.getByLabel(/New phone number/).fill(bad);
    await page.getByRole("button", { name: "Send code" }).click();
    await expect(page.getByText("Please enter a vaild Phone number to continue!")).toBeVisible();
    await expect(page.getByText("We sent a 4-digit verification code to")).toHaveCount(0);
  }
  expect(latestCode("15550100123")).toBeNull();
});

test("forgot by phone refuses digits that make no phone number: Enter valid phone number", async ({
  page,
}) => {
  await page.goto("/restorepasswordwithphone");
  await page.getByLabel("Phone number").fill("12");
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("Enter valid phone number")).toBeVisible();
  await expect(
    page.getByText("Incorrect Phone number. Please check your Phone number and try again."),
  ).toHaveCount(0);
});

test("the care site profile refuses a two-digit phone and saves a valid one with its country code", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  const admin = await createUser("abmadmin");
  const site = createCareSite("Phone Check");
  await signInAs(admin.id);
  await page.goto(`/app/clinicprofiledetails?c_id=${site.id}`);
  const phone = page.getByLabel("Phone", { exact: true });
  await phone.fill("12");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(fieldError(page, "phone")).toHaveText("Enter valid phone number");
  if (!javaScriptEnabled) {
    // The server's answer (with JavaScript the form's own check answers before any post).
    await expect(
      page.getByText("Clinic was not updated. Please check the highlighted field and try again."),
    ).toBeVisible();
  }

  await page.getByLabel("Phone", { exact: true }).fill("(512) 555-0177");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Clinic was updated successfully")).toBeVisible();
  const database = db();
  try {
    const row = database.prepare(`SELECT phone FROM "CareSite" WHERE id = ?`).get(site.id) as {
      phone: string;
    };
    expect(row.phone).toBe("15125550177");
  } finally {
    database.close();
  }
});
