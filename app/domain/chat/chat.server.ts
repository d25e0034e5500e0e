// Staff messaging (spec 3 §2.10, §4 "Chat", §5 "Chat", §9; DESIGN.md §4: our own tables instead
// of the old client's chat service). Who may talk to whom ("accepted sharing", both ways) is the
// access module's contactsOf (domain/access.server.ts, participants.server.ts):
// - two care site staff whose current memberships share an active care site;
// - the provider's staff (superadmin, abmadmin) with every care site admin, and among themselves.
// Patients are not in staff messaging. Every change is announced to the participants' open
// streams (lib/chatEvents.server.ts). Sending is send.server.ts; the raw SQL is sql.server.ts.
import { dialogsOf, type Actor } from "~/domain/access.server";
import { announceChatChange } from "~/lib/chatEvents.server";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { readRow } from "~/lib/reader.server";
import { formatChatTime } from "~/lib/time";
import type { Prisma } from "~/generated/prisma/client";
import {
  countContacts,
  dialogSelect,
  dialogTitle,
  mayPost,
  othersIn,
  personSelect,
} from "./participants.server";
import {
  CHAT_PAGE_SIZE,
  CHAT_TEXTS,
  DIALOG_TYPE,
  displayName,
  GROUP_DEFAULT_NAME,
  MAX_CHAT_PAGES,
  MAX_GROUP_NAME_LENGTH,
} from "./rules";
import { undeliveredDialogIds, unreadCountsByDialog } from "./sql.server";

export * from "./rules";
export { listContacts } from "./participants.server";
export { CHAT_MESSAGES, findAttachment, sendMessage } from "./send.server";

type ChatUser = Actor;

// ---------------------------------------------------------------------------------------------
// Conversations
// ---------------------------------------------------------------------------------------------

type Outcome = { ok: true; dialogId: string } | { ok: false; message: string };

/** New Message: the one-to-one conversation with a contact, reused when it exists. */
export async function startDirectDialog(user: ChatUser, contactId: string): Promise<Outcome> {
  if ((await countContacts(user, [contactId])) !== 1) {
    return { ok: false, message: CHAT_TEXTS.notContactDirect };
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
  if (memberIds.length === 0) return { ok: false, message: CHAT_TEXTS.noMembers };
  if ((await countContacts(user, memberIds)) !== memberIds.length) {
    return { ok: false, message: CHAT_TEXTS.notContact };
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

/**
 * unread_messages_count summed over all of the user's chats (the Messages badge). Every page of
 * the shell and every chat event of an open page asks, so it is one kept statement on the request
 * path's read connection (lib/reader.server.ts; committed messages only, as it always counted).
 */
export async function countUnreadMessages(userId: string) {
  const row = readRow<{ n: number | bigint }>(
    `SELECT COUNT(*) AS n
     FROM "ChatParticipant" p
     JOIN "ChatMessage" m ON m."dialogId" = p."dialogId"
     WHERE p."userId" = ? AND m."senderId" <> ?
       AND (p."lastReadAt" IS NULL OR m."createdAt" > p."lastReadAt")`,
    userId,
    userId,
  );
  return Number(row?.n ?? 0);
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
    unreadCountsByDialog(user.id),
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
  return {
    messages,
    hasOlder: rows.length > take,
    pages: take / CHAT_PAGE_SIZE,
    /** When the newest message shown was sent (what opening this page reads up to). */
    newestAt: rows[0]?.createdAt ?? null,
  };
}

/**
 * Read receipts are decided here and only here (spec 3 §4: "read when another user also read it").
 * A message is read by a participant when their own conversation page was given it: the
 * conversation's loader called for a page view (a document or the page's own data request, not a
 * prefetch: `isPrefetch`). Nothing else marks read: not the conversation list, not the badge
 * count, not a stream (which only delivers), not the sender's view. With JavaScript, the page
 * reloads the conversation only while the document is visible (ui/useChatStream.ts), so a hidden
 * tab holding the conversation leaves new messages delivered, not read, until it is looked at.
 *
 * Returns the page of messages, and marks read up to the newest message it holds (not "now": a
 * message committed after the page was read stays unread).
 */
export async function openConversation(
  user: ChatUser,
  dialogId: string,
  view: { pages?: number; prefetch?: boolean } = {},
) {
  const page = await loadMessages(user, dialogId, view.pages);
  if (!view.prefetch) await markRead(user.id, dialogId, page.newestAt);
  return page;
}

/** A browser's prefetch of a page (a `<link rel=prefetch>`, speculation rules): not a view. */
export function isPrefetch(headers: Headers) {
  const purpose = `${headers.get("Sec-Purpose") ?? ""} ${headers.get("Purpose") ?? ""}`;
  return /prefetch|prerender/i.test(purpose);
}

/** Everything in the conversation up to `until` is read (and so delivered) by the user. */
async function markRead(userId: string, dialogId: string, until: Date | null) {
  if (!until) return;
  const participant = await prisma.chatParticipant.findUnique({
    where: { dialogId_userId: { dialogId, userId } },
    select: { lastReadAt: true, lastDeliveredAt: true },
  });
  if (!participant) return;
  if (participant.lastReadAt && participant.lastReadAt >= until) return;
  const unread = await prisma.chatMessage.count({
    where: {
      dialogId,
      senderId: { not: userId },
      createdAt: { lte: until, ...(participant.lastReadAt ? { gt: participant.lastReadAt } : {}) },
    },
  });
  if (unread === 0) return;
  const delivered =
    participant.lastDeliveredAt && participant.lastDeliveredAt > until
      ? participant.lastDeliveredAt
      : until;
  await prisma.chatParticipant.update({
    where: { dialogId_userId: { dialogId, userId } },
    data: { lastReadAt: until, lastDeliveredAt: delivered },
    select: { dialogId: true },
  });
  // The senders see "read"; the reader's other pages see their badge go down.
  announceChatChange([userId, ...(await othersIn([dialogId], userId))]);
}

/** Whether one of the user's conversations holds a message from someone else not delivered. */
function hasUndelivered(userId: string) {
  const row = readRow<{ found: number }>(
    `SELECT 1 AS found
     FROM "ChatParticipant" p
     WHERE p."userId" = ?
       AND EXISTS (
         SELECT 1 FROM "ChatMessage" m
         WHERE m."dialogId" = p."dialogId" AND m."senderId" <> ?
           AND (p."lastDeliveredAt" IS NULL OR m."createdAt" > p."lastDeliveredAt"))
     LIMIT 1`,
    userId,
    userId,
  );
  return row !== undefined;
}

/**
 * The user's page received what was sent to them: every conversation with a message from someone
 * else newer than its last delivery is delivered now. Only reads when there is nothing new.
 */
export async function markDelivered(userId: string) {
  // Every page view asks and there is rarely anything new: the question goes first to a kept
  // statement on the read connection, and only a yes goes on to Prisma and the write.
  if (!hasUndelivered(userId)) return;
  const dialogIds = await undeliveredDialogIds(userId);
  if (dialogIds.length === 0) return;
  await prisma.chatParticipant.updateMany({
    where: { userId, dialogId: { in: dialogIds } },
    data: { lastDeliveredAt: new Date() },
  });
  announceChatChange(await othersIn(dialogIds, userId));
}
