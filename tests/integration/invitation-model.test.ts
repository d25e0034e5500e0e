// The invitation model (spec 2 §2-§5, §7) on a real SQLite file: sending, the lists and their
// scoping, and every status change with its effect on the membership.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { invitationMessages as m } from "~/domain/invitations/rules";
import {
  applyInvitationAction,
  countPendingInvitations,
  endInvitationsForMembership,
  type InvitationActor,
} from "~/domain/invitations/invitation.server";
import {
  countInvitations,
  getInvitation,
  listReceivedInvitations,
  listSentInvitations,
} from "~/domain/invitations/lists.server";
import {
  findRoleByEmail,
  invitableCareSites,
  invitationRoleOptions,
  sendInvitations,
} from "~/domain/invitations/send.server";
import { findInvitationByToken, hashInvitationToken } from "~/domain/invitations/token.server";
import { actorOf, createCareSite, createUser, uid } from "../support/factories";
import { MALFORMED_EMAILS } from "../support/malformedEmails";

type User = Awaited<ReturnType<typeof createUser>>;
/** The user's Actor now, as the next request would build it. */
const actor = (u: User): Promise<InvitationActor> => actorOf(u);
const newEmail = (prefix = "inv") => `${uid(prefix)}@example.test`;
const DAY = 24 * 3_600_000;

async function emailsTo(email: string) {
  return prisma.outboxMessage.findMany({
    where: { to: email, channel: "email" },
    orderBy: { createdAt: "asc" },
    select: { subject: true, body: true },
  });
}

/** The token of the email that carries this invitation's current link. */
async function mailedToken(email: string, tokenHash: string) {
  const tokens = (await emailsTo(email)).map((mail) => tokenIn(mail.body));
  const token = tokens.find((t) => hashInvitationToken(t) === tokenHash);
  if (!token) throw new Error(`no email to ${email} carries the current link`);
  return token;
}

function tokenIn(body: string) {
  const match = body.match(/\/acceptinvite\?param1=(\S+)/);
  if (!match) throw new Error(`no link in ${body}`);
  return decodeURIComponent(match[1]);
}

async function invitationsTo(email: string) {
  return prisma.invitation.findMany({ where: { email }, orderBy: { createdAt: "asc" } });
}

/** A care site admin at two care sites of their own. */
async function siteAdmin() {
  const [a, b] = [await createCareSite(uid("Alpha ")), await createCareSite(uid("Beta "))];
  const admin = await createUser({ role: "clinicadmin", careSites: [{ id: a.id }, { id: b.id }] });
  return { admin, a, b };
}

/** One invitation sent through the model; returns its row and the link's token. */
async function sendOne(from: User, email: string, role: string, careSiteId: string | null) {
  const result = await sendInvitations(await actor(from), {
    email,
    role,
    careSiteIds: careSiteId ? [careSiteId] : [],
  });
  expect(result).toEqual({ ok: true, count: 1 });
  const invitation = await prisma.invitation.findFirstOrThrow({
    where: { email, careSiteId, invitedById: from.id },
    orderBy: { createdAt: "desc" },
  });
  return { invitation, token: await mailedToken(email, invitation.tokenHash) };
}

async function membershipOf(userId: string, careSiteId: string) {
  return prisma.membership.findUnique({
    where: { careSiteId_userId: { careSiteId, userId } },
    select: { id: true, status: true, role: true, acceptedAt: true },
  });
}

describe("sending invitations", () => {
  it("creates one pending invitation per care site, each with its own hashed token, email and audit row", async () => {
    const { admin, a, b } = await siteAdmin();
    const email = newEmail();
    const before = Date.now();
    const result = await sendInvitations(
      await actor(admin),
      { email: `  ${email.toUpperCase()} `, role: "Clinician", careSiteIds: [a.id, b.id] },
      { ip: "203.0.113.9" },
    );
    expect(result).toEqual({ ok: true, count: 2 });

    const rows = await invitationsTo(email);
    expect(rows.map((r) => r.careSiteId).sort()).toEqual([a.id, b.id].sort());
    for (const row of rows) {
      expect(row).toMatchObject({ role: "clinician", status: "pending", invitedById: admin.id });
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 7 * DAY);
      expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 7 * DAY);
    }
    expect(rows[0].tokenHash).not.toBe(rows[1].tokenHash);

    const mails = await emailsTo(email);
    expect(mails).toHaveLength(2);
    const siteNames = new Map([
      [a.id, a.name],
      [b.id, b.name],
    ]);
    for (const mail of mails) {
      expect(mail.subject).toBe("You are invited to ARC Connect");
      expect(mail.body).toContain(`${env.publicUrl}/acceptinvite?param1=`);
      expect(mail.body).toContain(`${admin.firstName} ${admin.lastName}`);
      expect(mail.body).toContain("Clinician");
      expect(mail.body).not.toContain("Sign in and accept it under Invitations");
      const token = tokenIn(mail.body);
      const row = rows.find((r) => r.tokenHash === hashInvitationToken(token));
      expect(row).toBeDefined();
      expect(mail.body).toContain(siteNames.get(row!.careSiteId!)!);
      // The token itself is stored nowhere; the link finds its invitation.
      expect(rows.some((r) => r.tokenHash === token)).toBe(false);
      expect(await findInvitationByToken(token)).toMatchObject({
        id: row!.id,
        email,
        role: "clinician",
        careSite: { id: row!.careSiteId, name: siteNames.get(row!.careSiteId!) },
      });
    }

    const events = await prisma.auditEvent.findMany({
      where: { targetType: "invitation", targetId: { in: rows.map((r) => r.id) } },
    });
    expect(events).toHaveLength(2);
    for (const event of events) {
      expect(event).toMatchObject({
        action: "invitation.sent",
        actorId: admin.id,
        ip: "203.0.113.9",
      });
    }
    expect(await countPendingInvitations(email)).toBe(2);
  });

  it("tells an existing account to sign in and accept it under Invitations", async () => {
    const { admin, a } = await siteAdmin();
    const clinician = await createUser({ role: "clinician" });
    const { token } = await sendOne(admin, clinician.email, "clinician", a.id);
    const [mail] = await emailsTo(clinician.email);
    expect(mail.body).toContain("Sign in and accept it under Invitations");
    expect(mail.body).toContain(
      `${env.publicUrl}/acceptinvite?param1=${encodeURIComponent(token)}`,
    );
  });

  it("invites an ABM admin without a care site, once while it is open", async () => {
    const superadmin = await createUser({ role: "superadmin" });
    const email = newEmail("abm");
    const site = await createCareSite();
    expect(
      await sendInvitations(await actor(superadmin), {
        email,
        role: "abmadmin",
        careSiteIds: [site.id],
      }),
    ).toEqual({ ok: true, count: 1 });
    const rows = await invitationsTo(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ careSiteId: null, role: "abmadmin", status: "pending" });
    expect((await emailsTo(email))[0].body).toContain("ABM Admin");

    expect(
      await sendInvitations(await actor(superadmin), { email, role: "abmadmin", careSiteIds: [] }),
    ).toEqual({ ok: false, message: m.alreadyInvited });
    expect(await invitationsTo(email)).toHaveLength(1);
  });

  describe("refusals create nothing", () => {
    async function expectNothingFor(email: string) {
      expect(await invitationsTo(email)).toEqual([]);
      expect(await emailsTo(email)).toEqual([]);
      expect(
        await prisma.auditEvent.count({
          where: { action: "invitation.sent", detail: { contains: email } },
        }),
      ).toBe(0);
    }

    it("a role the inviter may not invite", async () => {
      const site = await createCareSite();
      const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
      const email = newEmail();
      for (const role of ["clinician", "clinicadmin", "abmadmin", "superadmin", "nurse"]) {
        expect(
          await sendInvitations(await actor(clinician), { email, role, careSiteIds: [site.id] }),
        ).toEqual({ ok: false, message: m.roleNotAllowed });
      }
      const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
      expect(
        await sendInvitations(await actor(patient), {
          email,
          role: "patient",
          careSiteIds: [site.id],
        }),
      ).toEqual({ ok: false, message: m.roleNotAllowed });
      await expectNothingFor(email);
    });

    it("an existing account of another role, with the spec's message", async () => {
      const { admin, a } = await siteAdmin();
      const superadmin = await createUser({ role: "superadmin" });
      const abmadmin = await createUser({ role: "abmadmin" });
      const clinician = await createUser({ role: "clinician" });
      expect(
        await sendInvitations(await actor(admin), {
          email: abmadmin.email,
          role: "clinicadmin",
          careSiteIds: [a.id],
        }),
      ).toEqual({ ok: false, message: m.onlyPatients });
      expect(
        await sendInvitations(await actor(superadmin), {
          email: clinician.email,
          role: "clinicadmin",
          careSiteIds: [a.id],
        }),
      ).toEqual({ ok: false, message: m.superAdminRoles });
      expect(
        await sendInvitations(await actor(superadmin), {
          email: abmadmin.email,
          role: "abmadmin",
          careSiteIds: [],
        }),
      ).toEqual({ ok: false, message: m.alreadyHoldsRole });
      // The existing role is the only option: an existing clinician cannot be made a patient.
      expect(
        await sendInvitations(await actor(admin), {
          email: clinician.email,
          role: "patient",
          careSiteIds: [a.id],
        }),
      ).toEqual({ ok: false, message: m.roleNotAllowed });
      for (const user of [abmadmin, clinician]) await expectNothingFor(user.email);
    });

    it("a care site the actor is not in, even beside one they are in", async () => {
      const { admin, a } = await siteAdmin();
      const other = await createCareSite();
      const pendingSite = await createCareSite();
      await prisma.membership.create({
        data: {
          careSiteId: pendingSite.id,
          userId: admin.id,
          role: "clinicadmin",
          status: "pending",
        },
      });
      const email = newEmail();
      for (const careSiteIds of [[a.id, other.id], [other.id], [pendingSite.id]]) {
        expect(
          await sendInvitations(await actor(admin), { email, role: "clinician", careSiteIds }),
        ).toEqual({ ok: false, message: m.careSiteNotAvailable });
      }
      await expectNothingFor(email);
    });

    it("an unknown care site id, an inactive care site, or none chosen", async () => {
      const { admin, a } = await siteAdmin();
      const superadmin = await createUser({ role: "superadmin" });
      const inactive = await prisma.careSite.update({
        where: { id: (await createCareSite()).id },
        data: { status: "inactive" },
      });
      const email = newEmail();
      expect(
        await sendInvitations(await actor(admin), {
          email,
          role: "patient",
          careSiteIds: [a.id, "no-such-site"],
        }),
      ).toEqual({ ok: false, message: m.careSiteNotAvailable });
      expect(
        await sendInvitations(await actor(superadmin), {
          email,
          role: "clinicadmin",
          careSiteIds: [inactive.id],
        }),
      ).toEqual({ ok: false, message: m.careSiteNotAvailable });
      expect(
        await sendInvitations(await actor(admin), { email, role: "patient", careSiteIds: [] }),
      ).toEqual({ ok: false, message: m.careSiteRequired });
      await expectNothingFor(email);
    });

    it("an invitee already at every care site of the actor", async () => {
      const { admin, a, b } = await siteAdmin();
      const clinician = await createUser({
        role: "clinician",
        careSites: [{ id: a.id }, { id: b.id, status: "pending" }],
      });
      expect(
        await sendInvitations(await actor(admin), {
          email: clinician.email,
          role: "clinician",
          careSiteIds: [a.id],
        }),
      ).toEqual({ ok: false, message: m.noCareSitesToInvite });
      await expectNothingFor(clinician.email);
    });

    it("an invalid email", async () => {
      const { admin, a } = await siteAdmin();
      for (const email of ["", "no-at-sign", "a@b", "a b@example.test", ...MALFORMED_EMAILS]) {
        expect(
          await sendInvitations(await actor(admin), {
            email,
            role: "patient",
            careSiteIds: [a.id],
          }),
        ).toEqual({ ok: false, message: m.invalidEmail });
      }
    });
  });
});

describe("the dialog's lookups", () => {
  it("finds the role of an account by email, in any case", async () => {
    const clinician = await createUser({ role: "clinician" });
    expect(await findRoleByEmail(clinician.email.toUpperCase())).toBe("clinician");
    expect(await findRoleByEmail(newEmail())).toBeNull();
  });

  it("offers the roles of §5 for new and existing emails", async () => {
    const { admin } = await siteAdmin();
    const patient = await createUser({ role: "patient" });
    const abmadmin = await createUser({ role: "abmadmin" });
    expect(await invitationRoleOptions(await actor(admin), newEmail())).toEqual({
      existingRole: null,
      options: ["clinicadmin", "clinician", "patient"],
    });
    expect(await invitationRoleOptions(await actor(admin), patient.email)).toEqual({
      existingRole: "patient",
      options: ["patient"],
    });
    expect(await invitationRoleOptions(await actor(admin), abmadmin.email)).toEqual({
      existingRole: "abmadmin",
      options: [],
      message: m.onlyPatients,
    });
  });

  it("offers the actor's accepted active care sites the invitee is not at, sorted by name", async () => {
    const tag = uid("");
    const sites = {
      accepted: await createCareSite(`D ${tag} accepted`),
      pendingMember: await createCareSite(`C ${tag} pending member`),
      invited: await createCareSite(`B ${tag} invited`),
      blocked: await createCareSite(`A ${tag} blocked`),
      expiredInvite: await createCareSite(`E ${tag} expired invitation`),
      free: await createCareSite(`F ${tag} free`),
      actorPending: await createCareSite(`G ${tag} actor pending`),
      inactive: await createCareSite(`H ${tag} inactive`),
    };
    await prisma.careSite.update({
      where: { id: sites.inactive.id },
      data: { status: "inactive" },
    });
    const admin = await createUser({
      role: "clinicadmin",
      careSites: [
        ...[
          sites.accepted,
          sites.pendingMember,
          sites.invited,
          sites.blocked,
          sites.expiredInvite,
          sites.free,
          sites.inactive,
        ].map((s) => ({ id: s.id })),
        { id: sites.actorPending.id, status: "pending" },
      ],
    });
    const invitee = await createUser({
      role: "clinician",
      careSites: [
        { id: sites.accepted.id },
        { id: sites.pendingMember.id, status: "pending" },
        { id: sites.blocked.id, status: "blocked" },
      ],
    });
    const other = await createUser({
      role: "clinicadmin",
      careSites: [{ id: sites.invited.id }, { id: sites.free.id }],
    });
    await sendOne(other, invitee.email, "clinician", sites.invited.id);
    const expired = await sendOne(other, invitee.email, "clinician", sites.free.id);
    await prisma.invitation.update({
      where: { id: expired.invitation.id },
      data: { careSiteId: sites.expiredInvite.id, expiresAt: new Date(Date.now() - 1000) },
    });

    const offered = await invitableCareSites(await actor(admin), invitee.email.toUpperCase());
    expect(offered).toEqual([
      {
        id: sites.blocked.id,
        name: sites.blocked.name,
        city: "Austin",
        state: "Texas",
        zip: "78701",
      },
      expect.objectContaining({ id: sites.expiredInvite.id }),
      expect.objectContaining({ id: sites.free.id }),
    ]);

    // The provider's admins choose among all active care sites.
    const superadmin = await createUser({ role: "superadmin" });
    const all = (await invitableCareSites(await actor(superadmin), newEmail())).map((s) => s.id);
    expect(all).toContain(sites.actorPending.id);
    expect(all).not.toContain(sites.inactive.id);
    const names = (await invitableCareSites(await actor(superadmin), newEmail())).map(
      (s) => s.name,
    );
    expect(names).toEqual([...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));

    const patient = await createUser({ role: "patient", careSites: [{ id: sites.free.id }] });
    expect(await invitableCareSites(await actor(patient), newEmail())).toEqual([]);
  });
});

describe("the Sent and Received lists", () => {
  it("pages, sorts and searches the actor's sent invitations, and shows no one else's", async () => {
    const { admin, a, b } = await siteAdmin();
    const tag = uid("s");
    const emails = Array.from(
      { length: 12 },
      (_, i) => `${tag}-${String(i).padStart(2, "0")}@example.test`,
    );
    for (const [i, email] of emails.entries()) {
      const role = i < 4 ? "patient" : "clinician";
      const site = i % 2 === 0 ? a : b;
      await sendOne(admin, email, role, site.id);
    }
    // One invitee with an account.
    const member = await createUser({ role: "clinician" });
    await sendOne(admin, member.email, "clinician", a.id);
    // Another care site admin of the same care site sends one too.
    const colleague = await createUser({ role: "clinicadmin", careSites: [{ id: a.id }] });
    await sendOne(colleague, `${tag}-colleague@example.test`, "patient", a.id);

    const page1 = await listSentInvitations(await actor(admin), { q: tag });
    expect(page1.total).toBe(12);
    expect(page1.rows.map((r) => r.email)).toEqual(emails.slice(0, 10));
    const page2 = await listSentInvitations(await actor(admin), { q: tag, page: 2 });
    expect(page2.rows.map((r) => r.email)).toEqual(emails.slice(10));
    expect(
      (await listSentInvitations(await actor(admin), { q: tag, order: "desc" })).rows[0].email,
    ).toBe(emails[11]);

    const all = await listSentInvitations(await actor(admin));
    expect(all.total).toBe(13);
    expect(all.rows).toHaveLength(10);
    const memberRow = (await listSentInvitations(await actor(admin), { q: member.email })).rows;
    expect(memberRow).toEqual([
      expect.objectContaining({
        email: member.email,
        role: "clinician",
        status: "pending",
        careSiteId: a.id,
        careSiteName: a.name,
        inviteeUserId: member.id,
        membershipId: null,
        expired: false,
        actions: ["resend", "remove"],
      }),
    ]);
    expect(page1.rows[0].inviteeUserId).toBeNull();

    // Search by care site name, role (code or display name), status; in the database.
    expect((await listSentInvitations(await actor(admin), { q: b.name })).total).toBe(6);
    expect((await listSentInvitations(await actor(admin), { q: b.name.toUpperCase() })).total).toBe(
      6,
    );
    const patients = await listSentInvitations(await actor(admin), { q: "patient" });
    expect(patients.total).toBe(4);
    expect(patients.rows.every((r) => r.role === "patient")).toBe(true);
    expect((await listSentInvitations(await actor(admin), { q: "Clinici" })).total).toBe(9);
    expect((await listSentInvitations(await actor(admin), { q: "pend" })).total).toBe(13);
    expect((await listSentInvitations(await actor(admin), { q: "accepted" })).total).toBe(0);
    // % and _ are LIKE wildcards to SQLite: they may match more, never outside the actor's rows.
    for (const q of ["%", "_", "%colleague%"]) {
      const wild = await listSentInvitations(await actor(admin), { q });
      expect(wild.total).toBeLessThanOrEqual(13);
      expect(wild.rows.some((r) => r.email.includes("colleague"))).toBe(false);
    }

    // Sort by care site name and by role.
    const bySite = await listSentInvitations(await actor(admin), {
      q: tag,
      sort: "careSiteName",
      order: "desc",
    });
    const [first, second] = [a.name, b.name].sort();
    expect(bySite.rows.slice(0, 6).every((r) => r.careSiteName === second)).toBe(true);
    expect(bySite.rows.slice(6).every((r) => r.careSiteName === first)).toBe(true);
    const byRole = await listSentInvitations(await actor(admin), { q: tag, sort: "role" });
    expect(byRole.rows.slice(0, 8).every((r) => r.role === "clinician")).toBe(true);
    // An unknown sort key or page falls back to the defaults.
    expect(
      (await listSentInvitations(await actor(admin), { q: tag, sort: "tokenHash", page: -3 }))
        .rows[0].email,
    ).toBe(emails[0]);

    // Scoping: the colleague's list never holds the admin's invitations, and the other way round.
    const theirs = await listSentInvitations(await actor(colleague), { q: tag });
    expect(theirs.total).toBe(1);
    expect(theirs.rows[0].email).toBe(`${tag}-colleague@example.test`);
    expect((await listSentInvitations(await actor(admin), { q: "colleague" })).total).toBe(0);
    expect(await countInvitations(await actor(admin))).toEqual({ sent: 13, received: 0 });
  });

  it("lists the invitations to the actor's email with sender and care site", async () => {
    const invitee = await createUser({ role: "clinician" });
    const tag = uid("r");
    const admins = [];
    for (const letter of ["B", "A", "C"]) {
      const site = await createCareSite(`${letter} ${tag}`);
      const admin = await createUser({ role: "clinicadmin", careSites: [{ id: site.id }] });
      admins.push(admin);
      await sendOne(admin, invitee.email, "clinician", site.id);
    }
    const [, aSender] = admins;
    // Someone else's invitation is not in the list.
    const otherInvitee = await createUser({ role: "clinician" });
    await sendOne(
      aSender,
      otherInvitee.email,
      "clinician",
      (await prisma.membership.findFirstOrThrow({ where: { userId: aSender.id } })).careSiteId,
    );

    const list = await listReceivedInvitations({
      ...(await actor(invitee)),
      email: invitee.email.toUpperCase(),
    });
    expect(list.total).toBe(3);
    expect(list.rows.map((r) => r.careSiteName)).toEqual([`A ${tag}`, `B ${tag}`, `C ${tag}`]);
    expect(list.rows[0]).toMatchObject({
      role: "clinician",
      status: "pending",
      senderName: `${aSender.firstName} ${aSender.lastName}`,
      senderRole: "clinicadmin",
      expired: false,
      actions: ["accept", "reject"],
    });
    expect(
      (await listReceivedInvitations(await actor(invitee), { order: "desc" })).rows.map(
        (r) => r.careSiteName,
      ),
    ).toEqual([`C ${tag}`, `B ${tag}`, `A ${tag}`]);

    const rejected = list.rows[1];
    await applyInvitationAction(await actor(invitee), rejected.id, "reject");
    const byStatus = await listReceivedInvitations(await actor(invitee), { sort: "status" });
    expect(byStatus.rows.map((r) => r.status)).toEqual(["pending", "pending", "rejected"]);
    expect(byStatus.rows[2].actions).toEqual([]);
    expect((await listReceivedInvitations(await actor(invitee), { q: "reject" })).total).toBe(1);
    expect((await listReceivedInvitations(await actor(invitee), { q: `C ${tag}` })).total).toBe(1);
    expect(
      (await listReceivedInvitations(await actor(invitee), { q: aSender.lastName })).total,
    ).toBe(1);
    expect(await countInvitations(await actor(invitee))).toEqual({ sent: 0, received: 3 });
    expect(await countPendingInvitations(invitee.email)).toBe(2);
  });

  it("pages the received list by 10", async () => {
    const invitee = await createUser({ role: "patient" });
    const superadmin = await createUser({ role: "superadmin" });
    const sites = [];
    for (let i = 0; i < 11; i++) sites.push(await createCareSite());
    // A clinicadmin of all 11 care sites invites the patient to each.
    const admin = await createUser({
      role: "clinicadmin",
      careSites: sites.map((s) => ({ id: s.id })),
    });
    expect(
      await sendInvitations(await actor(admin), {
        email: invitee.email,
        role: "patient",
        careSiteIds: sites.map((s) => s.id),
      }),
    ).toEqual({ ok: true, count: 11 });
    const page1 = await listReceivedInvitations(await actor(invitee));
    const page2 = await listReceivedInvitations(await actor(invitee), { page: 2 });
    expect([page1.rows.length, page2.rows.length, page1.total]).toEqual([10, 1, 11]);
    expect(new Set([...page1.rows, ...page2.rows].map((r) => r.id)).size).toBe(11);
    expect((await listReceivedInvitations(await actor(superadmin))).total).toBe(0);
  });
});

describe("invitation actions", () => {
  async function invited(role = "clinician") {
    const { admin, a, b } = await siteAdmin();
    const invitee = await createUser({ role });
    const sent = await sendOne(admin, invitee.email, role, a.id);
    return { admin, a, b, invitee, ...sent };
  }

  async function statusOf(id: string) {
    return (await prisma.invitation.findUniqueOrThrow({ where: { id } })).status;
  }

  /** The invitation's audit actions, sorted (events of one millisecond have no order). */
  async function eventsOf(id: string) {
    const rows = await prisma.auditEvent.findMany({
      where: { targetType: "invitation", targetId: id },
      select: { action: true },
    });
    return rows.map((r) => r.action).sort();
  }

  it("accept: the invitee joins the care site; the first care site flips isAssociatedClinic", async () => {
    const { admin, b, invitee, invitation, token } = await invited();
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "accept")).toEqual({
      ok: true,
      status: "accepted",
      command: "UPDATE",
    });
    const membership = await membershipOf(invitee.id, invitation.careSiteId!);
    expect(membership).toMatchObject({ status: "accepted", role: "clinician" });
    expect(membership!.acceptedAt).toBeInstanceOf(Date);
    const row = await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row).toMatchObject({ status: "accepted", membershipId: membership!.id });
    expect(await findInvitationByToken(token)).toBe("expired");
    expect(await eventsOf(invitation.id)).toEqual(["invitation.accept", "invitation.sent"]);

    // A second care site is no flip.
    const second = await sendOne(admin, invitee.email, "clinician", b.id);
    expect(
      await applyInvitationAction(await actor(invitee), second.invitation.id, "accept"),
    ).toEqual({
      ok: true,
      status: "accepted",
    });
    const sent = await listSentInvitations(await actor(admin), { q: invitee.email });
    expect(sent.rows.map((r) => [r.status, r.actions])).toEqual([
      ["accepted", ["revoke"]],
      ["accepted", ["revoke"]],
    ]);
  });

  it("accept refuses an expired invitation and one for another role than the account's", async () => {
    const { invitee, invitation } = await invited();
    await prisma.invitation.update({
      where: { id: invitation.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "accept")).toEqual({
      ok: false,
      message: "Link Expired !!!",
    });
    expect(await statusOf(invitation.id)).toBe("pending");
    expect(await membershipOf(invitee.id, invitation.careSiteId!)).toBeNull();

    // Invited as a new email; the person then registered on their own as a clinician.
    const { admin, a } = await siteAdmin();
    const email = newEmail();
    const { invitation: adminInvite } = await sendOne(admin, email, "clinicadmin", a.id);
    const registered = await prisma.user.update({
      where: { id: (await createUser({ role: "clinician" })).id },
      data: { email },
    });
    expect(await applyInvitationAction(await actor(registered), adminInvite.id, "accept")).toEqual({
      ok: false,
      message: m.roleMismatch,
    });
    expect(await statusOf(adminInvite.id)).toBe("pending");
  });

  it("accept of an ABM admin invitation marks it accepted, with no membership", async () => {
    const superadmin = await createUser({ role: "superadmin" });
    const email = newEmail("abm");
    const { invitation } = await sendOne(superadmin, email, "abmadmin", null);
    const abmadmin = await prisma.user.update({
      where: { id: (await createUser({ role: "abmadmin" })).id },
      data: { email },
    });
    expect(await applyInvitationAction(await actor(abmadmin), invitation.id, "accept")).toEqual({
      ok: true,
      status: "accepted",
    });
    expect(await prisma.membership.count({ where: { userId: abmadmin.id } })).toBe(0);
    const [row] = (await listReceivedInvitations(await actor(abmadmin))).rows;
    expect(row).toMatchObject({ careSiteName: null, senderRole: "superadmin" });
  });

  it("reject, then resend: a new token and expiry, the old link dead, a new email", async () => {
    const { admin, invitee, invitation, token } = await invited();
    // A pending membership (as the demo data has) follows the invitation.
    const pending = await prisma.membership.create({
      data: {
        careSiteId: invitation.careSiteId!,
        userId: invitee.id,
        role: "clinician",
        status: "pending",
      },
    });
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "reject")).toEqual({
      ok: true,
      status: "rejected",
    });
    expect((await membershipOf(invitee.id, invitation.careSiteId!))?.status).toBe("rejected");
    expect(await findInvitationByToken(token)).toBe("expired");

    await prisma.invitation.update({
      where: { id: invitation.id },
      data: { expiresAt: new Date(Date.now() - DAY) },
    });
    const before = Date.now();
    expect(await applyInvitationAction(await actor(admin), invitation.id, "resend")).toEqual({
      ok: true,
      status: "resend",
    });
    const row = await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row.status).toBe("resend");
    expect(row.tokenHash).not.toBe(invitation.tokenHash);
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(await findInvitationByToken(token)).toBe("expired");
    const mails = await emailsTo(invitee.email);
    expect(mails).toHaveLength(2);
    const newToken = await mailedToken(invitee.email, row.tokenHash);
    expect(newToken).not.toBe(token);
    expect(hashInvitationToken(newToken)).toBe(row.tokenHash);
    expect(await findInvitationByToken(newToken)).toMatchObject({ id: invitation.id });
    expect((await membershipOf(invitee.id, invitation.careSiteId!))?.id).toBe(pending.id);
    expect((await membershipOf(invitee.id, invitation.careSiteId!))?.status).toBe("pending");

    // A resent invitation behaves like a pending one on both sides.
    expect(await applyInvitationAction(await actor(admin), invitation.id, "resend")).toMatchObject({
      ok: true,
      status: "resend",
    });
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "accept")).toEqual({
      ok: true,
      status: "accepted",
      command: "UPDATE",
    });
    expect(await eventsOf(invitation.id)).toEqual([
      "invitation.accept",
      "invitation.reject",
      "invitation.resend",
      "invitation.resend",
      "invitation.sent",
    ]);
  });

  it("remove withdraws a pending invitation for good", async () => {
    const { admin, invitee, invitation, token } = await invited();
    await prisma.membership.create({
      data: {
        careSiteId: invitation.careSiteId!,
        userId: invitee.id,
        role: "clinician",
        status: "pending",
      },
    });
    expect(await applyInvitationAction(await actor(admin), invitation.id, "remove")).toEqual({
      ok: true,
      status: "blocked",
    });
    expect(await statusOf(invitation.id)).toBe("blocked");
    expect(await findInvitationByToken(token)).toBe("expired");
    // The pending membership ends with it, so the care site can be offered again.
    expect((await membershipOf(invitee.id, invitation.careSiteId!))?.status).toBe("blocked");
    expect(
      (await invitableCareSites(await actor(admin), invitee.email)).map((s) => s.id),
    ).toContain(invitation.careSiteId);
    // The invitee cannot bring it back.
    expect((await listReceivedInvitations(await actor(invitee))).rows[0].actions).toEqual([]);
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "reactivate")).toEqual({
      ok: false,
      message: m.actionNotAvailable,
    });
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "accept")).toEqual({
      ok: false,
      message: m.actionNotAvailable,
    });
    expect(await statusOf(invitation.id)).toBe("blocked");
    expect(await membershipOf(invitee.id, invitation.careSiteId!)).toMatchObject({
      status: "blocked",
    });
  });

  it("revoke ends access at once, and the invitee cannot reactivate it", async () => {
    const { admin, invitee, invitation } = await invited();
    await applyInvitationAction(await actor(invitee), invitation.id, "accept");
    expect(await applyInvitationAction(await actor(admin), invitation.id, "revoke")).toEqual({
      ok: true,
      status: "blocked",
      command: "UPDATE",
    });
    expect((await membershipOf(invitee.id, invitation.careSiteId!))?.status).toBe("blocked");
    expect((await listReceivedInvitations(await actor(invitee))).rows[0]).toMatchObject({
      status: "blocked",
      actions: [],
    });
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "reactivate")).toEqual({
      ok: false,
      message: m.actionNotAvailable,
    });
    expect((await membershipOf(invitee.id, invitation.careSiteId!))?.status).toBe("blocked");
  });

  it("revoke at one of two care sites is no flip", async () => {
    const { admin, b, invitee, invitation } = await invited();
    const second = await sendOne(admin, invitee.email, "clinician", b.id);
    await applyInvitationAction(await actor(invitee), invitation.id, "accept");
    await applyInvitationAction(await actor(invitee), second.invitation.id, "accept");
    expect(await applyInvitationAction(await actor(admin), invitation.id, "revoke")).toEqual({
      ok: true,
      status: "blocked",
    });
    expect((await membershipOf(invitee.id, b.id))?.status).toBe("accepted");
  });

  it("an accepted membership at an inactive care site does not count as associated", async () => {
    const { invitee, invitation } = await invited();
    const inactive = await createCareSite();
    await prisma.careSite.update({ where: { id: inactive.id }, data: { status: "inactive" } });
    await prisma.membership.create({
      data: { careSiteId: inactive.id, userId: invitee.id, role: "clinician", status: "accepted" },
    });
    expect(
      await applyInvitationAction(await actor(invitee), invitation.id, "accept"),
    ).toMatchObject({
      command: "UPDATE",
    });
  });

  it("deactivate and reactivate pause and restore the membership, as often as wanted", async () => {
    const { admin, invitee, invitation } = await invited();
    await applyInvitationAction(await actor(invitee), invitation.id, "accept");
    const acceptedAt = (await membershipOf(invitee.id, invitation.careSiteId!))!.acceptedAt;
    for (let round = 0; round < 2; round++) {
      expect(
        await applyInvitationAction(await actor(invitee), invitation.id, "deactivate"),
      ).toEqual({
        ok: true,
        status: "blocked",
        command: "UPDATE",
      });
      expect((await membershipOf(invitee.id, invitation.careSiteId!))?.status).toBe("blocked");
      expect((await listReceivedInvitations(await actor(invitee))).rows[0].actions).toEqual([
        "reactivate",
      ]);
      expect((await getInvitation(await actor(invitee), invitation.id))?.actions).toEqual([
        "reactivate",
      ]);
      // Nothing to do for the sender on a blocked invitation.
      expect(await applyInvitationAction(await actor(admin), invitation.id, "revoke")).toEqual({
        ok: false,
        message: m.actionNotAvailable,
      });
      expect(
        await applyInvitationAction(await actor(invitee), invitation.id, "reactivate"),
      ).toEqual({
        ok: true,
        status: "accepted",
        command: "UPDATE",
      });
      const membership = await membershipOf(invitee.id, invitation.careSiteId!);
      expect(membership).toMatchObject({ status: "accepted", acceptedAt });
    }
    // After the sender's revoke, the invitee's earlier pauses do not let them back in.
    await applyInvitationAction(await actor(admin), invitation.id, "revoke");
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "reactivate")).toEqual({
      ok: false,
      message: m.actionNotAvailable,
    });
    expect((await membershipOf(invitee.id, invitation.careSiteId!))?.status).toBe("blocked");
  });

  it("a membership ended elsewhere (care site Remove) ends its invitations, also a paused one", async () => {
    const { admin, a, b, invitee, invitation } = await invited();
    const second = await sendOne(admin, invitee.email, "clinician", b.id);
    await applyInvitationAction(await actor(invitee), invitation.id, "accept");
    await applyInvitationAction(await actor(invitee), second.invitation.id, "accept");
    await applyInvitationAction(await actor(invitee), second.invitation.id, "deactivate");
    const third = await sendOne(admin, newEmail(), "patient", a.id);

    for (const site of [a, b]) {
      const ended = await prisma.$transaction(async (tx) => {
        await tx.membership.update({
          where: { careSiteId_userId: { careSiteId: site.id, userId: invitee.id } },
          data: { status: "blocked" },
        });
        return endInvitationsForMembership(tx, {
          careSiteId: site.id,
          userId: invitee.id,
          actorId: admin.id,
        });
      });
      expect(ended).toBe(1);
    }
    expect(await statusOf(invitation.id)).toBe("blocked");
    expect(await statusOf(second.invitation.id)).toBe("blocked");
    expect(await statusOf(third.invitation.id)).toBe("pending");
    expect(
      (await listReceivedInvitations(await actor(invitee))).rows.map((r) => r.actions),
    ).toEqual([[], []]);
    for (const id of [invitation.id, second.invitation.id]) {
      expect(await applyInvitationAction(await actor(invitee), id, "reactivate")).toEqual({
        ok: false,
        message: m.actionNotAvailable,
      });
    }
    expect((await membershipOf(invitee.id, b.id))?.status).toBe("blocked");
    expect(await eventsOf(second.invitation.id)).toEqual([
      "invitation.accept",
      "invitation.deactivate",
      "invitation.revoke",
      "invitation.sent",
    ]);
  });

  it("refuses transitions the table does not allow, changing nothing", async () => {
    const { admin, invitee, invitation } = await invited();
    const refused = { ok: false, message: m.actionNotAvailable };
    // pending: no revoke, deactivate, reactivate
    expect(await applyInvitationAction(await actor(admin), invitation.id, "revoke")).toEqual(
      refused,
    );
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "deactivate")).toEqual(
      refused,
    );
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "reactivate")).toEqual(
      refused,
    );
    await applyInvitationAction(await actor(invitee), invitation.id, "accept");
    // accepted: no accept, reject, resend, remove
    for (const action of ["accept", "reject"] as const) {
      expect(await applyInvitationAction(await actor(invitee), invitation.id, action)).toEqual(
        refused,
      );
    }
    for (const action of ["resend", "remove"] as const) {
      expect(await applyInvitationAction(await actor(admin), invitation.id, action)).toEqual(
        refused,
      );
    }
    // rejected (received): nothing
    const second = await invited();
    await applyInvitationAction(await actor(second.invitee), second.invitation.id, "reject");
    for (const action of ["accept", "reject", "deactivate", "reactivate"] as const) {
      expect(
        await applyInvitationAction(await actor(second.invitee), second.invitation.id, action),
      ).toEqual(refused);
    }
    expect(
      await applyInvitationAction(await actor(second.admin), second.invitation.id, "remove"),
    ).toEqual(refused);
    expect(await statusOf(invitation.id)).toBe("accepted");
    expect(await statusOf(second.invitation.id)).toBe("rejected");
    expect(
      await applyInvitationAction(await actor(admin), invitation.id, "bogus" as never),
    ).toEqual(refused);
  });

  it("answers notFound to anyone but the sender (sent side) or the invitee (received side)", async () => {
    const { admin, a, invitee, invitation } = await invited();
    const colleague = await createUser({ role: "clinicadmin", careSites: [{ id: a.id }] });
    const superadmin = await createUser({ role: "superadmin" });
    const notFound = { ok: false, notFound: true };
    for (const stranger of [colleague, superadmin]) {
      for (const action of ["resend", "remove", "accept", "reject"] as const) {
        expect(await applyInvitationAction(await actor(stranger), invitation.id, action)).toEqual(
          notFound,
        );
      }
      expect(await getInvitation(await actor(stranger), invitation.id)).toBeNull();
    }
    // Each side's actions belong to that side only.
    expect(await applyInvitationAction(await actor(admin), invitation.id, "accept")).toEqual(
      notFound,
    );
    expect(await applyInvitationAction(await actor(invitee), invitation.id, "remove")).toEqual(
      notFound,
    );
    expect(await applyInvitationAction(await actor(invitee), "no-such-id", "accept")).toEqual(
      notFound,
    );
    expect(await statusOf(invitation.id)).toBe("pending");
    expect(await membershipOf(invitee.id, a.id)).toBeNull();

    expect(await getInvitation(await actor(admin), invitation.id)).toMatchObject({
      side: "sent",
      email: invitee.email,
      careSiteName: a.name,
      actions: ["resend", "remove"],
    });
    expect(await getInvitation(await actor(invitee), invitation.id)).toMatchObject({
      side: "received",
      senderName: `${admin.firstName} ${admin.lastName}`,
      actions: ["accept", "reject"],
    });
  });

  it("resend to an email without an account keeps the new-user wording", async () => {
    const { admin, a } = await siteAdmin();
    const email = newEmail();
    const { invitation } = await sendOne(admin, email, "patient", a.id);
    expect(await applyInvitationAction(await actor(admin), invitation.id, "resend")).toEqual({
      ok: true,
      status: "resend",
    });
    const mails = await emailsTo(email);
    expect(mails).toHaveLength(2);
    const { tokenHash } = await prisma.invitation.findUniqueOrThrow({
      where: { id: invitation.id },
    });
    const resent = mails.find((mail) => hashInvitationToken(tokenIn(mail.body)) === tokenHash)!;
    expect(resent.subject).toBe("You are invited to ARC Connect");
    expect(resent.body).not.toContain("Sign in and accept it under Invitations");
    expect(await findInvitationByToken(tokenIn(resent.body))).toMatchObject({
      id: invitation.id,
      careSite: { id: a.id, name: a.name },
    });
  });
});
