import { prisma } from "~/lib/db.server";

/** unread_messages_count summed over all of the user's chats (the Messages badge). */
export async function countUnreadMessages(userId: string) {
  const rows = await prisma.$queryRaw<{ n: bigint | number }[]>`
    SELECT COUNT(*) AS n
    FROM "ChatMessage" m
    JOIN "ChatParticipant" p ON p."dialogId" = m."dialogId" AND p."userId" = ${userId}
    WHERE m."senderId" <> ${userId}
      AND (p."lastReadAt" IS NULL OR m."createdAt" > p."lastReadAt")`;
  return Number(rows[0]?.n ?? 0);
}
