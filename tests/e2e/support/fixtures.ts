import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import { createSession, latestCode } from "./db";

export { expect };

/** The password step of the sign-in form. */
export async function submitPassword(page: Page, login: string, password: string) {
  await page.goto("/");
  await page.getByLabel("Username or email").fill(login);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Next" }).click();
}

/** The password step, then waits for the code step; returns the code texted for it. */
export async function reachCodeStep(page: Page, login: string, password: string, phone: string) {
  const started = Date.now() - 1000;
  await submitPassword(page, login, password);
  await expect(page.getByText("We sent a 4-digit verification code to")).toBeVisible();
  const code = latestCode(phone, started);
  expect(code, "a code in the outbox").toMatch(/^\d{4}$/);
  return code!;
}

/** Signs in through the two steps of the form, reading the code from the outbox. */
export async function signInThroughForm(
  page: Page,
  login: string,
  password: string,
  phone: string,
) {
  const code = await reachCodeStep(page, login, password, phone);
  await page.getByLabel("Verification code").fill(code);
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

/**
 * Waits, when JavaScript is on and the page ships React, for React to have hydrated the page
 * (root.tsx marks the document). A click before that is not the client navigation a test means: the
 * link is still plain markup, so the browser loads a new document; and a click while React hydrates
 * makes React 18 hydrate the root synchronously, which with single fetch's streamed data can end in
 * its internal "Minified React error #345" (Root did not complete) on the console.
 */
export async function hydrated(page: Page) {
  if (test.info().project.use.javaScriptEnabled === false) return;
  // The whole document first: its module script comes last in a streamed page, so before "load"
  // none may have arrived yet. After it, none means a page without React or one React has
  // hydrated (Remix's Scripts leaves the document then), as pageChecks.ts expectClean reads it.
  await page.waitForLoadState("load");
  if ((await page.locator("script[type=module]").count()) === 0) return;
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

/**
 * Forgets the browser's session: leaves the page first, so a hydrated app page's own scripts (its
 * chat stream, its session timers) do not react to the lost cookie with a navigation of their own
 * that races the test's next one.
 */
export async function clearSession(page: Page, context: BrowserContext) {
  await page.goto("about:blank");
  await context.clearCookies();
}
