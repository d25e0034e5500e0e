// Every page of spec 1, with JavaScript on, at 1024×768: no console error, no page error, no React
// hydration warning, and nothing wider than the window (issue 20).
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import {
  anyCareSiteId,
  createInvitation,
  createUser,
  PASSWORD,
  userByUsername,
} from "./support/db";
import { expect, reachCodeStep, test } from "./support/fixtures";
import { expectClean, watch } from "./support/pageChecks";

test.use({ viewport: { width: 1024, height: 768 } });
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the check is of the JavaScript pages");

const DEMO = {
  superadmin: "demo.superadmin",
  abmadmin: "demo.abmadmin",
  clinicadmin: "demo.siteadmin",
  clinician: "demo.clinician",
} as const;

async function visit(page: Page, path: string) {
  const problems = watch(page);
  await page.goto(path);
  await expectClean(page, problems);
}

/**
 * Judges a step reached by posting forms, then the same step loaded afresh: with JavaScript the
 * post's answer renders in the browser, the fresh load is the one React hydrates.
 */
async function expectCleanStep(page: Page, problems: string[]) {
  await expectClean(page, problems);
  const reloaded = watch(page);
  await page.reload();
  await expectClean(page, reloaded);
}

async function signInAsDemo(signInAs: (userId: string) => Promise<void>, role: keyof typeof DEMO) {
  const demo = userByUsername(DEMO[role]);
  await signInAs(demo.id);
  return demo;
}

for (const path of [
  "/",
  "/forgotpassword",
  "/restorepasswordwithemail",
  "/restorepasswordwithphone",
  "/signup",
  "/expired",
]) {
  test(`public page ${path}`, async ({ page }) => {
    await visit(page, path);
  });
}

for (const path of ["/signup", "/acceptinvite"]) {
  test(`${path}?param1=<a valid invitation>`, async ({ page }) => {
    const invitation = await createInvitation({ role: "clinician" });
    await visit(page, `${path}?param1=${encodeURIComponent(invitation.token)}`);
    await expect(page.getByText("Link verified")).toBeVisible();
  });
}

test("the sign-in code step", async ({ page }) => {
  const user = await createUser("clinician");
  const problems = watch(page);
  await reachCodeStep(page, user.username, PASSWORD, user.phone);
  await expectCleanStep(page, problems);
});

test("the forgot-password code step by email", async ({ page }) => {
  const user = await createUser("clinician");
  const problems = watch(page);
  await page.goto("/restorepasswordwithemail");
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await expectCleanStep(page, problems);
});

test("the forgot-password code step by phone", async ({ page }) => {
  const user = await createUser("clinician");
  const problems = watch(page);
  await page.goto("/restorepasswordwithphone");
  await page.getByLabel("Phone number").fill(user.phone);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  await expectCleanStep(page, problems);
});

/** Fills the registration form (the invitation's email is read-only) and posts it. */
async function registerUpToTheCode(page: Page, invited: boolean) {
  const username = `e2e.pages.${crypto.randomBytes(4).toString("hex")}`;
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Password", { exact: true }).fill("Register-1!");
  await page.getByLabel("Confirm password", { exact: true }).fill("Register-1!");
  await page.getByLabel("First name").fill("Dana");
  await page.getByLabel("Last name").fill("Brooks");
  await page.getByLabel("Mobile phone").fill(`512${crypto.randomInt(2e6, 1e7)}`);
  if (!invited) await page.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
  await page.getByRole("button", { name: invited ? "Verify Phone Number" : "Next" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
}

test("the self-registration code step", async ({ page }) => {
  const problems = watch(page);
  await page.goto("/signup");
  await registerUpToTheCode(page, false);
  await expectCleanStep(page, problems);
});

test("the invited registration code step", async ({ page }) => {
  const invitation = await createInvitation({ role: "clinician" });
  const problems = watch(page);
  await page.goto(`/signup?param1=${encodeURIComponent(invitation.token)}`);
  await registerUpToTheCode(page, true);
  await expectCleanStep(page, problems);
});

for (const role of Object.keys(DEMO) as (keyof typeof DEMO)[]) {
  test(`/app as ${role}`, async ({ page, signInAs }) => {
    await signInAsDemo(signInAs, role);
    await visit(page, "/app");
  });
}

test("/app/settings, /app/userinfo/{id} and /app/signup", async ({ page, signInAs }) => {
  await signInAsDemo(signInAs, "clinician");
  const other = userByUsername(DEMO.clinicadmin);
  await visit(page, "/app/settings");
  await visit(page, `/app/userinfo/${other.id}`);
  await visit(page, "/app/signup");
});

test("/app/PasswordAndSecurity with each panel open", async ({ page, signInAs }) => {
  await signInAsDemo(signInAs, "clinician");
  await visit(page, "/app/PasswordAndSecurity");
  for (const panel of ["email", "phone", "password", "units"]) {
    await visit(page, `/app/PasswordAndSecurity?panel=${panel}`);
  }
});

for (const panel of ["email", "phone"] as const) {
  test(`the ${panel}-change code step`, async ({ page, signInAs }) => {
    const user = await createUser("clinician");
    await signInAs(user.id);
    const problems = watch(page);
    await page.goto(`/app/PasswordAndSecurity?panel=${panel}`);
    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByRole("button", { name: "Continue" }).click();
    if (panel === "email") {
      await page.getByLabel("New email address").fill(`new.${user.username}@example.test`);
    } else {
      await page.getByLabel(/New phone number/).fill(`737${crypto.randomInt(2e6, 1e7)}`);
    }
    await page.getByRole("button", { name: "Send code" }).click();
    await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
    await expectCleanStep(page, problems);
  });
}

test("/app/clinicprofiledetails?c_id=…", async ({ page, signInAs }) => {
  await signInAsDemo(signInAs, "superadmin");
  await visit(page, `/app/clinicprofiledetails?c_id=${anyCareSiteId()}`);
});

test("/app/caresitesettingdashboard", async ({ page, signInAs }) => {
  await signInAsDemo(signInAs, "clinicadmin");
  await visit(page, "/app/caresitesettingdashboard");
});

test("an unknown /app page: OPPS! Page not found", async ({ page, signInAs }) => {
  await signInAsDemo(signInAs, "clinician");
  // The 404 itself is the page's answer (Chromium logs it), not an error of the page.
  const problems = watch(page, /^Failed to load resource: .* 404 \(Not Found\)$/);
  await page.goto("/app/xyz");
  await expect(page.getByText("OPPS! Page not found")).toBeVisible();
  await expectClean(page, problems);
});
