// The care site screen (/app/caresitesettingdashboard and its CSV) and the Care Site Profile page
// (/app/clinicprofiledetails) through their real loaders and actions, on a real SQLite file.
import crypto from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { sessionStorage } from "~/lib/session.server";
import { dayInZone } from "~/lib/time";
import {
  countEnrolled,
  getEnrolledMember,
  getEnrolledPatient,
  listEnrolled,
} from "~/domain/careSites/members.server";
import { getShellUser } from "~/domain/accounts/user.server";
import { action as pageAction, loader as pageLoader } from "~/routes/app.caresitesettingdashboard";
import { loader as csvLoader } from "~/routes/app.caresitesettingdashboard.csv";
import {
  action as profileAction,
  loader as profileLoader,
} from "~/routes/app.clinicprofiledetails";
import { careSiteMessages } from "~/domain/careSites/schema";
import { actorOf, createCareSite, createUser, uid } from "../support/factories";
import { bodyOf, locationOf, statusOf, type Browser } from "../support/requests";
import { signedInBrowser } from "../support/session";

const PAGE = "/app/caresitesettingdashboard";
const PROFILE = "/app/clinicprofiledetails";

type PageData = Exclude<Awaited<ReturnType<typeof pageLoader>>, Response>;
type Page = NonNullable<PageData["page"]>;

/** A user enrolled at care sites with chosen names (the factories give random last names). */
async function person(
  role: string,
  sites: { id: string; status?: string }[],
  names: { firstName?: string; lastName?: string; speciality?: string } = {},
) {
  const user = await createUser({ role, careSites: sites });
  return prisma.user.update({ where: { id: user.id }, data: names });
}

async function pair(patientId: string, careSiteId: string) {
  const device = await prisma.device.create({
    data: { serial: uid("SN"), type: "cough", tokenHash: uid("h") },
  });
  return prisma.pairing.create({ data: { deviceId: device.id, patientId, careSiteId } });
}

async function membershipOf(userId: string, careSiteId: string) {
  return prisma.membership.findUniqueOrThrow({
    where: { careSiteId_userId: { careSiteId, userId } },
  });
}

async function openPage(browser: Browser, search = "") {
  const result = await browser.run(pageLoader, browser.get(`${PAGE}${search}`));
  expect(statusOf(result)).toBe(200);
  const { page } = await bodyOf<PageData>(result);
  return page!;
}

async function flashOf(browser: Browser) {
  const session = await sessionStorage.getSession(browser.cookie);
  return session.get("flash");
}

const names = (page: Page) => page.rows.map((r) => `${r.firstName} ${r.lastName}`);

/** Parses our own CSV output (every cell quoted, no quotes or commas inside the test's names). */
function csvRows(text: string) {
  return text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(1, -1).split('","'));
}

describe("care site screen: counts and lists", () => {
  it("counts accepted memberships per role and shows the clinicians list by default", async () => {
    const site = await createCareSite();
    const admin = await person("clinicadmin", [{ id: site.id }]);
    await person("clinician", [{ id: site.id }], {
      firstName: "Noor",
      lastName: "Haddad",
      speciality: "Pulmonologist",
    });
    await person("clinician", [{ id: site.id }], { firstName: "Ines", lastName: "Baker" });
    await person("clinician", [{ id: site.id, status: "pending" }], { firstName: "Pending" });
    await person("clinician", [{ id: site.id, status: "blocked" }], { firstName: "Blocked" });
    for (const first of ["Ann", "Bob", "Cy"])
      await person("patient", [{ id: site.id }], { firstName: first });
    await person("patient", [{ id: site.id, status: "rejected" }], { firstName: "Rejected" });

    const browser = await signedInBrowser(admin.id);
    const page = await openPage(browser);
    expect(page.site.id).toBe(site.id);
    expect(page.counts).toEqual({ patient: 3, clinician: 2, clinicadmin: 1 });
    expect(page.view).toBe("clinician");
    expect(names(page)).toEqual(["Ines Baker", "Noor Haddad"]);
    expect(page.rows.find((r) => r.firstName === "Noor")?.speciality).toBe("Pulmonologist");
    expect(page.total).toBe(2);

    const admins = await openPage(browser, `?c=${site.id}&view=clinicadmin`);
    expect(admins.rows.map((r) => r.userId)).toEqual([admin.id]);
    // Nobody removes themselves.
    expect(admins.rows[0].canRemove).toBe(false);
    expect(page.rows.every((r) => r.canRemove)).toBe(true);
    // Invite: a care site admin invites each role through their invitations screen.
    expect(page.invite).toEqual({
      path: "/app/clinicadmin",
      roles: ["patient", "clinician", "clinicadmin"],
    });
  });

  it("pages, searches and sorts the patients list (first name ascending by default)", async () => {
    const site = await createCareSite();
    const clinician = await person("clinician", [{ id: site.id }]);
    const tag = uid("Zz").replace(/[0-9]/g, "q");
    const firsts = [
      "Lena",
      "Abel",
      "Kim",
      "Bea",
      "Jon",
      "Cal",
      "Ida",
      "Dan",
      "Hal",
      "Eve",
      "Gus",
      "Fay",
    ];
    for (const [i, first] of firsts.entries()) {
      await person("patient", [{ id: site.id }], {
        firstName: first,
        lastName: `${tag}${String.fromCharCode(97 + i)}`,
      });
    }
    const browser = await signedInBrowser(clinician.id);
    const sorted = [...firsts].sort();

    const first = await openPage(browser, `?c=${site.id}&view=patient`);
    expect(first.total).toBe(12);
    expect(first.params).toMatchObject({ sort: "firstName", order: "asc", page: 1 });
    expect(first.rows.map((r) => r.firstName)).toEqual(sorted.slice(0, 10));
    const second = await openPage(browser, `?c=${site.id}&view=patient&page=2`);
    expect(second.rows.map((r) => r.firstName)).toEqual(sorted.slice(10));

    const byLastDesc = await openPage(
      browser,
      `?c=${site.id}&view=patient&sort=lastName&order=desc`,
    );
    expect(byLastDesc.rows[0].firstName).toBe("Fay"); // the last letter, "l"
    expect(byLastDesc.rows.map((r) => r.lastName)).toEqual(
      firsts
        .map((_, i) => `${tag}${String.fromCharCode(97 + i)}`)
        .sort()
        .reverse()
        .slice(0, 10),
    );

    const search = await openPage(browser, `?c=${site.id}&view=patient&q=${tag}b`);
    expect(names(search)).toEqual([`Abel ${tag}b`]);
    const twoWords = await openPage(
      browser,
      `?c=${site.id}&view=patient&q=kim+${tag.toLowerCase()}`,
    );
    expect(twoWords.rows.map((r) => r.firstName)).toEqual(["Kim"]);
    const none = await openPage(browser, `?c=${site.id}&view=patient&q=nobody-by-this-name`);
    expect(none.rows).toEqual([]);
    expect(none.total).toBe(0);
    // Speciality is a clinicians' column: on patients it falls back to the default sort.
    const fallback = await openPage(browser, `?c=${site.id}&view=patient&sort=speciality`);
    expect(fallback.params.sort).toBe("firstName");
    // An unknown view is the default one.
    expect((await openPage(browser, `?c=${site.id}&view=superadmin`)).view).toBe("clinician");
    // A clinician invites patients only.
    expect(first.invite).toEqual({ path: "/app/cliniciantable", roles: ["patient"] });
  });

  it("links rows: staff to /app/userinfo, paired patients to the patient profile, others to the notice", async () => {
    const site = await createCareSite();
    const admin = await person("clinicadmin", [{ id: site.id }]);
    const colleague = await person("clinician", [{ id: site.id }]);
    const paired = await person("patient", [{ id: site.id }], { firstName: "Paired" });
    const unpaired = await person("patient", [{ id: site.id }], {
      firstName: "Maya",
      lastName: "Lindqvist",
    });
    const pairing = await pair(paired.id, site.id);
    // A pairing that ended does not count.
    const old = await pair(unpaired.id, site.id);
    await prisma.pairing.update({ where: { id: old.id }, data: { unpairedAt: new Date() } });

    const browser = await signedInBrowser(admin.id);
    const staff = await openPage(browser, `?c=${site.id}`);
    expect(staff.rows.find((r) => r.userId === colleague.id)?.href).toBe(
      `/app/userinfo/${colleague.id}`,
    );
    const patients = await openPage(browser, `?c=${site.id}&view=patient`);
    const href = patients.rows.find((r) => r.userId === paired.id)!.href!;
    expect(href.startsWith("/app/PatientProfile?p=")).toBe(true);
    const p = decodeURIComponent(new URL(href, "http://x").searchParams.get("p")!);
    expect(JSON.parse(Buffer.from(p, "base64").toString("utf8"))).toEqual({
      profile_id: paired.id,
      clinic_id: site.id,
      pair_id: pairing.id,
    });
    expect(patients.rows.find((r) => r.userId === unpaired.id)?.href).toBeNull();

    const notice = await openPage(browser, `?c=${site.id}&view=patient&notice=${unpaired.id}`);
    expect(notice.notice).toBe("Maya Lindqvist is not associated with any device");
    expect((await openPage(browser, `?c=${site.id}&notice=${paired.id}`)).notice).toBeNull();
    expect((await openPage(browser, `?c=${site.id}&notice=${colleague.id}`)).notice).toBeNull();
    const stranger = await person("patient", [{ id: (await createCareSite()).id }]);
    expect((await openPage(browser, `?c=${site.id}&notice=${stranger.id}`)).notice).toBeNull();
  });

  it("shows 'No clinic found' data (no page) to staff without a care site", async () => {
    const lonely = await createUser({ role: "clinician" });
    const browser = await signedInBrowser(lonely.id);
    const result = await bodyOf<PageData>(await browser.run(pageLoader, browser.get(PAGE)));
    expect(result).toEqual({ careSites: [], page: null });
  });
});

describe("removing (withdrawing) a user", () => {
  it("a care site admin removes a clinician: blocked membership and invitation, audit, access gone", async () => {
    const site = await createCareSite();
    const elsewhere = await createCareSite();
    const admin = await person("clinicadmin", [{ id: site.id }]);
    const clinician = await person("clinician", [{ id: site.id }, { id: elsewhere.id }], {
      firstName: "Rosa",
      lastName: "Marsh",
    });
    const membership = await membershipOf(clinician.id, site.id);
    const invitation = await prisma.invitation.create({
      data: {
        email: clinician.email,
        role: "clinician",
        careSiteId: site.id,
        invitedById: admin.id,
        membershipId: membership.id,
        status: "accepted",
        tokenHash: crypto.randomBytes(16).toString("hex"),
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    expect((await getShellUser(clinician.id))!.careSites.map((c) => c.id).sort()).toEqual(
      [site.id, elsewhere.id].sort(),
    );

    const browser = await signedInBrowser(admin.id);
    const dialogUrl = `?c=${site.id}&view=clinician&page=2&dialog=withdraw&m=${membership.id}`;
    const withDialog = await openPage(browser, dialogUrl);
    expect(withDialog.withdraw).toEqual({ membershipId: membership.id, careSiteId: site.id });

    const result = await browser.run(
      pageAction,
      browser.post(`${PAGE}${dialogUrl}`, {
        intent: "withdraw",
        membershipId: membership.id,
        careSiteId: site.id,
      }),
    );
    expect(locationOf(result)).toBe(`${PAGE}?c=${site.id}&view=clinician`);
    expect(await flashOf(browser)).toEqual({
      kind: "success",
      message: `Rosa Marsh has been removed from ${site.name}.`,
    });
    expect((await membershipOf(clinician.id, site.id)).status).toBe("blocked");
    expect(
      (await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).status,
    ).toBe("blocked");
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "membership.withdrawn", targetId: membership.id },
    });
    expect(event).toMatchObject({ actorId: admin.id, careSiteId: site.id });
    expect(JSON.parse(event.detail!)).toMatchObject({
      userId: clinician.id,
      invitationIds: [invitation.id],
    });

    // Access is gone: the clinician no longer has that care site, and its page answers 404.
    expect((await getShellUser(clinician.id))!.careSites.map((c) => c.id)).toEqual([elsewhere.id]);
    const removed = await signedInBrowser(clinician.id);
    expect(statusOf(await removed.run(pageLoader, removed.get(`${PAGE}?c=${site.id}`)))).toBe(404);
    // Counts and list follow.
    const after = await openPage(browser, `?c=${site.id}`);
    expect(after.counts.clinician).toBe(0);
    expect(after.rows).toEqual([]);
    // A second removal finds no accepted membership.
    const again = await browser.run(
      pageAction,
      browser.post(PAGE, { intent: "withdraw", membershipId: membership.id }),
    );
    expect(statusOf(again)).toBe(404);
  });

  it("a clinician removes patients only; nobody removes themselves", async () => {
    const site = await createCareSite();
    const admin = await person("clinicadmin", [{ id: site.id }]);
    const clinician = await person("clinician", [{ id: site.id }]);
    const colleague = await person("clinician", [{ id: site.id }]);
    const patient = await person("patient", [{ id: site.id }]);
    const browser = await signedInBrowser(clinician.id);

    const staff = await openPage(browser, `?c=${site.id}`);
    expect(staff.rows.every((r) => !r.canRemove)).toBe(true);
    const patients = await openPage(browser, `?c=${site.id}&view=patient`);
    expect(patients.rows.map((r) => r.canRemove)).toEqual([true]);
    // The dialog does not open for a row one may not remove.
    const colleagueMembership = await membershipOf(colleague.id, site.id);
    expect(
      (await openPage(browser, `?c=${site.id}&dialog=withdraw&m=${colleagueMembership.id}`))
        .withdraw,
    ).toBeNull();

    const post = (membershipId: string) =>
      browser.run(pageAction, browser.post(PAGE, { intent: "withdraw", membershipId }));
    for (const userId of [colleague.id, admin.id, clinician.id]) {
      const m = await membershipOf(userId, site.id);
      expect(statusOf(await post(m.id))).toBe(403);
      expect((await membershipOf(userId, site.id)).status).toBe("accepted");
    }
    const patientMembership = await membershipOf(patient.id, site.id);
    expect(statusOf(await post(patientMembership.id))).toBe(302);
    expect((await membershipOf(patient.id, site.id)).status).toBe("blocked");

    const adminBrowser = await signedInBrowser(admin.id);
    const own = await membershipOf(admin.id, site.id);
    expect(
      statusOf(
        await adminBrowser.run(
          pageAction,
          adminBrowser.post(PAGE, { intent: "withdraw", membershipId: own.id }),
        ),
      ),
    ).toBe(403);
  });
});

describe("care site scoping", () => {
  it("a clinician of care site A gets 404 for care site B's page, CSV, withdraw and details", async () => {
    const a = await createCareSite();
    const b = await createCareSite();
    const inactive = await createCareSite();
    await prisma.careSite.update({ where: { id: inactive.id }, data: { status: "inactive" } });
    const clinician = await person("clinician", [
      { id: a.id },
      { id: b.id, status: "pending" },
      { id: inactive.id },
    ]);
    const adminOfB = await person("clinicadmin", [{ id: b.id }]);
    const patientOfB = await person("patient", [{ id: b.id }]);
    const browser = await signedInBrowser(clinician.id);

    expect(statusOf(await browser.run(pageLoader, browser.get(`${PAGE}?c=${a.id}`)))).toBe(200);
    for (const id of [b.id, inactive.id, "no-such-site"]) {
      expect(statusOf(await browser.run(pageLoader, browser.get(`${PAGE}?c=${id}`)))).toBe(404);
      expect(
        statusOf(await browser.run(csvLoader, browser.get(`${PAGE}/csv?c=${id}&view=patient`))),
      ).toBe(404);
    }
    const m = await membershipOf(patientOfB.id, b.id);
    expect(
      statusOf(
        await browser.run(
          pageAction,
          browser.post(`${PAGE}?c=${a.id}`, { intent: "withdraw", membershipId: m.id }),
        ),
      ),
    ).toBe(404);
    expect((await membershipOf(patientOfB.id, b.id)).status).toBe("accepted");

    // B's own admin cannot edit A either.
    const bBrowser = await signedInBrowser(adminOfB.id);
    const details = await bBrowser.run(
      pageAction,
      bBrowser.post(PAGE, { intent: "details", careSiteId: a.id, name: "Taken Over" }),
    );
    expect(statusOf(details)).toBe(404);
  });

  it("scopes inside the model's queries, whatever the route checked", async () => {
    const a = await createCareSite();
    const b = await createCareSite();
    const clinician = await person("clinician", [{ id: a.id }]);
    const patientOfB = await person("patient", [{ id: b.id }]);
    const m = await membershipOf(patientOfB.id, b.id);
    const params = { q: "", sort: "firstName" as const, order: "asc" as const, page: 1 };
    const superadmin = await createUser({ role: "superadmin" });
    for (const actor of [clinician, superadmin]) {
      expect(await countEnrolled(await actorOf(actor), b.id)).toEqual({
        patient: 0,
        clinician: 0,
        clinicadmin: 0,
      });
      expect(await listEnrolled(await actorOf(actor), b.id, "patient", params)).toEqual({
        rows: [],
        total: 0,
      });
      expect(await getEnrolledMember(await actorOf(actor), b.id, m.id)).toBeNull();
      expect(await getEnrolledPatient(await actorOf(actor), b.id, patientOfB.id)).toBeNull();
      // Naming care site A while asking for B's membership does not help either.
      expect(await getEnrolledMember(await actorOf(actor), a.id, m.id)).toBeNull();
    }
    const ofB = await person("clinician", [{ id: b.id }]);
    expect((await listEnrolled(await actorOf(ofB), b.id, "patient", params)).total).toBe(1);
  });

  it("is for clinicadmin and clinician only; the profile page for superadmin and abmadmin only", async () => {
    const site = await createCareSite();
    for (const role of ["superadmin", "abmadmin"]) {
      const browser = await signedInBrowser((await createUser({ role })).id);
      expect(statusOf(await browser.run(pageLoader, browser.get(PAGE)))).toBe(403);
      expect(statusOf(await browser.run(csvLoader, browser.get(`${PAGE}/csv`)))).toBe(403);
      expect(statusOf(await browser.run(pageAction, browser.post(PAGE, {})))).toBe(403);
      expect(
        statusOf(await browser.run(profileLoader, browser.get(`${PROFILE}?c_id=${site.id}`))),
      ).toBe(200);
    }
    for (const role of ["clinicadmin", "clinician"]) {
      const browser = await signedInBrowser(
        (await createUser({ role, careSites: [{ id: site.id }] })).id,
      );
      expect(
        statusOf(await browser.run(profileLoader, browser.get(`${PROFILE}?c_id=${site.id}`))),
      ).toBe(403);
      expect(
        statusOf(
          await browser.run(
            profileAction,
            browser.post(`${PROFILE}?c_id=${site.id}`, { intent: "profile" }),
          ),
        ),
      ).toBe(403);
    }
  });
});

describe("care site details dialog", () => {
  const details = {
    intent: "details",
    name: "Riverside Care",
    addressLine1: "400 River Rd",
    addressLine2: "Floor 2",
    country: "United States",
    state: "Texas",
    city: "Austin",
    zip: "78702",
    phone: "+1 512 555 0199",
    website: "riverside.example",
  };

  it("a care site admin saves the details; unchanged and invalid posts get their messages", async () => {
    const site = await createCareSite();
    await prisma.careSite.update({
      where: { id: site.id },
      data: { accountNumber: `T${crypto.randomInt(1e9, 9e9)}0` },
    });
    const before = await prisma.careSite.findUniqueOrThrow({ where: { id: site.id } });
    const admin = await person("clinicadmin", [{ id: site.id }]);
    const browser = await signedInBrowser(admin.id);
    const url = `${PAGE}?c=${site.id}&view=patient&dialog=details`;

    const page = await openPage(browser, `?c=${site.id}&dialog=details`);
    expect(page.dialog).toBe("details");
    expect(page.site.canEdit).toBe(true);

    const saved = await browser.run(
      pageAction,
      browser.post(url, { ...details, careSiteId: site.id, accountNumber: "HACK00000001" }),
    );
    expect(locationOf(saved)).toBe(`${PAGE}?c=${site.id}&view=patient`);
    expect(await flashOf(browser)).toEqual({
      kind: "success",
      message: "Care Site Details updated successfully",
    });
    const after = await prisma.careSite.findUniqueOrThrow({ where: { id: site.id } });
    expect(after).toMatchObject({
      name: "Riverside Care",
      addressLine1: "400 River Rd",
      zip: "78702",
      phone: "15125550199",
      website: "riverside.example",
      // Read-only in the dialog.
      accountNumber: before.accountNumber,
    });
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "caresite.updated", targetId: site.id },
    });
    expect(event.actorId).toBe(admin.id);

    const again = await browser.run(
      pageAction,
      browser.post(url, { ...details, careSiteId: site.id }),
    );
    expect(statusOf(again)).toBe(400);
    expect(await bodyOf(again)).toEqual({ formInfo: careSiteMessages.unchanged });

    const invalid = await browser.run(
      pageAction,
      browser.post(url, { ...details, careSiteId: site.id, name: "Abc", website: "" }),
    );
    expect(statusOf(invalid)).toBe(400);
    expect(await bodyOf(invalid)).toMatchObject({
      fieldErrors: { name: "Must be at least 6 characters", website: "Required" },
      repopulateFields: { name: "Abc" },
    });
  });

  it("is read-only for a clinician (the post answers 403)", async () => {
    const site = await createCareSite();
    const clinician = await person("clinician", [{ id: site.id }]);
    const browser = await signedInBrowser(clinician.id);
    const page = await openPage(browser, `?c=${site.id}&dialog=details`);
    expect(page.site.canEdit).toBe(false);
    const post = await browser.run(
      pageAction,
      browser.post(PAGE, { ...details, careSiteId: site.id }),
    );
    expect(statusOf(post)).toBe(403);
    expect((await prisma.careSite.findUniqueOrThrow({ where: { id: site.id } })).name).toBe(
      site.name,
    );
  });

  it("uploads the care site picture (multipart) for a care site admin only", async () => {
    const site = await createCareSite();
    const admin = await person("clinicadmin", [{ id: site.id }]);
    const clinician = await person("clinician", [{ id: site.id }]);
    const png = await sharp({
      create: { width: 200, height: 120, channels: 3, background: "#0b5c8c" },
    })
      .png()
      .toBuffer();
    const upload = (browser: Browser, bytes: Blob, careSiteId = site.id) => {
      const body = new FormData();
      body.append("intent", "picture");
      body.append("careSiteId", careSiteId);
      body.append("picture", bytes, "site.png");
      return new Request(`http://localhost${PAGE}?c=${site.id}&dialog=details`, {
        method: "POST",
        body,
        headers: { Cookie: browser.cookie },
      });
    };
    const browser = await signedInBrowser(admin.id);
    const ok = await browser.run(pageAction, upload(browser, new Blob([new Uint8Array(png)])));
    expect(locationOf(ok)).toBe(`${PAGE}?c=${site.id}&dialog=details`);
    const photoId = (await prisma.careSite.findUniqueOrThrow({ where: { id: site.id } })).photoId;
    expect(photoId).not.toBeNull();
    expect((await prisma.upload.findUniqueOrThrow({ where: { id: photoId! } })).kind).toBe(
      "caresite",
    );

    const text = await browser.run(pageAction, upload(browser, new Blob(["not an image"])));
    expect(statusOf(text)).toBe(400);
    expect(await bodyOf(text)).toEqual({
      photoError: "Please upload a JPEG, PNG, GIF or WebP image.",
    });

    const other = await createCareSite();
    expect(
      statusOf(
        await browser.run(pageAction, upload(browser, new Blob([new Uint8Array(png)]), other.id)),
      ),
    ).toBe(404);
    const clinicianBrowser = await signedInBrowser(clinician.id);
    expect(
      statusOf(
        await clinicianBrowser.run(
          pageAction,
          upload(clinicianBrowser, new Blob([new Uint8Array(png)])),
        ),
      ),
    ).toBe(403);
  });
});

describe("CSV download", () => {
  it("exports the current list, every page, without ids or photo columns", async () => {
    const site = await prisma.careSite.create({
      data: { name: "Lakeside North", city: "Austin", state: "Texas", zip: "78701" },
    });
    const admin = await person("clinicadmin", [{ id: site.id }]);
    const tag = uid("Yy").replace(/[0-9]/g, "w");
    const patients = [];
    for (let i = 0; i < 12; i++) {
      patients.push(
        await person("patient", [{ id: site.id }], {
          firstName: `P${String.fromCharCode(65 + i)}`,
          lastName: tag,
        }),
      );
    }
    await prisma.user.update({
      where: { id: patients[0].id },
      data: { city: "Dallas", state: "Texas", zip: "75201", country: "United States" },
    });
    const evil = await person("patient", [{ id: site.id }], {
      firstName: "=HYPERLINK(1)",
      lastName: "Other",
    });
    await pair(patients[1].id, site.id);
    const browser = await signedInBrowser(admin.id);

    const response = (await browser.run(
      csvLoader,
      browser.get(`${PAGE}/csv?c=${site.id}&view=patient&q=${tag}`),
    )) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const day = dayInZone(new Date(), site.timeZone);
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Patients_Lakeside_North_${day}.csv"`,
    );
    const text = await response.text();
    const [header, ...rows] = csvRows(text);
    expect(header).toEqual([
      "Last Name",
      "First Name",
      "Care Site Name",
      "City",
      "State",
      "Zip",
      "Country",
    ]);
    for (const id of [site.id, admin.id, ...patients.map((p) => p.id)])
      expect(text).not.toContain(id);

    // The same rows, in the same order, as the list's pages.
    const listed = [
      ...(await openPage(browser, `?c=${site.id}&view=patient&q=${tag}`)).rows,
      ...(await openPage(browser, `?c=${site.id}&view=patient&q=${tag}&page=2`)).rows,
    ];
    expect(listed).toHaveLength(12);
    expect(rows.map((r) => [r[0], r[1]])).toEqual(listed.map((r) => [r.lastName, r.firstName]));
    expect(rows[0]).toEqual([
      tag,
      "PA",
      "Lakeside North",
      "Dallas",
      "Texas",
      "75201",
      "United States",
    ]);

    // Sort follows the list's parameters.
    const desc = (await browser.run(
      csvLoader,
      browser.get(`${PAGE}/csv?c=${site.id}&view=patient&q=${tag}&sort=firstName&order=desc`),
    )) as Response;
    expect(csvRows(await desc.text())[1][1]).toBe("PL");

    // A cell a spreadsheet would run as a formula is disarmed.
    const all = (await browser.run(
      csvLoader,
      browser.get(`${PAGE}/csv?c=${site.id}&view=patient&q=Other`),
    )) as Response;
    const allText = await all.text();
    expect(csvRows(allText)[1].slice(0, 2)).toEqual(["Other", "'=HYPERLINK(1)"]);
    expect(allText).not.toContain(evil.id);

    // Clinicians have a Speciality column; the list with nobody in it is the header alone.
    const clinicians = (await browser.run(
      csvLoader,
      browser.get(`${PAGE}/csv?c=${site.id}&view=clinician`),
    )) as Response;
    expect(clinicians.headers.get("Content-Disposition")).toContain("Clinicians_Lakeside_North_");
    expect(csvRows(await clinicians.text())).toEqual([
      [
        "Last Name",
        "First Name",
        "Speciality",
        "Care Site Name",
        "City",
        "State",
        "Zip",
        "Country",
      ],
    ]);
    expect(
      await prisma.auditEvent.count({
        where: { action: "caresite.members_exported", actorId: admin.id, careSiteId: site.id },
      }),
    ).toBe(4);
  });
});

describe("Care Site Profile page", () => {
  const accountNumber = () => `T${crypto.randomInt(1e9, 9e9)}0`;
  const profile = {
    intent: "profile",
    name: "Hillcrest Clinic",
    addressLine1: "9 Hill St",
    addressLine2: "",
    country: "Canada",
    state: "Ontario",
    city: "Toronto",
    zip: "M5V2T6",
    phone: "",
    website: "",
  };

  it("shows the care site with its active admins, or the no-admins text", async () => {
    const site = await createCareSite();
    const empty = await createCareSite();
    const admin = await person("clinicadmin", [{ id: site.id }]);
    await person("clinicadmin", [{ id: site.id, status: "pending" }]);
    const disabled = await person("clinicadmin", [{ id: site.id }]);
    await prisma.user.update({ where: { id: disabled.id }, data: { status: "disabled" } });
    const browser = await signedInBrowser((await createUser({ role: "abmadmin" })).id);

    const data = await bodyOf<{ site: { id: string; name: string }; admins: { email: string }[] }>(
      await browser.run(profileLoader, browser.get(`${PROFILE}?c_id=${site.id}`)),
    );
    expect(data.site).toMatchObject({ id: site.id, name: site.name });
    expect(data.admins.map((a) => a.email)).toEqual([admin.email]);
    const none = await bodyOf<{ admins: unknown[] }>(
      await browser.run(profileLoader, browser.get(`${PROFILE}?c_id=${empty.id}`)),
    );
    expect(none.admins).toEqual([]);
    for (const search of ["?c_id=nope", "", "?c_id="]) {
      expect(statusOf(await browser.run(profileLoader, browser.get(`${PROFILE}${search}`)))).toBe(
        404,
      );
    }
  });

  it("a super admin updates the profile; duplicate account number and unchanged get their messages", async () => {
    const site = await createCareSite();
    const other = await prisma.careSite.create({
      data: {
        name: "Other Site",
        city: "Austin",
        state: "Texas",
        zip: "78701",
        accountNumber: accountNumber(),
      },
    });
    const superadmin = await createUser({ role: "superadmin" });
    const browser = await signedInBrowser(superadmin.id);
    const url = `${PROFILE}?c_id=${site.id}`;
    const mine = accountNumber();

    const saved = await browser.run(
      profileAction,
      browser.post(url, { ...profile, accountNumber: mine }),
    );
    expect(locationOf(saved)).toBe(url);
    expect(await flashOf(browser)).toEqual({
      kind: "success",
      message: "Clinic was updated successfully",
    });
    expect(await prisma.careSite.findUniqueOrThrow({ where: { id: site.id } })).toMatchObject({
      accountNumber: mine,
      name: "Hillcrest Clinic",
      country: "Canada",
      state: "Ontario",
      addressLine2: null,
      website: null,
    });
    expect(
      await prisma.auditEvent.findFirst({
        where: { action: "caresite.updated", targetId: site.id, actorId: superadmin.id },
      }),
    ).not.toBeNull();

    const unchanged = await browser.run(
      profileAction,
      browser.post(url, { ...profile, accountNumber: mine }),
    );
    expect(statusOf(unchanged)).toBe(400);
    expect(await bodyOf(unchanged)).toEqual({ formInfo: careSiteMessages.unchanged });

    const duplicate = await browser.run(
      profileAction,
      browser.post(url, {
        ...profile,
        accountNumber: other.accountNumber!,
        name: "Hillcrest Care",
      }),
    );
    expect(statusOf(duplicate)).toBe(400);
    expect(await bodyOf(duplicate)).toMatchObject({
      fieldErrors: { accountNumber: "accountnumber alraedy exists" },
    });
    expect((await prisma.careSite.findUniqueOrThrow({ where: { id: site.id } })).name).toBe(
      "Hillcrest Clinic",
    );

    const invalid = await browser.run(
      profileAction,
      browser.post(url, { ...profile, accountNumber: "ARC00000001", zip: "12" }),
    );
    expect(statusOf(invalid)).toBe(400);
    expect(await bodyOf(invalid)).toMatchObject({
      fieldErrors: {
        accountNumber: "Must be at least 12 characters",
        zip: "Must be at least 3 characters",
      },
    });
    expect(
      statusOf(
        await browser.run(
          profileAction,
          browser.post(`${PROFILE}?c_id=nope`, { ...profile, accountNumber: mine }),
        ),
      ),
    ).toBe(404);
  });
});

describe("malformed posts", () => {
  it("answer 4xx, never 500", async () => {
    const site = await createCareSite();
    const admin = await person("clinicadmin", [{ id: site.id }]);
    const browser = await signedInBrowser(admin.id);
    const bodies: Record<string, string | string[]>[] = [
      {},
      { intent: "nonsense" },
      { intent: ["withdraw", "details"] },
      { intent: "withdraw" },
      { intent: "withdraw", membershipId: "" },
      { intent: "withdraw", membershipId: ["a", "b"] },
      { intent: "withdraw", membershipId: "x".repeat(100_000) },
      { intent: "details" },
      { intent: "details", careSiteId: ["a", "b"] },
      { intent: "details", careSiteId: site.id },
      { intent: "details", careSiteId: site.id, name: ["a", "b"], zip: "x".repeat(500_000) },
      { intent: "picture", careSiteId: site.id },
    ];
    for (const fields of bodies) {
      const status = statusOf(await browser.run(pageAction, browser.post(PAGE, fields)));
      expect(status, JSON.stringify(fields).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
    const raw = (contentType: string, body: string, path = PAGE) =>
      new Request(`http://localhost${path}`, {
        method: "POST",
        headers: { Cookie: browser.cookie, "Content-Type": contentType },
        body,
      });
    for (const request of [
      raw("application/json", '{"intent":"withdraw"}'),
      raw("multipart/form-data; boundary=xyz", "--xyz\r\ngarbage"),
      raw("multipart/form-data", "no boundary"),
      raw("text/plain", "intent=withdraw"),
    ]) {
      const status = statusOf(await browser.run(pageAction, request));
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }

    const superadmin = await signedInBrowser((await createUser({ role: "superadmin" })).id);
    const url = `${PROFILE}?c_id=${site.id}`;
    for (const fields of [
      {},
      { intent: "x" },
      { intent: "profile" },
      { intent: "profile", accountNumber: ["A", "B"], name: "x".repeat(300_000) },
    ] as Record<string, string | string[]>[]) {
      const status = statusOf(await superadmin.run(profileAction, superadmin.post(url, fields)));
      expect(status, JSON.stringify(fields).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
    const json = new Request(`http://localhost${url}`, {
      method: "POST",
      headers: { Cookie: superadmin.cookie, "Content-Type": "application/json" },
      body: "{}",
    });
    const status = statusOf(await superadmin.run(profileAction, json));
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    // Lists: odd parameters are read as defaults, never an error.
    const odd = await openPage(
      browser,
      `?c=${site.id}&view=x&sort=';drop&order=sideways&page=-4&q=${"z".repeat(500)}`,
    );
    expect(odd.params).toMatchObject({ sort: "firstName", order: "asc", page: 1 });
  });
});
