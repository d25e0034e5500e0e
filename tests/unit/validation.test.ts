import { describe, expect, it } from "vitest";
import { MALFORMED_EMAILS } from "../support/malformedEmails";
import { recipientEmail } from "~/domain/notifications/schema";
import type { z } from "zod";
import countryJson from "../../public/js/country.json";
import stateJson from "../../public/js/state.json";
import {
  FORM_ERROR_INPUTS,
  FORM_ERROR_INPUT_ERROS,
  accountMessages,
  changeEmailSchema,
  changePasswordSchema,
  changePhoneSchema,
  confirmCurrentPasswordSchema,
  forgotByEmailSchema,
  forgotByEmailValidator,
  forgotByPhoneSchema,
  fullPhone,
  measuringUnitsSchema,
  profileSchema,
  profileValidator,
  registrationSchema,
  registrationValidator,
  resetPasswordSchema,
  securityCodeSchema,
  updatedSuccessfully,
  verificationCodeSchema,
} from "~/domain/accounts/schema";
import {
  COUNTRIES,
  INVALID_INPUT_MESSAGE,
  PASSWORD_PATTERN_MESSAGE,
  US_STATES,
  USERNAME_PATTERN_MESSAGE,
  accountNumber,
  alphabetsOnly,
  alphanumeric,
  EMAIL_REGEX,
  emailPattern,
  firstError,
  genericPhone,
  maxLength,
  minLength,
  normalizePhone,
  onlyNumber,
  passwordPattern,
  required,
  stateRules,
  textField,
  userPattern,
  usernamePattern,
  website,
} from "~/lib/validation";

// Every issue, grouped by field: the tests also prove a field never gets two messages.
function issuesByField(schema: z.ZodTypeAny, input: unknown) {
  const result = schema.safeParse(input);
  const byField: Record<string, string[]> = {};
  if (result.success) return byField;
  for (const issue of result.error.issues)
    (byField[issue.path.join(".")] ??= []).push(issue.message);
  return byField;
}

/** The one message of `field`, or undefined when the field is valid. */
function errorOf(schema: z.ZodTypeAny, input: unknown, field: string) {
  const messages = issuesByField(schema, input)[field] ?? [];
  expect(messages.length, `${field}: ${messages.join(" | ")}`).toBeLessThanOrEqual(1);
  return messages[0];
}

function formData(values: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values))
    for (const item of Array.isArray(value) ? value : [value]) data.append(key, item);
  return data;
}

const MAX_35 = "This input must be no longer than 35 characters long";
const MAX_50 = "This input must be no longer than 50 characters long";
const ALPHABETS = "should contain only alphabets and/or space";
const ALPHANUMERIC = "should contain only alphanumeric chars";
const DROPDOWN = "Please select an appropriate state from the dropdown";
const STRONG = "Abcdef1!";

describe("static lists (public/js)", () => {
  it("holds the 50 US states and the District of Columbia, by full name", () => {
    expect(stateJson.state).toHaveLength(51);
    expect(new Set(US_STATES).size).toBe(51);
    expect(US_STATES).toContain("Alabama");
    expect(US_STATES).toContain("District of Columbia");
    expect(US_STATES).toContain("Wyoming");
    expect(US_STATES).not.toContain("Puerto Rico");
  });

  it("holds the ISO 3166 countries with United States spelled as the spec's default", () => {
    expect(countryJson.country.length).toBeGreaterThanOrEqual(195);
    expect(new Set(COUNTRIES).size).toBe(COUNTRIES.length);
    expect(COUNTRIES).toContain("United States");
    expect(COUNTRIES).toContain("Canada");
    expect(COUNTRIES).not.toContain("USA");
  });
});

describe("shared input rules (spec 1 §5.7)", () => {
  it("uses the spec's texts for required, min and max", () => {
    expect(firstError("", [required()])).toBe("Required");
    expect(firstError("abc", [minLength(6)])).toBe("Must be at least 6 characters");
    expect(firstError("abcdef", [minLength(6)])).toBeUndefined();
    expect(firstError("abcd", [maxLength(3)])).toBe(
      "This input must be no longer than 3 characters long",
    );
  });

  it("reports only the first failing rule, in the listed order", () => {
    const rules = [required(), maxLength(3), alphabetsOnly()];
    expect(firstError("", rules)).toBe("Required");
    expect(firstError("12345", rules)).toBe("This input must be no longer than 3 characters long");
    expect(firstError("12", rules)).toBe(ALPHABETS);
    expect(firstError("ab", rules)).toBeUndefined();
  });

  it("checks the email pattern as text, host and top level with Invalid {field}", () => {
    const rule = emailPattern("Email");
    for (const ok of ["a@b.co", "first.last+tag@mail.example.org", "x_y@sub-domain.io"])
      expect(firstError(ok, [rule]), ok).toBeUndefined();
    for (const bad of ["plain", "a@b", "a@b.c", "a b@c.com", "a@@b.com", "@b.com", "a@.com"])
      expect(firstError(bad, [rule]), bad).toBe("Invalid Email");
    expect(firstError("nope", [emailPattern("Email Address")])).toBe("Invalid Email Address");
  });

  it("refuses markup and other syntax no mail server takes, in every form with an email", () => {
    for (const ok of ["o'brien@mail.example.ie", "a-b+c@x-y.example.museum", "A.B@EXAMPLE.COM"]) {
      expect(EMAIL_REGEX.test(ok), ok).toBe(true);
    }
    for (const bad of MALFORMED_EMAILS) expect(EMAIL_REGEX.test(bad), bad).toBe(false);
    const recipient = (value: string) => recipientEmail.safeParse(value).success;
    for (const bad of MALFORMED_EMAILS) {
      expect(firstError(bad, [emailPattern("Email")]), bad).toBe("Invalid Email");
      expect(errorOf(forgotByEmailSchema, { email: bad }, "email"), bad).toBe("Invalid Email");
      expect(errorOf(changeEmailSchema, { newEmail: bad }, "newEmail"), bad).toBe("Invalid Email");
      expect(recipient(bad), bad).toBe(false);
    }
    // A megabyte of input is refused (a backtracking blow-up would run past the test's timeout).
    for (const huge of ["a".repeat(1e6), `a@${"a.".repeat(5e5)}`, `${"a.".repeat(5e5)}@a.com`]) {
      expect(EMAIL_REGEX.test(huge)).toBe(false);
    }
  });

  it("checks the user and username patterns", () => {
    expect(firstError("a.b:c@d_e-f9", [userPattern()])).toBeUndefined();
    expect(firstError("a b", [userPattern()])).toBe(
      "should contain only letters, digits and . : @ _ -",
    );
    expect(firstError("john.doe_1-2", [usernamePattern()])).toBeUndefined();
    for (const bad of ["john doe", "john@doe", "john:doe", "jöhn"])
      expect(firstError(bad, [usernamePattern()]), bad).toBe(USERNAME_PATTERN_MESSAGE);
  });

  it("checks alphabets only, generic phone, alphanumeric and only number", () => {
    expect(firstError("Mary Ann", [alphabetsOnly()])).toBeUndefined();
    expect(firstError("José", [alphabetsOnly()])).toBeUndefined();
    expect(firstError("Mary-Ann", [alphabetsOnly()])).toBe(ALPHABETS);
    expect(firstError("R2D2", [alphabetsOnly()])).toBe(ALPHABETS);
    expect(firstError("5125550123", [genericPhone()])).toBeUndefined();
    expect(firstError("512-555", [genericPhone()])).toBe("Enter valid phone number");
    expect(firstError("AB12cd", [alphanumeric()])).toBeUndefined();
    expect(firstError("AB 12", [alphanumeric()])).toBe(ALPHANUMERIC);
    expect(firstError("123", [onlyNumber("Phone")])).toBeUndefined();
    expect(firstError("12a", [onlyNumber("Phone")])).toBe("Please enter valid Phone");
  });

  it("checks a website: optional scheme, host with a 2+ letter top level, optional path", () => {
    const rule = website("Website");
    for (const ok of [
      "example.com",
      "www.example.co.uk",
      "http://example.org",
      "https://care-site.example.com/about/us?x=1",
    ])
      expect(firstError(ok, [rule]), ok).toBeUndefined();
    for (const bad of ["example", "example.c", "ftp://example.com", "exa mple.com", "http://"])
      expect(firstError(bad, [rule]), bad).toBe("Please enter valid Website");
  });

  it("checks an account number: capital letters then digits", () => {
    expect(firstError("ABC123456789", [accountNumber()])).toBeUndefined();
    for (const bad of ["abc123", "123ABC", "ABC", "123", "AB12C3"])
      expect(firstError(bad, [accountNumber()]), bad).toBe("Please enter valid Account Number");
  });

  it("accepts every special character of the password pattern", () => {
    for (const special of "-+_!@#$%^&*.,?")
      expect(firstError(`Abcdef1${special}`, [passwordPattern()]), special).toBeUndefined();
  });

  it("rejects a password missing any item of the checklist", () => {
    for (const bad of [
      "Abcdefg1", // no special character
      "abcdef1!", // no uppercase
      "ABCDEF1!", // no lowercase
      "Abcdefg!", // no digit
      "Abcde1!", // 7 characters
      "Abcdef1~", // ~ is not one of the special characters
    ])
      expect(firstError(bad, [passwordPattern()]), bad).toBe(PASSWORD_PATTERN_MESSAGE);
    expect(firstError("Abcdef1!", [passwordPattern()])).toBeUndefined();
  });

  it("picks the US state from the list and leaves other countries free text", () => {
    expect(firstError("Texas", stateRules("United States"))).toBeUndefined();
    expect(firstError("Ontario", stateRules("United States"))).toBe(DROPDOWN);
    expect(firstError("Ontario", stateRules("Canada"))).toBeUndefined();
    expect(firstError("Ontario 2", stateRules("Canada"))).toBe(ALPHABETS);
  });

  it("normalises phone input to digits", () => {
    expect(normalizePhone(" +1 (512) 555-0123 ")).toBe("15125550123");
    expect(fullPhone("1", "(512) 555-0123")).toBe("15125550123");
    expect(fullPhone("+44", "20 7946 0958")).toBe("442079460958");
  });

  it("treats missing as empty and wrong types as invalid input", () => {
    const field = textField([required()]);
    expect(field.safeParse(undefined).error?.issues[0].message).toBe("Required");
    expect(field.safeParse(null).error?.issues[0].message).toBe("Required");
    for (const wrong of [["a", "b"], 42, { a: 1 }, true])
      expect(field.safeParse(wrong).error?.issues[0].message).toBe(INVALID_INPUT_MESSAGE);
  });
});

describe("code step (spec 1 §5.1, §5.4)", () => {
  it.each([
    ["123", false],
    ["1234", true],
    ["12345", false],
    ["abcd", false],
    ["12a4", false],
    ["", false],
  ])("code %j valid: %s, with each form's message", (code, valid) => {
    expect(errorOf(verificationCodeSchema, { code }, "code")).toBe(
      valid ? undefined : "Incorrect code! Please try again.",
    );
    expect(errorOf(securityCodeSchema, { code }, "code")).toBe(
      valid ? undefined : "Please Enter verification code",
    );
  });

  it("trims the code and rejects a missing one", () => {
    expect(verificationCodeSchema.parse({ code: " 1234 " })).toEqual({ code: "1234" });
    expect(errorOf(securityCodeSchema, {}, "code")).toBe("Please Enter verification code");
  });
});

describe("forgot password (spec 1 §5.2)", () => {
  it("trims and lower-cases the email before checking it", () => {
    expect(forgotByEmailSchema.parse({ email: "  Jane.Doe@Example.COM " })).toEqual({
      email: "jane.doe@example.com",
    });
    expect(errorOf(forgotByEmailSchema, { email: "   " }, "email")).toBe("Required");
    expect(errorOf(forgotByEmailSchema, {}, "email")).toBe("Required");
    expect(errorOf(forgotByEmailSchema, { email: "jane@example" }, "email")).toBe("Invalid Email");
  });

  it("checks the phone number: required, maximum 15, digits only", () => {
    expect(errorOf(forgotByPhoneSchema, { phonenumber: "" }, "phonenumber")).toBe("Required");
    expect(errorOf(forgotByPhoneSchema, { phonenumber: "15125550123" }, "phonenumber")).toBe(
      undefined,
    );
    // Digits that make no number of their country (issue 20 item 1): the generic phone message.
    for (const bad of ["12", "112", "1".repeat(15), "15555550100", "5121234567"])
      expect(errorOf(forgotByPhoneSchema, { phonenumber: bad }, "phonenumber"), bad).toBe(
        "Enter valid phone number",
      );
    expect(errorOf(forgotByPhoneSchema, { phonenumber: "1".repeat(16) }, "phonenumber")).toBe(
      "This input must be no longer than 15 characters long",
    );
    expect(errorOf(forgotByPhoneSchema, { phonenumber: "512555O123" }, "phonenumber")).toBe(
      "Enter valid phone number",
    );
    expect(forgotByPhoneSchema.parse({ phonenumber: "+1 (512) 555-0123" })).toEqual({
      phonenumber: "15125550123",
    });
  });

  it("checks the new password and its confirmation with Passwords must match", () => {
    const input = (password: string, confirmPassword: string) => ({ password, confirmPassword });
    expect(resetPasswordSchema.safeParse(input(STRONG, STRONG)).success).toBe(true);
    expect(errorOf(resetPasswordSchema, input("", STRONG), "password")).toBe("Required");
    expect(errorOf(resetPasswordSchema, input("Abcde1!", "Abcde1!"), "password")).toBe(
      PASSWORD_PATTERN_MESSAGE,
    );
    expect(errorOf(resetPasswordSchema, input(STRONG, ""), "confirmPassword")).toBe("Required");
    expect(errorOf(resetPasswordSchema, input(STRONG, "Abc1!"), "confirmPassword")).toBe(
      "Must be at least 6 characters",
    );
    expect(errorOf(resetPasswordSchema, input(STRONG, "Abcdef1?"), "confirmPassword")).toBe(
      "Passwords must match",
    );
  });

  it("says Passwords must match even when the new password fails its own rules (issue 20)", () => {
    const input = (password: string, confirmPassword: string) => ({ password, confirmPassword });
    expect(issuesByField(resetPasswordSchema, input("weakpass", "otherpass"))).toEqual({
      password: [PASSWORD_PATTERN_MESSAGE],
      confirmPassword: ["Passwords must match"],
    });
    expect(issuesByField(resetPasswordSchema, input("", "Abcdef1?"))).toEqual({
      password: ["Required"],
      confirmPassword: ["Passwords must match"],
    });
    // The same weak text twice: the password's rule only.
    expect(issuesByField(resetPasswordSchema, input("weakpass", "weakpass"))).toEqual({
      password: [PASSWORD_PATTERN_MESSAGE],
    });
  });

  it("returns the form texts of the forgot and profile screens", async () => {
    expect(FORM_ERROR_INPUT_ERROS).toBe("Please fix the input erros");
    expect(FORM_ERROR_INPUTS).toBe("Please fix the inputs with errors");
    const result = await forgotByEmailValidator.validate(formData({ email: "x" }));
    expect(result.error?.fieldErrors).toEqual({ email: "Invalid Email" });
  });
});

describe("registration (spec 1 §5.3)", () => {
  const valid = {
    username: "jane.doe",
    password: STRONG,
    confirmPassword: STRONG,
    firstName: "Jane",
    lastName: "Doe",
    phoneCountry: "1",
    phone: "(512) 555-0123",
    email: " Jane@Example.com",
  };
  const withField = (field: string, value: unknown) => ({ ...valid, [field]: value });

  it("accepts a complete form and normalises phone and email", () => {
    const data = registrationSchema.parse(valid);
    expect(data.email).toBe("jane@example.com");
    expect(data.phone).toBe("5125550123");
    expect(fullPhone(data.phoneCountry, data.phone)).toBe("15125550123");
  });

  it("defaults the phone country code to the US", () => {
    const { phoneCountry: _, ...rest } = valid;
    expect(registrationSchema.parse(rest).phoneCountry).toBe("1");
    expect(registrationSchema.parse(withField("phoneCountry", "")).phoneCountry).toBe("1");
    const uk = registrationSchema.parse({ ...valid, phoneCountry: "+44", phone: "07911 123456" });
    expect(uk.phoneCountry).toBe("44");
    // The trunk 0 of the national number is not part of the stored number.
    expect(fullPhone(uk.phoneCountry, uk.phone)).toBe("447911123456");
  });

  it("checks the username: required, minimum 6, letters, digits and . _ -", () => {
    expect(errorOf(registrationSchema, withField("username", ""), "username")).toBe("Required");
    expect(errorOf(registrationSchema, withField("username", "jane1"), "username")).toBe(
      "Must be at least 6 characters",
    );
    expect(errorOf(registrationSchema, withField("username", "jane_d-1.x"), "username")).toBe(
      undefined,
    );
    for (const bad of ["jane doe", " janedoe", "jane@doe"])
      expect(errorOf(registrationSchema, withField("username", bad), "username"), bad).toBe(
        USERNAME_PATTERN_MESSAGE,
      );
  });

  it("checks the password and the confirmation with Passwords must match", () => {
    expect(errorOf(registrationSchema, withField("password", "abcdefgh"), "password")).toBe(
      PASSWORD_PATTERN_MESSAGE,
    );
    expect(
      errorOf(registrationSchema, withField("confirmPassword", "Abcdef1?"), "confirmPassword"),
    ).toBe("Passwords must match");
    expect(errorOf(registrationSchema, withField("confirmPassword", ""), "confirmPassword")).toBe(
      "Required",
    );
  });

  it("shows every field's message at once: a weak password and a different confirmation (issue 20)", async () => {
    const result = await registrationValidator.validate(
      formData({ ...valid, username: "ab", password: "weakpass", confirmPassword: "otherpass" }),
    );
    expect(result.error?.fieldErrors).toEqual({
      username: "Must be at least 6 characters",
      password: PASSWORD_PATTERN_MESSAGE,
      confirmPassword: "Passwords must match",
    });
  });

  it("requires first and last name, phone and email", () => {
    for (const field of ["firstName", "lastName", "phone", "email"])
      expect(errorOf(registrationSchema, withField(field, ""), field), field).toBe("Required");
    expect(errorOf(registrationSchema, withField("email", "jane@"), "email")).toBe("Invalid Email");
    for (const bad of MALFORMED_EMAILS) {
      expect(errorOf(registrationSchema, withField("email", bad), "email"), bad).toBe(
        "Invalid Email",
      );
    }
  });

  it("keeps the phone to digits and to a valid number of its country (issue 20 item 1)", () => {
    expect(errorOf(registrationSchema, withField("phone", "512-555-O123"), "phone")).toBe(
      "Enter valid phone number",
    );
    // A two-digit number once sent its code to "112".
    for (const bad of ["12", "1".repeat(14), "555 010 0123", "512 123 4567", "12345678"])
      expect(errorOf(registrationSchema, withField("phone", bad), "phone"), bad).toBe(
        "Enter valid phone number",
      );
    expect(
      errorOf(registrationSchema, { ...valid, phoneCountry: "999", phone: "5125550123" }, "phone"),
    ).toBe("Enter valid phone number");
    expect(errorOf(registrationSchema, withField("phone", "1".repeat(16)), "phone")).toBe(
      "This input must be no longer than 15 characters long",
    );
    expect(errorOf(registrationSchema, withField("phoneCountry", "1a"), "phoneCountry")).toBe(
      "Enter valid phone number",
    );
  });

  it("gives one message per field through the validator", async () => {
    const result = await registrationValidator.validate(
      formData({ ...valid, username: "ab", confirmPassword: "other" }),
    );
    expect(result.error?.fieldErrors).toEqual({
      username: "Must be at least 6 characters",
      confirmPassword: "Passwords must match",
    });
  });
});

describe("account security (spec 1 §5.4)", () => {
  it("maps the two current-password messages to required and minimum 6", () => {
    const check = (currentPassword: unknown) =>
      errorOf(confirmCurrentPasswordSchema, { currentPassword }, "currentPassword");
    expect(check("")).toBe("Please enter your password to continue!");
    expect(check(undefined)).toBe("Please enter your password to continue!");
    expect(check("abcde")).toBe("Please Confirm your Password to continue.");
    expect(check("abcdef")).toBeUndefined();
  });

  it("checks the new email", () => {
    expect(errorOf(changeEmailSchema, { newEmail: "" }, "newEmail")).toBe("Required");
    expect(errorOf(changeEmailSchema, { newEmail: "a@b" }, "newEmail")).toBe("Invalid Email");
    expect(changeEmailSchema.parse({ newEmail: " A@B.com " })).toEqual({ newEmail: "a@b.com" });
  });

  it.each([
    ["", "Please enter your Phone number to continue!"],
    ["1", "Please enter your Phone number to continue!"],
    ["12", "Please enter a vaild Phone number to continue!"],
    ["1234567", "Please enter a vaild Phone number to continue!"],
    ["12345678", "Please enter a vaild Phone number to continue!"],
    ["1234567a", "Please enter a vaild Phone number to continue!"],
    ["1".repeat(15), "Please enter a vaild Phone number to continue!"],
    ["15555550100", "Please enter a vaild Phone number to continue!"],
    ["5125550123", undefined],
    ["+1 (512) 555-0123", undefined],
    ["447911123456", undefined],
    ["1".repeat(16), "Please enter a vaild Phone number to continue!"],
  ])("new phone %j gives %s", (newPhone, message) => {
    expect(errorOf(changePhoneSchema, { newPhone }, "newPhone")).toBe(message);
  });

  it("stores the new phone with its country code (a 10-digit number is a US one)", () => {
    expect(changePhoneSchema.parse({ newPhone: "(512) 555-0123" }).newPhone).toBe("15125550123");
    expect(changePhoneSchema.parse({ newPhone: "+44 7911 123456" }).newPhone).toBe("447911123456");
  });

  describe("change password", () => {
    const valid = { oldPassword: "oldpass", newPassword: STRONG, confirmPassword: STRONG };
    const withField = (field: string, value: unknown) => ({ ...valid, [field]: value });

    it("accepts a valid change", () => {
      expect(changePasswordSchema.safeParse(valid).success).toBe(true);
    });

    it("rejects a new password of 7 characters and accepts 8", () => {
      expect(
        errorOf(changePasswordSchema, withField("newPassword", "Abcde1!"), "newPassword"),
      ).toBe(PASSWORD_PATTERN_MESSAGE);
      const eight = { ...valid, newPassword: "Abcdef1!", confirmPassword: "Abcdef1!" };
      expect(changePasswordSchema.safeParse(eight).success).toBe(true);
    });

    it("rejects a new password equal to the old one", () => {
      const same = { oldPassword: STRONG, newPassword: STRONG, confirmPassword: STRONG };
      expect(issuesByField(changePasswordSchema, same)).toEqual({
        newPassword: ["New password cannot be same as Old password!"],
      });
    });

    it("confirms the new password with Password must match", () => {
      expect(
        errorOf(changePasswordSchema, withField("confirmPassword", "Abcdef1?"), "confirmPassword"),
      ).toBe("Password must match");
    });

    it("checks every field at once, whichever fails its own rules (issue 20)", () => {
      expect(
        issuesByField(changePasswordSchema, {
          oldPassword: "",
          newPassword: "weakpass",
          confirmPassword: "otherpass",
        }),
      ).toEqual({
        oldPassword: ["Please enter your password to continue!"],
        newPassword: [PASSWORD_PATTERN_MESSAGE],
        confirmPassword: ["Password must match"],
      });
      // The old password too short to pass, the new one equal to it and strong enough.
      expect(
        issuesByField(changePasswordSchema, {
          oldPassword: "Ab1!",
          newPassword: STRONG,
          confirmPassword: STRONG,
        }),
      ).toEqual({ oldPassword: ["Please Confirm your Password to continue."] });
    });

    it("confirms the old password like the current password", () => {
      expect(errorOf(changePasswordSchema, withField("oldPassword", ""), "oldPassword")).toBe(
        "Please enter your password to continue!",
      );
      expect(errorOf(changePasswordSchema, withField("oldPassword", "abc"), "oldPassword")).toBe(
        "Please Confirm your Password to continue.",
      );
    });
  });

  it("accepts only Imperial or Metric as measuring units", () => {
    expect(measuringUnitsSchema.parse({ mu: "Imperial" })).toEqual({ mu: "Imperial" });
    expect(measuringUnitsSchema.parse({ mu: "Metric" })).toEqual({ mu: "Metric" });
    for (const mu of ["metric", "", undefined, ["Metric"]])
      expect(errorOf(measuringUnitsSchema, { mu }, "mu")).toBe("Required");
  });
});

describe("profile (spec 1 §5.5)", () => {
  const valid = {
    firstName: "Jane",
    lastName: "Doe",
    addressLine1: "100 Congress Ave",
    addressLine2: "Suite 200",
    city: "Austin",
    state: "Texas",
    country: "United States",
    zip: "78701",
  };
  const withField = (field: string, value: unknown) => ({ ...valid, [field]: value });
  const errorWith = (field: string, value: unknown) =>
    errorOf(profileSchema, withField(field, value), field);

  it("accepts a complete profile", () => {
    expect(profileSchema.parse(valid)).toEqual(valid);
  });

  it("checks first and last name: required, maximum 35, letters only", () => {
    for (const field of ["firstName", "lastName"]) {
      expect(errorWith(field, ""), field).toBe("Required");
      expect(errorWith(field, "A".repeat(35)), field).toBeUndefined();
      expect(errorWith(field, "A".repeat(36)), field).toBe(MAX_35);
      expect(errorWith(field, "Jane2"), field).toBe(ALPHABETS);
      expect(errorWith(field, "Mary Ann"), field).toBeUndefined();
    }
    // Maximum before letters only, in the spec's order.
    expect(errorWith("firstName", "1".repeat(36))).toBe(MAX_35);
  });

  it("checks address lines: required, maximum 50", () => {
    for (const field of ["addressLine1", "addressLine2"]) {
      expect(errorWith(field, ""), field).toBe("Required");
      expect(errorWith(field, "a".repeat(50)), field).toBeUndefined();
      expect(errorWith(field, "a".repeat(51)), field).toBe(MAX_50);
    }
  });

  it("checks the city: required, letters only, maximum 35", () => {
    expect(errorWith("city", "")).toBe("Required");
    expect(errorWith("city", "San Antonio")).toBeUndefined();
    expect(errorWith("city", "Austin 1")).toBe(ALPHABETS);
    expect(errorWith("city", "a".repeat(35))).toBeUndefined();
    expect(errorWith("city", "a".repeat(36))).toBe(MAX_35);
    // Letters only before maximum, in the spec's order.
    expect(errorWith("city", "1".repeat(36))).toBe(ALPHABETS);
  });

  it("checks the zip: required, alphanumeric, 3 to 9", () => {
    expect(errorWith("zip", "")).toBe("Required");
    expect(errorWith("zip", "12")).toBe("Must be at least 3 characters");
    expect(errorWith("zip", "123")).toBeUndefined();
    expect(errorWith("zip", "A1B2C3D4E")).toBeUndefined();
    expect(errorWith("zip", "1234567890")).toBe(
      "This input must be no longer than 9 characters long",
    );
    for (const bad of ["787-01", "K1A 0B1", "7870!"])
      expect(errorWith("zip", bad), bad).toBe(ALPHANUMERIC);
  });

  it("picks a US state from the list", () => {
    expect(errorWith("state", "District of Columbia")).toBeUndefined();
    expect(errorWith("state", "Ontario")).toBe(DROPDOWN);
    expect(errorWith("state", "texas")).toBe(DROPDOWN);
    expect(errorWith("state", "")).toBe("Required");
  });

  it("takes any state as free text outside the US, within the base rules", () => {
    const canada = { ...valid, country: "Canada", state: "Ontario", zip: "K1A0B1" };
    expect(profileSchema.safeParse(canada).success).toBe(true);
    expect(errorOf(profileSchema, { ...canada, state: "Ontario 1" }, "state")).toBe(ALPHABETS);
    expect(errorOf(profileSchema, { ...canada, state: "a".repeat(36) }, "state")).toBe(MAX_35);
    expect(errorOf(profileSchema, { ...canada, state: "" }, "state")).toBe("Required");
  });

  it("requires a country from the list", () => {
    expect(errorWith("country", "")).toBe("Required");
    expect(errorWith("country", "Atlantis")).toBe("Required");
    expect(errorWith("country", "Canada")).toBeUndefined();
  });

  it("answers a form with errors field by field through the validator", async () => {
    const result = await profileValidator.validate(
      formData({ ...valid, firstName: "", zip: "12", state: "Ontario" }),
    );
    expect(result.error?.fieldErrors).toEqual({
      firstName: "Required",
      zip: "Must be at least 3 characters",
      state: DROPDOWN,
    });
  });

  it("rejects a repeated form field (an array) as invalid input", async () => {
    const result = await profileValidator.validate(
      formData({ ...valid, city: ["Austin", "Dallas"] }),
    );
    expect(result.error?.fieldErrors).toEqual({ city: INVALID_INPUT_MESSAGE });
  });
});

describe("malformed input", () => {
  const schemas: Array<[string, z.ZodTypeAny]> = [
    ["verificationCode", verificationCodeSchema],
    ["securityCode", securityCodeSchema],
    ["forgotByEmail", forgotByEmailSchema],
    ["forgotByPhone", forgotByPhoneSchema],
    ["resetPassword", resetPasswordSchema],
    ["registration", registrationSchema],
    ["confirmCurrentPassword", confirmCurrentPasswordSchema],
    ["changeEmail", changeEmailSchema],
    ["changePhone", changePhoneSchema],
    ["changePassword", changePasswordSchema],
    ["measuringUnits", measuringUnitsSchema],
    ["profile", profileSchema],
  ];
  const fieldsOf = (schema: z.ZodTypeAny): string[] => {
    const inner = "schema" in schema._def ? schema._def.schema : schema;
    return Object.keys((inner as z.AnyZodObject).shape);
  };

  it.each(schemas)("%s: rejects a non-object, an empty object and wrong types", (_, schema) => {
    for (const input of [undefined, null, "text", 42, []])
      expect(schema.safeParse(input).success).toBe(false);
    expect(schema.safeParse({}).success).toBe(false);
    for (const field of fieldsOf(schema)) {
      for (const wrong of [["a", "b"], 12345678, { x: 1 }, true]) {
        const messages = issuesByField(schema, { [field]: wrong })[field];
        expect(messages, `${field} = ${JSON.stringify(wrong)}`).toHaveLength(1);
      }
    }
  });

  it.each(schemas)("%s: rejects 1 MB strings in every field, within the test timeout", (_, schema) => {
    const huge = [
      "a".repeat(1 << 20),
      "1".repeat(1 << 20),
      "Aa1!".repeat(1 << 18),
      `a@${"a.".repeat(1 << 19)}!`,
      `${"a ".repeat(1 << 19)}`,
    ];
    for (const field of fieldsOf(schema)) {
      for (const value of huge) {
        const messages = issuesByField(schema, { [field]: value })[field];
        expect(messages, field).toHaveLength(1);
      }
    }
  });

  it("keeps the US state and country lists out of reach of huge input", () => {
    const country = "U".repeat(1 << 20);
    expect(errorOf(profileSchema, { country, state: "Texas" }, "country")).toBe("Required");
  });
});

describe("messages (spec 1 §8)", () => {
  it("keeps the spec's texts byte for byte", () => {
    expect(accountMessages.mobileVerified).toBe(
      "Your mobile numer has been successfully verified.",
    );
    expect(accountMessages.phoneInvalid).toBe("Please enter a vaild Phone number to continue!");
    expect(accountMessages.linkExpired).toBe("Link Expired !!!");
    expect(accountMessages.codeExpired).toBe(
      "Verification code is expired! Please try again with new one",
    );
    expect(updatedSuccessfully("Password")).toBe("Your Password has been updated successfully");
    expect(accountMessages.passwordResetDone).toBe(updatedSuccessfully("Password"));
  });
});
