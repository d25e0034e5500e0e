// Messages (issue 9). With JavaScript, two people in two browser contexts: what one sends appears
// for the other without a reload, and the sender sees it delivered, then read. Without it (and with
// it), a conversation is started, a message and an image are sent and seen after the redirect, the
// other person's Refresh shows them, and a too-large image and a non-image get their messages.
// Outsiders get 404 for the conversation and its attachments; an expired session
// shows the spec's alert (JavaScript) or the expired screen.
import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { createCareSite, createSession, createUser, db } from "./support/db";
import { expect, test } from "./support/fixtures";
import { expectClean, watch } from "./support/pageChecks";

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

type User = Awaited<ReturnType<typeof createUser>>;

/** Two colleagues of a new care site: a care site admin and a clinician. */
async function colleagues() {
  const site = createCareSite("Chat Clinic");
  const admin = await createUser("clinicadmin", { careSiteIds: [site.id] });
  const clinician = await createUser("clinician", { careSiteIds: [site.id] });
  return { admin, clinician };
}

/** A second signed-in browser, with JavaScript as in the test's project. */
async function secondPage(browser: Browser, baseURL: string, user: User) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: jsOn() });
  await context.addCookies([
    { name: "__arc_session", value: await createSession(user.id), url: baseURL },
  ]);
  return context.newPage();
}

/** New Message → the contact → the conversation. */
async function startConversation(page: Page, contact: User) {
  await page.goto("/app/chat");
  await page.getByRole("link", { name: "New Message" }).click();
  const picker = page.getByRole("dialog", { name: "New Message" });
  await picker.getByLabel("Search contacts").fill(contact.username);
  await picker.getByRole("button", { name: "Search" }).click();
  await picker.getByRole("button", { name: new RegExp(contact.username) }).click();
  await expect(
    page.getByRole("heading", { level: 2, name: `Erin ${contact.username}` }),
  ).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Chat window" }).getByText("Start your chat"),
  ).toBeVisible();
}

function composer(page: Page) {
  return page.getByRole("form", { name: "Send a message" });
}

async function send(page: Page, text: string) {
  await composer(page).getByLabel("Message").fill(text);
  await composer(page).getByRole("button", { name: "Send" }).click();
}

/** Chooses a file for the image input (null: none), then sends the form. */
async function sendFile(page: Page, file: { name: string; buffer: Buffer } | null) {
  await composer(page)
    .getByLabel(/^Image/)
    .setInputFiles(file ? { ...file, mimeType: "image/png" } : []);
  await composer(page).getByRole("button", { name: "Send" }).click();
}

function png(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

const messages = (page: Page) => page.getByTestId("chat-message");
const listening = (page: Page) =>
  expect(page.locator('html[data-chat-stream="open"]')).toBeAttached();

test("a message appears for the other person without a reload; the sender sees delivered, then read", async ({
  page,
  signInAs,
  browser,
  baseURL,
}) => {
  test.skip(!jsOn(), "live updates are a JavaScript extra; without it the Refresh link is tested");
  const { admin, clinician } = await colleagues();
  await signInAs(admin.id);
  const other = await secondPage(browser, baseURL!, clinician);

  await startConversation(page, clinician);
  // The clinician is on another page of the portal, listening.
  await other.goto("/app/chat");
  await listening(other);
  await other.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  await send(page, "Morning! Can you call the Hill patients today?");
  const mine = messages(page).last();
  await expect(mine).toContainText("Morning! Can you call the Hill patients today?");
  await expect(composer(page).getByLabel("Message")).toHaveValue("");
  // Received by the clinician's page: delivered, and the badges count it.
  await expect(mine.getByTestId("message-status")).toHaveText("delivered");
  const sideBar = other.getByRole("navigation", { name: "Main" });
  await expect(sideBar.getByLabel("1 unread")).toBeVisible();
  const conversations = other.getByRole("complementary", { name: "Conversations" });
  await expect(conversations).toContainText("Morning! Can you call the Hill patients today?");

  // The clinician opens it: read.
  await conversations.getByRole("link", { name: new RegExp(`Erin ${admin.username}`) }).click();
  await expect(messages(other).last()).toContainText("Can you call the Hill patients");
  await expect(mine.getByTestId("message-status")).toHaveText("read");
  await expect(sideBar.getByLabel("1 unread")).toHaveCount(0);

  // And the answer arrives on the admin's open conversation by itself.
  await listening(other);
  await listening(page);
  await send(other, "Will do.");
  await expect(messages(page).last()).toContainText("Will do.");
  await expect(messages(other).last().getByTestId("message-status")).toHaveText("read");
  expect(
    await other.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
  ).toBe(true);
  await other.context().close();
});

test("start a conversation, send a message and an image; Refresh shows them to the other; bad files get their messages", async ({
  page,
  signInAs,
  browser,
  baseURL,
}) => {
  const { admin, clinician } = await colleagues();
  await signInAs(clinician.id);
  await startConversation(page, admin);

  await send(page, "Here is the photo of the settings screen.");
  await expect(page).toHaveURL(/\/app\/chat\/[^/?#]+$/);
  await expect(messages(page).last()).toContainText("Here is the photo of the settings screen.");

  await sendFile(page, { name: "screen.png", buffer: await png(40, 30) });
  const image = messages(page).last().getByRole("img", { name: "Attachment" });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
  await expect(messages(page)).toHaveCount(2);

  // The other person, on the conversation: the Refresh link shows what arrived.
  const other = await secondPage(browser, baseURL!, admin);
  await other.goto(page.url());
  await expect(messages(other)).toHaveCount(2);
  await send(page, "Did you get it?");
  await expect(messages(page)).toHaveCount(3);
  await other.getByRole("link", { name: "Refresh" }).click();
  await expect(messages(other).last()).toContainText("Did you get it?");
  // Read: live with JavaScript, after a Refresh without.
  if (!jsOn()) await page.getByRole("link", { name: "Refresh" }).click();
  await expect(messages(page).last().getByTestId("message-status")).toHaveText("read");
  await other.context().close();

  // Too large, and not an image whatever its name: their messages, nothing sent.
  await sendFile(page, { name: "big.png", buffer: Buffer.alloc(2_100_000, 1) });
  await expect(page.getByRole("alert")).toHaveText("Image is too large. Max size is 2 mb.");
  await composer(page).getByLabel("Message").fill("see attached");
  await sendFile(page, { name: "notes.png", buffer: Buffer.from("just text") });
  await expect(page.getByRole("alert")).toHaveText(
    "Only images can be attached (png, jpeg, jpg, gif or tiff).",
  );
  await expect(composer(page).getByLabel("Message")).toHaveValue("see attached");
  // An empty message is not sent.
  await composer(page).getByLabel("Message").fill("   ");
  await sendFile(page, null);
  await expect(page.getByRole("alert")).toHaveText("Some required parameters are missing.");
  await expect(messages(page)).toHaveCount(3);
});

test("someone outside a conversation gets 404 for it and its attachments", async ({
  page,
  signInAs,
  browser,
  baseURL,
}) => {
  test.skip(
    jsOn(),
    "HTTP-level: the 404s are the server's answers to page.request, the same whatever the browser runs; the no-js run checks them (sending an attachment with JavaScript is tested above)",
  );
  const { admin, clinician } = await colleagues();
  await signInAs(clinician.id);
  await startConversation(page, admin);
  await sendFile(page, { name: "a.png", buffer: await png(4, 4) });
  const src = await messages(page)
    .last()
    .getByRole("img", { name: "Attachment" })
    .getAttribute("src");
  const conversation = new URL(page.url()).pathname;

  // A colleague of the same care site, not in this conversation.
  const outsider = await createUser("clinician", {
    careSiteIds: [
      (
        db().prepare(`SELECT careSiteId FROM "Membership" WHERE userId = ?`).get(admin.id) as {
          careSiteId: string;
        }
      ).careSiteId,
    ],
  });
  const other = await secondPage(browser, baseURL!, outsider);
  for (const path of [conversation, src!]) {
    const response = await other.request.get(path);
    expect(response.status(), path).toBe(404);
  }
  expect((await page.request.get(src!)).status()).toBe(200);
  await other.context().close();
});

test("a session that expires with the chat open: the spec's alert, then the expired screen", async ({
  page,
  signInAs,
}) => {
  const { admin, clinician } = await colleagues();
  await signInAs(admin.id);
  await startConversation(page, clinician);
  if (jsOn()) await listening(page);

  const database = db();
  database
    .prepare(`UPDATE "Session" SET lastSeenAt = ? WHERE userId = ?`)
    .run(Date.now() - 31 * 60_000, admin.id);
  database.close();

  if (jsOn()) {
    const alert = page.waitForEvent("dialog", { timeout: 15_000 });
    const dialog = await alert;
    expect(dialog.message()).toBe("Session is expired, the page will be reload.");
    await dialog.accept();
  } else {
    await page.getByRole("link", { name: "Refresh" }).click();
  }
  await expect(page.getByRole("heading", { name: "Your session has expired" })).toBeVisible();
});

test("New group: several contacts, named 'Group dialog' unless named", async ({
  page,
  signInAs,
}) => {
  const site = createCareSite("Group Clinic");
  const admin = await createUser("clinicadmin", { careSiteIds: [site.id] });
  const first = await createUser("clinician", { careSiteIds: [site.id] });
  const second = await createUser("clinician", { careSiteIds: [site.id] });
  await signInAs(admin.id);
  await page.goto("/app/chat");
  await page.getByRole("link", { name: "New group" }).click();
  const picker = page.getByRole("dialog", { name: "New group" });
  // Nobody ticked: refused with a message.
  await picker.getByRole("button", { name: "Create group" }).click();
  await expect(page.getByText("Choose at least one contact for the group.")).toBeVisible();

  await page
    .getByRole("dialog", { name: "New group" })
    .getByLabel(new RegExp(first.username))
    .check();
  await page
    .getByRole("dialog", { name: "New group" })
    .getByLabel(new RegExp(second.username))
    .check();
  await page
    .getByRole("dialog", { name: "New group" })
    .getByRole("button", { name: "Create group" })
    .click();
  const window = page.getByRole("region", { name: "Chat window" });
  await expect(window.getByRole("heading", { level: 2 })).toHaveText("Group dialog");
  await expect(window).toContainText(`Erin ${first.username}`);
  await expect(window).toContainText(`Erin ${second.username}`);
  await send(page, "Welcome to the team huddle.");
  await expect(messages(page).last()).toContainText("Welcome to the team huddle.");
  await expect(
    page
      .getByRole("complementary", { name: "Conversations" })
      .getByRole("link", { name: /Group dialog/ }),
  ).toContainText("Welcome to the team huddle.");
});

test("New Message or New group with someone who is no longer a contact: the refusal shows inside the open picker", async ({
  page,
  signInAs,
}) => {
  const { admin, clinician } = await colleagues();
  const stays = await createUser("clinician", { careSiteIds: [careSiteOf(admin.id)] });
  await signInAs(admin.id);
  await page.goto(`/app/chat?dialog=new&cq=${clinician.username}`);
  const picker = page.getByRole("dialog", { name: "New Message" });
  const choice = picker.getByRole("button", { name: new RegExp(clinician.username) });
  await expect(choice).toBeVisible();
  // The clinician stops sharing while the picker is open.
  const database = db();
  database.prepare(`UPDATE "Membership" SET status = 'blocked' WHERE userId = ?`).run(clinician.id);
  database.close();

  await choice.click();
  await expect(picker.getByRole("alert")).toHaveText(
    "You can only message your contacts (users who accepted sharing).",
  );
  await expect(page).toHaveURL(/[?&]dialog=new/);
  await expect(page).toHaveURL(new RegExp(`[?&]cq=${clinician.username.replace(".", "\\.")}`));

  // New group: a refusal shows there too, and what was typed stays.
  await page.goto(`/app/chat?dialog=group&cq=${stays.username}`);
  const group = page.getByRole("dialog", { name: "New group" });
  await group.getByLabel("Group name").fill("Night shift");
  await group.getByRole("button", { name: "Create group" }).click();
  await expect(group.getByRole("alert")).toHaveText("Choose at least one contact for the group.");
  await expect(group.getByLabel("Group name")).toHaveValue("Night shift");
  await expect(page).toHaveURL(/[?&]dialog=group/);
});

/** The care site a user is a member of. */
function careSiteOf(userId: string) {
  const database = db();
  try {
    return (
      database.prepare(`SELECT careSiteId FROM "Membership" WHERE userId = ?`).get(userId) as {
        careSiteId: string;
      }
    ).careSiteId;
  } finally {
    database.close();
  }
}

test("a conversation holding images opens cleanly at 1024 px: no console or hydration error, no sideways scroll, the list readable", async ({
  page,
  signInAs,
  browser,
  baseURL,
}) => {
  const { admin, clinician } = await colleagues();
  // A long name and a long unbroken message: both must end in an ellipsis inside the list.
  const database = db();
  database
    .prepare(`UPDATE "User" SET lastName = ? WHERE id = ?`)
    .run(`Montgomery-Fitzwilliam ${clinician.username} Alexandrovna`, clinician.id);
  database.close();
  await signInAs(clinician.id);
  await startConversation(page, admin);
  await sendFile(page, { name: "screen.png", buffer: await png(400, 300) });
  await expect(messages(page)).toHaveCount(1);
  await composer(page).getByLabel("Message").fill("And a photo with a caption.");
  await sendFile(page, { name: "second.png", buffer: await png(40, 30) });
  await expect(messages(page)).toHaveCount(2);
  await expect(composer(page).getByLabel("Message")).toHaveValue("");
  await send(page, "After the photos: ".padEnd(120, "x"));
  await expect(messages(page)).toHaveCount(3);
  const conversation = page.url();

  // Both sides open it afresh (a page load: the server's HTML, then hydration with JavaScript).
  const other = await secondPage(browser, baseURL!, admin);
  for (const viewer of [page, other]) {
    await viewer.setViewportSize({ width: 1024, height: 768 });
    const problems = watch(viewer);
    await viewer.goto(conversation);
    await expect(messages(viewer).getByRole("img", { name: "Attachment" })).toHaveCount(2);
    if (jsOn()) await expectClean(viewer, problems);
    const list = viewer.getByRole("complementary", { name: "Conversations" });
    const layout = await list.evaluate((aside) => {
      const item = aside.querySelector("li a")!;
      const clipped = (el: Element | null) =>
        !!el && el.scrollWidth > el.clientWidth && getComputedStyle(el).textOverflow === "ellipsis";
      return {
        page: document.documentElement.scrollWidth,
        width: aside.getBoundingClientRect().width,
        listScroll: aside.scrollWidth - aside.clientWidth,
        itemRight: item.getBoundingClientRect().right - aside.getBoundingClientRect().right,
        nameClipped: clipped(item.querySelector("strong")),
        lastClipped: clipped(item.querySelector("small.text-truncate")),
      };
    });
    expect(layout.page, "page width at 1024 px").toBeLessThanOrEqual(1024);
    // Not cramped: at least 18 rem beside the shell's side bar.
    expect(layout.width).toBeGreaterThanOrEqual(288);
    expect(layout.listScroll, "no sideways scroll inside the list").toBe(0);
    expect(layout.itemRight).toBeLessThanOrEqual(0);
    if (viewer === other) expect(layout.nameClipped, "the long name ends in an ellipsis").toBe(true);
    if (viewer === page) expect(layout.lastClipped, "the last message ends in an ellipsis").toBe(true);
  }
  await other.context().close();
});
