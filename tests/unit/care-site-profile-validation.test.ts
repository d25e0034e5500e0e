// The care site profile form rules of spec 1 §5.6 (and spec 2 §5 "Care site edit"), with the
// spec's messages, for the profile page schema and the details dialog schema.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  careSiteDetailsSchema,
  careSiteDetailsValidator,
  careSiteMessages,
  careSiteProfileSchema,
  careSiteProfileValidator,
} from "~/domain/careSites/schema";
import { notAssociatedWithDevice } from "~/domain/patients/profileLink";
import { US_STATES } from "~/lib/validation";

function issuesByField(schema: z.ZodTypeAny, input: unknown) {
  const result = schema.safeParse(input);
  const byField: Record<string, string[]> = {};
  if (result.success) return byField;
  for (const issue of result.error.issues)
    (byField[issue.path.join(".")] ??= []).push(issue.message);
  return byField;
}

const valid = {
  accountNumber: "ARC000000042",
  name: "Lakeside Clinic",
  addressLine1: "12 Main St",
  addressLine2: "Suite 4",
  country: "United States",
  state: "Texas",
  city: "Austin",
  zip: "78701",
  phone: "+1 (512) 555-0100",
  website: "https://www.lakeside.example",
};
const { accountNumber: _omit, ...dialogValid } = valid;

/** The one message of a field on the profile page schema, or undefined when it passes. */
function profileError(field: string, value: string, extra: Record<string, string> = {}) {
  const issues = issuesByField(careSiteProfileSchema, { ...valid, ...extra, [field]: value });
  expect(issues[field]?.length ?? 0).toBeLessThanOrEqual(1);
  return issues[field]?.[0];
}

function dialogError(field: string, value: string, extra: Record<string, string> = {}) {
  const issues = issuesByField(careSiteDetailsSchema, { ...dialogValid, ...extra, [field]: value });
  expect(issues[field]?.length ?? 0).toBeLessThanOrEqual(1);
  return issues[field]?.[0];
}

describe("care site profile form: valid input", () => {
  it("passes and normalises (trimmed text, phone as digits)", () => {
    const parsed = careSiteProfileSchema.parse({ ...valid, name: "  Lakeside Clinic " });
    expect(parsed).toEqual({ ...valid, name: "Lakeside Clinic", phone: "15125550100" });
    expect(careSiteDetailsSchema.parse(dialogValid)).toEqual({
      ...dialogValid,
      phone: "15125550100",
    });
  });

  it("the dialog schema has no account number: a posted one is ignored", () => {
    const parsed = careSiteDetailsSchema.parse({ ...dialogValid, accountNumber: "bad" });
    expect(parsed).not.toHaveProperty("accountNumber");
  });
});

describe("account number: exactly 12, capital letters then digits (profile page)", () => {
  it.each([
    ["ARC00000001", "Must be at least 12 characters"],
    ["ARC000000001", undefined],
    ["ARC0000000001", "This input must be no longer than 12 characters long"],
    ["arc000000001", "Please enter valid Account Number"],
    ["Arc000000001", "Please enter valid Account Number"],
    ["000000000001", "Please enter valid Account Number"],
    ["ABCDEFGHIJKL", "Please enter valid Account Number"],
    ["ARC00000000A", "Please enter valid Account Number"],
    ["ARC 00000001", "Please enter valid Account Number"],
    ["", undefined],
  ])("%j → %s", (value, message) => {
    expect(profileError("accountNumber", value)).toBe(message);
  });

  it("is trimmed before the length check", () => {
    expect(profileError("accountNumber", "  ARC000000001  ")).toBeUndefined();
  });
});

describe("care site name: required, 6 to 35, letters only", () => {
  it.each([
    ["", "Required"],
    ["Abcde", "Must be at least 6 characters"],
    ["Abcdef", undefined],
    ["A".repeat(35), undefined],
    ["A".repeat(36), "This input must be no longer than 35 characters long"],
    ["Clinic 42", "should contain only alphabets and/or space"],
    ["Clinic-North", "should contain only alphabets and/or space"],
    ["Clínica Sur", undefined],
  ])("%j → %s", (value, message) => {
    expect(profileError("name", value)).toBe(message);
    expect(dialogError("name", value)).toBe(message);
  });
});

describe("address lines: max 50 (required in the edit dialog)", () => {
  it.each(["addressLine1", "addressLine2"])("%s", (field) => {
    expect(profileError(field, "")).toBeUndefined();
    expect(dialogError(field, "")).toBe("Required");
    expect(profileError(field, "x".repeat(50))).toBeUndefined();
    expect(dialogError(field, "x".repeat(50))).toBeUndefined();
    const tooLong = "This input must be no longer than 50 characters long";
    expect(profileError(field, "x".repeat(51))).toBe(tooLong);
    expect(dialogError(field, "x".repeat(51))).toBe(tooLong);
  });
});

describe("city: required, letters only, max 35", () => {
  it.each([
    ["", "Required"],
    ["Austin", undefined],
    ["San Antonio", undefined],
    ["Austin 2", "should contain only alphabets and/or space"],
    ["A".repeat(35), undefined],
    ["A".repeat(36), "This input must be no longer than 35 characters long"],
  ])("%j → %s", (value, message) => {
    expect(profileError("city", value)).toBe(message);
    expect(dialogError("city", value)).toBe(message);
  });
});

describe("state: the US list for the United States, free text (letters, max 35) elsewhere", () => {
  it("accepts every name of the list for the United States, and nothing else", () => {
    for (const state of US_STATES) expect(profileError("state", state)).toBeUndefined();
    expect(profileError("state", "Ontario")).toBe(
      "Please select an appropriate state from the dropdown",
    );
    expect(dialogError("state", "Bavaria")).toBe(
      "Please select an appropriate state from the dropdown",
    );
  });

  it("takes free text abroad, with the base rules", () => {
    const canada = { country: "Canada" };
    expect(profileError("state", "Ontario", canada)).toBeUndefined();
    expect(dialogError("state", "Ontario", canada)).toBeUndefined();
    expect(profileError("state", "", canada)).toBe("Required");
    expect(profileError("state", "Zone 9", canada)).toBe(
      "should contain only alphabets and/or space",
    );
    expect(profileError("state", "A".repeat(36), canada)).toBe(
      "This input must be no longer than 35 characters long",
    );
  });

  it("the base rules come first for the United States too", () => {
    expect(profileError("state", "")).toBe("Required");
    expect(profileError("state", "Texas 1")).toBe("should contain only alphabets and/or space");
  });
});

describe("country: required, from the list", () => {
  it.each([
    ["", "Required"],
    ["Atlantis", "Required"],
    ["Canada", undefined],
  ])("%j → %s", (value, message) => {
    // Abroad the state is free text, so "Texas" stays valid and only country can fail.
    expect(profileError("country", value)).toBe(message);
  });
});

describe("zip: required, alphanumeric, 3 to 9", () => {
  it.each([
    ["", "Required"],
    ["12", "Must be at least 3 characters"],
    ["123", undefined],
    ["SW1A1AA", undefined],
    ["123456789", undefined],
    ["1234567890", "This input must be no longer than 9 characters long"],
    ["787-01", "should contain only alphanumeric chars"],
    ["78 701", "should contain only alphanumeric chars"],
  ])("%j → %s", (value, message) => {
    expect(profileError("zip", value)).toBe(message);
    expect(dialogError("zip", value)).toBe(message);
  });
});

describe("website: a valid website (required in the edit dialog)", () => {
  it.each([
    "example.com",
    "www.example.com",
    "http://example.com",
    "https://www.example.co.uk/clinic?id=4#top",
    "https://clinic.example:8443/path",
    "HTTPS://EXAMPLE.ORG",
  ])("accepts %j", (value) => {
    expect(profileError("website", value)).toBeUndefined();
    expect(dialogError("website", value)).toBeUndefined();
  });

  it.each([
    "example",
    "http://",
    "https://example",
    "exa mple.com",
    "ftp://example.com",
    "example.c",
    "https://example.com/a b",
  ])("refuses %j with the spec's message", (value) => {
    expect(profileError("website", value)).toBe("Please enter valid Website");
    expect(dialogError("website", value)).toBe("Please enter valid Website");
  });

  it("is optional on the profile page, required in the dialog", () => {
    expect(profileError("website", "")).toBeUndefined();
    expect(dialogError("website", "")).toBe("Required");
  });
});

describe("phone: the international input, digits with the country code, optional", () => {
  it.each([
    ["", undefined],
    ["+1 512 555 0100", undefined],
    ["+44 20 7946 0958", undefined],
    ["512-555-abcd", "Enter valid phone number"],
    ["+1 234 567 890 123 456", "This input must be no longer than 15 characters long"],
    // Issue 20 item 1: digits that make no number of their country.
    ["12", "Enter valid phone number"],
    ["+1 555 010 0123", "Enter valid phone number"],
    ["+999 123 456 789", "Enter valid phone number"],
  ])("%j → %s", (value, message) => {
    expect(profileError("phone", value)).toBe(message);
  });

  it("stores the number with its country code (a 10-digit number is a US one)", () => {
    const parse = (phone: string) => careSiteProfileSchema.parse({ ...valid, phone }).phone;
    expect(parse("(512) 555-0100")).toBe("15125550100");
    expect(parse("+44 20 7946 0958")).toBe("442079460958");
    expect(parse("")).toBe("");
  });
});

describe("wrong types and form data", () => {
  it("answers a repeated key or a non-string with a message, never a throw", () => {
    const issues = issuesByField(careSiteProfileSchema, { ...valid, name: ["a", "b"], zip: 5 });
    expect(issues.name).toEqual(["Invalid input"]);
    expect(issues.zip).toEqual(["Invalid input"]);
  });

  it("the validators read form data (the server path)", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(valid)) form.set(k, v);
    const page = await careSiteProfileValidator.validate(form);
    expect(page.error).toBeUndefined();
    form.set("website", "");
    const dialog = await careSiteDetailsValidator.validate(form);
    expect(dialog.error?.fieldErrors).toEqual({ website: "Required" });
  });
});

describe("texts", () => {
  it("are the spec's", () => {
    expect(careSiteMessages.updated).toBe("Clinic was updated successfully");
    expect(careSiteMessages.detailsUpdated).toBe("Care Site Details updated successfully");
    expect(careSiteMessages.notUpdated).toBe(
      "Clinic was not updated. Please check the highlighted field and try again.",
    );
    expect(careSiteMessages.accountNumberExists).toBe("accountnumber alraedy exists");
    expect(careSiteMessages.noAdmins).toBe("There are no Care Site Admins");
    expect(careSiteMessages.withdrawWarning).toBe(
      "You will no longer be able to view the patient's information. Do you want to proceed?",
    );
    expect(notAssociatedWithDevice("Ana", "Ruiz")).toBe(
      "Ana Ruiz is not associated with any device",
    );
  });
});
