// Sign-in with a code (spec 1 §2.4, §4.1, §8), in Chromium with JavaScript off and on.
import {
  anyCareSiteId,
  createUser,
  DEMO_PASSWORD,
  expireCodes,
  latestCode,
  PASSWORD,
  userByUsername,
} from "./support/db";
import {
  clearSession,
  expect,
  reachCodeStep,
  signInThroughForm,
  submitPassword,
  test,
} from "./support/fixtures";

const sideBar = (page: import("@playwright/test").Page) =>
  page.getByRole("navigation", { name: "Main" });

test("the landing page offers the coming-soon text and the log tool", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("Coming soon: the ARC Connect app for patients.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Decrypt Log Files" })).toHaveAttribute(
    "href",
    "/?dialog=decrypt",
  );
  await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute(
    "href",
    "/forgotpassword",
  );
});

const homes = [
  {
    role: "superadmin",
    heading: "Dashboard",
    entries: ["Dashboard", "Messages", "Invitations"],
    hidden: ["Patients", "Notifications"],
  },
  {
    role: "abmadmin",
    heading: "Dashboard",
    entries: ["Dashboard", "Messages", "Invitations"],
    hidden: ["Patients", "Notifications"],
  },
  {
    role: "clinicadmin",
    heading: "Care Site Dashboard",
    entries: ["Dashboard", "Notifications", "Patients", "Messages", "Invitations"],
    hidden: [],
  },
  {
    role: "clinician",
    heading: "Care Site Dashboard",
    entries: ["Dashboard", "Notifications", "Patients", "Messages", "Invitations"],
    hidden: [],
  },
];

for (const home of homes) {
  test(`a ${home.role} signs in with the texted code and sees their home and side bar`, async ({
    page,
  }) => {
    const site = ["clinicadmin", "clinician"].includes(home.role) ? [anyCareSiteId()] : [];
    const user = await createUser(home.role, { careSiteIds: site });
    await signInThroughForm(page, user.username, PASSWORD, user.phone);
    await expect(page).toHaveURL(/\/app$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(home.heading);
    for (const entry of home.entries) {
      await expect(sideBar(page).getByRole("link", { name: entry, exact: true })).toBeVisible();
    }
    for (const entry of home.hidden) {
      await expect(sideBar(page).getByRole("link", { name: entry, exact: true })).toHaveCount(0);
    }
    const helpCenter = sideBar(page).getByRole("link", { name: "Help Center" });
    await expect(helpCenter).toHaveCount(["clinicadmin", "clinician"].includes(home.role) ? 1 : 0);
    await expect(page.getByRole("contentinfo")).toContainText("v1.6.2");
  });
}

test("a clinician without an accepted care site lands on the invitations and has no Dashboard", async ({
  page,
}) => {
  const user = await createUser("clinician");
  await signInThroughForm(page, user.username, PASSWORD, user.phone);
  await expect(page).toHaveURL(/\/app\/cliniciantable$/);
  await expect(sideBar(page).getByRole("link", { name: "Dashboard" })).toHaveCount(0);
  await expect(sideBar(page).getByRole("link", { name: "Notifications" })).toHaveCount(0);
  await expect(sideBar(page).getByRole("link", { name: "Invitations" })).toHaveAttribute(
    "href",
    "/app/cliniciantable",
  );
});

test("the code step shows the masked phone and when the code expires", async ({
  page,
  javaScriptEnabled,
}) => {
  const user = await createUser("abmadmin");
  await reachCodeStep(page, user.email, PASSWORD, user.phone);
  await expect(
    page.getByText(`+${"*".repeat(user.phone.length - 3)}${user.phone.slice(-3)}`),
  ).toBeVisible();
  if (javaScriptEnabled) {
    await expect(page.getByTestId("countdown")).toHaveText(/^[45]:\d\d$/);
  } else {
    await expect(page.getByTestId("code-expiry")).toContainText(
      "The code is valid for 5 minutes, until",
    );
  }
});

test("a wrong code, a short code and an expired code get the spec's messages", async ({ page }) => {
  const user = await createUser("superadmin");
  const code = await reachCodeStep(page, user.username, PASSWORD, user.phone);
  const wrong = code === "0000" ? "1111" : "0000";

  await page.getByLabel("Verification code").fill(wrong);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(
    page.getByText("Incorrect Code. Please check your code and try again."),
  ).toBeVisible();

  await page.getByLabel("Verification code").fill("12");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Incorrect code! Please try again.")).toBeVisible();

  expireCodes(user.id);
  await page.getByLabel("Verification code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(
    page.getByText("Verification code is expired! Please try again with new one"),
  ).toBeVisible();

  // Resend gives a fresh code that works.
  const before = Date.now() - 1000;
  await page.getByRole("button", { name: "Resend Verification code" }).click();
  await expect(
    page.getByText("New Verification code has been sent to your registered mobile!"),
  ).toBeVisible();
  await page.getByLabel("Verification code").fill(latestCode(user.phone, before)!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/app$/);
});

test("a wrong password gets the spec's message and keeps what was typed", async ({ page }) => {
  const user = await createUser("clinician");
  await submitPassword(page, user.username, "Wrong-pass1!");
  await expect(
    page.getByText("Incorrect email or password. Please check your login and try again."),
  ).toBeVisible();
  await expect(page.getByLabel("Username or email")).toHaveValue(user.username);
});

test("ten wrong codes lock the code step", async ({ page }) => {
  const user = await createUser("abmadmin");
  const code = await reachCodeStep(page, user.username, PASSWORD, user.phone);
  const wrong = code === "0000" ? "1111" : "0000";
  for (let i = 0; i < 10; i++) {
    await page.getByLabel("Verification code").fill(wrong);
    await page.getByRole("button", { name: "Verify" }).click();
    if (i < 9)
      await expect(
        page.getByText("Incorrect Code. Please check your code and try again."),
      ).toBeVisible();
  }
  await expect(page.getByText(/Too many incorrect codes/)).toBeVisible();
  await expect(page.getByLabel("Username or email")).toBeVisible();
});

test("signing out from the avatar menu ends the session", async ({ page, signInAs }) => {
  const user = await createUser("superadmin");
  await signInAs(user.id);
  await page.goto("/app");
  await page.getByLabel("Account menu").click();
  await page.getByRole("button", { name: "Log Out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/app");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel("Username or email")).toBeVisible();
});

test("the demo accounts of the README sign in", async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled, "once is enough: the demo accounts share their phones");
  for (const username of ["demo.superadmin", "demo.abmadmin", "demo.siteadmin", "demo.clinician"]) {
    const demo = userByUsername(username);
    await signInThroughForm(page, username, DEMO_PASSWORD, demo.phone);
    await expect(page).toHaveURL(/\/app$/);
    await page.getByLabel("Account menu").click();
    await page.getByRole("button", { name: "Log Out" }).click();
    await expect(page).toHaveURL(/\/$/);
  }
});

test("the username or the email signs in whatever its letter case (issue 20 item 3)", async ({
  page,
  context,
}) => {
  const user = await createUser("abmadmin");
  await signInThroughForm(page, user.username.toUpperCase(), PASSWORD, user.phone);
  await expect(page).toHaveURL(/\/app$/);
  await clearSession(page, context);
  await signInThroughForm(page, user.email.toUpperCase(), PASSWORD, user.phone);
  await expect(page).toHaveURL(/\/app$/);
});
