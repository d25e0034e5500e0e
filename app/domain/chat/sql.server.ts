// The chat's raw SQL: two questions Prisma's client cannot ask in one statement, since each
// compares a message's time with its reader's participant row (a column against another table's
// column). Both run on every chat event of every open page, so they stay one query each. Portable
// SQL (quoted identifiers, no dialect functions); row types come from the generated models.
import { prisma } from "~/lib/db.server";
import type { ChatMessage } from "~/generated/prisma/client";

type UnreadRow = Pick<ChatMessage, "dialogId"> & { n: bigint | number };

/** The number of messages from others each of the user's conversations holds unread. */
export async function unreadCountsByDialog(userId: string) {
  const rows = await prisma.$queryRaw<UnreadRow[]>`
    SELECT m."dialogId" AS "dialogId", COUNT(*) AS n
    FROM "ChatMessage" m
    JOIN "ChatParticipant" p ON p."dialogId" = m."dialogId" AND p."userId" = ${userId}
    WHERE m."senderId" <> ${userId}
      AND (p."lastReadAt" IS NULL OR m."createdAt" > p."lastReadAt")
    GROUP BY m."dialogId"`;
  return new Map(rows.map((r) => [r.dialogId, Number(r.n)]));
}

/** The user's conversations holding a message from someone else newer than its last delivery. */
export async function undeliveredDialogIds(userId: string) {
  const rows = await prisma.$queryRaw<Pick<ChatMessage, "dialogId">[]>`
    SELECT p."dialogId" AS "dialogId"
    FROM "ChatParticipant" p
    WHERE p."userId" = ${userId}
      AND EXISTS (
        SELECT 1 FROM "ChatMessage" m
        WHERE m."dialogId" = p."dialogId" AND m."senderId" <> ${userId}
          AND (p."lastDeliveredAt" IS NULL OR m."createdAt" > p."lastDeliveredAt"))`;
  return rows.map((r) => r.dialogId);
}
