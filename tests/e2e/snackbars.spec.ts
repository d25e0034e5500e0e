// The messages that hide themselves (spec 1 §8 last line, §9, §2.6, §4.4; app/ui/delays.ts): each
// screen's delay with JavaScript, on Playwright's paused clock (shown just before the delay, gone
// just after); without JavaScript the message stays and its close box hides it.
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { expectHiddenAfter } from "./support/clock";
import { createCareSite, createInvitation, createUser, db, PASSWORD } from "./support/db";
import { expect, hydrated, reachCodeStep, test } from "./support/fixtures";

type SignInAs = (userId: string) => Promise<void>;

/**
 * Opens a page and, with JavaScript, waits until React has hydrated it: a field filled before then
 * is the server's input, which hydration takes over without a change event, so the form stays
 * "unchanged" and its Submit disabled (a failure seen under load).
 */
async function open(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
}

type Screen = {
  name: string;
  delay: number;
  /** Opens the screen and prepares the post that shows the message. */
  open: (page: Page, signInAs: SignInAs) => Promise<void>;
  /** Posts: the screen answers with the message. */
  post: (page: Page) => Promise<void>;
  message: string | RegExp;
  /** The message's role: "status" unless it is an error read out at once. */
  role?: "status" | "alert";
};

const resend = (page: Page) =>
  page.getByRole("button", { name: "Resend Verification code" }).click();

async function registrationCodeStep(page: Page, path: string, invited: boolean) {
  const username = `e2e.sb.${crypto.randomBytes(4).toString("hex")}`;
  await open(page, path);
  if (!invited) await page.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Password", { exact: true }).fill("Register-1!");
  await page.getByLabel("Confirm password", { exact: true }).fill("Register-1!");
  await page.getByLabel("First name").fill("Dana");
  await page.getByLabel("Last name").fill("Brooks");
  await page.getByLabel("Mobile phone").fill(`512${crypto.randomInt(2e6, 1e7)}`);
  await page.getByRole("button", { name: invited ? "Verify Phone Number" : "Next" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
}

async function forgotCodeStep(page: Page, channel: "email" | "phone") {
  const user = await createUser("clinician");
  await open(page, channel === "email" ? "/restorepasswordwithemail" : "/restorepasswordwithphone");
  if (channel === "email") await page.getByLabel("Email").fill(user.email);
  else await page.getByLabel("Phone number").fill(user.phone);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
}

const RESENT_MOBILE = "New Verification code has been sent to your registered mobile!";

/** A care site admin on the notification settings of a care site of their own. */
async function notificationSettings(page: Page, signInAs: SignInAs, options: { saved?: boolean }) {
  const site = createCareSite("Snackbar Clinic");
  if (options.saved) {
    const database = db();
    try {
      database
        .prepare(
          `INSERT INTO "NotificationSetting" (careSiteId, days, recipients, adherenceThreshold,
             spo2Threshold, therapyAdjustment, updatedAt)
           VALUES (?, 'monday', 'lead@example.test', 70, 90, 0, ?)`,
        )
        .run(site.id, Date.now());
    } finally {
      database.close();
    }
  }
  const admin = await createUser("clinicadmin", { careSiteIds: [site.id] });
  await signInAs(admin.id);
  await open(page, "/app/notificationsettings");
  if (!options.saved) {
    // Save waits for a recipient.
    await page.getByLabel("Email", { exact: true }).fill("lead@example.test");
    await page.getByRole("button", { name: "Add" }).click();
    await expect(page.getByRole("list", { name: "Recipients" })).toContainText("lead@example.test");
  }
  return site;
}

/** The care site's settings can no longer be written: the save fails (a trigger refuses it). */
function failNotificationSettingsWrites(careSiteId: string) {
  const database = db();
  try {
    database.exec(
      `CREATE TRIGGER "fail_${careSiteId}" BEFORE INSERT ON "NotificationSetting"
       WHEN NEW.careSiteId = '${careSiteId}' BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
    );
  } finally {
    database.close();
  }
}

const saveNotificationSettings = (page: Page) => page.getByRole("button", { name: "Save" }).click();

const screens: Screen[] = [
  {
    name: "sign-in (/)",
    delay: 6000,
    open: async (page) => {
      const user = await createUser("clinician");
      await reachCodeStep(page, user.username, PASSWORD, user.phone);
    },
    post: resend,
    message: RESENT_MOBILE,
  },
  {
    name: "forgot password by email",
    delay: 5000,
    open: (page) => forgotCodeStep(page, "email"),
    post: resend,
    message: "New Verification code has been sent to your email!",
  },
  {
    name: "forgot password by phone",
    delay: 5000,
    open: (page) => forgotCodeStep(page, "phone"),
    post: resend,
    message: RESENT_MOBILE,
  },
  {
    name: "registration (/signup)",
    delay: 5000,
    open: (page) => registrationCodeStep(page, "/signup", false),
    post: resend,
    message: RESENT_MOBILE,
  },
  {
    name: "registration (/acceptinvite)",
    delay: 5000,
    open: async (page) => {
      const invitation = await createInvitation({ role: "clinician" });
      await registrationCodeStep(
        page,
        `/acceptinvite?param1=${encodeURIComponent(invitation.token)}`,
        true,
      );
    },
    post: resend,
    message: RESENT_MOBILE,
  },
  {
    name: "Password and Security",
    delay: 5000,
    open: async (page, signInAs) => {
      const user = await createUser("clinician");
      await signInAs(user.id);
      await open(page, "/app/PasswordAndSecurity?panel=units");
      await page.getByLabel("Metric (cm, kg)").check();
    },
    post: (page) => page.getByRole("button", { name: "Save" }).click(),
    message: "Your measuring units has been updated successfully",
  },
  {
    name: "Edit user profile",
    delay: 4000,
    open: async (page, signInAs) => {
      const user = await createUser("clinician");
      await signInAs(user.id);
      await open(page, "/app/settings");
      await page.getByLabel("Last name").fill("Stone");
      await page.getByLabel("Address line 1").fill("1200 Congress Ave");
      await page.getByLabel("Address line 2").fill("Suite 100");
      await page.getByLabel("Country").selectOption("United States");
      await page.getByLabel("State").fill("Texas");
      await page.getByLabel("City").fill("Austin");
      await page.getByLabel("Zip").fill("78701");
    },
    post: (page) => page.getByRole("button", { name: "Submit" }).click(),
    message: "Profile was updated successfully",
  },
  {
    name: "Care Site Profile",
    delay: 6000,
    open: async (page, signInAs) => {
      const site = createCareSite("Snackbar Clinic");
      const admin = await createUser("abmadmin");
      await signInAs(admin.id);
      await open(page, `/app/clinicprofiledetails?c_id=${site.id}`);
      await page.getByLabel("City", { exact: true }).fill("Houston");
    },
    post: (page) => page.getByRole("button", { name: "Submit" }).click(),
    message: "Clinic was updated successfully",
  },
  {
    name: "care site settings",
    delay: 6000,
    open: async (page, signInAs) => {
      const site = createCareSite("Snackbar Clinic");
      const admin = await createUser("clinicadmin", { careSiteIds: [site.id] });
      await signInAs(admin.id);
      await open(page, `/app/caresitesettingdashboard?c=${site.id}&dialog=details`);
      await page.getByLabel("Address line 1").fill("1200 Congress Ave");
      await page.getByLabel("Address line 2").fill("Suite 100");
      await page.getByLabel("Website").fill("www.example.com");
    },
    post: (page) => page.getByRole("button", { name: "Submit" }).click(),
    message: "Care Site Details updated successfully",
  },
  {
    // Spec 2 §4 and §9: the summary's success message after a save, 5 s.
    name: "Notification Summary (settings saved)",
    delay: 5000,
    open: async (page, signInAs) => {
      await notificationSettings(page, signInAs, { saved: false });
    },
    post: saveNotificationSettings,
    message: "Notification settings has been updated successfully!",
  },
  {
    // Spec 2 §8 and §9: an error snackbar, 6000 ms.
    name: "Notifications (save fails)",
    delay: 6000,
    open: async (page, signInAs) => {
      const site = await notificationSettings(page, signInAs, { saved: false });
      failNotificationSettingsWrites(site.id);
    },
    post: saveNotificationSettings,
    message: "Error occured! couldn't save data",
    role: "alert",
  },
  {
    // Ours (the spec's Nochange result): hides with the screen's snackbars, 6000 ms.
    name: "Notifications (nothing changed)",
    delay: 6000,
    open: async (page, signInAs) => {
      await notificationSettings(page, signInAs, { saved: true });
    },
    post: saveNotificationSettings,
    message: "Nothing to save: the notification settings are unchanged.",
  },
];

for (const screen of screens) {
  test(`${screen.name}: the message hides after ${screen.delay} ms, or by its close box`, async ({
    page,
    signInAs,
    javaScriptEnabled,
  }) => {
    const message = page.getByRole(screen.role ?? "status").filter({ hasText: screen.message });
    await screen.open(page, signInAs);
    if (!javaScriptEnabled) {
      await screen.post(page);
      await expect(message).toBeVisible();
      await message.getByRole("button", { name: "Close" }).click();
      await expect(message).toBeHidden();
      return;
    }
    // The clock stands still from the post on: only runFor moves it.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
    await screen.post(page);
    await expectHiddenAfter(page, message, screen.delay);
  });
}

test("Password and Security: the success popup closes and the form clears after 5000 ms", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "without JavaScript the page after the post is already empty");
  const user = await createUser("clinicadmin");
  await signInAs(user.id);
  await open(page, "/app/PasswordAndSecurity?panel=password");
  const fields = ["Old password", "New password", "Confirm new password"] as const;
  const values = [PASSWORD, "Another-pass7?", "Another-pass7?"];
  for (const [i, label] of fields.entries()) {
    await page.getByLabel(label, { exact: true }).fill(values[i]);
  }
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1000);
  await page.getByRole("button", { name: "Save" }).click();
  const popup = page
    .getByRole("status")
    .filter({ hasText: "Your password has been updated successfully" });
  await expect(popup).toBeVisible();
  await page.clock.runFor(4950);
  await expect(popup).toBeVisible();
  for (const [i, label] of fields.entries()) {
    await expect(page.getByLabel(label, { exact: true })).toHaveValue(values[i]);
  }
  await page.clock.runFor(100);
  await expect(popup).toBeHidden();
  for (const label of fields) {
    await expect(page.getByLabel(label, { exact: true })).toHaveValue("");
  }
});
