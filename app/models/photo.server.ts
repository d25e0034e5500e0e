// Profile photos and care site pictures: who may see which, and replacing one. The files and
// Upload rows are made by lib/uploads.server.ts.
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { isProviderRole, isStaffRole, STAFF_ROLES } from "~/lib/roles";
import {
  deleteUpload,
  removeStoredFile,
  savePhoto,
  type SavePhotoResult,
} from "~/lib/uploads.server";
import type { Prisma } from "~/generated/prisma/client";

export type PhotoViewer = { id: string; role: string };

/**
 * The photos a viewer may see, as a where clause (so the rule cannot be forgotten by a caller):
 * - their own photo, always;
 * - staff viewers: every staff member's photo; patients' photos and care site pictures of care
 *   sites where both hold an accepted membership, or all of them for superadmin and abmadmin.
 * Other viewers (patients do not use the portal) see only their own.
 */
function viewableBy(viewer: PhotoViewer): Prisma.UploadWhereInput {
  const own: Prisma.UploadWhereInput[] = [
    { kind: "photo", ownerId: viewer.id },
    { userPhotos: { some: { id: viewer.id } } },
  ];
  if (!isStaffRole(viewer.role)) return { OR: own };

  const viewerAccepted: Prisma.MembershipListRelationFilter = {
    some: { userId: viewer.id, status: "accepted" },
  };
  const anySite = isProviderRole(viewer.role);
  const patient: Prisma.UserWhereInput = { role: { notIn: [...STAFF_ROLES] } };
  return {
    kind: { in: ["photo", "caresite"] },
    OR: [
      ...own,
      { userPhotos: { some: { role: { in: [...STAFF_ROLES] } } } },
      {
        userPhotos: {
          some: anySite
            ? patient
            : {
                ...patient,
                memberships: {
                  some: { status: "accepted", careSite: { memberships: viewerAccepted } },
                },
              },
        },
      },
      { careSitePhotos: { some: anySite ? {} : { memberships: viewerAccepted } } },
    ],
  };
}

/** The stored photo if the viewer may see it; null when it does not exist or they may not. */
export function findViewablePhoto(viewer: PhotoViewer, photoId: string) {
  return prisma.upload.findFirst({
    where: { AND: [{ id: photoId }, viewableBy(viewer)] },
    select: { id: true, sha256: true, storagePath: true, mimeType: true },
  });
}

export async function canViewPhoto(viewer: PhotoViewer, photoId: string) {
  return (await findViewablePhoto(viewer, photoId)) !== null;
}

/** Stores a new profile photo for a user and removes the one it replaces. */
export async function setUserPhoto(userId: string, file: File): Promise<SavePhotoResult> {
  const saved = await savePhoto({ ownerId: userId, kind: "photo", file });
  if (!saved.ok) return saved;
  await switchPhoto(saved.id, async (tx) => {
    const { photoId } = await tx.user.findUniqueOrThrow({
      where: { id: userId },
      select: { photoId: true },
    });
    await tx.user.update({
      where: { id: userId },
      data: { photoId: saved.id },
      select: { id: true },
    });
    return photoId;
  });
  return saved;
}

/** Stores a new picture for a care site (uploaded by `uploaderId`) and removes the old one. */
export async function setCareSitePhoto(
  careSiteId: string,
  uploaderId: string,
  file: File,
): Promise<SavePhotoResult> {
  const saved = await savePhoto({ ownerId: uploaderId, kind: "caresite", file });
  if (!saved.ok) return saved;
  await switchPhoto(saved.id, async (tx) => {
    const { photoId } = await tx.careSite.findUniqueOrThrow({
      where: { id: careSiteId },
      select: { photoId: true },
    });
    await tx.careSite.update({
      where: { id: careSiteId },
      data: { photoId: saved.id },
      select: { id: true },
    });
    return photoId;
  });
  return saved;
}

/**
 * Points a record at a newly saved upload and deletes the previous one's row in the same
 * transaction; the previous file goes only after the commit, so nothing ever points at a missing
 * file. If the switch fails, the new upload is removed again.
 */
async function switchPhoto(
  newId: string,
  repoint: (tx: Prisma.TransactionClient) => Promise<string | null>,
) {
  let previous: { storagePath: string } | null = null;
  try {
    previous = await readWriteTransaction(async (tx) => {
      const previousId = await repoint(tx);
      if (!previousId || previousId === newId) return null;
      const old = await tx.upload.findUnique({
        where: { id: previousId },
        select: { storagePath: true },
      });
      // Kept if something else still shows it.
      const { count } = await tx.upload.deleteMany({
        where: { id: previousId, userPhotos: { none: {} }, careSitePhotos: { none: {} } },
      });
      return count > 0 ? old : null;
    });
  } catch (error) {
    await deleteUpload(newId);
    throw error;
  }
  if (previous?.storagePath) await removeStoredFile(previous.storagePath);
}
