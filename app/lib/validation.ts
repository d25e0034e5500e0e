import { z } from "zod";
import countryList from "../../public/js/country.json";
import stateList from "../../public/js/state.json";

// The shared input rules of spec 1 §5.7, with the spec's messages.
//
// A field shows ONE message: the first failing rule in the order the spec lists them (required
// first). Zod's own chained checks (.min().max().regex()) report every failing check, so a rule
// here is a small { test, message } pair and `textField` turns an ordered list of them into one
// zod schema that stops at the first failure.
//
// Every pattern is a single pass over the input (anchored, plain character classes, no nested
// ambiguous quantifiers), so a 1 MB string costs milliseconds, never catastrophic backtracking.

export type Rule = {
  readonly test: (value: string) => boolean;
  readonly message: string;
};

export const REQUIRED_MESSAGE = "Required";
/** Not in the spec: a value of the wrong type (an array from a repeated form key, a number, an object). */
export const INVALID_INPUT_MESSAGE = "Invalid input";
export const ALPHABETS_MESSAGE = "should contain only alphabets and/or space";
export const GENERIC_PHONE_MESSAGE = "Enter valid phone number";
export const ALPHANUMERIC_MESSAGE = "should contain only alphanumeric chars";
/** The shared "password match" rule text (§5.7); the registration and change-password forms use it. */
export const PASSWORD_MATCH_MESSAGE = "Password must match";
/** The reset form's confirm text (§5.2, §8 "Local form errors"). */
export const PASSWORDS_MATCH_MESSAGE = "Passwords must match";
export const STATE_DROPDOWN_MESSAGE = "Please select an appropriate state from the dropdown";
/**
 * Ours: the spec gives the password checklist (§5.2) but no message. It names every item of
 * the checklist, so one text serves whichever item is missing.
 */
export const PASSWORD_PATTERN_MESSAGE =
  "Password must be at least 8 characters long and contain an uppercase letter, a lowercase letter, a digit and a special character (-+_!@#$%^&*.,?)";
/** Ours: §5.7 lists the username pattern without a message; worded like the spec's other pattern texts. */
export const USERNAME_PATTERN_MESSAGE = "should contain only letters, digits and . _ -";
/** Ours: §5.7 lists the user pattern without a message. */
export const USER_PATTERN_MESSAGE = "should contain only letters, digits and . : @ _ -";

export const minMessage = (n: number) => `Must be at least ${n} characters`;
export const maxMessage = (n: number) => `This input must be no longer than ${n} characters long`;
export const invalidFieldMessage = (field: string) => `Invalid ${field}`;
export const enterValidMessage = (field: string) => `Please enter valid ${field}`;

// --- Rules -------------------------------------------------------------------------------------

export const required = (message = REQUIRED_MESSAGE): Rule => ({
  test: (value) => value.length > 0,
  message,
});

export const minLength = (n: number, message = minMessage(n)): Rule => ({
  test: (value) => value.length >= n,
  message,
});

export const maxLength = (n: number, message = maxMessage(n)): Rule => ({
  test: (value) => value.length <= n,
  message,
});

/** Passes on "" so that "required" alone decides about empty input. */
export const pattern = (regex: RegExp, message: string): Rule => ({
  test: (value) => value === "" || regex.test(value),
  message,
});

// An address as mail servers and zod's `.email()` take it (issue 18: markup such as
// `<b>x</b>@a.com` was accepted): at most 254 characters, a local part of at most 64 letters,
// digits and _ ' + - . (no dot first, last or doubled), then host labels of letters, digits and
// inner hyphens (at most 63 each) and a top level of 2 to 63 letters. The labels end in a dot, so
// the host splits one way only, and the length look-aheads bound every try.
export const EMAIL_REGEX =
  /^(?=.{3,254}$)(?=[^@]{1,64}@)(?!\.)(?!.*\.\.)[A-Za-z0-9_'+.-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
export const emailPattern = (field = "Email") => pattern(EMAIL_REGEX, invalidFieldMessage(field));

export const USER_REGEX = /^[A-Za-z0-9.:@_-]+$/;
export const userPattern = (message = USER_PATTERN_MESSAGE) => pattern(USER_REGEX, message);

export const USERNAME_REGEX = /^[A-Za-z0-9._-]+$/;
export const usernamePattern = (message = USERNAME_PATTERN_MESSAGE) =>
  pattern(USERNAME_REGEX, message);

export const PASSWORD_SPECIAL_CHARACTERS = "-+_!@#$%^&*.,?";
// Separate scans rather than one regex with four `(?=.*x)` look-aheads: same meaning, plainly linear.
export const isStrongPassword = (value: string) =>
  value.length >= 8 &&
  /[A-Z]/.test(value) &&
  /[a-z]/.test(value) &&
  /[0-9]/.test(value) &&
  /[-+_!@#$%^&*.,?]/.test(value);
export const passwordPattern = (message = PASSWORD_PATTERN_MESSAGE): Rule => ({
  test: (value) => value === "" || isStrongPassword(value),
  message,
});

// Letters of any script (with their combining marks) and the space character.
export const ALPHABETS_REGEX = /^[\p{L}\p{M} ]+$/u;
export const alphabetsOnly = (message = ALPHABETS_MESSAGE) => pattern(ALPHABETS_REGEX, message);

export const DIGITS_REGEX = /^[0-9]+$/;
export const genericPhone = (message = GENERIC_PHONE_MESSAGE) => pattern(DIGITS_REGEX, message);

export const ALPHANUMERIC_REGEX = /^[A-Za-z0-9]+$/;
export const alphanumeric = (message = ALPHANUMERIC_MESSAGE) =>
  pattern(ALPHANUMERIC_REGEX, message);

export const onlyNumber = (field: string) => pattern(DIGITS_REGEX, enterValidMessage(field));

// Optional http(s) scheme, host labels and a top level of 2+ letters, optional port, optional
// path/query/fragment (no spaces).
export const WEBSITE_REGEX =
  /^(?:https?:\/\/)?(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?::[0-9]{1,5})?(?:[/?#]\S*)?$/i;
export const website = (field = "Website") => pattern(WEBSITE_REGEX, enterValidMessage(field));

// Capital letters then digits. The spec gives no message; the {field} wording of the other
// pattern rules is used.
export const ACCOUNT_NUMBER_REGEX = /^[A-Z]+[0-9]+$/;
export const accountNumber = (field = "Account Number") =>
  pattern(ACCOUNT_NUMBER_REGEX, enterValidMessage(field));

export const oneOf = (values: ReadonlySet<string>, message: string): Rule => ({
  test: (value) => value === "" || values.has(value),
  message,
});

/** The message of the first failing rule, or undefined when all pass. */
export function firstError(value: string, rules: readonly Rule[]): string | undefined {
  for (const rule of rules) if (!rule.test(value)) return rule.message;
  return undefined;
}

// --- Normalisers -------------------------------------------------------------------------------

export const trim = (value: string) => value.trim();
export const trimLower = (value: string) => value.trim().toLowerCase();
/** Phone input as typed: drops spaces, dashes, parentheses and one leading +, keeps the rest. */
export const normalizePhone = (value: string) =>
  value
    .trim()
    .replace(/[\s()-]/g, "")
    .replace(/^\+/, "");

// --- Zod builders ------------------------------------------------------------------------------

type FieldOptions = {
  /** Applied before the rules (trim, lower-case, strip phone punctuation). */
  normalize?: (value: string) => string;
  /** Used when the field is missing or empty, before normalising. */
  defaultValue?: string;
};

/**
 * What a field that failed its own rules holds while the form-level checks run: not a string
 * (so `passed` is false), but still the value typed, normalised (so `typedValue` can compare
 * with it: a confirmation that differs from a refused password still says it does not match).
 */
class Refused {
  constructor(readonly value: string) {}
}

/**
 * A string field checked by `rules` in order; at most one issue, the first failing rule's.
 * Missing (undefined/null) counts as "" so that "required" answers it. Wrong types get
 * INVALID_INPUT_MESSAGE. On failure the parsed value is not a string, which is how the form-level
 * checks (matching passwords, the US state list) tell that a field already has its message.
 */
export function textField(rules: readonly Rule[], options: FieldOptions = {}) {
  return z.unknown().transform((input, ctx): string => {
    const raw = input ?? "";
    if (typeof raw !== "string") {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: INVALID_INPUT_MESSAGE });
      return z.NEVER;
    }
    let value = raw;
    if (value === "" && options.defaultValue !== undefined) value = options.defaultValue;
    if (options.normalize) value = options.normalize(value);
    const message = firstError(value, rules);
    if (message !== undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      // zod still runs the object's superRefine (the form is "dirty", not aborted); the parse
      // fails either way, so this value never leaves the schema.
      return new Refused(value) as never;
    }
    return value;
  });
}

/** One of a fixed set of strings, typed as that union. */
export function choiceField<T extends string>(
  values: readonly [T, ...T[]],
  message = REQUIRED_MESSAGE,
) {
  const allowed: ReadonlySet<string> = new Set(values);
  return z.unknown().transform((input, ctx): T => {
    if (typeof input !== "string" || !allowed.has(input)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      return z.NEVER;
    }
    return input as T;
  });
}

/** True when a form-level check may look at this parsed field: it passed its own rules. */
export const passed = (value: unknown): value is string => typeof value === "string";

/**
 * A text field's value inside a form-level check, whether or not it passed its own rules (the
 * normalised text typed); undefined for a value of the wrong type.
 */
export const typedValue = (value: unknown): string | undefined =>
  typeof value === "string" ? value : value instanceof Refused ? value.value : undefined;

/** A repeated form key (checkboxes): none, one or several string values, always a list. */
export const listField = z.preprocess(
  (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string()),
);

// --- Countries and US states (public/js/*.json, shared with the browser bundle) ----------------

export const UNITED_STATES = "United States";
export const DEFAULT_COUNTRY = UNITED_STATES;
export const COUNTRIES: readonly string[] = countryList.country;
export const US_STATES: readonly string[] = stateList.state.map((state) => state.name);
const countrySet: ReadonlySet<string> = new Set(COUNTRIES);
const usStateSet: ReadonlySet<string> = new Set(US_STATES);

export const STATE_MAX = 35;

/** Required; must be a name of country.json. The spec's only country message is "Required". */
export const countryRules: readonly Rule[] = [required(), oneOf(countrySet, REQUIRED_MESSAGE)];

/** The rules every state passes whatever the country: required, max 35, alphabets only. */
export const stateBaseRules: readonly Rule[] = [required(), maxLength(STATE_MAX), alphabetsOnly()];

export const usStateRule: Rule = oneOf(usStateSet, STATE_DROPDOWN_MESSAGE);

/**
 * State rules for a country: for the United States the name must come from the list
 * (state.json), otherwise free text with the base rules.
 */
export const stateRules = (country: string): readonly Rule[] =>
  country === UNITED_STATES ? [...stateBaseRules, usStateRule] : stateBaseRules;
