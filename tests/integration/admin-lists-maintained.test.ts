// The provider's admins' people lists and count cards read EnrolledPerson, which the database
// keeps with triggers (prisma/migrations/20261126111432_enrolled_person). Every source of the
// lists is changed in turn, as the app's write paths change it (invite, accept, reject, block,
// withdraw an invitation, deactivate a care site, rename, a new photo, a second membership, ...),
// and after each change the table, a page of each order and the cards are compared with what the
// lists' SQL said before the table existed: that query is kept here as the oracle.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { enrolledAs } from "~/domain/access.server";
import {
  getEnrolledCounts,
  listEnrolledPeople,
  PERSON_SORTS,
  type EnrolledRole,
  type PersonRow,
} from "~/domain/careSites/careSite.server";
import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { actorOf, createCareSite, createUser } from "../support/factories";

const ROLES: EnrolledRole[] = ["patient", "clinician", "clinicadmin"];
type Row = Omit<PersonRow, "status"> & { status: string };

/** The lists' SQL before EnrolledPerson (sql.server.ts as of commit d426681), unpaged. */
function oracle(role: EnrolledRole) {
  const membership = (statuses: Prisma.Sql) => Prisma.sql`EXISTS (
      SELECT 1 FROM "Membership" m JOIN "CareSite" c ON c.id = m.careSiteId
      WHERE m.userId = u.id AND m.role = ${role} AND m.status IN (${statuses})
        AND c.status = 'active')`;
  const openInvitation = (alias: "i" | "j") => {
    const a = Prisma.raw(alias);
    return Prisma.sql`${a}.role = ${role} AND ${a}.status IN ('pending', 'resend')
      AND EXISTS (SELECT 1 FROM "CareSite" c WHERE c.id = ${a}.careSiteId AND c.status = 'active')`;
  };
  return prisma.$queryRaw<Row[]>`
    SELECT id, firstName, lastName, email, photoId, status FROM (
      SELECT u.id, u.firstName, u.lastName, u.email, u.photoId,
        CASE WHEN ${membership(Prisma.sql`'accepted'`)} THEN 'Accepted' ELSE 'Pending' END AS status
      FROM "User" u
      WHERE u.role = ${role} AND ${membership(Prisma.sql`'accepted', 'pending'`)}
      UNION ALL
      SELECT i.id, '' AS firstName, '' AS lastName, i.email, NULL AS photoId, 'Pending' AS status
      FROM "Invitation" i
      WHERE ${openInvitation("i")}
        AND NOT EXISTS (SELECT 1 FROM "User" a WHERE a.emailKey = i.email)
        AND NOT EXISTS (SELECT 1 FROM "Invitation" j
          WHERE j.email = i.email AND j.id > i.id AND ${openInvitation("j")})
    ) AS listed
    ORDER BY email`;
}

/** The cards as they were counted before (Prisma, access.server.ts enrolledAs). */
async function oracleCounts() {
  const [careSites, patients, clinicians, careSiteAdmins] = await Promise.all([
    prisma.careSite.count({ where: { status: "active" } }),
    prisma.user.count({ where: enrolledAs("patient") }),
    prisma.user.count({ where: enrolledAs("clinician") }),
    prisma.user.count({ where: enrolledAs("clinicadmin") }),
  ]);
  return { careSites, patients, clinicians, careSiteAdmins };
}

const SORT_KEYS = {
  lastName: ["lastName", "firstName", "email"],
  firstName: ["firstName", "lastName", "email"],
  status: ["status", "lastName", "firstName", "email"],
  email: ["email"],
} as const;

function sortRows(rows: Row[], sort: keyof typeof SORT_KEYS, order: "asc" | "desc") {
  const keys = SORT_KEYS[sort];
  const sorted = [...rows].sort((a, b) => {
    for (const k of keys) {
      const [x, y] = [a[k] ?? "", b[k] ?? ""];
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  });
  return order === "asc" ? sorted : sorted.reverse();
}

function word(length = 10) {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return [...crypto.randomBytes(length)].map((b) => letters[b % 26]).join("");
}

describe("EnrolledPerson, kept by the database", () => {
  it("agrees with the lists' former SQL after every kind of write to its sources", async () => {
    const admin = await actorOf(await createUser({ role: "superadmin" }));
    const tag = word(8);
    const siteA = await createCareSite();
    const siteB = await createCareSite();
    const inviter = await createUser({ role: "clinicadmin", careSites: [{ id: siteA.id }] });

    /** The whole table, a page of each order (this test's people) and the cards. */
    const expectSame = async (step: string) => {
      for (const role of ROLES) {
        const expected = await oracle(role);
        const kept = await prisma.$queryRaw<Row[]>`
          SELECT id, firstName, lastName, email, photoId, status FROM "EnrolledPerson"
          WHERE role = ${role} ORDER BY email`;
        expect(kept, `${step}: ${role} rows`).toEqual(expected);
        const mine = expected.filter((r) =>
          [r.firstName, r.lastName, r.email].some((v) => v.toLowerCase().includes(tag)),
        );
        for (const sort of PERSON_SORTS) {
          for (const order of ["asc", "desc"] as const) {
            const page = await listEnrolledPeople(admin, { role, q: tag, sort, order, page: 1 });
            expect(page.total, `${step}: ${role} ${sort} ${order} total`).toBe(mine.length);
            expect(
              page.rows.map((r) => r.id),
              `${step}: ${role} ${sort} ${order}`,
            ).toEqual(
              sortRows(mine, sort, order)
                .slice(0, 10)
                .map((r) => r.id),
            );
          }
        }
      }
      expect(await getEnrolledCounts(admin), `${step}: counts`).toEqual(await oracleCounts());
    };

    const invite = (email: string, fields: { role?: string; careSiteId?: string } = {}) =>
      prisma.invitation.create({
        data: {
          email,
          role: fields.role ?? "clinician",
          careSiteId: fields.careSiteId ?? siteA.id,
          invitedById: inviter.id,
          tokenHash: word(24),
          expiresAt: new Date(Date.now() + 86_400_000),
        },
      });
    const named = async (role: string, lastName: string) => {
      const user = await createUser({ role });
      return prisma.user.update({
        where: { id: user.id },
        data: { firstName: `F${lastName}`, lastName: `${tag}${lastName}` },
      });
    };
    await expectSame("start");

    // Invite by email: an invitee row; a second open invitation (another care site, sent
    // again) keeps one row, the newest's id.
    const newEmail = `${tag}.new@example.test`;
    const first = await invite(newEmail);
    await expectSame("invite");
    const second = await invite(newEmail, { careSiteId: siteB.id });
    await prisma.invitation.update({ where: { id: second.id }, data: { status: "resend" } });
    await expectSame("second invitation, resent");

    // Accept: the account is made (the invitee row goes), a pending membership, then accepted.
    const joined = await createUser({ role: "clinician" });
    await prisma.user.update({
      where: { id: joined.id },
      data: { email: newEmail, firstName: "Jo", lastName: `${tag}joined` },
    });
    await expectSame("account made for the invited email");
    const joinedAt = await prisma.membership.create({
      data: { careSiteId: siteA.id, userId: joined.id, role: "clinician", status: "pending" },
    });
    await prisma.invitation.update({
      where: { id: first.id },
      data: { membershipId: joinedAt.id },
    });
    await expectSame("pending membership");
    await prisma.membership.update({ where: { id: joinedAt.id }, data: { status: "accepted" } });
    await prisma.invitation.update({ where: { id: first.id }, data: { status: "accepted" } });
    await expectSame("accept");

    // A second membership: pending elsewhere keeps Accepted; accepted elsewhere, then the first
    // blocked (removed), still Accepted; both gone, not listed.
    const second2 = await prisma.membership.create({
      data: { careSiteId: siteB.id, userId: joined.id, role: "clinician", status: "pending" },
    });
    await expectSame("second membership, pending");
    await prisma.membership.update({ where: { id: second2.id }, data: { status: "accepted" } });
    await prisma.membership.update({ where: { id: joinedAt.id }, data: { status: "blocked" } });
    await expectSame("block the first, the second accepted");
    await prisma.membership.update({ where: { id: second2.id }, data: { status: "rejected" } });
    await expectSame("reject the second");

    // Reject an invitation and withdraw (block) another; reopen one (resend).
    const rejecting = await invite(`${tag}.rejects@example.test`, { role: "patient" });
    const withdrawn = await invite(`${tag}.withdrawn@example.test`, { role: "clinicadmin" });
    await expectSame("two more invitations");
    await prisma.invitation.update({ where: { id: rejecting.id }, data: { status: "rejected" } });
    await prisma.invitation.update({ where: { id: withdrawn.id }, data: { status: "blocked" } });
    await expectSame("reject and withdraw");
    await prisma.invitation.update({ where: { id: rejecting.id }, data: { status: "resend" } });
    await expectSame("resend the rejected one");

    // People of each role, accepted and pending, at two care sites.
    const patient = await named("patient", "pat");
    await prisma.membership.create({
      data: { careSiteId: siteA.id, userId: patient.id, role: "patient", status: "accepted" },
    });
    const staff = await named("clinicadmin", "adm");
    await prisma.membership.createMany({
      data: [
        { careSiteId: siteA.id, userId: staff.id, role: "clinicadmin", status: "pending" },
        { careSiteId: siteB.id, userId: staff.id, role: "clinicadmin", status: "accepted" },
      ],
    });
    // A membership in another role than the user's is not listed.
    await prisma.membership.create({
      data: { careSiteId: siteB.id, userId: patient.id, role: "clinician", status: "accepted" },
    });
    await expectSame("people of each role");

    // Rename, a new photo, a new email (the old one's invitation shows again).
    await prisma.user.update({ where: { id: patient.id }, data: { lastName: `${tag}renamed` } });
    const photo = await prisma.upload.create({
      data: {
        ownerId: patient.id,
        kind: "photo",
        fileName: "me.png",
        mimeType: "image/png",
        sizeBytes: 1,
        sha256: word(64),
        storagePath: word(12),
      },
    });
    await prisma.user.update({ where: { id: patient.id }, data: { photoId: photo.id } });
    await expectSame("rename and photo");
    const pendingInvite = await invite(patient.email, { role: "patient", careSiteId: siteB.id });
    await expectSame("an invitation for an email with an account");
    await prisma.user.update({
      where: { id: patient.id },
      data: { email: `${tag}.moved@example.test` },
    });
    await expectSame("email changed: the old email's invitation is an invitee again");
    // The photo deleted (the user's photoId set null by the foreign key).
    await prisma.upload.delete({ where: { id: photo.id } });
    await expectSame("photo deleted");

    // Deactivate a care site, then activate it again.
    await prisma.careSite.update({ where: { id: siteB.id }, data: { status: "inactive" } });
    await expectSame("care site deactivated");
    await prisma.careSite.update({ where: { id: siteB.id }, data: { status: "active" } });
    await expectSame("care site active again");

    // A role change; deletions: a membership, an invitation, a user, a care site (cascades).
    await prisma.user.update({ where: { id: staff.id }, data: { role: "clinician" } });
    await expectSame("role changed");
    await prisma.membership.deleteMany({ where: { userId: staff.id, careSiteId: siteA.id } });
    await prisma.invitation.delete({ where: { id: pendingInvite.id } });
    await expectSame("a membership and an invitation deleted");
    await invite(joined.email, { careSiteId: siteB.id });
    await prisma.user.delete({ where: { id: joined.id } });
    await expectSame("a user deleted: their open invitation lists the email again");
    await prisma.careSite.delete({ where: { id: siteB.id } });
    await expectSame("a care site deleted");
  });
});
