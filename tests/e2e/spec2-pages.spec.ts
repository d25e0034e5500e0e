// Every page and dialog state of spec 2 (care sites, invitations, dashboards, notifications), per
// role that sees it, with JavaScript on at 1024×768: no console error, no page error, no React
// hydration warning, nothing wider than the window, no label or heading broken inside a word
// (issue 21). One test per role visits its pages in turn; each state is its URL, loaded afresh.
import type { Page } from "@playwright/test";
import { anyCareSiteId, createInvitation, createUser, db, userByUsername } from "./support/db";
import { expect, test } from "./support/fixtures";
import { expectClean, layoutOf, watch } from "./support/pageChecks";

test.use({ viewport: { width: 1024, height: 768 } });
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the check is of the JavaScript pages");

type SignInAs = (userId: string) => Promise<void>;

/** Loads `path` and judges it; the failures name the page. */
async function visit(page: Page, path: string) {
  await test.step(path, async () => {
    const problems = watch(page);
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expectClean(page, problems);
    const { broken } = await layoutOf(page);
    expect(broken, `${path}: words broken mid-word`).toEqual([]);
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

function emailOf(username: string) {
  return one<{ email: string }>(`SELECT email FROM "User" WHERE username = ?`, username).email;
}

/** A user's first accepted care site. */
function careSiteOf(userId: string) {
  return one<{ careSiteId: string }>(
    `SELECT careSiteId FROM "Membership" WHERE userId = ? AND status = 'accepted'
     ORDER BY careSiteId LIMIT 1`,
    userId,
  ).careSiteId;
}

const confirmUrl = (path: string, id: string, act: string) =>
  `${path}?list=${["resend", "remove", "revoke"].includes(act) ? "sent" : "received"}&dialog=confirm&id=${id}&act=${act}`;

/** The invitation dialog at each step, from the email to the care sites and the cancel question. */
async function inviteSteps(page: Page, path: string, role: string | null, careSites: boolean) {
  const email = `spec2.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;
  const base = `${path}?dialog=invite`;
  await visit(page, base);
  await visit(page, `${base}&email=not-an-email`);
  await visit(page, `${base}&email=${email}`);
  if (role) {
    const chosen = `${base}&email=${email}&role=${role}`;
    await visit(page, chosen);
    if (careSites) {
      await visit(page, `${chosen}&all=1`);
      await visit(page, `${chosen}&csort=city&corder=desc`);
      await visit(page, `${chosen}&cq=NoSuchCareSiteAnywhere`);
    }
    await visit(page, `${chosen}&cancel=1`);
  } else {
    await visit(page, `${base}&email=${email}&cancel=1`);
  }
}

/** The Sent side: lists, the row link popups, each sent-side confirmation, the success dialogs. */
async function sentSide(page: Page, path: string, inviterId: string, role: string, siteId: string) {
  const pending = await createInvitation({ inviterId, role, careSiteId: siteId });
  const rejected = await createInvitation({
    inviterId,
    role,
    careSiteId: siteId,
    status: "rejected",
  });
  const accepted = await createInvitation({
    inviterId,
    role,
    careSiteId: siteId,
    status: "accepted",
  });
  await visit(page, `${path}?list=sent`);
  await visit(page, `${path}?list=sent&notice=${pending.id}`);
  await visit(page, `${path}?list=sent&notice=${rejected.id}`);
  await visit(page, confirmUrl(path, pending.id, "resend"));
  await visit(page, confirmUrl(path, pending.id, "remove"));
  await visit(page, confirmUrl(path, accepted.id, "revoke"));
  await visit(page, `${path}?list=sent&dialog=sent`);
  await visit(page, `${path}?list=sent&dialog=resent`);
}

/** The Received side: the list and each invitee confirmation. */
async function receivedSide(page: Page, path: string, email: string, role: string) {
  const careSiteId = role === "abmadmin" ? null : anyCareSiteId();
  const pending = await createInvitation({ email, role, careSiteId });
  const accepted = await createInvitation({ email, role, careSiteId, status: "accepted" });
  await visit(page, `${path}?list=received`);
  await visit(page, confirmUrl(path, pending.id, "accept"));
  await visit(page, confirmUrl(path, pending.id, "reject"));
  await visit(page, confirmUrl(path, accepted.id, "deactivate"));
  // Reactivate undoes the invitee's own Deactivate: deactivate through the dialog first.
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByRole("link", { name: "Reactivate" })).toBeVisible();
  await visit(page, confirmUrl(path, accepted.id, "reactivate"));
}

async function demo(signInAs: SignInAs, username: string) {
  const user = userByUsername(username);
  await signInAs(user.id);
  return user;
}

test("the super admin's pages", async ({ page, signInAs }) => {
  test.setTimeout(300_000);
  await demo(signInAs, "demo.superadmin");
  for (const tab of ["clinician", "patient", "clinicadmin", "caresite"]) {
    await visit(page, `/app?tab=${tab}`);
  }
  await visit(page, "/app?dialog=addCareSite");
  await visit(
    page,
    `/app/clinicprofiledetails?c_id=${careSiteOf(userByUsername("demo.siteadmin").id)}`,
  );
  await visit(page, `/app/userinfo/${userByUsername("demo.siteadmin").id}`);
  await visit(page, "/app/satable");

  // Invitations with a fresh super admin: its own lists and dialogs.
  const fresh = await createUser("superadmin");
  await signInAs(fresh.id);
  await inviteSteps(page, "/app/satable", "clinicadmin", true);
  await inviteSteps(page, "/app/satable", "abmadmin", false);
  await visit(page, `/app/satable?dialog=invite&email=${emailOf("demo.superadmin")}`);
  await sentSide(page, "/app/satable", fresh.id, "clinicadmin", anyCareSiteId());
});

test("the ABM admin's pages", async ({ page, signInAs }) => {
  test.setTimeout(300_000);
  await demo(signInAs, "demo.abmadmin");
  for (const tab of ["clinician", "patient", "clinicadmin", "caresite"]) {
    await visit(page, `/app?tab=${tab}`);
  }
  await visit(page, "/app?dialog=addCareSite");
  await visit(page, `/app/clinicprofiledetails?c_id=${anyCareSiteId()}`);
  await visit(page, "/app/invitation");

  const fresh = await createUser("abmadmin");
  await signInAs(fresh.id);
  await inviteSteps(page, "/app/invitation", "clinicadmin", true);
  await visit(page, `/app/invitation?dialog=invite&email=${emailOf("demo.clinician")}`);
  await sentSide(page, "/app/invitation", fresh.id, "clinicadmin", anyCareSiteId());
  await receivedSide(page, "/app/invitation", fresh.email, "abmadmin");
});

test("the care site admin's pages", async ({ page, signInAs }) => {
  test.setTimeout(300_000);
  const admin = await demo(signInAs, "demo.siteadmin");
  const siteId = careSiteOf(admin.id);
  await visit(page, "/app");
  for (const list of [
    "below75",
    "below50",
    "below25",
    "updatedGoals",
    "missed",
    "never",
    "total",
    "withoutDeviation",
    "withDeviation",
  ]) {
    await visit(page, `/app?list=${list}`);
  }
  const site = `/app/caresitesettingdashboard?c=${siteId}`;
  for (const view of ["clinician", "patient", "clinicadmin"]) {
    await visit(page, `${site}&view=${view}`);
  }
  await visit(page, `${site}&dialog=details`);
  const member = one<{ id: string; userId: string } | undefined>(
    `SELECT id, userId FROM "Membership" WHERE careSiteId = ? AND role = 'patient'
     AND status = 'accepted' ORDER BY id LIMIT 1`,
    siteId,
  );
  if (member) await visit(page, `${site}&view=patient&dialog=withdraw&m=${member.id}`);
  await visit(page, `/app/userinfo/${userByUsername("demo.clinician").id}`);
  await visit(page, "/app/notificationsettings");
  const p = Buffer.from(JSON.stringify({ clinicId: siteId })).toString("base64");
  await visit(page, `/app/notificationsettings?p=${encodeURIComponent(p)}`);
  await visit(page, "/app/notificationSummary");
  await visit(page, "/app/clinicadmin");

  const fresh = await createUser("clinicadmin", { careSiteIds: [siteId] });
  await signInAs(fresh.id);
  await inviteSteps(page, "/app/clinicadmin", "clinician", true);
  await inviteSteps(page, "/app/clinicadmin", "patient", true);
  // An existing account of a role a care site admin cannot invite: the spec's message.
  await visit(page, `/app/clinicadmin?dialog=invite&email=${emailOf("demo.abmadmin")}`);
  await sentSide(page, "/app/clinicadmin", fresh.id, "clinician", siteId);
  await receivedSide(page, "/app/clinicadmin", fresh.email, "clinicadmin");
});

test("the clinician's pages", async ({ page, signInAs }) => {
  test.setTimeout(300_000);
  const clinician = await demo(signInAs, "demo.clinician");
  const siteId = careSiteOf(clinician.id);
  await visit(page, "/app");
  for (const list of ["below75", "missed", "never", "total", "withDeviation"]) {
    await visit(page, `/app?list=${list}`);
  }
  const site = `/app/caresitesettingdashboard?c=${siteId}`;
  for (const view of ["clinician", "patient", "clinicadmin"]) {
    await visit(page, `${site}&view=${view}`);
  }
  await visit(page, `${site}&dialog=details`);
  await visit(page, `/app/userinfo/${userByUsername("demo.siteadmin").id}`);
  await visit(page, "/app/notificationsettings");
  await visit(page, "/app/notificationSummary");
  await visit(page, "/app/cliniciantable");

  const fresh = await createUser("clinician", { careSiteIds: [siteId] });
  await signInAs(fresh.id);
  await inviteSteps(page, "/app/cliniciantable", "patient", true);
  await sentSide(page, "/app/cliniciantable", fresh.id, "patient", siteId);
  await receivedSide(page, "/app/cliniciantable", fresh.email, "clinician");
});
