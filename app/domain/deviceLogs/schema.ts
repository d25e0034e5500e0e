// The therapy dashboard's posts (/decrypt?uuid=…, spec 3 §2.7, §4, §5), told apart by `intent`
// (an unknown one is a 400). The range and the annotation keep their rules with the spec's
// messages on the server (therapyDashboard.server.ts: they depend on the log and the view); here
// only the shape of what is posted. The upload (decrypt.upload) is a multipart stream with its
// own limits and no other field.
import { z } from "zod";
import { listField } from "~/lib/validation";

/** Therapy event ids from the table's checkboxes: positive integers, anything else dropped. */
const eventIds = listField.transform((values) =>
  values.map(Number).filter((n) => Number.isInteger(n) && n > 0),
);
const text = z.string().default("");

export const dashboardActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("range"), startDate: text, endDate: text }),
  z.object({ intent: z.literal("select"), shown: eventIds, eventId: eventIds }),
  z.object({ intent: z.literal("clearSelection") }),
  z.object({ intent: z.literal("addGraph") }),
  z.object({ intent: z.literal("generate") }),
  z.object({ intent: z.literal("deleteItem"), item: text }),
  z.object({ intent: z.literal("annotate"), x: text, y: text, text }),
]);

/** The formId of the annotation's reply: the page opens its dialog again with the message. */
export const ANNOTATION_FORM = "annotate";
