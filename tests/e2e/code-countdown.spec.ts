// The code countdown on every code step (spec 1 §4.1-§4.3, DESIGN.md §4), with JavaScript: 300 s as
// m:ss, the expired text at 0, and after a resend a green message and 5:00 again. Without
// JavaScript the step states the clock time the code expires at. Playwright's clock stands in for
// the five minutes.
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { createInvitation, createUser, PASSWORD } from "./support/db";
import { expect, reachCodeStep, test } from "./support/fixtures";

const EXPIRED = "Your earlier Verification Code has been expired ! Resend Verification code";

type Step = {
  name: string;
  /** Reaches the code step from a fresh page; returns the green resend message. */
  reach: (page: Page, signInAs: (userId: string) => Promise<void>) => Promise<string>;
};

async function register(page: Page, invited: boolean) {
  const username = `e2e.cd.${crypto.randomBytes(4).toString("hex")}`;
  if (invited) {
    const invitation = await createInvitation({ role: "clinician" });
    await page.goto(`/signup?param1=${encodeURIComponent(invitation.token)}`);
  } else {
    await page.goto("/signup");
    await page.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
  }
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Password", { exact: true }).fill("Register-1!");
  await page.getByLabel("Confirm password", { exact: true }).fill("Register-1!");
  await page.getByLabel("First name").fill("Dana");
  await page.getByLabel("Last name").fill("Brooks");
  await page.getByLabel("Mobile phone").fill(`512${crypto.randomInt(2e6, 1e7)}`);
  await page.getByRole("button", { name: invited ? "Verify Phone Number" : "Next" }).click();
  return "New Verification code has been sent to your registered mobile!";
}

async function changeContact(
  page: Page,
  signInAs: (userId: string) => Promise<void>,
  panel: "email" | "phone",
) {
  const user = await createUser("clinician");
  await signInAs(user.id);
  await page.goto(`/app/PasswordAndSecurity?panel=${panel}`);
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Continue" }).click();
  if (panel === "email") {
    await page.getByLabel("New email address").fill(`new.${user.username}@example.test`);
  } else {
    await page.getByLabel(/New phone number/).fill(`737${crypto.randomInt(2e6, 1e7)}`);
  }
  await page.getByRole("button", { name: "Send code" }).click();
  return panel === "email"
    ? "New Verification code has been sent to your email!"
    : "New Verification code has been sent to your registered mobile!";
}

async function forgot(page: Page, channel: "email" | "phone") {
  const user = await createUser("clinician");
  await page.goto(channel === "email" ? "/restorepasswordwithemail" : "/restorepasswordwithphone");
  if (channel === "email") await page.getByLabel("Email").fill(user.email);
  else await page.getByLabel("Phone number").fill(user.phone);
  await page.getByRole("button", { name: "Send code" }).click();
  return channel === "email"
    ? "New Verification code has been sent to your email!"
    : "New Verification code has been sent to your registered mobile!";
}

const steps: Step[] = [
  {
    name: "sign-in",
    reach: async (page) => {
      const user = await createUser("clinician");
      await reachCodeStep(page, user.username, PASSWORD, user.phone);
      return "New Verification code has been sent to your registered mobile!";
    },
  },
  { name: "forgot password by email", reach: (page) => forgot(page, "email") },
  { name: "forgot password by phone", reach: (page) => forgot(page, "phone") },
  { name: "self-registration", reach: (page) => register(page, false) },
  { name: "invited registration", reach: (page) => register(page, true) },
  { name: "email change", reach: (page, signInAs) => changeContact(page, signInAs, "email") },
  { name: "phone change", reach: (page, signInAs) => changeContact(page, signInAs, "phone") },
];

for (const step of steps) {
  test(`the ${step.name} code step counts down, expires and restarts after a resend`, async ({
    page,
    signInAs,
    javaScriptEnabled,
  }) => {
    const expiry = page.getByTestId("code-expiry");
    if (!javaScriptEnabled) {
      await step.reach(page, signInAs);
      await expect(expiry).toHaveText(
        /^The code is valid for 5 minutes, until \d{1,2}:\d\d:\d\d\s[AP]M C[SD]T\.$/,
      );
      return;
    }
    await page.clock.install();
    const resent = await step.reach(page, signInAs);
    const countdown = page.getByTestId("countdown");
    await expect(countdown).toHaveText(/^(5:00|4:5\d)$/);
    // Loaded afresh (the page React hydrates, or the page the script enhances) it counts too.
    await page.reload();
    await expect(countdown).toHaveText(/^(5:00|4:5\d)$/);
    await page.clock.fastForward("04:00");
    await expect(countdown).toHaveText(/^(1:00|0:5\d)$/);
    await page.clock.fastForward("01:01");
    await expect(expiry).toHaveText(EXPIRED);
    await expect(expiry).toHaveClass(/text-danger/);

    // Back to the server's time, then a new code: a green message and 5:00 again.
    await page.clock.setSystemTime(new Date());
    await page.getByRole("button", { name: "Resend Verification code" }).click();
    await expect(page.locator(".alert-success", { hasText: resent })).toBeVisible();
    await expect(countdown).toHaveText(/^(5:00|4:5\d)$/);
  });
}
