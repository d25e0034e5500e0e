// The administrators' Dashboard at /app (spec 2 §2 "Super admin dashboard", "Add Care Site
// dialog", §5) through the real loader and action on a real SQLite database. The worker database
// is shared with other test files, so every list is narrowed by a word unique to the test.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type {
  AdminDashboardData,
  CareSiteListRow,
  PersonListRow,
} from "~/domain/careSites/ui/AdminDashboard";
import { prisma } from "~/lib/db.server";
import { photoUrl } from "~/lib/photoUrl";
import { action, loader } from "~/routes/app._index";
import { loader as rootLoader } from "~/root";
import { careSiteMessages } from "~/domain/careSites/schema";
import { createUser } from "../support/factories";
import { bodyOf, locationOf, statusOf, type Browser } from "../support/requests";
import { signedInBrowser } from "../support/session";

type Home = AdminDashboardData & { kind: "admin" };
type PersonRows = PersonListRow[];
type SiteRows = CareSiteListRow[];

/** A random word of letters only (care site names and cities must be letters and spaces). */
function word(length = 10) {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const chars = [...crypto.randomBytes(length)].map((b) => letters[b % 26]);
  return chars[0].toUpperCase() + chars.slice(1).join("");
}

async function admin(role: "superadmin" | "abmadmin" = "superadmin") {
  return signedInBrowser((await createUser({ role })).id);
}

async function home(browser: Browser, search = "") {
  const result = await browser.run(loader, browser.get(`/app${search}`));
  expect(statusOf(result)).toBe(200);
  return (await bodyOf(result)) as unknown as Home;
}

async function site(
  fields: { name?: string; city?: string; state?: string; zip?: string; status?: string } = {},
) {
  return prisma.careSite.create({
    data: {
      name: fields.name ?? word(),
      city: fields.city ?? "Austin",
      state: fields.state ?? "Texas",
      zip: fields.zip ?? "78701",
      status: fields.status ?? "active",
    },
  });
}

/** A user of `role` with the given names and memberships (status per care site). */
async function person(
  role: string,
  names: { firstName: string; lastName: string },
  memberships: { careSiteId: string; status: string }[],
) {
  const user = await createUser({ role });
  await prisma.user.update({ where: { id: user.id }, data: names });
  for (const m of memberships)
    await prisma.membership.create({
      data: { careSiteId: m.careSiteId, userId: user.id, role, status: m.status },
    });
  return { ...user, ...names };
}

async function pair(patientId: string, careSiteId: string | null) {
  const device = await prisma.device.create({
    data: { serial: `SN${crypto.randomInt(1e8, 9e8)}`, type: "cough", tokenHash: word(20) },
  });
  return prisma.pairing.create({ data: { deviceId: device.id, patientId, careSiteId } });
}

function decodeP(href: string) {
  const url = new URL(href, "http://localhost");
  expect(url.pathname).toBe("/app/PatientProfile");
  return JSON.parse(Buffer.from(url.searchParams.get("p")!, "base64").toString("utf8"));
}

describe("counts", () => {
  it("counts active care sites and people with an accepted membership at an active one", async () => {
    const browser = await admin();
    const before = (await home(browser)).counts;
    const active = await site();
    const inactive = await site({ status: "inactive" });
    await person("patient", { firstName: "A", lastName: word() }, [
      { careSiteId: active.id, status: "accepted" },
    ]);
    await person("patient", { firstName: "B", lastName: word() }, [
      { careSiteId: inactive.id, status: "accepted" },
    ]);
    await person("clinician", { firstName: "C", lastName: word() }, [
      { careSiteId: active.id, status: "pending" },
    ]);
    await person("clinicadmin", { firstName: "D", lastName: word() }, [
      { careSiteId: active.id, status: "accepted" },
      { careSiteId: inactive.id, status: "accepted" },
    ]);
    const after = (await home(browser)).counts;
    expect(after).toEqual({
      careSites: before.careSites + 1,
      patients: before.patients + 1,
      clinicians: before.clinicians,
      careSiteAdmins: before.careSiteAdmins + 1,
    });
  });

  it("shows the Dashboard cards' links for each admin role", async () => {
    const superadmin = await home(await admin("superadmin"));
    expect(superadmin.inviteHref).toBe("/app/satable?dialog=invite&role=clinicadmin");
    expect(superadmin.list.tab).toBe("clinician");
    expect(superadmin.addCareSite).toBeNull();
    const abm = await home(await admin("abmadmin"));
    expect(abm.inviteHref).toBe("/app/invitation?dialog=invite&role=clinicadmin");
    expect((await home(await admin("abmadmin"), "?tab=nonsense")).list.tab).toBe("clinician");
  });
});

describe("people lists", () => {
  it("lists accepted and pending people of the tab's role; searches, sorts and pages", async () => {
    const browser = await admin();
    const tag = word(8);
    const siteA = await site();
    const siteB = await site();
    const closed = await site({ status: "inactive" });
    // 12 listed clinicians: last names Tag-a ... Tag-l; first names in the reverse order.
    const letters = "abcdefghijkl".split("");
    const listed: Awaited<ReturnType<typeof person>>[] = [];
    for (const [i, l] of letters.entries()) {
      const status = i % 3 === 0 ? "pending" : "accepted";
      listed.push(
        await person("clinician", { firstName: `F${letters[11 - i]}`, lastName: `${tag}${l}` }, [
          { careSiteId: siteA.id, status },
          // A second, pending membership does not make an accepted person Pending.
          ...(status === "accepted" && i % 2 === 0
            ? [{ careSiteId: siteB.id, status: "pending" }]
            : []),
        ]),
      );
    }
    // Not listed: only rejected, only blocked, only at an inactive care site, another role.
    await person("clinician", { firstName: "X", lastName: `${tag}rejected` }, [
      { careSiteId: siteA.id, status: "rejected" },
    ]);
    await person("clinician", { firstName: "X", lastName: `${tag}blocked` }, [
      { careSiteId: siteA.id, status: "blocked" },
    ]);
    await person("clinician", { firstName: "X", lastName: `${tag}closed` }, [
      { careSiteId: closed.id, status: "accepted" },
    ]);
    await person("patient", { firstName: "X", lastName: `${tag}patient` }, [
      { careSiteId: siteA.id, status: "accepted" },
    ]);

    const page1 = await home(browser, `?tab=clinician&cl_q=${tag.toLowerCase()}`);
    expect(page1.list.tab).toBe("clinician");
    expect(page1.list.total).toBe(12);
    const rows1 = page1.list.rows as PersonRows;
    expect(rows1.map((r) => r.lastName)).toEqual(letters.slice(0, 10).map((l) => `${tag}${l}`));
    expect(rows1[0]).toMatchObject({
      firstName: "Fl",
      email: listed[0].email,
      status: "Pending",
      photoUrl: "/img/default-avatar.svg",
    });
    expect(rows1[1].status).toBe("Accepted");
    expect(rows1[2].status).toBe("Accepted");
    expect(page1.list.params).toEqual({
      q: tag.toLowerCase(),
      sort: "lastName",
      order: "asc",
      page: 1,
    });

    const page2 = await home(browser, `?tab=clinician&cl_q=${tag}&cl_page=2`);
    expect((page2.list.rows as PersonRows).map((r) => r.lastName)).toEqual([`${tag}k`, `${tag}l`]);
    // Past the end: the last page.
    const late = await home(browser, `?tab=clinician&cl_q=${tag}&cl_page=40`);
    expect(late.list.params.page).toBe(2);
    expect(late.list.rows).toHaveLength(2);

    const sorted = async (sort: string, order: string) =>
      (
        (await home(browser, `?tab=clinician&cl_q=${tag}&cl_sort=${sort}&cl_order=${order}`)).list
          .rows as PersonRows
      ).map((r) => r.lastName);
    expect(await sorted("lastName", "desc")).toEqual(
      [...letters]
        .reverse()
        .slice(0, 10)
        .map((l) => `${tag}${l}`),
    );
    expect(await sorted("firstName", "asc")).toEqual(
      [...letters]
        .reverse()
        .slice(0, 10)
        .map((l) => `${tag}${l}`),
    );
    // Accepted before Pending, then by last name.
    const accepted = letters.filter((_, i) => i % 3 !== 0).map((l) => `${tag}${l}`);
    const pending = letters.filter((_, i) => i % 3 === 0).map((l) => `${tag}${l}`);
    expect(await sorted("status", "asc")).toEqual([...accepted, ...pending].slice(0, 10));
    expect(await sorted("status", "desc")).toEqual(
      [...[...pending].reverse(), ...[...accepted].reverse()].slice(0, 10),
    );
    const byEmail = [...listed].sort((a, b) => (a.email < b.email ? -1 : 1));
    expect(await sorted("email", "asc")).toEqual(byEmail.slice(0, 10).map((p) => p.lastName));
    // Late pages (read from the other end of the order) in every order.
    const page2Of = async (sort: string, order: string) =>
      (
        (
          await home(
            browser,
            `?tab=clinician&cl_q=${tag}&cl_sort=${sort}&cl_order=${order}&cl_page=2`,
          )
        ).list.rows as PersonRows
      ).map((r) => r.lastName);
    expect(await page2Of("lastName", "desc")).toEqual([`${tag}b`, `${tag}a`]);
    expect(await page2Of("firstName", "asc")).toEqual([`${tag}b`, `${tag}a`]);
    expect(await page2Of("status", "asc")).toEqual(pending.slice(2));
    expect(await page2Of("email", "desc")).toEqual(
      [...byEmail]
        .reverse()
        .slice(10)
        .map((p) => p.lastName),
    );
    // An unknown sort column falls back to the default.
    expect(await sorted("passwordHash", "asc")).toEqual(
      letters.slice(0, 10).map((l) => `${tag}${l}`),
    );

    // Search by first name, email and status word.
    const byFirst = await home(browser, `?tab=clinician&cl_q=${tag}&cl_q=ignored`);
    expect(byFirst.list.total).toBe(12);
    const oneEmail = await home(
      browser,
      `?tab=clinician&cl_q=${encodeURIComponent(listed[4].email.toUpperCase())}`,
    );
    expect((oneEmail.list.rows as PersonRows).map((r) => r.id)).toEqual([listed[4].id]);
    const pendingOnes = await home(browser, `?tab=clinician&cl_q=pend&cl_sort=email`);
    expect((pendingOnes.list.rows as PersonRows).every((r) => r.status === "Pending")).toBe(true);
    expect(pendingOnes.list.total).toBeGreaterThanOrEqual(4);
    const acceptedOnes = await home(browser, `?tab=clinician&cl_q=ACCEP&cl_sort=firstName`);
    expect((acceptedOnes.list.rows as PersonRows).every((r) => r.status === "Accepted")).toBe(true);
    expect(acceptedOnes.list.total).toBeGreaterThanOrEqual(8);
    // LIKE wildcards in the search box are plain characters.
    expect((await home(browser, `?tab=clinician&cl_q=${tag}%25`)).list.total).toBe(0);
    expect(
      (await home(browser, `?tab=clinician&cl_q=${tag.slice(0, 3)}_${tag.slice(4)}`)).list.total,
    ).toBe(0);
    expect((await home(browser, `?tab=clinician&cl_q=${word(12)}`)).list.total).toBe(0);

    // Each tab lists its own role.
    const patients = await home(browser, `?tab=patient&pt_q=${tag}`);
    expect(patients.list.tab).toBe("patient");
    expect((patients.list.rows as PersonRows).map((r) => r.lastName)).toEqual([`${tag}patient`]);
    expect((await home(browser, `?tab=clinicadmin&ca_q=${tag}`)).list.total).toBe(0);
  });

  it("leads accepted staff to their profile and pending ones to the warning", async () => {
    const browser = await admin();
    const tag = word(8);
    const careSite = await site();
    const accepted = await person("clinicadmin", { firstName: "Ann", lastName: `${tag}a` }, [
      { careSiteId: careSite.id, status: "accepted" },
    ]);
    const pending = await person("clinicadmin", { firstName: "Bob", lastName: `${tag}b` }, [
      { careSiteId: careSite.id, status: "pending" },
    ]);
    const rejected = await person("clinicadmin", { firstName: "Cy", lastName: `${tag}c` }, [
      { careSiteId: careSite.id, status: "rejected" },
    ]);
    const page = await home(browser, `?tab=clinicadmin&ca_q=${tag}&ca_sort=lastName`);
    const rows = page.list.rows as PersonRows;
    expect(rows.map((r) => r.id)).toEqual([accepted.id, pending.id]);
    expect(rows[0].href).toBe(`/app/userinfo/${accepted.id}`);
    const notice = new URL(rows[1].href, "http://localhost");
    expect(notice.pathname).toBe("/app");
    expect(notice.hash).toBe("#list");
    expect(notice.searchParams.get("tab")).toBe("clinicadmin");
    expect(notice.searchParams.get("notice")).toBe(pending.id);
    // The list's own state is kept, so the warning shows over the same page.
    expect(notice.searchParams.get("ca_q")).toBe(tag);

    const shown = await home(browser, `${notice.search}`);
    expect(shown.notice).toBe(`${pending.email} has not accepted the invitation`);
    expect(shown.list.rows.map((r) => r.id)).toEqual([accepted.id, pending.id]);
    // A row that turned rejected since the page was drawn says so.
    expect((await home(browser, `?tab=clinicadmin&notice=${rejected.id}`)).notice).toBe(
      `${rejected.email} has rejected the invitation`,
    );
    // Accepted staff, a user of another role or an unknown id: no warning.
    expect((await home(browser, `?tab=clinicadmin&notice=${accepted.id}`)).notice).toBeNull();
    expect((await home(browser, `?tab=clinician&notice=${pending.id}`)).notice).toBeNull();
    expect((await home(browser, `?tab=clinicadmin&notice=nope`)).notice).toBeNull();
    expect((await home(browser, `?tab=caresite&notice=${pending.id}`)).notice).toBeNull();
  });

  it("lists people invited by email who have no account yet: Pending, no names, one row per email (issue 21 item 5)", async () => {
    const browser = await admin();
    const tag = word(8).toLowerCase();
    const careSite = await site();
    const other = await site();
    const closed = await site({ status: "inactive" });
    const inviter = await createUser({ role: "superadmin" });
    const invite = (
      email: string,
      fields: { role?: string; careSiteId?: string; status?: string },
    ) =>
      prisma.invitation.create({
        data: {
          email,
          role: fields.role ?? "clinician",
          careSiteId: fields.careSiteId ?? careSite.id,
          invitedById: inviter.id,
          status: fields.status ?? "pending",
          tokenHash: word(24),
          expiresAt: new Date(Date.now() + 86_400_000),
        },
      });
    const email = `${tag}.new@example.test`;
    // Two open invitations for one email (two care sites, one sent again): one row.
    const first = await invite(email, {});
    const second = await invite(email, { careSiteId: other.id, status: "resend" });
    // Not listed: another role's, a withdrawn one, a rejected one, one at an inactive care site,
    // and one for an email that has an account (listed through its membership, if any).
    await invite(`${tag}.patient@example.test`, { role: "patient" });
    await invite(`${tag}.blocked@example.test`, { status: "blocked" });
    await invite(`${tag}.rejected@example.test`, { status: "rejected" });
    await invite(`${tag}.closed@example.test`, { careSiteId: closed.id });
    const registered = await person("clinician", { firstName: "Reg", lastName: `${tag}zz` }, []);
    await invite(registered.email, {});
    // An accepted clinician found by the same search, to check the sort across both kinds.
    const member = await person("clinician", { firstName: "Mia", lastName: `${tag}m` }, [
      { careSiteId: careSite.id, status: "accepted" },
    ]);
    await prisma.user.update({
      where: { id: member.id },
      data: { email: `${tag}.member@example.test` },
    });

    const before = (await home(browser)).counts.clinicians;
    const page = await home(browser, `?tab=clinician&cl_q=${tag}`);
    expect(page.list.total).toBe(2);
    const rows = page.list.rows as PersonRows;
    // Empty names sort first by last name ascending.
    expect(rows.map((r) => [r.email, r.status, r.lastName, r.firstName])).toEqual([
      [email, "Pending", "", ""],
      [`${tag}.member@example.test`, "Accepted", `${tag}m`, "Mia"],
    ]);
    expect([first.id, second.id]).toContain(rows[0].id);
    expect(rows[0].photoUrl).toBe(photoUrl(null));
    const descending = await home(
      browser,
      `?tab=clinician&cl_q=${tag}&cl_sort=lastName&cl_order=desc`,
    );
    expect(descending.list.rows.map((r) => r.id)).toEqual([member.id, rows[0].id]);
    for (const sort of ["firstName", "status", "email"]) {
      const sorted = await home(
        browser,
        `?tab=clinician&cl_q=${tag}&cl_sort=${sort}&cl_order=desc`,
      );
      expect(sorted.list.total).toBe(2);
      expect(sorted.list.rows.map((r) => r.id)).toEqual(
        sort === "firstName" ? [member.id, rows[0].id] : [rows[0].id, member.id],
      );
    }
    // Searchable by the email and by the status word.
    expect(
      (await home(browser, `?tab=clinician&cl_q=${tag}.new`)).list.rows.map((r) => r.id),
    ).toEqual([rows[0].id]);
    const pendingOnes = (await home(browser, `?tab=clinician&cl_q=pending`)).list;
    expect(pendingOnes.total).toBeGreaterThan(0);
    const allPending = await prisma.invitation.count({
      where: { status: { in: ["pending", "resend"] } },
    });
    expect(pendingOnes.total).toBeLessThanOrEqual(
      allPending + (await prisma.membership.count({ where: { status: "pending" } })),
    );
    expect(
      (await home(browser, `?tab=clinician&cl_q=pend&cl_sort=email&cl_order=asc`)).list.total,
    ).toBe(pendingOnes.total);
    expect(
      (await home(browser, `?tab=clinician&cl_q=accepted`)).list.rows.map((r) => r.id),
    ).not.toContain(rows[0].id);
    // Only accepted people are counted on the card.
    expect((await home(browser)).counts.clinicians).toBe(before);

    // The row warns: this page with the invitation's id; judged by the email now.
    const notice = new URL(rows[0].href, "http://localhost");
    expect(notice.searchParams.get("notice")).toBe(rows[0].id);
    expect((await home(browser, notice.search)).notice).toBe(
      `${email} has not accepted the invitation`,
    );
    expect((await home(browser, `?tab=patient&notice=${rows[0].id}`)).notice).toBeNull();
    await prisma.invitation.updateMany({ where: { email }, data: { status: "rejected" } });
    expect((await home(browser, notice.search)).notice).toBe(
      `${email} has rejected the invitation`,
    );
    expect((await home(browser, `?tab=clinician&cl_q=${tag}`)).list.total).toBe(1);
  });

  it("opens a paired patient's profile and warns about a patient without a device", async () => {
    const browser = await admin();
    const tag = word(8);
    const careSite = await site();
    const other = await site();
    const paired = await person("patient", { firstName: "Pat", lastName: `${tag}a` }, [
      { careSiteId: careSite.id, status: "accepted" },
    ]);
    const pairing = await pair(paired.id, careSite.id);
    const unpaired = await person("patient", { firstName: "Una", lastName: `${tag}b` }, [
      { careSiteId: careSite.id, status: "accepted" },
    ]);
    const old = await pair(unpaired.id, careSite.id);
    await prisma.pairing.update({ where: { id: old.id }, data: { unpairedAt: new Date() } });
    const siteless = await person("patient", { firstName: "Sol", lastName: `${tag}c` }, [
      { careSiteId: other.id, status: "accepted" },
    ]);
    const pairingWithoutSite = await pair(siteless.id, null);

    const rows = (await home(browser, `?tab=patient&pt_q=${tag}`)).list.rows as PersonRows;
    expect(rows.map((r) => r.id)).toEqual([paired.id, unpaired.id, siteless.id]);
    expect(decodeP(rows[0].href)).toEqual({
      profile_id: paired.id,
      clinic_id: careSite.id,
      pair_id: pairing.id,
    });
    // Without a care site on the pairing, the patient's accepted care site.
    expect(decodeP(rows[2].href)).toEqual({
      profile_id: siteless.id,
      clinic_id: other.id,
      pair_id: pairingWithoutSite.id,
    });
    const notice = new URL(rows[1].href, "http://localhost");
    expect(notice.searchParams.get("notice")).toBe(unpaired.id);
    expect((await home(browser, notice.search)).notice).toBe(
      "Una " + `${tag}b` + " is not associated with any device",
    );
  });
});

describe("care site list", () => {
  it("lists active care sites; searches name, city, state and zip; sorts and pages", async () => {
    const browser = await admin();
    const tag = word(8);
    const cities = ["Boston", "Austin", "Denver", "Chicago", "Eugene", "Fresno"];
    const made: Awaited<ReturnType<typeof site>>[] = [];
    for (let i = 0; i < 11; i++) {
      made.push(
        await site({
          name: `${tag} ${"abcdefghijk"[i]}`,
          city: cities[i % cities.length],
          state: i % 2 ? "Ohio" : "Texas",
          zip: `${90000 + ((i * 7) % 11)}`,
        }),
      );
    }
    await site({ name: `${tag} inactive`, status: "inactive" });

    const page1 = await home(browser, `?tab=caresite&cs_q=${tag}`);
    expect(page1.list.tab).toBe("caresite");
    expect(page1.list.total).toBe(11);
    const rows = page1.list.rows as SiteRows;
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.name)).toEqual(made.slice(0, 10).map((s) => s.name));
    expect(rows[0]).toEqual({
      id: made[0].id,
      name: made[0].name,
      city: made[0].city,
      state: made[0].state,
      zip: made[0].zip,
      photoUrl: "/img/default-care-site.svg",
      href: `/app/clinicprofiledetails?c_id=${made[0].id}`,
    });
    const page2 = await home(browser, `?tab=caresite&cs_q=${tag}&cs_page=2`);
    expect((page2.list.rows as SiteRows).map((r) => r.id)).toEqual([made[10].id]);

    const names = async (sort: string, order = "asc") =>
      (
        (await home(browser, `?tab=caresite&cs_q=${tag}&cs_sort=${sort}&cs_order=${order}`)).list
          .rows as SiteRows
      ).map((r) => r.name);
    const expected = (key: "city" | "state" | "zip", order: 1 | -1) =>
      [...made]
        .sort((a, b) =>
          a[key] === b[key] ? (a.name < b.name ? -1 : 1) : a[key] < b[key] ? -order : order,
        )
        .map((s) => s.name);
    for (const key of ["city", "state", "zip"] as const) {
      expect(await names(key)).toEqual(expected(key, 1).slice(0, 10));
    }
    expect(await names("name", "desc")).toEqual(
      made
        .map((s) => s.name)
        .reverse()
        .slice(0, 10),
    );

    // Search by city, state and zip narrows to this test's sites with another word.
    const city = word(9);
    const byCity = await site({ name: `${tag} city`, city });
    expect(
      (await home(browser, `?tab=caresite&cs_q=${city.toUpperCase()}`)).list.rows.map((r) => r.id),
    ).toEqual([byCity.id]);
    const state = word(9);
    const byState = await site({ name: word(), state });
    expect((await home(browser, `?tab=caresite&cs_q=${state}`)).list.rows.map((r) => r.id)).toEqual(
      [byState.id],
    );
    const zip = `Z${crypto.randomInt(1e6, 9e6)}`;
    const byZip = await site({ name: word(), zip });
    expect((await home(browser, `?tab=caresite&cs_q=${zip}`)).list.rows.map((r) => r.id)).toEqual([
      byZip.id,
    ]);
    expect((await home(browser, `?tab=caresite&cs_q=${word(12)}`)).list.total).toBe(0);
  });

  it("shows a care site's own photo when it has one", async () => {
    const browser = await admin();
    const upload = await prisma.upload.create({
      data: {
        kind: "caresite",
        fileName: "x.webp",
        mimeType: "image/webp",
        sizeBytes: 1,
        sha256: "x",
        storagePath: "x",
      },
    });
    const careSite = await site();
    await prisma.careSite.update({ where: { id: careSite.id }, data: { photoId: upload.id } });
    const rows = (await home(browser, `?tab=caresite&cs_q=${careSite.name}`)).list.rows as SiteRows;
    expect(rows[0].photoUrl).toBe(`/photos/${upload.id}`);
  });
});

describe("Add Care Site", () => {
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
  const post = (browser: Browser, fields: Record<string, string | string[]>) =>
    browser.run(action, browser.post("/app?index&dialog=addCareSite", fields));

  it("opens with a fresh form token", async () => {
    const browser = await admin();
    const first = await home(browser, "?dialog=addCareSite");
    const second = await home(browser, "?dialog=addCareSite");
    expect(first.addCareSite?.formToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.addCareSite?.formToken).not.toBe(first.addCareSite?.formToken);
  });

  it("adds an active care site, audits it and says so on the care site list", async () => {
    const user = await createUser({ role: "abmadmin" });
    const browser = await signedInBrowser(user.id);
    const fields = form({
      accountNumber: `AC${crypto.randomInt(1e6, 9e6)}`,
      phone: "(512) 555-0100",
    });
    const result = await post(browser, fields);
    expect(statusOf(result)).toBe(302);
    expect(locationOf(result)).toBe("/app?tab=caresite");
    const created = await prisma.careSite.findUniqueOrThrow({
      where: { accountNumber: fields.accountNumber },
    });
    expect(created).toMatchObject({
      name: fields.name,
      city: fields.city,
      state: "Texas",
      zip: "78701",
      country: "United States",
      addressLine1: "1 Main St",
      addressLine2: null,
      phone: "15125550100",
      website: "care.example.org",
      status: "active",
    });
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "caresite.created", targetId: created.id },
    });
    expect(event.actorId).toBe(user.id);
    const flash = await bodyOf<{ flash: unknown }>(
      await browser.run(rootLoader, browser.get("/app")),
    );
    expect(flash.flash).toEqual({
      kind: "success",
      message: "Clinic added successfully",
      autoHideMs: 5000,
    });
    const list = await home(browser, `?tab=caresite&cs_q=${fields.name}`);
    expect(list.list.rows.map((r) => r.id)).toEqual([created.id]);
  });

  it("answers field errors with the spec's messages and keeps what was typed", async () => {
    const browser = await admin();
    const result = await post(browser, form({ name: "", state: "Texass", zip: "1" }));
    expect(statusOf(result)).toBe(400);
    const body = await bodyOf<{
      fieldErrors: Record<string, string>;
      repopulateFields: Record<string, string>;
    }>(result);
    expect(body.fieldErrors).toEqual({
      name: "Required",
      state: "Please select an appropriate state from the dropdown",
      zip: "Must be at least 3 characters",
    });
    expect(body.repopulateFields.state).toBe("Texass");
  });

  it("refuses a taken account number", async () => {
    const browser = await admin();
    const accountNumber = `AN${crypto.randomInt(1e6, 9e6)}`;
    expect(statusOf(await post(browser, form({ accountNumber })))).toBe(302);
    const again = await post(browser, form({ accountNumber }));
    expect(statusOf(again)).toBe(400);
    const body = await bodyOf<{ fieldErrors: unknown; formError: string }>(again);
    expect(body.fieldErrors).toEqual({ accountNumber: "accountnumber alraedy exists" });
    // Spec 2 §8 "Care site create other failure": the alert over the highlighted field.
    expect(body.formError).toBe(
      "Clinic was not added. Please check the highlighted field and try again.",
    );
    expect(await prisma.careSite.count({ where: { accountNumber } })).toBe(1);
  });

  it("refuses a care site of the same name in the same city", async () => {
    const browser = await admin();
    const name = word();
    const city = word();
    expect(statusOf(await post(browser, form({ name, city })))).toBe(302);
    const again = await post(browser, form({ name: name.toUpperCase(), city: city.toLowerCase() }));
    expect(statusOf(again)).toBe(409);
    const body = await bodyOf<{ formError: string; repopulateFields: Record<string, string> }>(
      again,
    );
    expect(body.formError).toBe(careSiteMessages.alreadyExists(name.toUpperCase()));
    expect(body.formError).toBe(`Clinic was not added.${name.toUpperCase()} already exists.`);
    expect(body.repopulateFields.city).toBe(city.toLowerCase());
    // The same name in another city is another care site.
    expect(statusOf(await post(browser, form({ name, city: word() })))).toBe(302);
    expect(await prisma.careSite.count({ where: { name } })).toBe(2);
  });

  it("creates one care site when the same form is posted twice, one after the other or at once", async () => {
    const browser = await admin();
    const once = form();
    const first = await post(browser, once);
    const second = await post(browser, once);
    expect([locationOf(first), locationOf(second)]).toEqual([
      "/app?tab=caresite",
      "/app?tab=caresite",
    ]);
    expect(await prisma.careSite.count({ where: { name: once.name } })).toBe(1);

    const together = form();
    const results = await Promise.all([1, 2, 3].map(() => post(browser, together)));
    expect(results.map(locationOf)).toEqual(Array(3).fill("/app?tab=caresite"));
    expect(await prisma.careSite.count({ where: { name: together.name } })).toBe(1);

    // Two forms (two tokens) with the same care site at once: one is added, one is refused.
    const a = form();
    const b = { ...a, formToken: crypto.randomUUID() };
    const both = await Promise.all([post(browser, a), post(browser, b)]);
    expect(both.map(statusOf).sort()).toEqual([302, 409]);
    expect(await prisma.careSite.count({ where: { name: a.name } })).toBe(1);

    const numbered = form({ accountNumber: `DB${crypto.randomInt(1e6, 9e6)}` });
    const twice = await Promise.all([
      post(browser, numbered),
      post(browser, { ...numbered, formToken: crypto.randomUUID(), name: word() }),
    ]);
    expect(twice.map(statusOf).sort()).toEqual([302, 400]);
    expect(await prisma.careSite.count({ where: { accountNumber: numbered.accountNumber } })).toBe(
      1,
    );
  });

  it("is for the provider's admins only: care site staff get 403 and no admin data", async () => {
    const careSite = await site();
    for (const role of ["clinicadmin", "clinician"]) {
      const user = await createUser({ role, careSites: [{ id: careSite.id }] });
      const browser = await signedInBrowser(user.id);
      const fields = form();
      expect(statusOf(await post(browser, fields))).toBe(403);
      expect(await prisma.careSite.count({ where: { name: fields.name } })).toBe(0);
      const page = await bodyOf(
        await browser.run(
          loader,
          browser.get(`/app?tab=patient&dialog=addCareSite&notice=${user.id}&pt_q=a`),
        ),
      );
      expect(page.kind).toBe("careSite");
      expect(Object.keys(page).sort()).toEqual(["careSiteId", "careSites", "dashboard", "kind"]);
    }
    // And the admins cannot use the care site staff's intent.
    const browser = await admin();
    const choose = await browser.run(
      action,
      browser.post("/app?index", { intent: "chooseCareSite", careSiteId: careSite.id }),
    );
    expect(statusOf(choose)).toBe(403);
  });

  it("answers malformed posts with 4xx, never 500", async () => {
    const browser = await admin();
    const bodies: Record<string, string | string[]>[] = [
      {},
      { intent: "nonsense" },
      { intent: ["addCareSite", "addCareSite"] },
      { ...form(), formToken: "" },
      { ...form(), formToken: "short" },
      { ...form(), formToken: ["a".repeat(20), "b".repeat(20)] },
      { ...form(), name: ["Alpha", "Beta"] },
      { ...form(), zip: "x".repeat(500_000) },
      { ...form(), country: "Narnia", state: "x".repeat(100) },
      { intent: "addCareSite", formToken: crypto.randomUUID() },
    ];
    for (const fields of bodies) {
      const status = statusOf(await post(browser, fields));
      expect(status, JSON.stringify(fields).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
    for (const [type, body] of [
      ["multipart/form-data; boundary=nope", "this is not multipart"],
      ["application/json", '{"intent":"addCareSite"}'],
    ]) {
      const request = new Request("http://localhost/app?index", {
        method: "POST",
        headers: { Cookie: browser.cookie, "Content-Type": type },
        body,
      });
      const status = statusOf(await browser.run(action, request));
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
  });
});
