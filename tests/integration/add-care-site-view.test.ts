// Add Care Site from the care site view (issue 21 item 10; spec 2 §4 "A further success snackbar
// 'Clinic has been added successfully !!' exists in the care site view", §8 "Add care site in care
// site view fails"): the provider admins' view of a care site, /app/clinicprofiledetails, through
// the real loader and action. The unexpected failure is a real one: a full disk (SQLite's
// max_page_count on the test's connection, as tests/integration/storage-full.test.ts makes it).
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { StorageFullError } from "~/lib/storage.server";
import { action, loader } from "~/routes/app.clinicprofiledetails";
import { action as dashboardAction } from "~/routes/app._index";
import { loader as rootLoader } from "~/root";
import { createUser } from "../support/factories";
import { bodyOf, locationOf, statusOf, type Browser } from "../support/requests";
import { signedInBrowser } from "../support/session";

function word(length = 10) {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const chars = [...crypto.randomBytes(length)].map((b) => letters[b % 26]);
  return chars[0].toUpperCase() + chars.slice(1).join("");
}

const form = (fields: Record<string, string> = {}) => ({
  intent: "addCareSite",
  formToken: crypto.randomUUID(),
  accountNumber: "",
  name: word(),
  addressLine1: "1 Main St",
  addressLine2: "",
  country: "United States",
  state: "Texas",
  city: word(),
  zip: "78701",
  phoneCountry: "1",
  phone: "5125550100",
  website: "care.example.org",
  ...fields,
});

async function setup(role = "superadmin") {
  const site = await prisma.careSite.create({
    data: { name: word(), city: "Austin", state: "Texas", zip: "78701", status: "active" },
  });
  const browser = await signedInBrowser((await createUser({ role })).id);
  return { site, browser, path: `/app/clinicprofiledetails?c_id=${site.id}&dialog=addCareSite` };
}

const post = (browser: Browser, path: string, fields: Record<string, string>) =>
  browser.run(action, browser.post(path, fields));

describe("Add Care Site in the care site view", () => {
  it("offers the dialog to the provider's admins and adds with the view's message", async () => {
    for (const role of ["superadmin", "abmadmin"]) {
      const { browser, path } = await setup(role);
      const page = await bodyOf<{ mayAddCareSite: boolean; addCareSite: { formToken: string } }>(
        await browser.run(loader, browser.get(path)),
      );
      expect(page.mayAddCareSite).toBe(true);
      expect(page.addCareSite.formToken).toMatch(/^[0-9a-f-]{36}$/);
      const fields = form();
      const result = await post(browser, path, fields);
      expect(statusOf(result)).toBe(302);
      const created = await prisma.careSite.findFirstOrThrow({ where: { name: fields.name } });
      expect(locationOf(result)).toBe(`/app/clinicprofiledetails?c_id=${created.id}`);
      const root = await bodyOf<{ flash: unknown }>(
        await browser.run(rootLoader, browser.get(locationOf(result)!)),
      );
      expect(root.flash).toEqual({
        kind: "success",
        message: "Clinic has been added successfully !!",
        autoHideMs: 5000,
      });
    }
  });

  it("answers field errors with the spec's messages, the form's id and the values typed", async () => {
    const { browser, path } = await setup();
    const result = await post(browser, path, form({ name: "", state: "Texass", city: "Waco" }));
    expect(statusOf(result)).toBe(400);
    const body = await bodyOf<{
      formId: string;
      fieldErrors: Record<string, string>;
      repopulateFields: Record<string, string>;
    }>(result);
    expect(body.formId).toBe("addCareSite");
    expect(body.fieldErrors).toEqual({
      name: "Required",
      state: "Please select an appropriate state from the dropdown",
    });
    expect(body.repopulateFields.city).toBe("Waco");
  });

  it("is refused to care site staff (403)", async () => {
    const { site } = await setup();
    for (const role of ["clinicadmin", "clinician"]) {
      const browser = await signedInBrowser((await createUser({ role })).id);
      const fields = form();
      const result = await post(browser, `/app/clinicprofiledetails?c_id=${site.id}`, fields);
      expect(statusOf(result)).toBe(403);
      expect(await prisma.careSite.count({ where: { name: fields.name } })).toBe(0);
    }
  });

  it("says 'Something went wrong.Try again later' when the disk is full, and adds nothing", async () => {
    const { browser, path } = await setup();
    const fields = form();
    const result = await withFullDisk(() => post(browser, path, fields));
    expect(statusOf(result)).toBe(503);
    expect(await bodyOf(result)).toEqual({
      formId: "addCareSite",
      snackbar: "Something went wrong.Try again later",
    });
    expect(await prisma.careSite.count({ where: { name: fields.name } })).toBe(0);
  });

  it("the Dashboard's dialog says its own words for the same failure, over the values typed (spec 2 §8)", async () => {
    const { browser } = await setup();
    const fields = form();
    const result = await withFullDisk(() =>
      browser.run(dashboardAction, browser.post("/app?index&dialog=addCareSite", fields)),
    );
    expect(statusOf(result)).toBe(503);
    const body = await bodyOf<{ formError: string; repopulateFields: Record<string, string> }>(
      result,
    );
    expect(body.formError).toBe(
      "Clinic was not added. Please check the highlighted field and try again.",
    );
    expect(body.repopulateFields.name).toBe(fields.name);
    expect(await prisma.careSite.count({ where: { name: fields.name } })).toBe(0);
  });
});

/** Runs `work` while the database file cannot grow (a full disk), then gives the room back. */
async function withFullDisk<T>(work: () => Promise<T>) {
  const [{ page_count }] =
    await prisma.$queryRawUnsafe<{ page_count: bigint }[]>("PRAGMA page_count");
  await prisma.$queryRawUnsafe(`PRAGMA max_page_count = ${Number(page_count)}`);
  const fill = `test.fill.${word(6)}`;
  try {
    // Fill what room the file has left, so the next write needs a page it cannot get.
    for (const size of [8_000, 1_000, 100, 1]) {
      for (let i = 0; i < 100_000; i++) {
        try {
          await prisma.auditEvent.create({
            data: { action: fill, detail: "x".repeat(size) },
            select: { id: true },
          });
        } catch (error) {
          expect(error).toBeInstanceOf(StorageFullError);
          break;
        }
      }
    }
    return await work();
  } finally {
    await prisma.$queryRawUnsafe("PRAGMA max_page_count = 1073741823");
    await prisma.auditEvent.deleteMany({ where: { action: fill } });
  }
}
