// Staff messaging (spec 3 §2.10, §4 "Chat", §5 "Chat", §9; DESIGN.md §4: our own tables instead
// of the old client's chat service). Who may talk to whom ("accepted sharing", both ways) is the
// access module's contactsOf (domain/access.server.ts):
// - two care site staff whose current memberships share an active care site;
// - the provider's staff (superadmin, abmadmin) with every care site admin, and among themselves.
// Patients are not in staff messaging. Every change is announced to the participants' open
// streams (lib/chatEvents.server.ts).
import { contactsOf, dialogsOf, type Actor } from "~/domain/access.server";
import { announceChatChange } from "~/lib/chatEvents.server";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { inspectImage, MAX_INPUT_PIXELS, reencodeImage } from "~/lib/images.server";
import { formatChatTime } from "~/lib/time";
import { deleteUpload, storeUpload } from "~/lib/uploads.server";
import type { Prisma } from "~/generated/prisma/client";

export const CHAT_PAGE_SIZE = 50;
/** Older pages a chat window may load at once (50 each). */
export const MAX_CHAT_PAGES = 40;
/** An attachment must be under this many bytes (spec 3 §9). */
export const MAX_ATTACHMENT_BYTES = 2_000_000;
/** A stored chat image's longest side, in pixels (larger ones are scaled down on arrival). */
export const MAX_IMAGE_SIDE = 2048;
export const MAX_MESSAGE_LENGTH = 2000;
export const MAX_GROUP_NAME_LENGTH = 60;
export const GROUP_DEFAULT_NAME = "Group dialog";
export const ATTACHMENT_PLACEHOLDER = "[attachment]";
/** The spec's default name for a chat user without one. */
const DEFAULT_CHAT_NAME = "BS";
export const DIALOG_TYPE = { public: 1, group: 2, oneToOne: 3 } as const;

export const CHAT_MESSAGES = {
  missing: "Some required parameters are missing.",
  tooLarge: "Image is too large. Max size is 2 mb.",
  // Ours: the spec says only image files can be attached, without a text.
  notImage: "Only images can be attached (png, jpeg, jpg, gif or tiff).",
  // Ours: an image whose pixels would take too much memory to open.
  tooManyPixels: `Image is too large. Max size is ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
  tooLong: `A message can be at most ${MAX_MESSAGE_LENGTH} characters.`,
  notContact: "You can only add your contacts to a conversation.",
  noMembers: "Choose at least one contact for the group.",
  cannotPost:
    "You can no longer post to this conversation: you no longer share a care site with its members.",
} as const;

type ChatUser = Actor;
type Person = { id: string; firstName: string; lastName: string; photoId: string | null };

const personSelect = { id: true, firstName: true, lastName: true, photoId: true } as const;

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

function displayName(person: Pick<Person, "firstName" | "lastName"> | null | undefined) {
  const name = person ? `${person.firstName} ${person.lastName}`.trim() : "";
  return name || DEFAULT_CHAT_NAME;
}

// ---------------------------------------------------------------------------------------------
// Contacts
// ---------------------------------------------------------------------------------------------

/** The accepted-sharing users (spec 3 §7.6 "sharing search"; no term means all). */
export async function listContacts(user: ChatUser, search = "") {
  const term = search.trim().slice(0, 100);
  const words = term ? term.split(/\s+/) : [];
  return prisma.user.findMany({
    where: {
      AND: [
        contactsOf(user),
        ...words.map((w) => ({
          OR: [
            { firstName: { contains: w } },
            { lastName: { contains: w } },
            { email: { contains: w.toLowerCase() } },
          ],
        })),
      ],
    },
    select: { ...personSelect, email: true, role: true },
    orderBy: [{ lastName: "asc" }, { firstName: "asc" }],
    take: 200,
  });
}

async function countContacts(user: ChatUser, ids: string[]) {
  if (ids.length === 0) return 0;
  return prisma.user.count({ where: { AND: [{ id: { in: ids } }, contactsOf(user)] } });
}

// ---------------------------------------------------------------------------------------------
// Conversations
// ---------------------------------------------------------------------------------------------

type Outcome = { ok: true; dialogId: string } | { ok: false; message: string };

/** New Message: the one-to-one conversation with a contact, reused when it exists. */
export async function startDirectDialog(user: ChatUser, contactId: string): Promise<Outcome> {
  if ((await countContacts(user, [contactId])) !== 1) {
    return { ok: false, message: CHAT_MESSAGES.notContact };
  }
  const between: Prisma.ChatDialogWhereInput = {
    type: DIALOG_TYPE.oneToOne,
    AND: [
      { participants: { some: { userId: user.id } } },
      { participants: { some: { userId: contactId } } },
    ],
  };
  const { id, created } = await readWriteTransaction(async (tx) => {
    const existing = await tx.chatDialog.findFirst({ where: between, select: { id: true } });
    if (existing) return { id: existing.id, created: false };
    const dialog = await tx.chatDialog.create({
      data: {
        type: DIALOG_TYPE.oneToOne,
        createdById: user.id,
        participants: { create: [{ userId: user.id }, { userId: contactId }] },
      },
      select: { id: true },
    });
    return { id: dialog.id, created: true };
  });
  if (created) announceChatChange([user.id, contactId]);
  return { ok: true, dialogId: id };
}

/** New group: the user and the chosen contacts, named 'Group dialog' unless named. */
export async function createGroupDialog(
  user: ChatUser,
  input: { memberIds: string[]; name: string },
): Promise<Outcome> {
  const memberIds = [...new Set(input.memberIds)].filter((id) => id && id !== user.id);
  if (memberIds.length === 0) return { ok: false, message: CHAT_MESSAGES.noMembers };
  if ((await countContacts(user, memberIds)) !== memberIds.length) {
    return { ok: false, message: CHAT_MESSAGES.notContact };
  }
  const name = input.name.trim().slice(0, MAX_GROUP_NAME_LENGTH) || GROUP_DEFAULT_NAME;
  const dialog = await prisma.chatDialog.create({
    data: {
      type: DIALOG_TYPE.group,
      name,
      createdById: user.id,
      participants: { create: [user.id, ...memberIds].map((userId) => ({ userId })) },
    },
    select: { id: true },
  });
  announceChatChange([user.id, ...memberIds]);
  return { ok: true, dialogId: dialog.id };
}

const dialogSelect = {
  id: true,
  type: true,
  name: true,
  createdAt: true,
  lastMessageAt: true,
  participants: { select: { userId: true, user: { select: personSelect } } },
} as const;

type DialogRow = Prisma.ChatDialogGetPayload<{ select: typeof dialogSelect }>;

/** The name and picture a conversation shows to `userId`. */
function dialogTitle(dialog: DialogRow, userId: string) {
  if (dialog.type === DIALOG_TYPE.oneToOne) {
    const other = dialog.participants.find((p) => p.userId !== userId)?.user;
    return { name: displayName(other), photoId: other?.photoId ?? null };
  }
  return { name: dialog.name || GROUP_DEFAULT_NAME, photoId: null };
}

async function unreadByDialog(userId: string) {
  const rows = await prisma.$queryRaw<{ dialogId: string; n: bigint | number }[]>`
    SELECT m."dialogId" AS "dialogId", COUNT(*) AS n
    FROM "ChatMessage" m
    JOIN "ChatParticipant" p ON p."dialogId" = m."dialogId" AND p."userId" = ${userId}
    WHERE m."senderId" <> ${userId}
      AND (p."lastReadAt" IS NULL OR m."createdAt" > p."lastReadAt")
    GROUP BY m."dialogId"`;
  return new Map(rows.map((r) => [r.dialogId, Number(r.n)]));
}

/** unread_messages_count summed over all of the user's chats (the Messages badge). */
export async function countUnreadMessages(userId: string) {
  let total = 0;
  for (const n of (await unreadByDialog(userId)).values()) total += n;
  return total;
}

/** The conversation list: newest activity first, with the last message, its time and unread count. */
export async function listDialogs(user: ChatUser, search = "") {
  const [dialogs, unread] = await Promise.all([
    prisma.chatDialog.findMany({
      where: dialogsOf(user),
      select: {
        ...dialogSelect,
        messages: {
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: 1,
          select: { body: true, createdAt: true },
        },
      },
    }),
    unreadByDialog(user.id),
  ]);
  const term = search.trim().toLowerCase();
  return dialogs
    .map((dialog) => {
      const last = dialog.messages[0] ?? null;
      return {
        id: dialog.id,
        ...dialogTitle(dialog, user.id),
        group: dialog.type !== DIALOG_TYPE.oneToOne,
        lastMessage: last?.body ?? null,
        lastMessageTime: last ? formatChatTime(last.createdAt) : null,
        unread: unread.get(dialog.id) ?? 0,
        sortKey: (last?.createdAt ?? dialog.createdAt).getTime(),
      };
    })
    .filter((d) => !term || d.name.toLowerCase().includes(term))
    .sort((a, b) => b.sortKey - a.sortKey)
    .map(({ sortKey: _sortKey, ...d }) => d);
}

/** Whether the user shares accepted sharing with at least one other participant (docs/decisions.md). */
async function mayPost(user: ChatUser, dialog: DialogRow) {
  const others = dialog.participants.map((p) => p.userId).filter((id) => id !== user.id);
  return (await countContacts(user, others)) > 0;
}

/** A conversation the user takes part in, or null (a non-participant learns nothing). */
export async function findDialog(user: ChatUser, dialogId: string) {
  const dialog = await prisma.chatDialog.findFirst({
    where: { AND: [{ id: dialogId }, dialogsOf(user)] },
    select: dialogSelect,
  });
  if (!dialog) return null;
  return {
    id: dialog.id,
    ...dialogTitle(dialog, user.id),
    group: dialog.type !== DIALOG_TYPE.oneToOne,
    members: dialog.participants.map((p) => displayName(p.user)),
    canPost: await mayPost(user, dialog),
  };
}

/**
 * The newest `pages` pages of 50 messages, oldest first (newest at the bottom). Own messages carry
 * their status: read once another participant opened the conversation after it was sent,
 * delivered once another participant's page received it, sent otherwise.
 */
export async function loadMessages(user: ChatUser, dialogId: string, pages = 1) {
  const take = CHAT_PAGE_SIZE * Math.min(Math.max(1, Math.trunc(pages) || 1), MAX_CHAT_PAGES);
  const [rows, others] = await Promise.all([
    prisma.chatMessage.findMany({
      where: { dialogId, dialog: dialogsOf(user) },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: take + 1,
      select: {
        id: true,
        body: true,
        createdAt: true,
        sender: { select: personSelect },
        attachments: { select: { id: true, kind: true } },
      },
    }),
    prisma.chatParticipant.findMany({
      where: { dialogId, userId: { not: user.id } },
      select: { lastDeliveredAt: true, lastReadAt: true },
    }),
  ]);
  const latest = (key: "lastDeliveredAt" | "lastReadAt") =>
    Math.max(0, ...others.map((p) => p[key]?.getTime() ?? 0));
  const readUntil = latest("lastReadAt");
  const deliveredUntil = Math.max(readUntil, latest("lastDeliveredAt"));
  const messages = rows
    .slice(0, take)
    .reverse()
    .map((m) => {
      const own = m.sender.id === user.id;
      const at = m.createdAt.getTime();
      return {
        id: m.id,
        body: m.body,
        time: formatChatTime(m.createdAt),
        own,
        sender: displayName(m.sender),
        senderPhotoId: m.sender.photoId,
        attachments: m.attachments,
        status: !own
          ? null
          : at <= readUntil
            ? ("read" as const)
            : at <= deliveredUntil
              ? ("delivered" as const)
              : ("sent" as const),
      };
    });
  return { messages, hasOlder: rows.length > take, pages: take / CHAT_PAGE_SIZE };
}

async function othersIn(dialogIds: string[], userId: string) {
  const rows = await prisma.chatParticipant.findMany({
    where: { dialogId: { in: dialogIds }, userId: { not: userId } },
    select: { userId: true },
  });
  return rows.map((r) => r.userId);
}

/** The user opened the conversation: everything in it is read (and so delivered). */
export async function markRead(userId: string, dialogId: string) {
  const participant = await prisma.chatParticipant.findUnique({
    where: { dialogId_userId: { dialogId, userId } },
    select: { lastReadAt: true },
  });
  if (!participant) return;
  const unread = await prisma.chatMessage.count({
    where: {
      dialogId,
      senderId: { not: userId },
      ...(participant.lastReadAt ? { createdAt: { gt: participant.lastReadAt } } : {}),
    },
  });
  if (unread === 0) return;
  const now = new Date();
  await prisma.chatParticipant.update({
    where: { dialogId_userId: { dialogId, userId } },
    data: { lastReadAt: now, lastDeliveredAt: now },
    select: { dialogId: true },
  });
  // The senders see "read"; the reader's other pages see their badge go down.
  announceChatChange([userId, ...(await othersIn([dialogId], userId))]);
}

/**
 * The user's page received what was sent to them: every conversation with a message from someone
 * else newer than its last delivery is delivered now. Only reads when there is nothing new.
 */
export async function markDelivered(userId: string) {
  const pending = await prisma.$queryRaw<{ dialogId: string }[]>`
    SELECT p."dialogId" AS "dialogId"
    FROM "ChatParticipant" p
    WHERE p."userId" = ${userId}
      AND EXISTS (
        SELECT 1 FROM "ChatMessage" m
        WHERE m."dialogId" = p."dialogId" AND m."senderId" <> ${userId}
          AND (p."lastDeliveredAt" IS NULL OR m."createdAt" > p."lastDeliveredAt"))`;
  if (pending.length === 0) return;
  const dialogIds = pending.map((p) => p.dialogId);
  await prisma.chatParticipant.updateMany({
    where: { userId, dialogId: { in: dialogIds } },
    data: { lastDeliveredAt: new Date() },
  });
  announceChatChange(await othersIn(dialogIds, userId));
}

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

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
  if (text.length > MAX_MESSAGE_LENGTH) return { ok: false, message: CHAT_MESSAGES.tooLong };

  const dialog = await prisma.chatDialog.findFirst({
    where: { AND: [{ id: dialogId }, dialogsOf(user)] },
    select: dialogSelect,
  });
  if (!dialog) return { ok: false, message: CHAT_MESSAGES.missing };
  if (!(await mayPost(user, dialog))) return { ok: false, message: CHAT_MESSAGES.cannotPost };

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
