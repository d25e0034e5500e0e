// Conversations: a dialog, who is in it, what was said.
import type { Prisma } from "../../app/generated/prisma/client";
import { type Time, optionalDate, toDate } from "./client";

type DialogInput = Omit<Prisma.ChatDialogCreateManyInput, "createdAt" | "lastMessageAt"> & {
  createdAt?: Time;
  lastMessageAt?: Time | null;
};

export function buildChatDialog(input: DialogInput): Prisma.ChatDialogCreateManyInput {
  return {
    name: null,
    createdById: null,
    ...input,
    createdAt: toDate(input.createdAt ?? Date.now()),
    lastMessageAt: optionalDate(input.lastMessageAt),
  };
}

type ParticipantInput = {
  dialogId: string;
  userId: string;
  joinedAt?: Time;
  lastDeliveredAt?: Time | null;
  lastReadAt?: Time | null;
};

export function buildChatParticipant(
  input: ParticipantInput,
): Prisma.ChatParticipantCreateManyInput {
  return {
    dialogId: input.dialogId,
    userId: input.userId,
    joinedAt: toDate(input.joinedAt ?? Date.now()),
    lastDeliveredAt: optionalDate(input.lastDeliveredAt),
    lastReadAt: optionalDate(input.lastReadAt),
  };
}

type MessageInput = Omit<Prisma.ChatMessageCreateManyInput, "createdAt"> & { createdAt?: Time };

export function buildChatMessage(input: MessageInput): Prisma.ChatMessageCreateManyInput {
  return { ...input, createdAt: toDate(input.createdAt ?? Date.now()) };
}
