import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import {
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

// The care site profile form (spec 1 §2.9, §5.6) in its two places:
// - the Care Site Profile page of the provider's admins (/app/clinicprofiledetails): the account
//   number is editable and must be exactly 12 characters, capital letters then digits; address
//   lines and website are optional;
// - the Care site details dialog of the care site screen (/app/caresitesettingdashboard): the
//   account number is read-only (not part of the form), address lines and website are required
//   (spec 2 §5 "Care site edit").
// Each field shows one message: the first failing rule in the spec's order (see rules.ts).

export const careSiteMessages = {
  /** Spec 1 §8 "Care site save success" (the profile page). */
  updated: "Clinic was updated successfully",
  /** Spec 2 §8: the details dialog's success. */
  detailsUpdated: "Care Site Details updated successfully",
  /** Spec 1 §8 "Care site save failure" (both forms). */
  notUpdated: "Clinic was not updated. Please check the highlighted field and try again.",
  /** Spec 2 §5 (kept as the spec spells it). */
  accountNumberExists: "accountnumber alraedy exists",
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
export const notAssociatedWithDevice = (firstName: string, lastName: string) =>
  `${firstName} ${lastName} is not associated with any device`;

// --- Limits (spec 1 §5.6, §9) ------------------------------------------------------------------

export const ACCOUNT_NUMBER_LENGTH = 12;
export const CARE_SITE_NAME_MIN = 6;
export const CARE_SITE_NAME_MAX = 35;
export const ADDRESS_LINE_MAX = 50;
export const CITY_MAX = 35;
export const ZIP_MIN = 3;
export const ZIP_MAX = 9;
/** E.164: at most 15 digits with the country code. */
export const PHONE_MAX = 15;
/** Ours: a cap so the field never takes unbounded text; after the spec's rules. */
export const WEBSITE_MAX = 255;

/** A rule that only applies to a non-empty value (an optional field). */
const unlessEmpty = (rule: Rule): Rule => ({
  test: (value) => value === "" || rule.test(value),
  message: rule.message,
});

/**
 * Exactly 12 characters, capital letters then digits. Empty is allowed: the account number is
 * optional on the Add Care Site form (spec 2 §2), so a care site may have none.
 */
export const accountNumberRules: readonly Rule[] = [
  unlessEmpty(minLength(ACCOUNT_NUMBER_LENGTH)),
  maxLength(ACCOUNT_NUMBER_LENGTH),
  accountNumber(),
];
export const careSiteNameRules: readonly Rule[] = [
  required(),
  minLength(CARE_SITE_NAME_MIN),
  maxLength(CARE_SITE_NAME_MAX),
  alphabetsOnly(),
];
export const cityRules: readonly Rule[] = [required(), alphabetsOnly(), maxLength(CITY_MAX)];
export const zipRules: readonly Rule[] = [
  required(),
  alphanumeric(),
  minLength(ZIP_MIN),
  maxLength(ZIP_MAX),
];
/** The international phone input, stored as digits with the country code; optional. */
export const phoneRules: readonly Rule[] = [genericPhone(), maxLength(PHONE_MAX)];

const addressLineRules = (isRequired: boolean): readonly Rule[] =>
  isRequired ? [required(), maxLength(ADDRESS_LINE_MAX)] : [maxLength(ADDRESS_LINE_MAX)];
const websiteRules = (isRequired: boolean): readonly Rule[] =>
  isRequired
    ? [required(), website(), maxLength(WEBSITE_MAX)]
    : [website(), maxLength(WEBSITE_MAX)];

function addressFields(isRequired: boolean) {
  return {
    name: textField(careSiteNameRules, { normalize: trim }),
    addressLine1: textField(addressLineRules(isRequired), { normalize: trim }),
    addressLine2: textField(addressLineRules(isRequired), { normalize: trim }),
    country: textField(countryRules, { normalize: trim }),
    state: textField(stateBaseRules, { normalize: trim }),
    city: textField(cityRules, { normalize: trim }),
    zip: textField(zipRules, { normalize: trim }),
    phone: textField(phoneRules, { normalize: normalizePhone }),
    website: textField(websiteRules(isRequired), { normalize: trim }),
  };
}

/** For the United States the state must come from the list; elsewhere free text. */
function checkState(data: { country: unknown; state: unknown }, ctx: z.RefinementCtx) {
  if (!passed(data.country) || !passed(data.state)) return;
  const message = firstError(data.state, stateRules(data.country));
  if (message) ctx.addIssue({ code: "custom", path: ["state"], message });
}

/** The Care Site Profile page (superadmin, abmadmin). */
export const careSiteProfileSchema = z
  .object({
    accountNumber: textField(accountNumberRules, { normalize: trim }),
    ...addressFields(false),
  })
  .superRefine(checkState);
export const careSiteProfileValidator = withZod(careSiteProfileSchema);

/** The Care site details dialog (clinicadmin): no account number, address and website required. */
export const careSiteDetailsSchema = z.object(addressFields(true)).superRefine(checkState);
export const careSiteDetailsValidator = withZod(careSiteDetailsSchema);

export type CareSiteDetailsInput = z.output<typeof careSiteDetailsSchema>;
export type CareSiteProfileInput = z.output<typeof careSiteProfileSchema>;
