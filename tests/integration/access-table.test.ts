// The access table (issue 18, item 1): every actor kind × every kind of care-site data × how the
// data relates to the actor (their own care site, another care site, no care site), for reads and
// for writes, each cell stated allowed or denied, and each checked through the real model
// functions (not only the where-fragments of domain/access.server.ts) on a real SQLite. Then the
// invitation powers of a sender removed from a care site (item 3), through the models and the
// screen.
//
// Actor kinds: superadmin and abmadmin (every care site), a clinicadmin and a clinician of care
// site A, a clinician removed from A (Remove on the care site screen: membership blocked), a
// clinician of care site C after C was deactivated, a patient of A, and a clinician with no care
// site. "Own" is A (C for C's clinician, whose own care site is the deactivated one); "other" is
// care site B; "none" is data of no care site: for care-site records, a care site without any
// staff (D); for people, a patient or clinician with no accepted place anywhere; for invitations,
// one without a care site (an ABM admin's). Rows without a relation (help, the administrators'
// lists, adding a care site) have one cell.
//
// The device pairing rules are added to this table by the pairing work; here devices and pairings
// are read through the patient they are paired with.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "~/domain/access.server";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import {
  createCareSite as addCareSite,
  getEnrolledCounts,
  getPatientLinks,
  getPersonNotice,
  listCareSites,
} from "~/domain/careSites/careSite.server";
import {
  getCareSiteProfile,
  getManagedCareSite,
  setManagedCareSitePicture,
  updateCareSite,
} from "~/domain/careSites/management.server";
import { countEnrolled, listEnrolled, withdrawMembership } from "~/domain/careSites/members.server";
import { exportEnrolledCsv } from "~/domain/careSites/membersCsv.server";
import { findDialog, sendMessage } from "~/domain/chat/chat.server";
import {
  notificationSummaryFor,
  summaryDownloadFor,
} from "~/domain/notifications/dailySummary.server";
import { careSiteDashboard, dashboardCsv } from "~/domain/adherence/dashboard.server";
import { sendHelpMessage } from "~/domain/help/help.server";
import { applyInvitationAction } from "~/domain/invitations/invitation.server";
import {
  countInvitations,
  getInvitation,
  listReceivedInvitations,
  listSentInvitations,
} from "~/domain/invitations/lists.server";
import { sendInvitations } from "~/domain/invitations/send.server";
import {
  notificationSettingsFor,
  saveNotificationSettings,
} from "~/domain/notifications/settings.server";
import { findViewablePhoto } from "~/domain/accounts/photo.server";
import { addPatientNote, findProfile, setTherapyGoal } from "~/domain/patients/profile.server";
import { loadProfileView } from "~/domain/patients/profileView.server";
import { searchPatients } from "~/domain/patients/search.server";
import { getVisibleProfile } from "~/domain/accounts/user.server";
import { loader as clinicadminLoader, action as clinicadminAction } from "~/routes/app.clinicadmin";
import {
  actorOf,
  createCareSite,
  createPairedPatient,
  createUser,
  uid,
} from "../support/factories";
import { bodyOf, statusOf } from "../support/requests";
import { signedInBrowser } from "../support/session";

const ACTORS = [
  "superadmin",
  "abmadmin",
  "clinicadminOfA",
  "clinicianOfA",
  "removedFromA",
  "clinicianOfDeactivatedC",
  "patientOfA",
  "noCareSite",
] as const;
type ActorKind = (typeof ACTORS)[number];
const RELATIONS = ["own", "other", "none"] as const;
type Relation = (typeof RELATIONS)[number];

const Y = "allowed" as const;
const N = "denied" as const;
type Cell = typeof Y | typeof N;
/** Per actor kind: the cells for own, other and no care site (or the one cell of a row without). */
type Row = Record<ActorKind, Cell[]>;

type User = Awaited<ReturnType<typeof createUser>>;
type Site = { id: string };
type Patient = { id: string; pairingId: string; serial: string; photoId: string };

const params = { q: "", sort: "firstName" as const, order: "asc" as const, page: 1 };
const dashboardInput = {
  search: new URLSearchParams(),
  list: null,
  params: { q: "", sort: "lastName" as const, order: "asc" as const, page: 1 },
};

// The world every cell looks at.
let A: Site, B: Site, C: Site, D: Site;
const users = {} as Record<ActorKind, User>;
const actors = {} as Record<ActorKind, Actor>;
/** A second clinicadmin at each care site (conversation partners, the one who removes). */
const adminAt = {} as Record<"A" | "B" | "C" | "none", User>;
const patientAt = {} as Record<"A" | "B" | "C" | "none", Patient>;
const clinicianAt = {} as Record<"A" | "B" | "C" | "none", User & { photoId: string }>;

function ownSiteOf(kind: ActorKind) {
  return kind === "clinicianOfDeactivatedC" ? "C" : "A";
}

/** The care site a relation names for an actor: own, B, or D (no staff at all). */
function siteFor(kind: ActorKind, relation: Relation): Site {
  if (relation === "own") return ownSiteOf(kind) === "C" ? C : A;
  return relation === "other" ? B : D;
}

/** The person a relation names: at the actor's own care site, at B, or with no place. */
function keyFor(kind: ActorKind, relation: Relation) {
  if (relation === "own") return ownSiteOf(kind);
  return relation === "other" ? ("B" as const) : ("none" as const);
}

async function upload(ownerId: string | null, kind: "photo" | "caresite") {
  return prisma.upload.create({
    data: {
      ownerId,
      kind,
      fileName: "x.png",
      mimeType: "image/png",
      sizeBytes: 1,
      sha256: uid("sha"),
      storagePath: `uploads/${uid("f")}.png`,
    },
  });
}

async function withPhoto<T extends { id: string }>(user: T) {
  const photo = await upload(user.id, "photo");
  await prisma.user.update({ where: { id: user.id }, data: { photoId: photo.id } });
  return { ...user, photoId: photo.id };
}

async function pairedPatient(siteId: string | null): Promise<Patient> {
  // A patient with no place still has a device and a goal: only the care site is missing.
  const site = siteId ?? (await createCareSite()).id;
  const made = await createPairedPatient(site, {
    firstName: "Pat",
    lastName: uid("Table"),
    pairedAt: new Date(Date.now() - 10 * 86_400_000),
  });
  if (!siteId) await prisma.membership.deleteMany({ where: { userId: made.patient.id } });
  const pairing = await prisma.pairing.findFirstOrThrow({ where: { patientId: made.patient.id } });
  const { photoId } = await withPhoto(made.patient);
  return { id: made.patient.id, pairingId: pairing.id, serial: made.device.serial, photoId };
}

beforeAll(async () => {
  [A, B, C, D] = [
    await createCareSite(uid("A ")),
    await createCareSite(uid("B ")),
    await createCareSite(uid("C ")),
    await createCareSite(uid("D ")),
  ];
  for (const site of [A, B, C, D]) {
    const picture = await upload(null, "caresite");
    await prisma.careSite.update({ where: { id: site.id }, data: { photoId: picture.id } });
  }
  users.superadmin = await createUser({ role: "superadmin" });
  users.abmadmin = await createUser({ role: "abmadmin" });
  users.clinicadminOfA = await createUser({ role: "clinicadmin", careSites: [{ id: A.id }] });
  users.clinicianOfA = await createUser({ role: "clinician", careSites: [{ id: A.id }] });
  users.removedFromA = await createUser({ role: "clinician", careSites: [{ id: A.id }] });
  users.clinicianOfDeactivatedC = await createUser({
    role: "clinician",
    careSites: [{ id: C.id }],
  });
  users.patientOfA = await createUser({ role: "patient", careSites: [{ id: A.id }] });
  users.noCareSite = await createUser({ role: "clinician" });

  adminAt.A = await createUser({ role: "clinicadmin", careSites: [{ id: A.id }] });
  adminAt.B = await createUser({ role: "clinicadmin", careSites: [{ id: B.id }] });
  adminAt.C = await createUser({ role: "clinicadmin", careSites: [{ id: C.id }] });
  adminAt.none = await createUser({ role: "clinicadmin" });
  for (const key of ["A", "B", "C"] as const) {
    const site = { A, B, C }[key];
    patientAt[key] = await pairedPatient(site.id);
    clinicianAt[key] = await withPhoto(
      await createUser({ role: "clinician", careSites: [{ id: site.id }] }),
    );
  }
  patientAt.none = await pairedPatient(null);
  // A clinician with no accepted place: invited to A, not yet accepted.
  clinicianAt.none = await withPhoto(
    await createUser({ role: "clinician", careSites: [{ id: A.id, status: "pending" }] }),
  );

  // Removed the way the care site screen removes: the membership becomes blocked.
  const removal = await prisma.membership.findFirstOrThrow({
    where: { userId: users.removedFromA.id, careSiteId: A.id },
  });
  const removed = await withdrawMembership(await actorOf(adminAt.A), removal.id);
  expect(removed.ok).toBe(true);
  // Care site C is deactivated after its staff joined.
  await prisma.careSite.update({ where: { id: C.id }, data: { status: "inactive" } });

  for (const kind of ACTORS) actors[kind] = await actorOf(users[kind]);
});

/** Runs a check for every actor kind and relation; the result has the shape of the expected row. */
async function table(
  check: (kind: ActorKind, relation: Relation) => Promise<boolean>,
  relations: readonly Relation[] = RELATIONS,
): Promise<Row> {
  const got = {} as Row;
  for (const kind of ACTORS) {
    got[kind] = [];
    for (const relation of relations) got[kind].push((await check(kind, relation)) ? Y : N);
  }
  return got;
}

/** Care-site staff screens: the actor's own active care site only. */
const memberOwnOnly: Row = {
  superadmin: [N, N, N],
  abmadmin: [N, N, N],
  clinicadminOfA: [Y, N, N],
  clinicianOfA: [Y, N, N],
  removedFromA: [N, N, N],
  clinicianOfDeactivatedC: [N, N, N],
  patientOfA: [N, N, N],
  noCareSite: [N, N, N],
};

/** Patients and their data: everything for provider admins, the own active care site for staff. */
const patientScope: Row = {
  superadmin: [Y, Y, Y],
  abmadmin: [Y, Y, Y],
  clinicadminOfA: [Y, N, N],
  clinicianOfA: [Y, N, N],
  removedFromA: [N, N, N],
  clinicianOfDeactivatedC: [N, N, N],
  patientOfA: [N, N, N],
  noCareSite: [N, N, N],
};

/** A role the actor's own role invites to a care site: provider admins care site admins, a care
 * site admin clinicians, everyone else patients. */
function roleFor(kind: ActorKind) {
  const role = actors[kind].role;
  if (role === "superadmin" || role === "abmadmin") return "clinicadmin";
  return role === "clinicadmin" ? "clinician" : "patient";
}

const everyone = (cells: Cell[]): Row =>
  Object.fromEntries(ACTORS.map((kind) => [kind, cells])) as Row;

describe("the access table", () => {
  it("care site: read (the care site screen, or the provider admins' profile page)", async () => {
    const got = await table(async (kind, relation) => {
      const site = siteFor(kind, relation);
      const managed = await getManagedCareSite(actors[kind], site.id);
      const profile = await getCareSiteProfile(actors[kind], site.id);
      return managed !== null || profile !== null;
    });
    expect(got).toEqual(patientScope);
  });

  it("care site: write (details and picture)", async () => {
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 9, b: 9 } },
    })
      .png()
      .toBuffer();
    const got = await table(async (kind, relation) => {
      const site = siteFor(kind, relation);
      const outcome = await updateCareSite(actors[kind], site.id, {
        name: uid("Renamed "),
        addressLine1: "1 Main St",
        addressLine2: "",
        country: "United States",
        state: "Texas",
        city: "Austin",
        zip: "78701",
        phone: "",
        website: "",
      });
      const picture = await setManagedCareSitePicture(
        actors[kind],
        site.id,
        new File([new Uint8Array(png)], "p.png", { type: "image/png" }),
      );
      expect(picture === null).toBe(outcome.status === "notFound");
      return outcome.status === "updated" && picture?.ok === true;
    });
    expect(got).toEqual({
      superadmin: [Y, Y, Y],
      abmadmin: [Y, Y, Y],
      clinicadminOfA: [Y, N, N],
      clinicianOfA: [N, N, N],
      removedFromA: [N, N, N],
      clinicianOfDeactivatedC: [N, N, N],
      patientOfA: [N, N, N],
      noCareSite: [N, N, N],
    });
  });

  it("care sites, all of them: the administrators' lists, counts and Add Care Site", async () => {
    const got = await table(
      async (kind) => {
        const listed = (await listCareSites(actors[kind], { ...params, sort: "name" })).total > 0;
        const counted = (await getEnrolledCounts(actors[kind])).careSites > 0;
        const links = await getPatientLinks(actors[kind], [patientAt.A.id]);
        // The row of a person who has not accepted yet warns instead of opening a page.
        const notice = await getPersonNotice(actors[kind], "clinician", clinicianAt.none.id);
        expect(links.size > 0).toBe(listed);
        expect(notice !== null).toBe(listed);
        const added = await addCareSite(actors[kind], {
          name: uid("New"),
          city: "Austin",
          state: "Texas",
          zip: "78701",
          country: "United States",
          accountNumber: null,
          addressLine1: null,
          addressLine2: null,
          phone: null,
          website: null,
        });
        expect(listed).toBe(counted);
        expect(added.status === "created").toBe(listed);
        return listed;
      },
      ["none"],
    );
    expect(got).toEqual({
      ...everyone([N]),
      superadmin: [Y],
      abmadmin: [Y],
    });
  });

  it("care site members: read (the lists, counts and CSV of the care site screen)", async () => {
    const got = await table(async (kind, relation) => {
      const site = siteFor(kind, relation);
      const csv = await exportEnrolledCsv(actors[kind], site.id, "patient", params);
      const list = await listEnrolled(actors[kind], site.id, "clinician", params);
      const counts = await countEnrolled(actors[kind], site.id);
      expect(list.total > 0).toBe(csv !== null && relation !== "none");
      expect(counts.clinician > 0).toBe(list.total > 0);
      return csv !== null;
    });
    expect(got).toEqual(memberOwnOnly);
  });

  it("patient: read (the profile) and write (a note)", async () => {
    const read = await table(async (kind, relation) => {
      const patient = patientAt[keyFor(kind, relation)];
      const ids = { profileId: patient.id, clinicId: null, pairId: null };
      return (await findProfile(actors[kind], ids)) !== null;
    });
    expect(read).toEqual(patientScope);
    const write = await table(async (kind, relation) => {
      const patient = patientAt[keyFor(kind, relation)];
      const added = await addPatientNote(actors[kind], patient.id, uid("note "), {});
      const stored = await prisma.patientNote.count({
        where: { patientId: patient.id, authorId: actors[kind].id },
      });
      expect(stored > 0).toBe(added);
      return added;
    });
    expect(write).toEqual(patientScope);
  });

  it("patient: found by the Patients search (one row per accepted place)", async () => {
    const got = await table(async (kind, relation) => {
      const patient = await prisma.user.findUniqueOrThrow({
        where: { id: patientAt[keyFor(kind, relation)].id },
      });
      const found = await searchPatients(actors[kind], {
        ...params,
        q: patient.lastName,
        sort: "lastName",
      });
      return found.total > 0;
    });
    expect(got).toEqual({ ...patientScope, superadmin: [Y, Y, N], abmadmin: [Y, Y, N] });
  });

  it("therapy data and goals: read (the profile's view) and write (a therapy goal)", async () => {
    const read = await table(async (kind, relation) => {
      const patient = patientAt[keyFor(kind, relation)];
      const ids = { profileId: patient.id, clinicId: null, pairId: null };
      const found = await findProfile(actors[kind], ids);
      if (!found) return false;
      const view = await loadProfileView(found, "Imperial", new URLSearchParams());
      return view.patient.id === patient.id && view.goals.length > 0;
    });
    expect(read).toEqual(patientScope);
    const write = await table(async (kind, relation) => {
      const patient = patientAt[keyFor(kind, relation)];
      const input = {
        patientId: patient.id,
        pairingId: patient.pairingId,
        timesPerDay: 3,
        days: ["mon"],
      };
      return setTherapyGoal(actors[kind], input, {});
    });
    expect(write).toEqual(patientScope);
  });

  it("devices and pairings: read, through the patient they are paired with", async () => {
    const got = await table(async (kind, relation) => {
      const patient = patientAt[keyFor(kind, relation)];
      const ids = { profileId: patient.id, clinicId: null, pairId: patient.pairingId };
      const found = await findProfile(actors[kind], ids);
      if (!found) return false;
      const view = await loadProfileView(found, "Imperial", new URLSearchParams());
      return view.patient.deviceSerial === patient.serial && view.pairId === patient.pairingId;
    });
    expect(got).toEqual(patientScope);
  });

  it("staff user: read (their profile page) and write (Remove from the care site)", async () => {
    const read = await table(async (kind, relation) => {
      const clinician = clinicianAt[keyFor(kind, relation)];
      return (await getVisibleProfile(actors[kind], clinician.id)) !== null;
    });
    expect(read).toEqual(patientScope);
    const write = await table(async (kind, relation) => {
      // A fresh clinician each time: removing is for good.
      const site = siteFor(kind, relation);
      const status = relation === "none" ? "pending" : "accepted";
      const target = await createUser({
        role: "clinician",
        careSites: [{ id: relation === "none" ? siteFor(kind, "own").id : site.id, status }],
      });
      const membership = await prisma.membership.findFirstOrThrow({ where: { userId: target.id } });
      const outcome = await withdrawMembership(actors[kind], membership.id);
      const after = await prisma.membership.findUniqueOrThrow({ where: { id: membership.id } });
      expect(after.status === "blocked").toBe(outcome.ok);
      return outcome.ok;
    });
    expect(write).toEqual({
      ...everyone([N, N, N]),
      // A clinician removes patients only, a care site admin anyone.
      clinicadminOfA: [Y, N, N],
    });
  });

  it("invitation sent by the actor: read (list, count, dialog) and write (Resend)", async () => {
    // As if sent when the actor could: the powers are judged now.
    const invited = (kind: ActorKind, relation: Relation) => {
      const site = relation === "none" ? null : siteFor(kind, relation);
      return prisma.invitation.create({
        data: {
          email: `${uid("sent")}@example.test`,
          role: site ? roleFor(kind) : "abmadmin",
          careSiteId: site?.id ?? null,
          invitedById: actors[kind].id,
          tokenHash: uid("unset:"),
          expiresAt: new Date(Date.now() + 86_400_000),
        },
      });
    };
    const read = await table(async (kind, relation) => {
      const invitation = await invited(kind, relation);
      const detail = await getInvitation(actors[kind], invitation.id);
      const listed = await listSentInvitations(actors[kind], { q: invitation.email });
      expect(listed.total > 0).toBe(detail !== null);
      return detail?.side === "sent";
    });
    const allSentByThem: Row = {
      ...everyone([N, N, N]),
      superadmin: [Y, Y, Y],
      abmadmin: [Y, Y, Y],
      clinicadminOfA: [Y, N, N],
      clinicianOfA: [Y, N, N],
    };
    expect(read).toEqual(allSentByThem);
    const write = await table(async (kind, relation) => {
      const invitation = await invited(kind, relation);
      const result = await applyInvitationAction(actors[kind], invitation.id, "resend");
      const after = await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
      expect(after.status === "resend").toBe(result.ok);
      return result.ok;
    });
    expect(write).toEqual(allSentByThem);
  });

  it("invitation: send (for the own or another care site; none: an ABM admin, without one)", async () => {
    const got = await table(async (kind, relation) => {
      const role = relation === "none" ? "abmadmin" : roleFor(kind);
      const careSiteIds = relation === "none" ? [] : [siteFor(kind, relation).id];
      const email = `${uid("new")}@example.test`;
      const sent = await sendInvitations(actors[kind], { email, role, careSiteIds });
      const stored = await prisma.invitation.count({ where: { email } });
      expect(stored > 0).toBe(sent.ok);
      return sent.ok;
    });
    expect(got).toEqual({
      ...everyone([N, N, N]),
      superadmin: [Y, Y, Y],
      abmadmin: [Y, Y, N],
      clinicadminOfA: [Y, N, N],
      clinicianOfA: [Y, N, N],
    });
  });

  it("invitation to the actor: read (the Received list) and write (Reject), whatever their places", async () => {
    const toActor = (kind: ActorKind, relation: Relation) =>
      prisma.invitation.create({
        data: {
          email: users[kind].email,
          role: users[kind].role,
          careSiteId: relation === "none" ? null : siteFor(kind, relation).id,
          invitedById: adminAt.B.id,
          tokenHash: uid("unset:"),
          expiresAt: new Date(Date.now() + 86_400_000),
        },
      });
    const read = await table(async (kind, relation) => {
      const invitation = await toActor(kind, relation);
      const listed = (await listReceivedInvitations(actors[kind])).total > 0;
      return listed && (await getInvitation(actors[kind], invitation.id))?.side === "received";
    });
    expect(read).toEqual(everyone([Y, Y, Y]));
    const write = await table(async (kind, relation) => {
      const invitation = await toActor(kind, relation);
      return (await applyInvitationAction(actors[kind], invitation.id, "reject")).ok;
    });
    expect(write).toEqual(everyone([Y, Y, Y]));
  });

  it("conversation with a care site admin: read (stays readable to its participants) and write (post)", async () => {
    const dialogs = new Map<string, string>();
    const dialogWith = async (kind: ActorKind, relation: Relation) => {
      const key = `${kind}:${relation}`;
      if (!dialogs.has(key)) {
        const other = adminAt[keyFor(kind, relation)];
        const dialog = await prisma.chatDialog.create({
          data: {
            type: 3,
            participants: { create: [{ userId: users[kind].id }, { userId: other.id }] },
          },
        });
        dialogs.set(key, dialog.id);
      }
      return dialogs.get(key)!;
    };
    const read = await table(async (kind, relation) => {
      const dialog = await findDialog(actors[kind], await dialogWith(kind, relation));
      return dialog !== null;
    });
    expect(read).toEqual(everyone([Y, Y, Y]));
    const write = await table(async (kind, relation) => {
      const id = await dialogWith(kind, relation);
      const sent = await sendMessage(actors[kind], id, { text: "hello", file: null });
      expect((await findDialog(actors[kind], id))?.canPost).toBe(sent.ok);
      return sent.ok;
    });
    expect(write).toEqual({
      ...everyone([N, N, N]),
      // Provider admins talk with every current care site admin; staff with those of their sites.
      superadmin: [Y, Y, N],
      abmadmin: [Y, Y, N],
      clinicadminOfA: [Y, N, N],
      clinicianOfA: [Y, N, N],
    });
  });

  it("photos: a patient's photo, a care site's picture, a staff member's photo (read)", async () => {
    const patientPhoto = await table(async (kind, relation) => {
      const photo = patientAt[keyFor(kind, relation)].photoId;
      return (await findViewablePhoto(actors[kind], photo)) !== null;
    });
    expect(patientPhoto).toEqual(patientScope);
    const picture = await table(async (kind, relation) => {
      const site = await prisma.careSite.findUniqueOrThrow({
        where: { id: siteFor(kind, relation).id },
      });
      return (await findViewablePhoto(actors[kind], site.photoId!)) !== null;
    });
    expect(picture).toEqual(patientScope);
    const staffPhoto = await table(async (kind, relation) => {
      const photo = clinicianAt[keyFor(kind, relation)].photoId;
      return (await findViewablePhoto(actors[kind], photo)) !== null;
    });
    expect(staffPhoto).toEqual({ ...everyone([Y, Y, Y]), patientOfA: [N, N, N] });
  });

  it("notification settings (with the daily summary's recipients): read and write", async () => {
    const read = await table(async (kind, relation) => {
      const site = siteFor(kind, relation);
      return (await notificationSettingsFor(actors[kind], site.id)) !== null;
    });
    expect(read).toEqual(memberOwnOnly);
    const write = await table(async (kind, relation) => {
      const site = siteFor(kind, relation);
      const recipient = `${uid("to")}@example.test`;
      const outcome = await saveNotificationSettings(actors[kind], site.id, {
        days: ["monday"],
        recipients: [recipient],
        adherence: 70,
        spo2: 90,
        therapyAdjustment: false,
      });
      const stored = await prisma.notificationSetting.findUnique({
        where: { careSiteId: site.id },
      });
      expect(stored?.recipients === recipient).toBe(outcome.status === "saved");
      return outcome.status === "saved";
    });
    expect(write).toEqual({ ...memberOwnOnly, clinicianOfA: [N, N, N] });
  });

  it("daily summary: read (the summary screen and its downloads)", async () => {
    const got = await table(async (kind, relation) => {
      const site = siteFor(kind, relation);
      const page = await notificationSummaryFor(actors[kind], site.id);
      const today = await summaryDownloadFor(actors[kind], site.id, null);
      const archived = await summaryDownloadFor(actors[kind], site.id, "2026-01-02");
      expect(today === null).toBe(page === null);
      expect(archived === null).toBe(page === null);
      return page !== null;
    });
    expect(got).toEqual(memberOwnOnly);
  });

  it("care site dashboard: read (cards, lists and CSV)", async () => {
    const got = await table(async (kind, relation) => {
      const site = siteFor(kind, relation);
      const dashboard = await careSiteDashboard(actors[kind], site.id, dashboardInput);
      const csv = await dashboardCsv(actors[kind], site.id, "never", new URLSearchParams());
      expect(csv === null).toBe(dashboard === null);
      return dashboard !== null;
    });
    expect(got).toEqual(memberOwnOnly);
  });

  it("help: write (care site staff, members or not), naming only the care sites held now", async () => {
    const named = {} as Record<ActorKind, string>;
    const got = await table(
      async (kind) => {
        const sent = await sendHelpMessage(actors[kind], {
          subject: "Help",
          description: "Please",
        });
        if (!sent) return false;
        const email = await prisma.outboxMessage.findFirstOrThrow({
          where: { to: env.customerServiceEmail, body: { contains: users[kind].username } },
          orderBy: { createdAt: "desc" },
        });
        named[kind] = email.body.match(/^Care sites: (.*)$/m)![1];
        return true;
      },
      ["none"],
    );
    expect(got).toEqual({ ...everyone([Y]), superadmin: [N], abmadmin: [N], patientOfA: [N] });
    const nameOfA = (await prisma.careSite.findUniqueOrThrow({ where: { id: A.id } })).name;
    expect(named).toEqual({
      clinicadminOfA: nameOfA,
      clinicianOfA: nameOfA,
      removedFromA: "none",
      clinicianOfDeactivatedC: "none",
      noCareSite: "none",
    });
  });
});

describe("invitation powers follow membership (issue 18, item 3)", () => {
  /** A care site admin of A and B who invites at both, then is removed from A by another admin. */
  async function senderRemovedFromA() {
    const [a, b] = [await createCareSite(uid("Alpha ")), await createCareSite(uid("Beta "))];
    const sender = await createUser({
      role: "clinicadmin",
      careSites: [{ id: a.id }, { id: b.id }],
    });
    const otherAdmin = await createUser({ role: "clinicadmin", careSites: [{ id: a.id }] });
    const inviteeAccepted = await createUser({ role: "clinician" });
    const send = async (email: string, site: Site, role = "clinician") =>
      expect(
        await sendInvitations(await actorOf(sender), { email, role, careSiteIds: [site.id] }),
      ).toEqual({ ok: true, count: 1 });
    const pendingEmail = `${uid("pending")}@example.test`;
    await send(pendingEmail, a);
    await send(inviteeAccepted.email, a);
    const atB = `${uid("atb")}@example.test`;
    await send(atB, b, "patient");
    const byEmail = (email: string) =>
      prisma.invitation.findFirstOrThrow({ where: { email, invitedById: sender.id } });
    const accepted = await byEmail(inviteeAccepted.email);
    expect(
      await applyInvitationAction(await actorOf(inviteeAccepted), accepted.id, "accept"),
    ).toMatchObject({ ok: true, status: "accepted" });
    const pending = await byEmail(pendingEmail);
    const ofB = await byEmail(atB);

    // Before: everything is theirs to see and act on.
    expect((await listSentInvitations(await actorOf(sender))).total).toBe(3);
    expect((await getInvitation(await actorOf(sender), pending.id))?.actions).toEqual([
      "resend",
      "remove",
    ]);

    const place = await prisma.membership.findFirstOrThrow({
      where: { userId: sender.id, careSiteId: a.id },
    });
    expect((await withdrawMembership(await actorOf(otherAdmin), place.id)).ok).toBe(true);
    return { a, b, sender, pending, accepted, ofB, inviteeAccepted };
  }

  it("a sender removed from a care site can no longer resend, remove or revoke what they sent for it", async () => {
    const { sender, pending, accepted, ofB, inviteeAccepted, a } = await senderRemovedFromA();
    const actor = await actorOf(sender);
    for (const action of ["resend", "remove"] as const) {
      expect(await applyInvitationAction(actor, pending.id, action)).toEqual({
        ok: false,
        notFound: true,
      });
    }
    expect(await applyInvitationAction(actor, accepted.id, "revoke")).toEqual({
      ok: false,
      notFound: true,
    });
    // Nothing changed: the invitation stays open, the invitee keeps their place.
    expect((await prisma.invitation.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe(
      "pending",
    );
    const place = await prisma.membership.findFirstOrThrow({
      where: { userId: inviteeAccepted.id, careSiteId: a.id },
    });
    expect(place.status).toBe("accepted");
    // What they sent for B, where they still are, stays theirs.
    expect(await applyInvitationAction(actor, ofB.id, "resend")).toMatchObject({
      ok: true,
      status: "resend",
    });
  });

  it("nor see the care site's sent list, its count or a dialog about it", async () => {
    const { sender, pending, accepted, ofB } = await senderRemovedFromA();
    const actor = await actorOf(sender);
    const sent = await listSentInvitations(actor);
    expect(sent.rows.map((r) => r.id)).toEqual([ofB.id]);
    expect((await countInvitations(actor)).sent).toBe(1);
    expect(await getInvitation(actor, pending.id)).toBeNull();
    expect(await getInvitation(actor, accepted.id)).toBeNull();
  });

  it("the same through the Invitations screen: not listed, and a forged post answers 404", async () => {
    const { sender, pending, ofB } = await senderRemovedFromA();
    const browser = await signedInBrowser(sender.id);
    const page = await browser.run(clinicadminLoader, browser.get("/app/clinicadmin?list=sent"));
    const data = await bodyOf<{ sent: { rows: { id: string }[] }; counts: { sent: number } }>(page);
    expect(data.sent.rows.map((r) => r.id)).toEqual([ofB.id]);
    expect(data.counts.sent).toBe(1);
    const dialog = await browser.run(
      clinicadminLoader,
      browser.get(`/app/clinicadmin?dialog=confirm&act=remove&id=${pending.id}`),
    );
    expect(statusOf(dialog)).toBe(404);
    for (const act of ["remove", "resend"]) {
      const posted = await browser.run(
        clinicadminAction,
        browser.post("/app/clinicadmin", { intent: "act", act, id: pending.id }),
      );
      expect(statusOf(posted)).toBe(404);
    }
    expect((await prisma.invitation.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe(
      "pending",
    );
  });

  it("a sender whose care site was deactivated loses them too", async () => {
    const site = await createCareSite();
    const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    const email = `${uid("pt")}@example.test`;
    await sendInvitations(await actorOf(clinician), {
      email,
      role: "patient",
      careSiteIds: [site.id],
    });
    const invitation = await prisma.invitation.findFirstOrThrow({ where: { email } });
    await prisma.careSite.update({ where: { id: site.id }, data: { status: "inactive" } });
    const actor = await actorOf(clinician);
    expect((await listSentInvitations(actor)).total).toBe(0);
    expect(await applyInvitationAction(actor, invitation.id, "resend")).toEqual({
      ok: false,
      notFound: true,
    });
  });

  it("the power needs the right role at the care site: a clinician cannot act on a clinician's invitation", async () => {
    const site = await createCareSite();
    const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    // Recorded as theirs (say, from when they were the site's admin); a clinician invites patients only.
    const invitation = await prisma.invitation.create({
      data: {
        email: `${uid("c")}@example.test`,
        role: "clinician",
        careSiteId: site.id,
        invitedById: clinician.id,
        tokenHash: uid("unset:"),
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    const actor = await actorOf(clinician);
    expect(await getInvitation(actor, invitation.id)).toBeNull();
    expect(await applyInvitationAction(actor, invitation.id, "remove")).toEqual({
      ok: false,
      notFound: true,
    });
  });
});
