// Care site management (spec 2 "Care site management view", §4-§5) and the Care Site Profile
// page (spec 1 §2.9): reading a care site as its screen shows it, editing it, its picture, and
// the active care site admins. Who is enrolled and withdrawing them: members.server.ts.
//
// Scoping lives inside every `where` (STYLE.md): each function takes the Actor and asks the access
// module (domain/access.server.ts) for what it may reach, so a route cannot forget it.
// - The care site screen (clinicadmin, clinician): the actor's member sites. Anything else reads
//   as absent (null / empty), which the routes answer with 404.
// - The profile page (superadmin, abmadmin): every care site.
import {
  careSiteAdminsReadableBy,
  careSiteProfilesReadableBy,
  careSitesEditableBy,
  isGlobal,
  memberCareSites,
  siteRoleAt,
  type Actor,
} from "~/domain/access.server";
import type { Prisma } from "~/generated/prisma/client";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { ADDRESS_SELECT } from "~/domain/address";
import { audit } from "~/domain/audit.server";
import { setCareSitePhoto } from "~/domain/accounts/photo.server";
import type { CropSquare, SavePhotoResult } from "~/lib/uploads.server";

const careSiteSelect = {
  id: true,
  name: true,
  accountNumber: true,
  email: true,
  phone: true,
  website: true,
  ...ADDRESS_SELECT,
  status: true,
  timeZone: true,
  photoId: true,
} as const satisfies Prisma.CareSiteSelect;

export type CareSiteRecord = Prisma.CareSiteGetPayload<{ select: typeof careSiteSelect }>;
export type ManagedCareSite = CareSiteRecord & {
  /** The actor's role at this care site (their accepted membership's). */
  siteRole: string;
  /** May edit the details and the picture: a clinicadmin of this care site. */
  canEdit: boolean;
};

/**
 * The care site as the care site screen shows it to the actor, or null when the actor holds no
 * accepted membership at this active care site (the route answers 404).
 */
export async function getManagedCareSite(
  actor: Actor,
  careSiteId: string,
): Promise<ManagedCareSite | null> {
  const site = await prisma.careSite.findFirst({
    where: { AND: [{ id: careSiteId }, memberCareSites(actor)] },
    select: careSiteSelect,
  });
  if (!site) return null;
  const siteRole = siteRoleAt(actor, site.id) ?? "";
  return { ...site, siteRole, canEdit: actor.role === "clinicadmin" && siteRole === "clinicadmin" };
}

/** The care site for the Care Site Profile page (superadmin, abmadmin), or null. */
export function getCareSiteProfile(actor: Actor, careSiteId: string) {
  return prisma.careSite.findFirst({
    where: { AND: [{ id: careSiteId }, careSiteProfilesReadableBy(actor)] },
    select: careSiteSelect,
  });
}

// ---------------------------------------------------------------------------------------------
// Editing a care site
// ---------------------------------------------------------------------------------------------

/** The editable fields; accountNumber only on the profile page of the provider's admins. */
export type CareSiteChanges = {
  accountNumber?: string;
  name: string;
  addressLine1: string;
  addressLine2: string;
  country: string;
  state: string;
  city: string;
  zip: string;
  phone: string;
  website: string;
};

export type UpdateCareSiteResult =
  | { status: "updated"; changed: string[] }
  | { status: "unchanged" | "notFound" | "duplicateAccountNumber" };

const OPTIONAL_FIELDS = new Set([
  "accountNumber",
  "addressLine1",
  "addressLine2",
  "phone",
  "website",
]);

/**
 * Saves a care site's details (spec 1 §2.9, spec 2 §5) with the audit event "caresite.updated".
 * The provider's admins may edit any care site, including its account number; a care site admin
 * only the care sites where they are one, never the account number (read-only in the dialog).
 * "unchanged" when the care site already holds these values; "duplicateAccountNumber" when
 * another care site has that number.
 */
export async function updateCareSite(
  actor: Actor,
  careSiteId: string,
  input: CareSiteChanges,
  options: { ip?: string | null } = {},
): Promise<UpdateCareSiteResult> {
  const { accountNumber, ...rest } = input;
  const changes: CareSiteChanges =
    isGlobal(actor) && accountNumber !== undefined ? { ...rest, accountNumber } : rest;
  try {
    return await readWriteTransaction(async (tx): Promise<UpdateCareSiteResult> => {
      const current = await tx.careSite.findFirst({
        where: { AND: [{ id: careSiteId }, careSitesEditableBy(actor)] },
        select: careSiteSelect,
      });
      if (!current) return { status: "notFound" };
      const keys = Object.keys(changes) as (keyof CareSiteChanges)[];
      const changed = keys.filter((k) => (current[k] ?? "") !== (changes[k] ?? ""));
      if (changed.length === 0) return { status: "unchanged" };
      if (changed.includes("accountNumber") && changes.accountNumber) {
        const taken = await tx.careSite.findFirst({
          where: { accountNumber: changes.accountNumber, id: { not: careSiteId } },
          select: { id: true },
        });
        if (taken) return { status: "duplicateAccountNumber" };
      }
      const data: Prisma.CareSiteUpdateInput = {};
      for (const k of changed) {
        const value = changes[k] ?? "";
        (data as Record<string, string | null>)[k] =
          OPTIONAL_FIELDS.has(k) && value === "" ? null : value;
      }
      await tx.careSite.update({ where: { id: careSiteId }, data, select: { id: true } });
      await audit(
        {
          actorId: actor.id,
          action: "caresite.updated",
          targetType: "careSite",
          targetId: careSiteId,
          careSiteId,
          ip: options.ip,
          detail: { changed },
        },
        tx,
      );
      return { status: "updated", changed };
    });
  } catch (error) {
    // Two saves racing for the same account number: the unique index answers for the loser.
    if ((error as { code?: string }).code === "P2002") return { status: "duplicateAccountNumber" };
    throw error;
  }
}

/**
 * Stores a new picture for a care site the actor may edit (1:1, lib/uploads.server.ts), with the
 * audit event "caresite.picture_updated"; null when the actor may not.
 */
export async function setManagedCareSitePicture(
  actor: Actor,
  careSiteId: string,
  file: File,
  options: { ip?: string | null; crop?: CropSquare | null } = {},
): Promise<SavePhotoResult | null> {
  const site = await prisma.careSite.findFirst({
    where: { AND: [{ id: careSiteId }, careSitesEditableBy(actor)] },
    select: { id: true },
  });
  if (!site) return null;
  const result = await setCareSitePhoto(site.id, actor.id, file, options.crop ?? null);
  if (result.ok) {
    await audit(
      {
        actorId: actor.id,
        action: "caresite.picture_updated",
        targetType: "careSite",
        targetId: site.id,
        careSiteId: site.id,
        ip: options.ip,
        detail: { uploadId: result.id },
      },
      prisma,
    );
  }
  return result;
}

/** Spec 1 §2.9 "Active Care Site Admin": accepted care site admins with active accounts. */
export async function listActiveCareSiteAdmins(actor: Actor, careSiteId: string) {
  const rows = await prisma.membership.findMany({
    where: careSiteAdminsReadableBy(actor, careSiteId),
    select: { user: { select: { id: true, email: true, photoId: true } } },
    orderBy: { user: { email: "asc" } },
  });
  return rows.map((r) => r.user);
}
