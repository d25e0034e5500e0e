import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import {
  ADDRESS_LINE_MAX,
  CITY_MAX,
  FORM_ERROR_INPUTS,
  ZIP_MAX,
  ZIP_MIN,
} from "../accounts/schema";
import {
  DEFAULT_PHONE_COUNTRY,
  PHONE_COUNTRY_MAX,
  PHONE_MAX,
  fullPhone,
  nationalToE164,
  storedPhone,
  validPhone,
} from "../phone";
import {
  GENERIC_PHONE_MESSAGE,
  DEFAULT_COUNTRY,
  accountNumber,
  alphabetsOnly,
  alphanumeric,
  countryRules,
  firstError,
  genericPhone,
  maxLength,
  minLength,
  normalizePhone,
  passed,
  required,
  stateBaseRules,
  stateRules,
  textField,
  trim,
  website,
  type Rule,
} from "../../lib/validation";

// The care site forms, one field rule set each, the first failing rule in the spec's order giving
// the field's one message (see rules.ts):
// - the Add Care Site dialog of the provider's admins (spec 2 §2 "Add Care Site dialog", §5, §8,
//   §9), on the Dashboard at /app;
// - the Care Site Profile page of the provider's admins (/app/clinicprofiledetails, spec 1 §2.9,
//   §5.6): the account number is editable and must be exactly 12 characters, capital letters then
//   digits; address lines and website are optional;
// - the Care site details dialog of the care site screen (/app/caresitesettingdashboard): the
//   account number is read-only (not part of the form), address lines and website are required
//   (spec 2 §5 "Care site edit");
// - the intent-only posts of the care site screen (withdraw) and the Dashboard (choose a care site).

export const careSiteMessages = {
  formErrorInputs: FORM_ERROR_INPUTS,
  /** Spec 2 §5: the existing-account-number check (kept as the spec spells it). */
  accountNumberExists: "accountnumber alraedy exists",
  /** Spec 2 §4 and §8: the Add Care Site success alert. */
  added: "Clinic added successfully",
  /** Spec 2 §4: the success snackbar of Add Care Site in the care site view (letter for letter). */
  addedInCareSiteView: "Clinic has been added successfully !!",
  /** Spec 2 §8 "Care site create other failure" (the Dashboard's dialog). */
  notAdded: "Clinic was not added. Please check the highlighted field and try again.",
  /** Spec 2 §8 "Add care site in care site view fails": no space after the full stop. */
  addFailedInCareSiteView: "Something went wrong.Try again later",
  /** Spec 2 §8 duplicate alert; no space after the first full stop, as the spec writes it. */
  alreadyExists: (name: string) => `Clinic was not added.${name} already exists.`,
  /** Spec 1 §8 "Care site save success" (the profile page). */
  updated: "Clinic was updated successfully",
  /** Spec 2 §8: the details dialog's success. */
  detailsUpdated: "Care Site Details updated successfully",
  /** Spec 1 §8 "Care site save failure" (both forms). */
  notUpdated: "Clinic was not updated. Please check the highlighted field and try again.",
  /** Ours: a Submit that changes nothing, without JavaScript (with it, Submit stays disabled). */
  unchanged: "Nothing to save: the care site details are unchanged.",
  /** Spec 1 §2.9, the Active Care Site Admin card. */
  noAdmins: "There are no Care Site Admins",
  /** Spec 2 §6: the Remove (withdraw) confirmation. */
  withdrawWarning:
    "You will no longer be able to view the patient's information. Do you want to proceed?",
  /** Ours: after a withdrawal. */
  withdrawn: (name: string, careSite: string) => `${name} has been removed from ${careSite}.`,
  /** Ours: after a new care site picture. */
  pictureUpdated: "Care site picture was updated successfully",
  /** Ours: the picture form posted without a file. */
  pictureMissing: "Please choose a picture to upload.",
} as const;

/** Spec 2 §8: a patient row without pair_id. */

// --- Limits (spec 1 §5.6, spec 2 §9) -----------------------------------------------------------

/** Add Care Site: an optional account number of 4 to 20 characters. */
export const NEW_ACCOUNT_NUMBER_MIN = 4;
export const NEW_ACCOUNT_NUMBER_MAX = 20;
export const NEW_CARE_SITE_NAME_MAX = 50;
/** The profile page: exactly 12 characters. */
export const ACCOUNT_NUMBER_LENGTH = 12;
export const CARE_SITE_NAME_MIN = 6;
export const CARE_SITE_NAME_MAX = 35;
/** Ours: a cap so the field never takes unbounded text; after the spec's rules. */
export const WEBSITE_MAX = 255;

/** A rule that only applies to a non-empty value (an optional field). */
const unlessEmpty = (rule: Rule): Rule => ({
  test: (value) => value === "" || rule.test(value),
  message: rule.message,
});

const cityRules: readonly Rule[] = [required(), alphabetsOnly(), maxLength(CITY_MAX)];
const zipRules: readonly Rule[] = [
  required(),
  alphanumeric(),
  minLength(ZIP_MIN),
  maxLength(ZIP_MAX),
];
/**
 * The international phone input, stored as digits with the country code; optional. The spec names
 * no message for it (spec 1 §5.6 "international phone input"): the generic phone rule's "Enter
 * valid phone number" (§5.7) answers digits that are not a valid number of their country too.
 */
const phoneRules: readonly Rule[] = [genericPhone(), maxLength(PHONE_MAX)];
/** The phone typed in one field with its country code (a 10-digit number is read as a US one). */
const phoneField = () =>
  textField([...phoneRules, validPhone(GENERIC_PHONE_MESSAGE)], {
    normalize: normalizePhone,
  }).transform((phone) => (phone === "" ? "" : storedPhone(phone)));
const addressLineRules = (isRequired: boolean): readonly Rule[] =>
  isRequired ? [required(), maxLength(ADDRESS_LINE_MAX)] : [maxLength(ADDRESS_LINE_MAX)];
const websiteRules = (isRequired: boolean): readonly Rule[] =>
  isRequired
    ? [required(), website(), maxLength(WEBSITE_MAX)]
    : [website(), maxLength(WEBSITE_MAX)];

/** For the United States the state must come from the list; elsewhere free text. */
function checkState(data: { country: unknown; state: unknown }, ctx: z.RefinementCtx) {
  if (!passed(data.country) || !passed(data.state)) return;
  const message = firstError(data.state, stateRules(data.country));
  if (message) ctx.addIssue({ code: "custom", path: ["state"], message });
}

// --- Add Care Site ------------------------------------------------------------------------------

/**
 * Add Care Site. Optional fields (account number, address lines, phone, website) come out as ""
 * when left empty. The phone is the registration pair: country code (default 1) and number.
 */
export const addCareSiteSchema = z
  .object({
    accountNumber: textField(
      [
        unlessEmpty(minLength(NEW_ACCOUNT_NUMBER_MIN)),
        maxLength(NEW_ACCOUNT_NUMBER_MAX),
        accountNumber("Account Number"),
      ],
      { normalize: trim },
    ),
    name: textField([required(), maxLength(NEW_CARE_SITE_NAME_MAX), alphabetsOnly()], {
      normalize: trim,
    }),
    addressLine1: textField(addressLineRules(false), { normalize: trim }),
    addressLine2: textField(addressLineRules(false), { normalize: trim }),
    country: textField(countryRules, { normalize: trim }),
    state: textField(stateBaseRules, { normalize: trim }),
    city: textField(cityRules, { normalize: trim }),
    zip: textField(zipRules, { normalize: trim }),
    phoneCountry: textField([required(), genericPhone(), maxLength(PHONE_COUNTRY_MAX)], {
      normalize: normalizePhone,
      defaultValue: DEFAULT_PHONE_COUNTRY,
    }),
    phone: textField(phoneRules, { normalize: normalizePhone }),
    website: textField(websiteRules(false), { normalize: trim }),
  })
  .superRefine((data, ctx) => {
    checkState(data, ctx);
    if (
      passed(data.phoneCountry) &&
      passed(data.phone) &&
      data.phone !== "" &&
      !nationalToE164(data.phoneCountry, data.phone)
    )
      ctx.addIssue({ code: "custom", path: ["phone"], message: GENERIC_PHONE_MESSAGE });
  });
export const addCareSiteValidator = withZod(addCareSiteSchema);

export type AddCareSiteFields = z.output<typeof addCareSiteSchema>;

/** What the dialog's fields start with. */
export const addCareSiteDefaults = {
  accountNumber: "",
  name: "",
  addressLine1: "",
  addressLine2: "",
  country: DEFAULT_COUNTRY,
  state: "",
  city: "",
  zip: "",
  phoneCountry: DEFAULT_PHONE_COUNTRY,
  phone: "",
  website: "",
};

/** The care site to store: trimmed text, empty optional fields as null, the phone as digits. */
export function careSiteInput(fields: AddCareSiteFields) {
  const orNull = (value: string) => (value === "" ? null : value);
  return {
    accountNumber: orNull(fields.accountNumber),
    name: fields.name,
    addressLine1: orNull(fields.addressLine1),
    addressLine2: orNull(fields.addressLine2),
    country: fields.country,
    state: fields.state,
    city: fields.city,
    zip: fields.zip,
    phone: fields.phone === "" ? null : fullPhone(fields.phoneCountry, fields.phone),
    website: orNull(fields.website),
  };
}

export type CareSiteInput = ReturnType<typeof careSiteInput>;

// --- The profile page and the details dialog ----------------------------------------------------

function addressFields(isRequired: boolean) {
  return {
    name: textField(
      [required(), minLength(CARE_SITE_NAME_MIN), maxLength(CARE_SITE_NAME_MAX), alphabetsOnly()],
      { normalize: trim },
    ),
    addressLine1: textField(addressLineRules(isRequired), { normalize: trim }),
    addressLine2: textField(addressLineRules(isRequired), { normalize: trim }),
    country: textField(countryRules, { normalize: trim }),
    state: textField(stateBaseRules, { normalize: trim }),
    city: textField(cityRules, { normalize: trim }),
    zip: textField(zipRules, { normalize: trim }),
    phone: phoneField(),
    website: textField(websiteRules(isRequired), { normalize: trim }),
  };
}

/**
 * The Care Site Profile page (superadmin, abmadmin). The account number is exactly 12 characters,
 * capital letters then digits; empty is allowed, since the Add Care Site form leaves it optional.
 */
export const careSiteProfileSchema = z
  .object({
    accountNumber: textField(
      [
        unlessEmpty(minLength(ACCOUNT_NUMBER_LENGTH)),
        maxLength(ACCOUNT_NUMBER_LENGTH),
        accountNumber(),
      ],
      { normalize: trim },
    ),
    ...addressFields(false),
  })
  .superRefine(checkState);
export const careSiteProfileValidator = withZod(careSiteProfileSchema);

/** The Care site details dialog (clinicadmin): no account number, address and website required. */
export const careSiteDetailsSchema = z.object(addressFields(true)).superRefine(checkState);
export const careSiteDetailsValidator = withZod(careSiteDetailsSchema);

export type CareSiteDetailsInput = z.output<typeof careSiteDetailsSchema>;
export type CareSiteProfileInput = z.output<typeof careSiteProfileSchema>;

// --- Intents and ids ----------------------------------------------------------------------------
// The forms above carry their intent and ids beside the fields; each post parses them with one of
// these (a failure is the route's 400 or 404, never a field message).

/** One rendering of the Add Care Site form (careSite.server.ts newFormToken), sent exactly once. */
export const FORM_TOKEN_REGEX = /^[A-Za-z0-9-]{16,64}$/;
/** The Add Care Site form's id: its answers are not read by another form of the same page. */
export const ADD_CARE_SITE_FORM_ID = "addCareSite";

export const formTokenSchema = z.object({ formToken: z.string().regex(FORM_TOKEN_REGEX) });

/** The care site a post of the care site screen is about (the details and picture forms). */
export const careSiteIdSchema = z.object({ careSiteId: z.string().min(1) });

/** Remove (withdraw) a user from a care site: the membership to block. */
export const withdrawSchema = z.object({ membershipId: z.string().min(1) });

/** The care site dropdowns that keep the chosen care site in the session. */
export const chooseCareSiteSchema = z.object({ careSiteId: z.string().optional() });
