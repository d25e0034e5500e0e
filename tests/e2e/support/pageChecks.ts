// The checks every page of a spec passes with JavaScript on at 1024×768 (spec1-pages, spec2-pages,
// layout): no console error, no page error, no React hydration warning, nothing wider than the
// window, no label or heading split inside a word.
import { expect, test, type Page } from "@playwright/test";

/** Records what the page reports from the moment it is called (except what `expected` matches). */
export function watch(page: Page, expected?: RegExp) {
  const problems: string[] = [];
  page.on("console", (message) => {
    const text = message.text().split("\n")[0];
    if (expected?.test(text)) return;
    if (message.type() === "error") problems.push(`console error: ${text}`);
    else if (/hydrat/i.test(text)) problems.push(`console ${message.type()}: ${text}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/**
 * Judges the page now shown: waits for React to hydrate it when it ships React and scripts run
 * (root.tsx marks the document), then checks what was reported and the page's width.
 */
export async function expectClean(page: Page, problems: string[]) {
  await page.waitForLoadState("load");
  const scriptsRun = test.info().project.use.javaScriptEnabled !== false;
  if (scriptsRun && (await page.locator("script[type=module]").count()) > 0) {
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  }
  expect(problems).toEqual([]);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, "page width at a 1024 px window").toBeLessThanOrEqual(1024);
}

/** The page's width, and the label or heading words the browser had to split over two lines. */
export async function layoutOf(page: Page) {
  return page.evaluate(() => {
    const broken: string[] = [];
    const texts = document.querySelectorAll("label, h1, h2, h3, h4, h5, h6, .card-body dt, th");
    for (const element of texts) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          // A word on one line has one box (a hyphenated compound may wrap at its hyphen).
          const lines = new Set(
            [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
          );
          if (lines.size > 1 && !match[0].includes("-")) broken.push(match[0]);
        }
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, broken };
  });
}
