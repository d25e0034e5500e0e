import crypto from "node:crypto";
import {
  currentPatientPlaces,
  mayAdministerAllCareSites,
  type Actor,
} from "~/domain/access.server";
import { Prisma } from "~/generated/prisma/client";
import { audit } from "~/domain/audit.server";
import { accountKey } from "~/domain/accounts/accountKey";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import type { ListParams } from "~/lib/listParams";
import { FORM_TOKEN_REGEX, type CareSiteInput } from "~/domain/careSites/schema";
import { notAssociatedWithDevice } from "~/domain/patients/profileLink";
import {
  careSiteNamedInCity,
  careSitePage,
  enrolledCounts,
  personPage,
  type CareSiteRow,
  type CareSiteSort,
  type EnrolledRole,
  type Page,
  type PersonRow,
  type PersonSort,
} from "./sql.server";

// Everything here but the Add Care Site form is the provider's admins' (access.server.ts
// mayAdministerAllCareSites): anyone else gets empty lists, zero counts and no notice.

const NO_PAGE: Page<never> = { rows: [], total: 0 };

/** The super admin's enrolled counts: active care sites and accepted people per role. */
export async function getEnrolledCounts(actor: Actor) {
  if (!mayAdministerAllCareSites(actor)) {
    return { careSites: 0, patients: 0, clinicians: 0, careSiteAdmins: 0 };
  }
  return enrolledCounts();
}

// The super admin's lists (spec 2 §2 "Super admin dashboard"): their SQL is in sql.server.ts.
export {
  CARE_SITE_SORTS,
  ENROLLED_ROLES,
  PERSON_SORTS,
  type CareSiteRow,
  type CareSiteSort,
  type EnrolledRole,
  type PersonRow,
  type PersonSort,
  type PersonStatus,
} from "./sql.server";

/**
 * Active care sites, a page of 10. `q` matches name, city, state or zip (substring; LIKE, so
 * case-insensitive for ASCII letters).
 */
export async function listCareSites(
  actor: Actor,
  params: ListParams<CareSiteSort>,
): Promise<Page<CareSiteRow>> {
  if (!mayAdministerAllCareSites(actor)) return NO_PAGE;
  return careSitePage(params);
}

/**
 * The people of one role, as the provider's admins see them: every user of that role with an
 * accepted or pending membership in that role at an active care site. Status is Accepted when
 * any such membership is accepted, else Pending. Users whose memberships are all rejected or
 * blocked are not listed (docs/decisions.md). `q` matches first name, last name, email or the
 * status word; pages of 10.
 */
export async function listEnrolledPeople(
  actor: Actor,
  params: ListParams<PersonSort> & { role: EnrolledRole },
): Promise<Page<PersonRow>> {
  if (!mayAdministerAllCareSites(actor)) return NO_PAGE;
  return personPage(params);
}

/**
 * For the patients of a page: the device each is paired with now (pair_id, Pairing with
 * unpairedAt null) and the care site to open them in (the pairing's, else their first accepted
 * one). Patients without a pairing get pairId null.
 */
export async function getPatientLinks(actor: Actor, patientIds: string[]) {
  if (patientIds.length === 0 || !mayAdministerAllCareSites(actor))
    return new Map<string, { pairId: string | null; careSiteId: string | null }>();
  const [pairings, memberships] = await Promise.all([
    prisma.pairing.findMany({
      where: { patientId: { in: patientIds }, unpairedAt: null },
      select: { id: true, patientId: true, careSiteId: true },
      orderBy: { pairedAt: "desc" },
    }),
    prisma.membership.findMany({
      where: currentPatientPlaces(patientIds),
      select: { userId: true, careSiteId: true },
      orderBy: [{ acceptedAt: "asc" }, { createdAt: "asc" }],
    }),
  ]);
  const links = new Map<string, { pairId: string | null; careSiteId: string | null }>();
  for (const id of patientIds) {
    const pairing = pairings.find((p) => p.patientId === id);
    const member = memberships.find((m) => m.userId === id);
    links.set(id, {
      pairId: pairing?.id ?? null,
      careSiteId: pairing?.careSiteId ?? member?.careSiteId ?? null,
    });
  }
  return links;
}

export const personNotices = {
  noDevice: notAssociatedWithDevice,
  pending: (email: string) => `${email} has not accepted the invitation`,
  rejected: (email: string) => `${email} has rejected the invitation`,
} as const;

/**
 * The warning a person row shows instead of opening a page (spec 2 §2): an accepted patient with
 * no paired device, a pending person, a rejected one. Judged on the person's state now, so a row
 * clicked after it changed says what is true. Null when the row opens a page instead, or when
 * the user is not a person of this role.
 */
export async function getPersonNotice(actor: Actor, role: EnrolledRole, id: string) {
  if (!mayAdministerAllCareSites(actor)) return null;
  const invitee = await inviteeNotice(role, id);
  if (invitee !== undefined) return invitee;
  return userNotice(role, { id });
}

/**
 * The notice of an invitee's row (its id is one of their invitations'), or undefined when `id`
 * is not an invitation of this role. Judged by the email now: once it has an account, as that
 * user; else pending while an invitation in this role at an active care site is open, rejected
 * when one was rejected.
 */
async function inviteeNotice(role: EnrolledRole, id: string) {
  const invitation = await prisma.invitation.findFirst({
    where: { id, role },
    select: { email: true },
  });
  if (!invitation) return undefined;
  const { email } = invitation;
  const emailKey = accountKey(email);
  if (await prisma.user.findUnique({ where: { emailKey }, select: { id: true } }))
    return userNotice(role, { emailKey });
  const statuses = new Set(
    (
      await prisma.invitation.findMany({
        where: { email, role, careSite: { status: "active" } },
        select: { status: true },
      })
    ).map((i) => i.status),
  );
  if (statuses.has("pending") || statuses.has("resend")) return personNotices.pending(email);
  if (statuses.has("rejected")) return personNotices.rejected(email);
  return null;
}

async function userNotice(role: EnrolledRole, which: { id: string } | { emailKey: string }) {
  const user = await prisma.user.findFirst({
    where: { ...which, role },
    select: {
      firstName: true,
      lastName: true,
      email: true,
      id: true,
      pairings: { where: { unpairedAt: null }, select: { id: true }, take: 1 },
    },
  });
  if (!user) return null;
  const userId = user.id;
  // Every status of the person's memberships in this role at active care sites.
  const memberships = await prisma.membership.findMany({
    where: { userId, role, careSite: { status: "active" } },
    select: { status: true },
  });
  const statuses = new Set(memberships.map((m) => m.status));
  if (statuses.has("accepted")) {
    return role === "patient" && user.pairings.length === 0
      ? personNotices.noDevice(user.firstName, user.lastName)
      : null;
  }
  if (statuses.has("pending")) return personNotices.pending(user.email);
  if (statuses.has("rejected")) return personNotices.rejected(user.email);
  return null;
}

// ---------------------------------------------------------------------------------------------
// Add Care Site (spec 2 §4, §5)
// ---------------------------------------------------------------------------------------------

export type CreateCareSiteResult =
  | { status: "created"; careSite: { id: string; name: string } }
  /** The same form (token) was already submitted: the care site it created. */
  | { status: "replayed"; careSite: { id: string; name: string } }
  | { status: "accountNumberTaken" }
  /** A care site of this name already exists in this city. */
  | { status: "duplicate" }
  /** The actor is not one of the provider's admins. */
  | { status: "forbidden" };

/** A fresh token for one rendering of the Add Care Site form. */
export function newFormToken() {
  return crypto.randomUUID();
}

/** How long a submitted form's token is remembered. */
const FORM_TOKEN_TTL_MS = 24 * 3_600_000;

function isAccountNumberConflict(error: unknown) {
  return (
    error instanceof Prisma.PrismaClientKnownRequestError &&
    error.code === "P2002" &&
    JSON.stringify(error.meta ?? {}).includes("accountNumber")
  );
}

/**
 * Creates an active care site, once. In one transaction: a form token already used by this actor
 * (found in its "caresite.created" audit event) returns the care site it made; a taken account
 * number or a care site of the same name in the same city (case-insensitive) refuses; otherwise
 * the care site and its audit event are written together. SQLite runs one write transaction at a
 * time, so two identical posts cannot both pass the checks; the unique account number is the
 * backstop.
 */
export async function createCareSite(
  actor: Actor,
  input: CareSiteInput,
  options: { formToken?: string | null; ip?: string | null } = {},
): Promise<CreateCareSiteResult> {
  if (!mayAdministerAllCareSites(actor)) return { status: "forbidden" };
  const formToken =
    options.formToken && FORM_TOKEN_REGEX.test(options.formToken) ? options.formToken : null;
  try {
    return await readWriteTransaction(async (tx): Promise<CreateCareSiteResult> => {
      if (formToken) {
        const earlier = await tx.auditEvent.findFirst({
          where: {
            actorId: actor.id,
            action: "caresite.created",
            at: { gte: new Date(Date.now() - FORM_TOKEN_TTL_MS) },
            detail: { contains: `"formToken":"${formToken}"` },
          },
          select: { targetId: true },
        });
        const site = earlier?.targetId
          ? await tx.careSite.findUnique({
              where: { id: earlier.targetId },
              select: { id: true, name: true },
            })
          : null;
        if (site) return { status: "replayed", careSite: site };
      }
      if (input.accountNumber) {
        const taken = await tx.careSite.findUnique({
          where: { accountNumber: input.accountNumber },
          select: { id: true },
        });
        if (taken) return { status: "accountNumberTaken" };
      }
      if (await careSiteNamedInCity(tx, input.name, input.city)) return { status: "duplicate" };
      const careSite = await tx.careSite.create({
        data: { ...input, status: "active" },
        select: { id: true, name: true },
      });
      await audit(
        {
          actorId: actor.id,
          action: "caresite.created",
          targetType: "CareSite",
          targetId: careSite.id,
          careSiteId: careSite.id,
          ip: options.ip,
          detail: { formToken, name: input.name, accountNumber: input.accountNumber },
        },
        tx,
      );
      return { status: "created", careSite };
    });
  } catch (error) {
    if (isAccountNumberConflict(error)) return { status: "accountNumberTaken" };
    throw error;
  }
}
