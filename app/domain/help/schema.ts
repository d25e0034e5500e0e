// The Help Center form (spec 3 §2.11, §5 "Help", §8, §9): a subject and a description, both
// required, at most 50 and 300 characters. The spec names a required message for each field
// without giving its text; "ours" marks the texts we chose. Pure: the page and its tests share it.
import { z } from "zod";
import { maxLength, required, textField, trim } from "../../lib/validation";

export const HELP_SUBJECT_MAX = 50;
export const HELP_DESCRIPTION_MAX = 300;

export const helpMessages = {
  subjectRequired: "Subject is required", // ours
  descriptionRequired: "Description is required", // ours
  subjectTooLong: `Subject must be at most ${HELP_SUBJECT_MAX} characters`, // ours
  descriptionTooLong: `Description must be at most ${HELP_DESCRIPTION_MAX} characters`, // ours
  /** Spec 3 §8 "Help success". */
  sent: "Your message has been sent to Customer Service",
  /** Spec 3 §8 "Help failure". */
  failed: "Something went wrong. Try again later.",
} as const;

/** The form as the page shows it: what was posted, valid or not. */
export type HelpFormValues = { subject: string; description: string };

const lineBreaks = (value: string) => value.replace(/\r\n?/g, "\n");

export const helpSchema = z.object({
  subject: textField(
    [
      required(helpMessages.subjectRequired),
      maxLength(HELP_SUBJECT_MAX, helpMessages.subjectTooLong),
    ],
    { normalize: trim },
  ),
  description: textField(
    [
      required(helpMessages.descriptionRequired),
      maxLength(HELP_DESCRIPTION_MAX, helpMessages.descriptionTooLong),
    ],
    { normalize: (value) => trim(lineBreaks(value)) },
  ),
});

export type HelpInput = z.output<typeof helpSchema>;

// Far above the limits, so an over-long post is still over-long, but a huge one is not echoed back.
const ECHO_MAX = 10 * HELP_DESCRIPTION_MAX;

const text = (value: unknown) => (typeof value === "string" ? value : "").slice(0, ECHO_MAX);

/**
 * The form's values to show again, from what was posted. A browser counts a line break in a
 * textarea as one character but posts it as CRLF, so line breaks are read back as "\n": 300
 * characters typed stay 300.
 */
export function helpEcho(values: Record<string, unknown>): HelpFormValues {
  return { subject: text(values.subject), description: lineBreaks(text(values.description)) };
}
