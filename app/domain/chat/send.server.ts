// Sending a message (spec 3 §2.10, §9): text, an image, or both. The image is checked by its
// content, re-encoded, stored under the data directory, and served only to the participants.
import { dialogsOf, type Actor } from "~/domain/access.server";
import { announceChatChange } from "~/lib/chatEvents.server";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { inspectImage, MAX_INPUT_PIXELS, reencodeImage } from "~/lib/images.server";
import { deleteUpload, storeUpload } from "~/lib/uploads.server";
import { dialogSelect, mayPost } from "./participants.server";
import {
  ATTACHMENT_PLACEHOLDER,
  CHAT_TEXTS,
  MAX_ATTACHMENT_BYTES,
  MAX_IMAGE_SIDE,
  MAX_MESSAGE_LENGTH,
} from "./rules";

export const CHAT_MESSAGES = {
  ...CHAT_TEXTS,
  // Ours: an image whose pixels would take too much memory to open.
  tooManyPixels: `Image is too large. Max size is ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
} as const;

type ChatUser = Actor;

/**
 * An image as the browser may show it: re-encoded in its own format (lib/images), except TIFF (no
 * browser shows it) as PNG.
 */
const IMAGE_FORMATS: Record<
  string,
  { mimeType: string; extension: string; output: "png" | "jpeg" | "gif" }
> = {
  png: { mimeType: "image/png", extension: "png", output: "png" },
  jpeg: { mimeType: "image/jpeg", extension: "jpg", output: "jpeg" },
  gif: { mimeType: "image/gif", extension: "gif", output: "gif" },
  tiff: { mimeType: "image/png", extension: "png", output: "png" },
};
const ACCEPTED_IMAGES: ReadonlySet<string> = new Set(Object.keys(IMAGE_FORMATS));

/**
 * The attachment as it is stored: checked by its header before any pixel is decoded, then
 * re-encoded with its longest side at most MAX_IMAGE_SIDE and without metadata.
 */
async function storedImage(bytes: Buffer) {
  const image = await inspectImage(bytes, ACCEPTED_IMAGES, { allFrames: true });
  if (!image.ok) {
    return {
      ok: false as const,
      message:
        image.reason === "tooManyPixels" ? CHAT_MESSAGES.tooManyPixels : CHAT_MESSAGES.notImage,
    };
  }
  const { output, mimeType, extension } = IMAGE_FORMATS[image.format];
  try {
    const stored = await reencodeImage(bytes, {
      format: output,
      maxSide: MAX_IMAGE_SIDE,
      animated: image.frames > 1,
    });
    return { ok: true as const, bytes: stored, mimeType, extension };
  } catch {
    // A header that promised an image whose data is damaged.
    return { ok: false as const, message: CHAT_MESSAGES.notImage };
  }
}

/**
 * Sends a message: text, an image, or both ('[attachment]' is the body of an image sent alone).
 * The image is checked by its content, stored under the data directory, and served only to the
 * participants (findAttachment).
 */
export async function sendMessage(
  user: ChatUser,
  dialogId: string,
  input: { text: string; file: File | null },
): Promise<{ ok: true } | { ok: false; message: string }> {
  const text = input.text.trim();
  if (!text && !input.file) return { ok: false, message: CHAT_MESSAGES.missing };
  if (text.length > MAX_MESSAGE_LENGTH) {
    return { ok: false, message: CHAT_MESSAGES.tooLong };
  }

  const dialog = await prisma.chatDialog.findFirst({
    where: { AND: [{ id: dialogId }, dialogsOf(user)] },
    select: dialogSelect,
  });
  if (!dialog) return { ok: false, message: CHAT_MESSAGES.missing };
  if (!(await mayPost(user, dialog))) {
    return { ok: false, message: CHAT_MESSAGES.cannotPost };
  }

  let uploadId: string | null = null;
  if (input.file) {
    if (input.file.size >= MAX_ATTACHMENT_BYTES) {
      return { ok: false, message: CHAT_MESSAGES.tooLarge };
    }
    const image = await storedImage(Buffer.from(await input.file.arrayBuffer()));
    if (!image.ok) return { ok: false, message: image.message };
    uploadId = await storeUpload({
      ownerId: user.id,
      kind: "attachment",
      fileName: input.file.name,
      mimeType: image.mimeType,
      extension: image.extension,
      bytes: image.bytes,
    });
  }

  try {
    await readWriteTransaction(async (tx) => {
      const now = new Date();
      await tx.chatMessage.create({
        data: {
          dialogId,
          senderId: user.id,
          body: text || ATTACHMENT_PLACEHOLDER,
          createdAt: now,
          attachments: uploadId ? { create: [{ uploadId, kind: "image" }] } : undefined,
        },
        select: { id: true },
      });
      await tx.chatDialog.update({
        where: { id: dialogId },
        data: { lastMessageAt: now },
        select: { id: true },
      });
      // One's own message is read by oneself.
      await tx.chatParticipant.update({
        where: { dialogId_userId: { dialogId, userId: user.id } },
        data: { lastReadAt: now, lastDeliveredAt: now },
        select: { dialogId: true },
      });
    });
  } catch (error) {
    if (uploadId) await deleteUpload(uploadId);
    throw error;
  }
  announceChatChange(dialog.participants.map((p) => p.userId));
  return { ok: true };
}

/** An attachment of a conversation the user takes part in, or null. */
export async function findAttachment(user: ChatUser, dialogId: string, attachmentId: string) {
  const attachment = await prisma.chatAttachment.findFirst({
    where: {
      id: attachmentId,
      message: { dialogId, dialog: dialogsOf(user) },
    },
    select: { upload: { select: { storagePath: true, mimeType: true, sha256: true } } },
  });
  return attachment?.upload ?? null;
}
