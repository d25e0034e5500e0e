// The notification screens (issue 8): /app/notificationsettings (its form state, Save rules,
// Nochange, the clinician's read-only page, care site scoping, the audit trail) and
// /app/notificationSummary with its CSV and archive downloads, through their real loaders and
// actions on a real SQLite file.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { sessionStorage } from "~/lib/session.server";
import { dayInZone, formatDay, yesterdayInZone } from "~/lib/time";
import { readNotificationSettings } from "~/domain/notifications/settings.server";
import { addDays } from "~/domain/adherence/score";
import {
  action as settingsAction,
  loader as settingsLoader,
} from "~/routes/app.notificationsettings";
import { loader as csvLoader } from "~/routes/app.notificationSummary.csv";
import { action as summaryAction, loader as summaryLoader } from "~/routes/app.notificationSummary";
import {
  notificationMessages,
  notificationSettingsHref,
  type NotificationFormValues,
} from "~/domain/notifications/schema";
import { createCareSite, createUser, uid } from "../support/factories";
import { bodyOf, locationOf, statusOf, type Browser } from "../support/requests";
import { signedInBrowser } from "../support/session";
import { MALFORMED_EMAILS } from "../support/malformedEmails";

const SETTINGS = "/app/notificationsettings";
const SUMMARY = "/app/notificationSummary";

type SettingsPage = NonNullable<
  Exclude<Awaited<ReturnType<typeof settingsLoader>>, Response>["page"]
>;
type ActionBody = {
  values: NotificationFormValues;
  errors?: Record<string, string>;
  formError?: string;
  formInfo?: string;
};
type SummaryData = {
  careSites: { id: string; name: string }[];
  page: {
    careSiteId: string;
    settings: { adherence: number; spo2: number; therapyAdjustment: boolean };
    editHref: string;
    dayLabel: string;
    table: { total: number; rows: unknown[] };
    csvHref: string;
    archive: { day: string; reportName: string; generated: boolean; href: string }[];
  } | null;
};

async function siteWith(role: "clinicadmin" | "clinician") {
  const site = await createCareSite();
  const user = await createUser({ role, careSites: [{ id: site.id }] });
  return { site, user, browser: await signedInBrowser(user.id) };
}

const settingsPath = (careSiteId: string) => notificationSettingsHref(careSiteId);

async function openSettings(browser: Browser, path: string) {
  const result = await browser.run(settingsLoader, browser.get(path));
  expect(statusOf(result)).toBe(200);
  return (await bodyOf<{ page: SettingsPage }>(result)).page;
}

/** The form as the page posts it: days checked, chips as hidden inputs, ON/OFF radios. */
function formFields(careSiteId: string, values: Partial<NotificationFormValues>, intent?: string) {
  const v: NotificationFormValues = {
    days: [],
    recipients: [],
    newRecipient: "",
    adherenceOn: true,
    adherence: "70",
    spo2On: true,
    spo2: "90",
    therapyAdjustment: false,
    ...values,
  };
  const fields: Record<string, string | string[]> = {
    careSiteId,
    days: v.days,
    recipients: v.recipients,
    newRecipient: v.newRecipient,
    adherenceOn: v.adherenceOn ? "on" : "off",
    adherence: v.adherence,
    spo2On: v.spo2On ? "on" : "off",
    spo2: v.spo2,
    therapyAdjustment: v.therapyAdjustment ? "on" : "off",
  };
  if (intent) fields.intent = intent;
  return fields;
}

async function post(
  browser: Browser,
  careSiteId: string,
  fields: Record<string, string | string[]>,
) {
  return browser.run(settingsAction, browser.post(settingsPath(careSiteId), fields));
}

async function flashOf(browser: Browser) {
  const session = await sessionStorage.getSession(browser.cookie);
  return session.get("flash");
}

const auditRows = (careSiteId: string) =>
  prisma.auditEvent.findMany({
    where: { careSiteId, action: "notification_settings.updated" },
    orderBy: { at: "asc" },
  });

describe("notification settings page", () => {
  it("shows the defaults for a care site that never saved: no days, no recipients, 70 and 90 ON", async () => {
    const { site, browser } = await siteWith("clinicadmin");
    const page = await openSettings(browser, settingsPath(site.id));
    expect(page.site.name).toBe(site.name);
    expect(page.canEdit).toBe(true);
    expect(page.values).toEqual({
      days: [],
      recipients: [],
      newRecipient: "",
      adherenceOn: true,
      adherence: "70",
      spo2On: true,
      spo2: "90",
      therapyAdjustment: false,
    });
    // Without p: the care site kept in the session, else the first.
    expect((await openSettings(browser, SETTINGS)).site.id).toBe(site.id);
  });

  it("Add and × re-render the form from what was posted, without saving", async () => {
    const { site, browser } = await siteWith("clinicadmin");
    const bad = await post(
      browser,
      site.id,
      formFields(site.id, { newRecipient: "not-an-email", days: ["monday"] }, "addRecipient"),
    );
    expect(statusOf(bad)).toBe(400);
    const badBody = await bodyOf<ActionBody>(bad);
    expect(badBody.errors).toEqual({ newRecipient: notificationMessages.invalidEmail });
    expect(badBody.values.days).toEqual(["monday"]);
    expect(badBody.values.newRecipient).toBe("not-an-email");
    for (const malformed of MALFORMED_EMAILS) {
      const refused = await post(
        browser,
        site.id,
        formFields(site.id, { newRecipient: malformed, days: ["monday"] }, "addRecipient"),
      );
      expect(statusOf(refused), malformed).toBe(400);
      expect((await bodyOf<ActionBody>(refused)).errors, malformed).toEqual({
        newRecipient: notificationMessages.invalidEmail,
      });
    }

    const added = await bodyOf<ActionBody>(
      await post(
        browser,
        site.id,
        formFields(
          site.id,
          { recipients: ["a@example.test"], newRecipient: "  B@Example.TEST " },
          "addRecipient",
        ),
      ),
    );
    expect(added.values.recipients).toEqual(["a@example.test", "b@example.test"]);
    expect(added.values.newRecipient).toBe("");

    // Duplicates are ignored, the posted chips too.
    const duplicate = await bodyOf<ActionBody>(
      await post(
        browser,
        site.id,
        formFields(
          site.id,
          { recipients: ["a@example.test", "A@example.test"], newRecipient: "a@EXAMPLE.test" },
          "addRecipient",
        ),
      ),
    );
    expect(duplicate.values.recipients).toEqual(["a@example.test"]);

    const removed = await bodyOf<ActionBody>(
      await post(browser, site.id, {
        ...formFields(site.id, { recipients: ["a@example.test", "b@example.test"] }),
        removeRecipient: "a@example.test",
      }),
    );
    expect(removed.values.recipients).toEqual(["b@example.test"]);
    expect((await readNotificationSettings(site.id)).saved).toBe(false);
  });

  it("Save validates: at least one recipient, thresholds that are ON from 1 to 100, a typed address", async () => {
    const { site, browser } = await siteWith("clinicadmin");
    const none = await post(browser, site.id, formFields(site.id, { days: ["friday"] }, "save"));
    expect(statusOf(none)).toBe(400);
    expect((await bodyOf<ActionBody>(none)).errors).toEqual({
      recipients: notificationMessages.noRecipient,
    });

    const out = await post(
      browser,
      site.id,
      formFields(site.id, { recipients: ["a@example.test"], adherence: "0", spo2: "101" }, "save"),
    );
    expect(statusOf(out)).toBe(400);
    expect((await bodyOf<ActionBody>(out)).errors).toEqual({
      adherence: notificationMessages.threshold,
      spo2: notificationMessages.threshold,
    });
    // A threshold that is OFF is not checked (it is stored as 0).
    const typo = await post(
      browser,
      site.id,
      formFields(
        site.id,
        { recipients: ["a@example.test"], adherenceOn: false, adherence: "x", newRecipient: "b@" },
        "save",
      ),
    );
    expect(statusOf(typo)).toBe(400);
    expect((await bodyOf<ActionBody>(typo)).errors).toEqual({
      newRecipient: notificationMessages.invalidEmail,
    });
    // A crafted day name or chip never reaches the database.
    const crafted = await post(browser, site.id, {
      ...formFields(site.id, { recipients: ["a@example.test"] }, "save"),
      recipients: ["a@example.test", "evil"],
    });
    expect(statusOf(crafted)).toBe(400);
    expect((await readNotificationSettings(site.id)).saved).toBe(false);
    expect(await auditRows(site.id)).toHaveLength(0);
  });

  it("Save stores everything (OFF as 0), audits it, and goes to the summary with the spec's message", async () => {
    const { site, user, browser } = await siteWith("clinicadmin");
    const result = await post(
      browser,
      site.id,
      formFields(
        site.id,
        {
          days: ["wednesday", "monday"],
          recipients: ["a@example.test"],
          newRecipient: "b@example.test",
          adherenceOn: false,
          adherence: "55",
          spo2: "88",
          therapyAdjustment: true,
        },
        "save",
      ),
    );
    expect(statusOf(result)).toBe(302);
    expect(locationOf(result)).toBe(SUMMARY);
    expect(await flashOf(browser)).toEqual({
      kind: "success",
      message: "Notification settings has been updated successfully!",
    });
    expect(await readNotificationSettings(site.id)).toEqual({
      careSiteId: site.id,
      days: ["monday", "wednesday"],
      recipients: ["a@example.test", "b@example.test"],
      adherence: 0,
      spo2: 88,
      therapyAdjustment: true,
      saved: true,
    });
    const events = await auditRows(site.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorId: user.id,
      targetType: "careSite",
      targetId: site.id,
    });
    expect(JSON.parse(events[0].detail!)).toMatchObject({
      changed: ["days", "recipients", "adherence", "spo2", "therapyAdjustment"],
      adherence: 0,
      spo2: 88,
    });

    // The page shows what was saved; an OFF threshold offers its usual value to turn it on again.
    const page = await openSettings(browser, settingsPath(site.id));
    expect(page.values).toMatchObject({
      days: ["monday", "wednesday"],
      adherenceOn: false,
      adherence: "70",
      spo2On: true,
      spo2: "88",
      therapyAdjustment: true,
    });
  });

  it("Nochange: the same settings again stay on the page with our message and no audit row", async () => {
    const { site, browser } = await siteWith("clinicadmin");
    const fields = formFields(
      site.id,
      { days: ["sunday"], recipients: ["a@example.test"] },
      "save",
    );
    expect(statusOf(await post(browser, site.id, fields))).toBe(302);
    // The recipients in another order and a typed duplicate are still no change.
    const again = await post(browser, site.id, {
      ...fields,
      recipients: ["A@example.test"],
      newRecipient: "a@example.test",
    });
    expect(statusOf(again)).toBe(200);
    expect((await bodyOf<ActionBody>(again)).formInfo).toBe(notificationMessages.unchanged);
    expect(await auditRows(site.id)).toHaveLength(1);

    const changed = await post(browser, site.id, { ...fields, spo2: "85" });
    expect(statusOf(changed)).toBe(302);
    const events = await auditRows(site.id);
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[1].detail!).changed).toEqual(["spo2"]);
  });

  it("a failed write says the spec's error and keeps the form", async () => {
    const { site, browser } = await siteWith("clinicadmin");
    const trigger = `fail_${site.id}`;
    await prisma.$executeRawUnsafe(
      `CREATE TRIGGER "${trigger}" BEFORE INSERT ON "NotificationSetting"
       WHEN NEW.careSiteId = '${site.id}' BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
    );
    try {
      const result = await post(
        browser,
        site.id,
        formFields(site.id, { recipients: ["a@example.test"] }, "save"),
      );
      expect(statusOf(result)).toBe(500);
      const body = await bodyOf<ActionBody>(result);
      expect(body.formError).toBe("Error occured! couldn't save data");
      expect(body.values.recipients).toEqual(["a@example.test"]);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER "${trigger}"`);
    }
    expect(await auditRows(site.id)).toHaveLength(0);
  });

  it("a clinician reads the page but every post is refused with 403", async () => {
    const { site, browser } = await siteWith("clinician");
    const page = await openSettings(browser, settingsPath(site.id));
    expect(page.canEdit).toBe(false);
    for (const intent of ["save", "addRecipient"]) {
      const result = await post(
        browser,
        site.id,
        formFields(
          site.id,
          { recipients: ["a@example.test"], newRecipient: "b@example.test" },
          intent,
        ),
      );
      expect(statusOf(result), intent).toBe(403);
    }
    expect((await readNotificationSettings(site.id)).saved).toBe(false);
  });

  it("another care site's settings answer 404, read or written; a crafted p too", async () => {
    const { user, browser } = await siteWith("clinicadmin");
    const foreign = await createCareSite();
    const pending = await createCareSite();
    await prisma.membership.create({
      data: { careSiteId: pending.id, userId: user.id, role: "clinicadmin", status: "pending" },
    });
    for (const path of [
      settingsPath(foreign.id),
      settingsPath(pending.id),
      `${SETTINGS}?p=not-base64-json`,
      `${SETTINGS}?p=${Buffer.from(JSON.stringify({ other: 1 })).toString("base64")}`,
    ]) {
      expect(statusOf(await browser.run(settingsLoader, browser.get(path))), path).toBe(404);
    }
    const result = await post(
      browser,
      foreign.id,
      formFields(foreign.id, { recipients: ["a@example.test"] }, "save"),
    );
    expect(statusOf(result)).toBe(404);
    expect((await readNotificationSettings(foreign.id)).saved).toBe(false);
  });

  it("an unknown intent is a bad request", async () => {
    const { site, browser } = await siteWith("clinicadmin");
    expect(statusOf(await post(browser, site.id, formFields(site.id, {}, "delete")))).toBe(400);
  });
});

describe("notification summary page", () => {
  it("keeps the care site choice while allowed, else the first, and shows its settings", async () => {
    const [a, b] = [await createCareSite(`A ${uid()}`), await createCareSite(`B ${uid()}`)];
    const admin = await createUser({
      role: "clinicadmin",
      careSites: [{ id: a.id }, { id: b.id }],
    });
    const browser = await signedInBrowser(admin.id);
    await prisma.notificationSetting.create({
      data: {
        careSiteId: b.id,
        days: "monday",
        recipients: "x@example.test",
        adherenceThreshold: 0,
        spo2Threshold: 85,
        therapyAdjustment: true,
      },
    });

    const first = await bodyOf<SummaryData>(await browser.run(summaryLoader, browser.get(SUMMARY)));
    expect(first.page!.careSiteId).toBe(a.id);
    expect(first.page!.settings).toEqual({ adherence: 70, spo2: 90, therapyAdjustment: false });
    expect(first.page!.editHref).toBe(notificationSettingsHref(a.id));

    const chosen = await browser.run(
      summaryAction,
      browser.post(SUMMARY, { intent: "chooseCareSite", careSiteId: b.id }),
    );
    expect(locationOf(chosen)).toBe(SUMMARY);
    const second = await bodyOf<SummaryData>(
      await browser.run(summaryLoader, browser.get(SUMMARY)),
    );
    expect(second.page!.careSiteId).toBe(b.id);
    expect(second.page!.settings).toEqual({ adherence: 0, spo2: 85, therapyAdjustment: true });
    // The settings page without p opens the kept care site too.
    expect((await openSettings(browser, SETTINGS)).site.id).toBe(b.id);

    // No longer accepted at b: the first care site again.
    await prisma.membership.updateMany({
      where: { careSiteId: b.id, userId: admin.id },
      data: { status: "blocked" },
    });
    const third = await bodyOf<SummaryData>(await browser.run(summaryLoader, browser.get(SUMMARY)));
    expect(third.page!.careSiteId).toBe(a.id);

    const foreign = await createCareSite();
    const refused = await browser.run(
      summaryAction,
      browser.post(SUMMARY, { intent: "chooseCareSite", careSiteId: foreign.id }),
    );
    expect(statusOf(refused)).toBe(404);
  });

  it("shows yesterday's table heading and the last 14 days from yesterday, with their downloads", async () => {
    const { site, browser } = await siteWith("clinician");
    const today = dayInZone(new Date(), site.timeZone);
    const yesterday = yesterdayInZone(new Date(), site.timeZone);
    const twoDaysAgo = addDays(today, -2);
    await prisma.notificationSummary.create({
      data: { careSiteId: site.id, day: twoDaysAgo, csv: '"Last Name"\n"Doe"', rowCount: 1 },
    });
    const data = await bodyOf<SummaryData>(await browser.run(summaryLoader, browser.get(SUMMARY)));
    const page = data.page!;
    expect(page.dayLabel).toBe(formatDay(yesterday));
    expect(page.table.total).toBe(0);
    expect(page.archive).toHaveLength(14);
    expect(page.archive[0].day).toBe(yesterday);
    expect(page.archive[13].day).toBe(addDays(today, -14));
    expect(page.archive.filter((a) => a.generated).map((a) => a.day)).toEqual([twoDaysAgo]);
    expect(page.archive[1].reportName).toBe(
      `Notification_Summary_${formatDay(twoDaysAgo, "dd_MMM_yyyy")}`,
    );

    const archived = (await browser.run(csvLoader, browser.get(page.archive[1].href))) as Response;
    expect(archived.status).toBe(200);
    expect(archived.headers.get("Content-Disposition")).toBe(
      `attachment; filename="${page.archive[1].reportName}.csv"`,
    );
    expect(await archived.text()).toBe('"Last Name"\n"Doe"');
    const nothing = (await browser.run(csvLoader, browser.get(page.archive[0].href))) as Response;
    expect(await nothing.text()).toBe("No notifications for this date");

    const csv = (await browser.run(csvLoader, browser.get(page.csvHref))) as Response;
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Disposition")).toBe(
      `attachment; filename="NotificationSummary_${yesterday}.csv"`,
    );
    expect(await csv.text()).toContain("Last Name");
    const downloads = await prisma.auditEvent.count({
      where: { careSiteId: site.id, action: "notification_summary.downloaded" },
    });
    expect(downloads).toBe(3);
  });

  it("downloads of another care site answer 404", async () => {
    const { browser } = await siteWith("clinicadmin");
    const foreign = await createCareSite();
    await prisma.notificationSummary.create({
      data: { careSiteId: foreign.id, day: "2026-01-01", csv: "secret", rowCount: 1 },
    });
    const archive = await browser.run(
      csvLoader,
      browser.get(`${SUMMARY}/csv?c=${foreign.id}&day=2026-01-01`),
    );
    expect(statusOf(archive)).toBe(404);
    expect(
      statusOf(await browser.run(csvLoader, browser.get(`${SUMMARY}/csv?c=${foreign.id}`))),
    ).toBe(404);
    expect(statusOf(await browser.run(csvLoader, browser.get(`${SUMMARY}/csv?day=../x`)))).toBe(
      400,
    );
  });
});
