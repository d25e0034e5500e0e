// Every page and dialog state of spec 3 (patients, therapy logs, chat, help, device tools), per
// role or area, with JavaScript on at 1024×768: no console error, no page error, no React
// hydration warning, nothing wider than the window, no label or heading broken inside a word
// (issue 22 item 15). Each state is its URL, loaded afresh; one test per role or area, in parallel.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { writeDeviceLog } from "../../scripts/make-device-log";
import { createCareSite, createUser, db, userByUsername } from "./support/db";
import { TEST_DEVICE_STATS_PASSWORD } from "./support/env";
import { expect, test } from "./support/fixtures";
import { expectClean, layoutOf, watch } from "./support/pageChecks";
import { careSiteWithTherapyPatient, chicagoDayText } from "./support/therapy";

test.use({ viewport: { width: 1024, height: 768 } });
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the check is of the JavaScript pages");

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-e2e-spec3-"));
test.afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/** Judges the page now shown; the failures name it. */
async function judge(page: Page, name: string, problems: string[]) {
  await expectClean(page, problems);
  const { broken } = await layoutOf(page);
  expect(broken, `${name}: words broken mid-word`).toEqual([]);
}

/** Loads `path` and judges it. */
async function visit(page: Page, path: string) {
  await test.step(path, async () => {
    const problems = watch(page);
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await judge(page, path, problems);
  });
}

function one<T>(sql: string, ...params: unknown[]) {
  const database = db();
  try {
    return database.prepare(sql).get(...params) as T;
  } finally {
    database.close();
  }
}

const profileHref = (ids: { profileId: string; clinicId: string | null; pairId: string | null }) =>
  `/app/PatientProfile?p=${encodeURIComponent(
    Buffer.from(
      JSON.stringify({ profile_id: ids.profileId, clinic_id: ids.clinicId, pair_id: ids.pairId }),
    ).toString("base64"),
  )}`;

/** The profile of a patient with 7 days of therapy, made once per worker (it is slow). */
let therapyWorld: Promise<Awaited<ReturnType<typeof careSiteWithTherapyPatient>>> | null = null;
function withTherapy() {
  therapyWorld ??= careSiteWithTherapyPatient();
  return therapyWorld;
}

async function profileOf(world: Awaited<ReturnType<typeof careSiteWithTherapyPatient>>) {
  const pairId = one<{ id: string }>(
    `SELECT id FROM "Pairing" WHERE patientId = ? AND unpairedAt IS NULL`,
    world.patient.id,
  ).id;
  return profileHref({ profileId: world.patient.id, clinicId: world.siteId, pairId });
}

/** The profile and each of its states. */
async function profileStates(page: Page, href: string) {
  await visit(page, href);
  for (const dialog of ["health", "personal", "note", "goal", "activate"]) {
    await visit(page, `${href}&dialog=${dialog}`);
  }
  await visit(page, `${href}&range=week`);
  await visit(page, `${href}&range=month`);
  await visit(page, `${href}&from=${chicagoDayText(5)}&to=${chicagoDayText(1)}`);
  await visit(page, `${href}&day=${chicagoDayText(2)}`);
  await visit(page, `${href}&trendDay=${chicagoDayText(2)}`);
}

test("the clinician's pages: Patients, its search and decrypt dialog, Help Center", async ({
  page,
  signInAs,
}) => {
  test.setTimeout(180_000);
  await signInAs(userByUsername("demo.clinician").id);
  await visit(page, "/app/Reports");
  await visit(page, "/app/Reports?q=a");
  await visit(page, "/app/Reports?q=NoSuchPatientAnywhere");
  await visit(page, "/app/Reports?sort=careSite&order=desc&page=2");
  await visit(page, "/app/Reports?dialog=decrypt");
  await visit(page, "/app/help");
});

test("the care site admin's pages: Patients, its decrypt dialog, Help Center", async ({
  page,
  signInAs,
}) => {
  test.setTimeout(180_000);
  await signInAs(userByUsername("demo.siteadmin").id);
  await visit(page, "/app/Reports");
  await visit(page, "/app/Reports?q=NoSuchPatientAnywhere");
  await visit(page, "/app/Reports?dialog=decrypt");
  await visit(page, "/app/help");
});

test("the patient profile of a patient with therapy data, each dialog and range, for each role", async ({
  page,
  signInAs,
}) => {
  test.setTimeout(300_000);
  const world = await withTherapy();
  const href = await profileOf(world);
  await signInAs(world.clinician.id);
  await profileStates(page, href);
  // A patient without a device (the Pair device form, the notice of spec 3 §8).
  const unpaired = await createUser("patient", { careSiteIds: [world.siteId] });
  await visit(page, profileHref({ profileId: unpaired.id, clinicId: world.siteId, pairId: null }));

  const admin = await createUser("clinicadmin", { careSiteIds: [world.siteId] });
  await signInAs(admin.id);
  await visit(page, href);
  for (const role of ["superadmin", "abmadmin"]) {
    await signInAs(userByUsername(`demo.${role}`).id);
    await visit(page, href);
    await visit(page, `${href}&dialog=health`);
  }
});

test("the public pages: the landing page's decrypt dialog, /decrypt, /dash, /deviceStats", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await visit(page, "/?dialog=decrypt");
  await visit(page, "/decrypt");
  await visit(page, "/dash");
  await visit(page, "/deviceStats");
  // Unlocked: the table and its dialogs.
  await page.getByLabel("Password").fill(TEST_DEVICE_STATS_PASSWORD);
  const problems = watch(page);
  await page.getByRole("button", { name: "Open" }).click();
  await expect(page.getByTestId("stats-total")).toBeVisible();
  await judge(page, "/deviceStats unlocked", problems);
  for (const dialog of ["range", "columns", "delete"]) {
    await visit(page, `/deviceStats?dialog=${dialog}`);
  }
  const stat = one<{ id: number } | undefined>(`SELECT id FROM "DeviceStat" ORDER BY id LIMIT 1`);
  if (stat) await visit(page, `/deviceStats?dialog=profile&id=${stat.id}`);
});

test("the therapy dashboard of a decrypted log: its dialogs and drawers", async ({ page }) => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(workDir, "log-"));
  const log = await writeDeviceLog({
    type: "cough",
    from: "2026-10-01",
    to: "2026-10-10",
    therapiesPerDay: 2,
    seed: 11,
    dir,
    deviceId: `S3P${Date.now().toString(36).toUpperCase()}`,
  });
  // The dialog's steps on the landing page: choose, upload, the result view.
  await page.goto("/?dialog=decrypt");
  const dialog = page.getByRole("dialog", { name: "Decrypt Log File" });
  await expect(dialog.locator("form.decrypt-upload[data-enhanced]")).toBeAttached();
  const problems = watch(page);
  await dialog.getByLabel("Log file").setInputFiles(log.path);
  await expect(dialog.getByText("Estimated processing time")).toBeVisible();
  await dialog.getByRole("button", { name: "Upload and decrypt" }).click();
  await dialog.getByRole("link", { name: "Proceed" }).click();
  await expect(dialog.getByTestId("decrypt-result")).toContainText(log.fileName);
  await judge(page, "the decrypt dialog's result view", problems);
  await visit(page, new URL(page.url()).pathname + new URL(page.url()).search);

  await dialog.getByRole("link", { name: "Generate Pdf / Dashboard" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Therapy Dashboard");
  const dashboard = new URL(page.url());
  const base = `${dashboard.pathname}${dashboard.search}`;
  await visit(page, base);
  await visit(page, `${base}&dialog=help`);
  await visit(page, `${base}&dialog=summary`);
  await visit(page, `${base}&dialog=annotate&x=2&y=30`);
  await visit(page, `${base}&therapies=hide`);
  await visit(page, `${base}&tp=2`);
  await visit(page, `${base}&q=NoSuchEvent`);
  await visit(page, `${base}&startDate=2026-09-20`);
  // Generate Report: the drawer with one graph, then its preview.
  await page.goto(base);
  // The guided tour shows until it is closed once (its overlay covers the page): judged, closed.
  const tour = page.getByRole("dialog", { name: "Guided tour" });
  await expect(tour).toContainText("Step 1 of 6");
  await judge(page, "the guided tour", watch(page));
  await tour.getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: /Generate Report/ }).click();
  const drawer = page.getByRole("complementary", { name: "Generate Report" });
  await expect(drawer.getByText("Selected Graphs: 1")).toBeVisible();
  const withDrawer = new URL(page.url());
  await visit(page, `${withDrawer.pathname}${withDrawer.search}`);
  await drawer.getByRole("link", { name: "Preview" }).first().click();
  await expect(page.getByRole("dialog", { name: "Image Viewer" })).toBeVisible();
  const preview = new URL(page.url());
  await visit(page, `${preview.pathname}${preview.search}`);
  await visit(page, `${preview.pathname}${preview.search}&zoom=1.4`);
});

/** Two colleagues of a new care site. */
async function colleagues() {
  const site = createCareSite("Spec3 Chat Clinic");
  const admin = await createUser("clinicadmin", { careSiteIds: [site.id] });
  const clinician = await createUser("clinician", { careSiteIds: [site.id] });
  return { admin, clinician };
}

test("messages: empty, the New Message and New group pickers, a conversation with text", async ({
  page,
  signInAs,
}) => {
  test.setTimeout(180_000);
  const { admin, clinician } = await colleagues();
  await signInAs(clinician.id);
  await visit(page, "/app/chat");
  await visit(page, "/app/chat?dialog=new");
  await visit(page, "/app/chat?dialog=group");
  await visit(page, `/app/chat?dialog=new&cq=${admin.username}`);
  await page
    .getByRole("dialog", { name: "New Message" })
    .getByRole("button", { name: new RegExp(admin.username) })
    .click();
  await expect(
    page.getByRole("region", { name: "Chat window" }).getByText("Start your chat"),
  ).toBeVisible();
  const form = page.getByRole("form", { name: "Send a message" });
  await form.getByLabel("Message").fill("The settings screen, as promised.");
  await form.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("chat-message").last()).toContainText("as promised");
  const conversation = new URL(page.url()).pathname;
  await visit(page, conversation);
  await visit(page, "/app/chat");
  for (const role of ["superadmin", "abmadmin"]) {
    await signInAs(userByUsername(`demo.${role}`).id);
    await visit(page, "/app/chat");
    await visit(page, "/app/chat?dialog=new");
  }
  await signInAs(admin.id);
  await visit(page, conversation);
});

test("messages: a conversation with an image attachment", async ({ page, signInAs }) => {
  const { admin, clinician } = await colleagues();
  await signInAs(clinician.id);
  await page.goto(`/app/chat?dialog=new&cq=${admin.username}`);
  await page
    .getByRole("dialog", { name: "New Message" })
    .getByRole("button", { name: new RegExp(admin.username) })
    .click();
  const form = page.getByRole("form", { name: "Send a message" });
  await form.getByLabel("Message").fill("With a picture.");
  await form.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("chat-message").last()).toContainText("With a picture.");
  const image = await sharp({
    create: { width: 40, height: 30, channels: 3, background: { r: 0, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
  await form
    .getByLabel(/^Image/)
    .setInputFiles({ name: "screen.png", buffer: image, mimeType: "image/png" });
  await form.getByRole("button", { name: "Send" }).click();
  await expect(
    page.getByTestId("chat-message").last().getByRole("img", { name: "Attachment" }),
  ).toBeVisible();
  const conversation = new URL(page.url()).pathname;
  await visit(page, conversation);
  await visit(page, "/app/chat");
  // The other person's side: the image received, unread, then read.
  await signInAs(admin.id);
  await visit(page, "/app/chat");
  await visit(page, conversation);
});
