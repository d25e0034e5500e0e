// The posts of /deviceStats (spec 3 §2.9): the password box, the column chooser, delete all and
// lock, told apart by `intent` (an unknown one is a 400). `from` is the page's query the post was
// sent from, to go back to. The password's own messages (required, wrong, locked) are the gate's
// (gate.server.ts), which must count the attempt first.
import { z } from "zod";
import { listField } from "~/lib/validation";

export const deviceStatsActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("password"), password: z.string().default("") }),
  z.object({
    intent: z.literal("columns"),
    column: listField,
    reset: z.string().optional(),
    from: z.string().default(""),
  }),
  z.object({ intent: z.literal("deleteAll"), from: z.string().default("") }),
  z.object({ intent: z.literal("lock") }),
]);
