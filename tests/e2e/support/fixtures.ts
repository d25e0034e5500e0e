import { test as base, expect, type Page } from "@playwright/test";
import { createSession, latestCode } from "./db";

export { expect };

/** Signs in through the two steps of the form, reading the code from the outbox. */
export async function signInThroughForm(page: Page, login: string, password: string, phone: string) {
  await page.goto("/");
  const started = Date.now() - 1000;
  await page.getByLabel("Username or email").fill(login);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  const code = latestCode(phone, started);
  expect(code, "a code in the outbox").toMatch(/^\d{4}$/);
  await page.getByLabel("Verification code").fill(code!);
  await page.getByRole("button", { name: "Verify" }).click();
}

export const test = base.extend<{ signInAs: (userId: string) => Promise<void> }>({
  signInAs: async ({ context, baseURL }, use) => {
    await use(async (userId: string) => {
      const value = await createSession(userId);
      await context.addCookies([{ name: "__arc_session", value, url: baseURL! }]);
    });
  },
});
