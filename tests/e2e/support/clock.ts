// Messages that hide themselves, on Playwright's clock: the clock stands still from pauseClock on
// and only runFor moves it, so "shown just before the delay, gone just after" is exact.
import { expect, type Locator, type Page } from "@playwright/test";

/** Installs the fake clock and pauses it a moment from now. */
export async function pauseClock(page: Page) {
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1000);
}

/**
 * The message: visible now (waiting up to `timeout` for it, for an answer that is slow on purpose),
 * still 50 ms before `delay`, hidden 50 ms after it.
 */
export async function expectHiddenAfter(
  page: Page,
  message: Locator,
  delay: number,
  { timeout }: { timeout?: number } = {},
) {
  await expect(message).toBeVisible({ timeout });
  await page.clock.runFor(delay - 50);
  await expect(message).toBeVisible();
  await page.clock.runFor(100);
  await expect(message).toBeHidden();
}
