import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import {
  DEFAULT_PHONE_COUNTRY,
  PHONE_COUNTRY_MAX,
  PHONE_MAX,
  nationalToE164,
  storedPhone,
  validPhone,
} from "../phone";
import {
  PASSWORD_MATCH_MESSAGE,
  PASSWORDS_MATCH_MESSAGE,
  alphabetsOnly,
  alphanumeric,
  choiceField,
  countryRules,
  emailPattern,
  GENERIC_PHONE_MESSAGE,
  firstError,
  genericPhone,
  maxLength,
  minLength,
  normalizePhone,
  passed,
  passwordPattern,
  pattern,
  required,
  stateBaseRules,
  stateRules,
  textField,
  trim,
  typedValue,
  trimLower,
  usernamePattern,
  type Rule,
} from "../../lib/validation";

// Schemas of the account screens (spec 1 §5.1–§5.5), messages from §5, §8 and §9.
// Each field shows one message: the first failing rule in the spec's order (see rules.ts).
// Form-level checks (matching passwords, old vs new password, the US state list) add their
// message only when the field they report on passed its own rules, so a field never gets two.
// They compare with the other field as typed (typedValue) even when that one failed its rules:
// every field shows its own message at once (issue 20).

// --- Form-level and server texts ---------------------------------------------------------------

export const FORM_ERROR_INPUTS = "Please fix the inputs with errors";
export const FORM_ERROR_INPUT_ERROS = "Please fix the input erros";

export const accountMessages = {
  formErrorInputs: FORM_ERROR_INPUTS,
  formErrorInputErros: FORM_ERROR_INPUT_ERROS,
  // Codes (login, resend, forgot, sign-up), §8.
  codeExpired: "Verification code is expired! Please try again with new one",
  incorrectCode: "Incorrect Code. Please check your code and try again.",
  /** Sign-up and phone-change screens; same text (with its full stop) as the login code step in signIn.ts. */
  incorrectCodeRetry: "Incorrect code! Please try again.",
  codeResentMobile: "New Verification code has been sent to your registered mobile!",
  /** §8 gives the email variant only as "(email: sent to your email)". */
  codeResentEmail: "New Verification code has been sent to your email!",
  // Login and forgot password, §8.
  loginIncorrect: "Incorrect email or password. Please check your login and try again.",
  forgotPhoneNotFound: "Incorrect Phone number. Please check your Phone number and try again.",
  forgotEmailNotFound: "Incorrect email. Please check your email address and try again.",
  /** Shown under Create New Password after a reset (§2.5). */
  passwordResetDone: "Your Password has been updated successfully",
  /** §8 "Password reset success". */
  passwordResetSuccess: "Password updated successfully",
  // Registration, §2.10, §5.3, §8.
  usernameExists: "Username already exists",
  emailExists: "Email address already exists",
  mobileMissing: "Please enter your mobile number and try again.",
  mobileNotVerified: "Please verify your mobile number before submitting.",
  mobileDiffersFromVerified:
    "You seem to have entered a different mobile number than the one verified, Kindly verify this number before registering or use the number that was verified.",
  mobileInvalid: "Please enter a valid number",
  mobileAlreadyRegistered:
    "This mobile number is already registered with us. Kindly try another number if you're registering a different account.",
  mobileVerified: "Your mobile numer has been successfully verified.",
  registered: "You have been successfully registered. We are glad that you joined us",
  linkExpired: "Link Expired !!!",
  linkVerified: "Link verified",
  // Account security, §5.4, §8.
  wrongCurrentPassword: "Incorrect Password! Please check your password and try again.",
  newPasswordSameAsOld: "New password cannot be same as Old password!",
  currentPasswordMissing: "Please enter your password to continue!",
  currentPasswordTooShort: "Please Confirm your Password to continue.",
  phoneMissing: "Please enter your Phone number to continue!",
  phoneInvalid: "Please enter a vaild Phone number to continue!",
  verificationCodeMissing: "Please Enter verification code",
  // Profile, §8.
  profileUpdated: "Profile was updated successfully",
  profileNotUpdated: "Profile was not updated. Please check the highlighted field and try again.",
} as const;

/** §2.6: "Your {thing} has been updated successfully", e.g. thing = "email address". */
export const updatedSuccessfully = (thing: string) => `Your ${thing} has been updated successfully`;

// --- Limits (§9) and caps ----------------------------------------------------------------------

export const CODE_LENGTH = 4;
export const USERNAME_MIN = 6;
export const PASSWORD_MIN = 8;
export const CURRENT_PASSWORD_MIN = 6;
export const NAME_MAX = 35;
export const CITY_MAX = 35;
export const ADDRESS_LINE_MAX = 50;
export const ZIP_MIN = 3;
export const ZIP_MAX = 9;
// The phone limits and the stored form of a number live with the phone rule (domain/phone.ts).
export { DEFAULT_PHONE_COUNTRY, PHONE_COUNTRY_MAX, PHONE_MAX, fullPhone } from "../phone";
// Ours, not the spec's: caps on fields the spec leaves open, so no field takes unbounded text.
// They sit after the spec's rules, so the spec's messages come first.
export const EMAIL_MAX = 254;
export const USERNAME_MAX = 64;
export const PASSWORD_MAX = 128;

const emailCap = maxLength(EMAIL_MAX);
const passwordCap = maxLength(PASSWORD_MAX);

// --- Shared fields -----------------------------------------------------------------------------

const CODE_REGEX = new RegExp(`^[0-9]{${CODE_LENGTH}}$`);
const codeField = (message: string) =>
  textField([{ test: (value) => CODE_REGEX.test(value), message }], { normalize: trim });

const emailField = () =>
  textField([required(), emailPattern("Email"), emailCap], { normalize: trimLower });

/** §5.2 and §5.4: the password pattern (which includes "at least 8 characters"). */
const newPasswordRules: readonly Rule[] = [required(), passwordPattern(), passwordCap];

/**
 * §5.4 "Current-password confirmation: required, minimum 6. Messages: Please enter your password
 * to continue!; Please Confirm your Password to continue." The two messages are taken in the
 * order of the two rules: empty gives the first, fewer than 6 characters the second.
 */
const currentPasswordRules: readonly Rule[] = [
  required(accountMessages.currentPasswordMissing),
  minLength(CURRENT_PASSWORD_MIN, accountMessages.currentPasswordTooShort),
  passwordCap,
];

// --- Login, forgot password and sign-up code (§5.1) --------------------------------------------

/** Login, forgot-password and sign-up code step: exactly 4 digits. */
export const verificationCodeSchema = z.object({
  code: codeField(accountMessages.incorrectCodeRetry),
});
export const verificationCodeValidator = withZod(verificationCodeSchema);

// --- Forgot password (§5.2) --------------------------------------------------------------------

/** Forgot by email: trimmed and lower-cased before checking; the output is the normalised address. */
export const forgotByEmailSchema = z.object({ email: emailField() });
export const forgotByEmailValidator = withZod(forgotByEmailSchema);

/**
 * Forgot by phone: required, maximum 15, digits only, and a valid number with its country code (or
 * a 10-digit US number), all "Enter valid phone number" (generic phone). The number is normalised
 * first (spaces, dashes, parentheses and a leading + dropped), as the registration phone is.
 */
export const forgotByPhoneSchema = z.object({
  phonenumber: textField(
    [required(), maxLength(PHONE_MAX), genericPhone(), validPhone(GENERIC_PHONE_MESSAGE)],
    {
      normalize: normalizePhone,
    },
  ),
});
export const forgotByPhoneValidator = withZod(forgotByPhoneSchema);

/** Create New Password (reset): confirm is required, minimum 6, and "Passwords must match". */
export const resetPasswordSchema = z
  .object({
    password: textField(newPasswordRules),
    confirmPassword: textField([required(), minLength(6), passwordCap]),
  })
  .superRefine((data, ctx) => {
    if (passed(data.confirmPassword) && typedValue(data.password) !== data.confirmPassword)
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: PASSWORDS_MATCH_MESSAGE });
  });
export const resetPasswordValidator = withZod(resetPasswordSchema);

// --- Registration (§5.3) -----------------------------------------------------------------------

/**
 * The phone comes as a country-code select (`phoneCountry`, digits, default "1" for the US) and
 * the national number (`phone`). Both are parsed to digits; the pair must be a valid number of
 * that country (domain/phone.ts), else "Enter valid phone number" on `phone`. `fullPhone(phoneCountry,
 * phone)` is the number to store and verify.
 */
export const registrationSchema = z
  .object({
    username: textField([
      required(),
      minLength(USERNAME_MIN),
      usernamePattern(),
      maxLength(USERNAME_MAX),
    ]),
    password: textField(newPasswordRules),
    confirmPassword: textField([required(), passwordCap]),
    firstName: textField([required(), maxLength(NAME_MAX)], { normalize: trim }),
    lastName: textField([required(), maxLength(NAME_MAX)], { normalize: trim }),
    phoneCountry: textField([required(), genericPhone(), maxLength(PHONE_COUNTRY_MAX)], {
      normalize: normalizePhone,
      defaultValue: DEFAULT_PHONE_COUNTRY,
    }),
    phone: textField([required(), genericPhone(), maxLength(PHONE_MAX)], {
      normalize: normalizePhone,
    }),
    email: emailField(),
  })
  .superRefine((data, ctx) => {
    // §8 "Local form errors": Passwords must match (the text of §5.2's confirmation).
    if (passed(data.confirmPassword) && typedValue(data.password) !== data.confirmPassword)
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: PASSWORDS_MATCH_MESSAGE });
    if (
      passed(data.phoneCountry) &&
      passed(data.phone) &&
      !nationalToE164(data.phoneCountry, data.phone)
    )
      ctx.addIssue({ code: "custom", path: ["phone"], message: GENERIC_PHONE_MESSAGE });
  });
export const registrationValidator = withZod(registrationSchema);

// --- Account security (§5.4) -------------------------------------------------------------------

/** First step of the email and phone change panels. */
export const confirmCurrentPasswordSchema = z.object({
  currentPassword: textField(currentPasswordRules),
});
export const confirmCurrentPasswordValidator = withZod(confirmCurrentPasswordSchema);

/** New email: required and the email pattern; trimmed and lower-cased like every email here. */
export const changeEmailSchema = z.object({ newEmail: emailField() });
export const changeEmailValidator = withZod(changeEmailSchema);

/**
 * New phone, with its country code, normalised like the other phone fields (the international
 * input may send "+1 512…"). Length 0–1: "Please enter your Phone number to continue!"; 2–7,
 * anything but digits, more than 15 digits, or not a valid number of its country (a 10-digit
 * number is read as a US one): "Please enter a vaild Phone number to continue!". The output is
 * the number to store (E.164 digits).
 */
export const changePhoneSchema = z.object({
  newPhone: textField(
    [
      minLength(2, accountMessages.phoneMissing),
      minLength(8, accountMessages.phoneInvalid),
      pattern(/^[0-9]+$/, accountMessages.phoneInvalid),
      maxLength(PHONE_MAX, accountMessages.phoneInvalid),
      validPhone(accountMessages.phoneInvalid),
    ],
    { normalize: normalizePhone },
  ).transform(storedPhone),
});
export const changePhoneValidator = withZod(changePhoneSchema);

/** Code step of the email and phone change panels. */
export const securityCodeSchema = z.object({
  code: codeField(accountMessages.verificationCodeMissing),
});
export const securityCodeValidator = withZod(securityCodeSchema);

/**
 * Change password. The old password is a current-password confirmation, so it has the same
 * rules and messages. The new one: password pattern, at least 8 (already part of the pattern),
 * different from the old. Confirm uses the shared "Password must match".
 */
export const changePasswordSchema = z
  .object({
    oldPassword: textField(currentPasswordRules),
    newPassword: textField([required(), passwordPattern(), minLength(PASSWORD_MIN), passwordCap]),
    confirmPassword: textField([required(), passwordCap]),
  })
  .superRefine((data, ctx) => {
    if (passed(data.newPassword) && typedValue(data.oldPassword) === data.newPassword)
      ctx.addIssue({
        code: "custom",
        path: ["newPassword"],
        message: accountMessages.newPasswordSameAsOld,
      });
    if (passed(data.confirmPassword) && typedValue(data.newPassword) !== data.confirmPassword)
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: PASSWORD_MATCH_MESSAGE });
  });
export const changePasswordValidator = withZod(changePasswordSchema);

export const MEASURING_UNITS = ["Imperial", "Metric"] as const;
export type MeasuringUnit = (typeof MEASURING_UNITS)[number];
export const measuringUnitsSchema = z.object({ mu: choiceField(MEASURING_UNITS) });
export const measuringUnitsValidator = withZod(measuringUnitsSchema);

// --- Profile (§5.5) ----------------------------------------------------------------------------

const nameRules = [required(), maxLength(NAME_MAX), alphabetsOnly()];
const addressLineRules = [required(), maxLength(ADDRESS_LINE_MAX)];

/**
 * Edit user profile. State: required, max 35, alphabets only for every country; for the United
 * States it must also be a name of state.json ("Please select an appropriate state from the
 * dropdown"). Country: required and a name of country.json, both with "Required".
 */
export const profileSchema = z
  .object({
    firstName: textField(nameRules, { normalize: trim }),
    lastName: textField(nameRules, { normalize: trim }),
    addressLine1: textField(addressLineRules, { normalize: trim }),
    addressLine2: textField(addressLineRules, { normalize: trim }),
    city: textField([required(), alphabetsOnly(), maxLength(CITY_MAX)], { normalize: trim }),
    state: textField(stateBaseRules, { normalize: trim }),
    country: textField(countryRules, { normalize: trim }),
    zip: textField([required(), alphanumeric(), minLength(ZIP_MIN), maxLength(ZIP_MAX)], {
      normalize: trim,
    }),
  })
  .superRefine((data, ctx) => {
    if (!passed(data.country) || !passed(data.state)) return;
    const message = firstError(data.state, stateRules(data.country));
    if (message) ctx.addIssue({ code: "custom", path: ["state"], message });
  });
export const profileValidator = withZod(profileSchema);
