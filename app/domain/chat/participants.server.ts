// Who may talk to whom (the access module's contactsOf: "accepted sharing", both ways) and what a
// conversation shows of its participants.
import { contactsOf, type Actor } from "~/domain/access.server";
import { prisma } from "~/lib/db.server";
import type { Prisma } from "~/generated/prisma/client";
import { DIALOG_TYPE, displayName, GROUP_DEFAULT_NAME } from "./rules";

export const personSelect = { id: true, firstName: true, lastName: true, photoId: true } as const;

/** The accepted-sharing users (spec 3 §7.6 "sharing search"; no term means all). */
export async function listContacts(user: Actor, search = "") {
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

export async function countContacts(user: Actor, ids: string[]) {
  if (ids.length === 0) return 0;
  return prisma.user.count({ where: { AND: [{ id: { in: ids } }, contactsOf(user)] } });
}

export const dialogSelect = {
  id: true,
  type: true,
  name: true,
  createdAt: true,
  lastMessageAt: true,
  participants: { select: { userId: true, user: { select: personSelect } } },
} as const;

export type DialogRow = Prisma.ChatDialogGetPayload<{ select: typeof dialogSelect }>;

/** The name and picture a conversation shows to `userId`. */
export function dialogTitle(dialog: DialogRow, userId: string) {
  if (dialog.type === DIALOG_TYPE.oneToOne) {
    const other = dialog.participants.find((p) => p.userId !== userId)?.user;
    return { name: displayName(other), photoId: other?.photoId ?? null };
  }
  return { name: dialog.name || GROUP_DEFAULT_NAME, photoId: null };
}

/** Whether the user shares accepted sharing with at least one other participant (docs/decisions.md). */
export async function mayPost(user: Actor, dialog: DialogRow) {
  const others = dialog.participants.map((p) => p.userId).filter((id) => id !== user.id);
  return (await countContacts(user, others)) > 0;
}

/** The other participants of these conversations. */
export async function othersIn(dialogIds: string[], userId: string) {
  const rows = await prisma.chatParticipant.findMany({
    where: { dialogId: { in: dialogIds }, userId: { not: userId } },
    select: { userId: true },
  });
  return rows.map((r) => r.userId);
}
