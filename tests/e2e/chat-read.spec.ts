// Read receipts (issue 22 item 4; spec 3 §4 "Chat": sent when delivered to nobody else, delivered
// when another user received it, read when another user also read it). Two browsers, two users:
// a message is read only once its recipient's own conversation page, open and visible, was given
// it; the recipient's conversation list, or the conversation open in a hidden tab, only deliver it.
import type { Browser, Page } from "@playwright/test";
import { createCareSite, createSession, createUser } from "./support/db";
import { expect, test } from "./support/fixtures";

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

type User = Awaited<ReturnType<typeof createUser>>;

async function colleagues() {
  const site = createCareSite("Receipt Clinic");
  const sender = await createUser("clinicadmin", { careSiteIds: [site.id] });
  const reader = await createUser("clinician", { careSiteIds: [site.id] });
  return { sender, reader };
}

/** The reader's browser, with JavaScript as in the test's project. */
async function readerPage(browser: Browser, baseURL: string, user: User) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: jsOn() });
  await context.addCookies([
    { name: "__arc_session", value: await createSession(user.id), url: baseURL },
  ]);
  return context.newPage();
}

/** The sender starts the conversation with New Message and sends `text`; returns its URL. */
async function sendFirst(page: Page, reader: User, text: string) {
  await page.goto("/app/chat?dialog=new");
  await page
    .getByRole("dialog", { name: "New Message" })
    .getByRole("button", { name: new RegExp(reader.username) })
    .click();
  const composer = page.getByRole("form", { name: "Send a message" });
  await composer.getByRole("textbox", { name: "Message" }).fill(text);
  await composer.getByRole("button", { name: "Send" }).click();
  await expect(lastMessage(page)).toContainText(text);
  return page.url();
}

const lastMessage = (page: Page) => page.getByTestId("chat-message").last();
const statusOf = (page: Page) => lastMessage(page).getByTestId("message-status");
const listening = (page: Page) =>
  expect(page.locator('html[data-chat-stream="open"]')).toBeAttached();

/** The sender's view of the status: live with JavaScript, after a Refresh without. */
async function expectStatus(page: Page, status: string) {
  if (!jsOn()) await page.getByRole("link", { name: "Refresh" }).click();
  await expect(statusOf(page)).toHaveText(status);
}

test("sent, then delivered when the reader's list loads, read only once the reader opens the conversation", async ({
  page,
  signInAs,
  browser,
  baseURL,
}) => {
  const { sender, reader } = await colleagues();
  await signInAs(sender.id);
  const conversation = await sendFirst(page, reader, "Are you free at three?");
  // Nobody else has it yet.
  await expect(statusOf(page)).toHaveText("sent");
  if (jsOn()) await listening(page);

  // The reader opens Messages: the list shows it (so it was delivered), unread.
  const other = await readerPage(browser, baseURL!, reader);
  await other.goto("/app/chat");
  const list = other.getByRole("complementary", { name: "Conversations" });
  await expect(list).toContainText("Are you free at three?");
  await expect(list.getByLabel("1 unread")).toBeVisible();
  if (jsOn()) await listening(other);
  await expectStatus(page, "delivered");
  // Still delivered, not read, on a fresh load of the sender's page.
  await page.reload();
  await expect(statusOf(page)).toHaveText("delivered");
  if (jsOn()) await listening(page);

  // The reader opens the conversation: read.
  await list.getByRole("link", { name: new RegExp(`Erin ${sender.username}`) }).click();
  await expect(other).toHaveURL(conversation);
  await expect(lastMessage(other)).toContainText("Are you free at three?");
  await expectStatus(page, "read");
  await other.context().close();
});

test("a conversation open in a hidden tab receives a message (delivered) but reads it only when shown", async ({
  page,
  signInAs,
  browser,
  baseURL,
}) => {
  test.skip(!jsOn(), "a page that stays open and hears of new messages needs JavaScript");
  const { sender, reader } = await colleagues();
  await signInAs(sender.id);
  const conversation = await sendFirst(page, reader, "First, before the break.");

  const other = await readerPage(browser, baseURL!, reader);
  // Counts the chat events the reader's page receives (whatever the page does with them).
  await other.addInitScript(() => {
    const Native = window.EventSource;
    const counted = window as unknown as { chatChanges: number };
    counted.chatChanges = 0;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener("change", () => (counted.chatChanges += 1));
      }
    };
  });
  await other.goto(conversation);
  await expect(lastMessage(other)).toContainText("First, before the break.");
  await listening(other);
  await expectStatus(page, "read");

  // The reader switches to another tab: the page stays open, its document hidden.
  await setVisibility(other, "hidden");
  const before = await changesSeen(other);
  const composer = page.getByRole("form", { name: "Send a message" });
  await composer.getByRole("textbox", { name: "Message" }).fill("Second, while you are away.");
  await composer.getByRole("button", { name: "Send" }).click();
  await expect(lastMessage(page)).toContainText("Second, while you are away.");
  // The reader's page heard of it...
  await expect.poll(() => changesSeen(other)).toBeGreaterThan(before);
  // ...so it is delivered; not read (the sender's page, loaded afresh, says what the server holds).
  await page.reload();
  await expect(lastMessage(page)).toContainText("Second, while you are away.");
  await expect(statusOf(page)).toHaveText("delivered");
  await expect(other.getByTestId("chat-message")).toHaveCount(1);

  // The reader comes back to the tab: the page catches up, and the message is read.
  await listening(page);
  await setVisibility(other, "visible");
  await expect(lastMessage(other)).toContainText("Second, while you are away.");
  await expect(statusOf(page)).toHaveText("read");
  await other.context().close();
});

/** What a browser does when its tab is hidden or shown again (the page keeps running). */
async function setVisibility(page: Page, state: "hidden" | "visible") {
  await page.evaluate((next) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => next });
    Object.defineProperty(document, "hidden", {
      configurable: true,
      get: () => next === "hidden",
    });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

function changesSeen(page: Page) {
  return page.evaluate(() => (window as unknown as { chatChanges: number }).chatChanges);
}
