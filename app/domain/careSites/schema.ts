import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import {
  ADDRESS_LINE_MAX,
  CITY_MAX,
  DEFAULT_PHONE_COUNTRY,
  FORM_ERROR_INPUTS,
  PHONE_COUNTRY_MAX,
  PHONE_MAX,
  ZIP_MAX,
  ZIP_MIN,
  fullPhone,
} from "../accounts/schema";
import {
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

// The Add Care Site dialog (spec 2 §2 "Add Care Site dialog", §5 "Add Care Site", §8, §9).
// Each field shows one message: the first failing rule in the spec's order (see rules.ts).

export const careSiteMessages = {
  formErrorInputs: FORM_ERROR_INPUTS,
  /** §5: the existing-account-number check, misspelling kept. */
  accountNumberExists: "accountnumber alraedy exists",
  /** §4 and §8 success alert. */
  added: "Clinic added successfully",
  /** §8 duplicate alert; no space after the first full stop, as the spec writes it. */
  alreadyExists: (name: string) => `Clinic was not added.${name} already exists.`,
} as const;

// Limits of §9.
export const ACCOUNT_NUMBER_MIN = 4;
export const ACCOUNT_NUMBER_MAX = 20;
export const CARE_SITE_NAME_MAX = 50;
// Ours: caps on optional fields the spec leaves open (the edit dialog's address lines are max 50).
export const WEBSITE_MAX = 255;

/** A rule that only applies when the optional field has a value. */
const whenGiven = (rule: Rule): Rule => ({
  test: (value) => value === "" || rule.test(value),
  message: rule.message,
});

/**
 * Add Care Site. Optional fields (account number, address lines, phone, website) come out as ""
 * when left empty. The phone is the registration pair: country code (default 1) and number.
 */
export const addCareSiteSchema = z
  .object({
    accountNumber: textField(
      [
        whenGiven(minLength(ACCOUNT_NUMBER_MIN)),
        maxLength(ACCOUNT_NUMBER_MAX),
        accountNumber("Account Number"),
      ],
      { normalize: trim },
    ),
    name: textField([required(), maxLength(CARE_SITE_NAME_MAX), alphabetsOnly()], {
      normalize: trim,
    }),
    addressLine1: textField([maxLength(ADDRESS_LINE_MAX)], { normalize: trim }),
    addressLine2: textField([maxLength(ADDRESS_LINE_MAX)], { normalize: trim }),
    country: textField(countryRules, { normalize: trim }),
    state: textField(stateBaseRules, { normalize: trim }),
    city: textField([required(), alphabetsOnly(), maxLength(CITY_MAX)], { normalize: trim }),
    zip: textField([required(), alphanumeric(), minLength(ZIP_MIN), maxLength(ZIP_MAX)], {
      normalize: trim,
    }),
    phoneCountry: textField([required(), genericPhone(), maxLength(PHONE_COUNTRY_MAX)], {
      normalize: normalizePhone,
      defaultValue: DEFAULT_PHONE_COUNTRY,
    }),
    phone: textField([genericPhone(), maxLength(PHONE_MAX)], { normalize: normalizePhone }),
    website: textField([website("Website"), maxLength(WEBSITE_MAX)], { normalize: trim }),
  })
  .superRefine((data, ctx) => {
    if (passed(data.country) && passed(data.state)) {
      const message = firstError(data.state, stateRules(data.country));
      if (message) ctx.addIssue({ code: "custom", path: ["state"], message });
    }
    if (passed(data.phoneCountry) && passed(data.phone) && data.phone !== "") {
      const message = firstError(fullPhone(data.phoneCountry, data.phone), [maxLength(PHONE_MAX)]);
      if (message) ctx.addIssue({ code: "custom", path: ["phone"], message });
    }
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
