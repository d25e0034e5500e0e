// The chat's forms: New Message / New group (posted to /app/chat) and a message's text (the
// image beside it is read by lib/uploads' multipart parser, with its own size limit). The rules
// with the spec's messages (who is a contact, a message's length) are the server's
// (chat.server.ts, send.server.ts): these only give the posted values their shape.
import { z } from "zod";
import { listField } from "~/lib/validation";

export const newDialogSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("direct"), userId: z.string() }),
  z.object({ intent: z.literal("group"), userId: listField, name: z.string().default("") }),
]);

export const messageSchema = z.object({ text: z.string().default("") });
