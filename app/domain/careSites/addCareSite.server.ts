// The Add Care Site form's post (spec 2 §2 "Add Care Site dialog", §4 "Adding a care site", §5,
// §8), one copy for the two screens that open the dialog: the provider admins' Dashboard (/app)
// and their view of a care site, the Care Site Profile (/app/clinicprofiledetails). Both answer
// validation and refusals the same way (the dialog again, with the spec's messages and the values
// typed); they differ in the words of success and of an unexpected failure (spec 2 §8):
// - Dashboard: "Clinic added successfully"; a failure "Clinic was not added. Please check the
//   highlighted field and try again." above the fields;
// - care site view: "Clinic has been added successfully !!"; a failure the error snackbar
//   "Something went wrong.Try again later" (6000 ms), the dialog closed.
// An unexpected failure is one the database answers with an error after the checks passed: the
// write lock held by another connection past the busy timeout and retries ("database is locked"),
// or a full disk (StorageFullError). Neither writes anything, so the answer writes nothing either
// (no session flash, which would fail the same way): it comes back as action data.
import { data } from "@remix-run/node";
import type { Actor } from "~/domain/access.server";
import { formReply, parseForm } from "~/lib/form.server";
import { badRequest, forbidden } from "~/lib/http.server";
import { logger } from "~/lib/logger.server";
import { StorageFullError } from "~/lib/storage.server";
import { createCareSite } from "./careSite.server";
import {
  ADD_CARE_SITE_FORM_ID,
  addCareSiteSchema,
  careSiteInput,
  careSiteMessages,
  formTokenSchema,
} from "./schema";

export type AddCareSiteScreen = "dashboard" | "careSiteView";

/** The success message each screen shows (spec 2 §4, §8). */
export const CARE_SITE_ADDED: Record<AddCareSiteScreen, string> = {
  dashboard: careSiteMessages.added,
  careSiteView: careSiteMessages.addedInCareSiteView,
};

/** What the care site view's page reads back after an unexpected failure. */
export type AddCareSiteFailure = { formId: string; snackbar: string };

/**
 * Validates and creates. The new care site on success (the route redirects with the screen's
 * message); otherwise the answer to return (400/409 with field errors or the form's alert and
 * the values typed; 503 after an unexpected failure). Throws 400 for a post without its form
 * token and 403 for an actor who may not add care sites.
 */
export async function submitAddCareSite(
  actor: Actor,
  form: FormData,
  screen: AddCareSiteScreen,
  options: { ip?: string | null } = {},
) {
  // The form's one token (a second post of the same rendering is recognised) comes before its fields.
  const token = await parseForm(form, formTokenSchema);
  if (!token.ok) badRequest("The form is incomplete");
  const fields = await parseForm(form, addCareSiteSchema);
  const reply = (errors: Record<string, string>, extra: { formError?: string; status?: number }) =>
    ({
      ok: false,
      reply: formReply(errors, Object.fromEntries(form), {
        formId: ADD_CARE_SITE_FORM_ID,
        ...extra,
      }),
    }) as const;
  if (!fields.ok) return reply(fields.fieldErrors, {});
  let outcome;
  try {
    outcome = await createCareSite(actor, careSiteInput(fields.data), {
      formToken: token.data.formToken,
      ip: options.ip,
    });
  } catch (error) {
    if (error instanceof Response && !(error instanceof StorageFullError)) throw error;
    logger.error("care site not added", { error: String(error) });
    if (screen === "dashboard")
      return reply({}, { formError: careSiteMessages.notAdded, status: 503 });
    const failure: AddCareSiteFailure = {
      formId: ADD_CARE_SITE_FORM_ID,
      snackbar: careSiteMessages.addFailedInCareSiteView,
    };
    return { ok: false, reply: data(failure, { status: 503 }) } as const;
  }
  switch (outcome.status) {
    case "forbidden":
      return forbidden();
    case "accountNumberTaken":
      return reply(
        { accountNumber: careSiteMessages.accountNumberExists },
        screen === "dashboard" ? { formError: careSiteMessages.notAdded } : {},
      );
    case "duplicate":
      // A form-level alert beside the values typed: the same care site exists in this city.
      return reply(
        {},
        { formError: careSiteMessages.alreadyExists(fields.data.name), status: 409 },
      );
  }
  return { ok: true, careSite: outcome.careSite, message: CARE_SITE_ADDED[screen] } as const;
}
