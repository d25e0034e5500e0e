import { z } from "zod";
import { INVITATION_ACTIONS } from "./rules";

// The posts of the Invitations screens (spec 2 §2, §4). The dialog's fields are checked by the
// dialog's rules (rules.ts, again in send.server.ts) with the spec's messages; here only their
// shape: one text per field (the first when a field comes twice), lists for the care-site boxes.

const first = (value: unknown) => (Array.isArray(value) ? value[0] : value);
/** A text field, "" when it was not sent. */
const text = z.preprocess(first, z.string().optional().default(""));
/** A text field that may be absent (undefined) or empty (""). */
const optionalText = z.preprocess(first, z.string().optional());
const list = z.preprocess(
  (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string()),
);

export const invitationsFormSchema = z.discriminatedUnion("intent", [
  // The dialog's steps (Next, the role, Select all): what was typed and chosen so far.
  z.object({
    intent: z.enum(["lookup", "chooseRole", "selectAll"]),
    email: text,
    role: optionalText,
    presetRole: optionalText,
    careSiteId: list,
    keepC: list,
  }),
  z.object({ intent: z.literal("send"), email: text, role: text, careSiteId: list }),
  // A confirmed action of the §4 table on one invitation.
  z.object({ intent: z.literal("act"), act: z.enum(INVITATION_ACTIONS), id: text }),
]);
export type InvitationsForm = z.output<typeof invitationsFormSchema>;
