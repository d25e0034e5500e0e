// Profile photos and care site pictures: who may see which, and replacing one. The files and
// Upload rows are made by lib/uploads.server.ts.
import { photosViewableBy, type Actor } from "~/domain/access.server";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import {
  deleteUpload,
  removeStoredFile,
  savePhoto,
  type CropSquare,
  type SavePhotoResult,
} from "~/lib/uploads.server";
import type { Prisma } from "~/generated/prisma/client";

/**
 * The stored photo if the actor may see it (access.server.ts photosViewableBy: their own, staff
 * photos, and patients' photos and care site pictures of their care sites); null when it does
 * not exist or they may not.
 */
export function findViewablePhoto(actor: Actor, photoId: string) {
  return prisma.upload.findFirst({
    where: { AND: [{ id: photoId }, photosViewableBy(actor)] },
    select: { id: true, sha256: true, storagePath: true, mimeType: true },
  });
}

export async function canViewPhoto(actor: Actor, photoId: string) {
  return (await findViewablePhoto(actor, photoId)) !== null;
}

/**
 * Stores a new profile photo for a user (the chosen square, else the centre one) and removes the one
 * it replaces.
 */
export async function setUserPhoto(
  userId: string,
  file: File,
  crop: CropSquare | null = null,
): Promise<SavePhotoResult> {
  const saved = await savePhoto({ ownerId: userId, kind: "photo", file, crop });
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

/**
 * Stores a new picture for a care site (uploaded by `uploaderId`) and removes the old one. Unscoped:
 * careSiteManagement's setManagedCareSitePicture calls it for a care site the actor may edit.
 */
export async function setCareSitePhoto(
  careSiteId: string,
  uploaderId: string,
  file: File,
  crop: CropSquare | null = null,
): Promise<SavePhotoResult> {
  const saved = await savePhoto({ ownerId: uploaderId, kind: "caresite", file, crop });
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
