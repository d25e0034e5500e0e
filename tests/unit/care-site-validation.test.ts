// The Add Care Site rules and messages (spec 2 §5 "Add Care Site", §8, §9).
import { describe, expect, it } from "vitest";
import {
  addCareSiteDefaults,
  addCareSiteSchema,
  addCareSiteValidator,
  careSiteInput,
  careSiteMessages,
} from "~/domain/careSites/schema";

const REQUIRED = "Required";
const ALPHABETS = "should contain only alphabets and/or space";
const ALPHANUMERIC = "should contain only alphanumeric chars";
const DROPDOWN = "Please select an appropriate state from the dropdown";
const max = (n: number) => `This input must be no longer than ${n} characters long`;
const min = (n: number) => `Must be at least ${n} characters`;
const ACCOUNT_NUMBER = "Please enter valid Account Number";
const WEBSITE = "Please enter valid Website";

const valid = {
  accountNumber: "ABC123",
  name: "Saint Mary Care",
  addressLine1: "12 Main St",
  addressLine2: "Suite 4",
  country: "United States",
  state: "Texas",
  city: "Austin",
  zip: "78701",
  phoneCountry: "1",
  phone: "512 555 0100",
  website: "https://stmary.example.org",
};

/** Every message per field: a field must never get two. */
function issues(input: Record<string, unknown>) {
  const result = addCareSiteSchema.safeParse(input);
  const byField: Record<string, string[]> = {};
  if (!result.success)
    for (const issue of result.error.issues)
      (byField[issue.path.join(".")] ??= []).push(issue.message);
  return byField;
}

function errorOf(field: string, value: unknown, extra: Record<string, unknown> = {}) {
  const messages = issues({ ...valid, ...extra, [field]: value })[field] ?? [];
  expect(messages.length, messages.join(" | ")).toBeLessThanOrEqual(1);
  return messages[0];
}

describe("Add Care Site: texts", () => {
  it("keeps the spec's texts, misspellings included", () => {
    expect(careSiteMessages.formErrorInputs).toBe("Please fix the inputs with errors");
    expect(careSiteMessages.accountNumberExists).toBe("accountnumber alraedy exists");
    expect(careSiteMessages.added).toBe("Clinic added successfully");
    expect(careSiteMessages.alreadyExists("Saint Mary Care")).toBe(
      "Clinic was not added.Saint Mary Care already exists.",
    );
  });

  it("accepts a complete form and stores the phone as digits with its country code", () => {
    const result = addCareSiteSchema.safeParse(valid);
    expect(result.success).toBe(true);
    expect(careSiteInput(result.data!)).toEqual({
      accountNumber: "ABC123",
      name: "Saint Mary Care",
      addressLine1: "12 Main St",
      addressLine2: "Suite 4",
      country: "United States",
      state: "Texas",
      city: "Austin",
      zip: "78701",
      phone: "15125550100",
      website: "https://stmary.example.org",
    });
  });

  it("needs only the starred fields; empty optional ones are stored as null", () => {
    const result = addCareSiteSchema.safeParse({
      name: "Lakeside",
      country: "United States",
      state: "Ohio",
      city: "Columbus",
      zip: "43004",
    });
    expect(result.success).toBe(true);
    expect(careSiteInput(result.data!)).toMatchObject({
      accountNumber: null,
      addressLine1: null,
      addressLine2: null,
      phone: null,
      website: null,
    });
  });

  it("starts the dialog with United States and country code 1", () => {
    expect(addCareSiteDefaults.country).toBe("United States");
    expect(addCareSiteDefaults.phoneCountry).toBe("1");
  });
});

describe("Add Care Site: account number (min 4, max 20, capital letters then digits)", () => {
  it("is optional", () => {
    expect(errorOf("accountNumber", "")).toBeUndefined();
    expect(errorOf("accountNumber", undefined)).toBeUndefined();
  });

  it("checks the length at 3, 4, 20 and 21 characters", () => {
    expect(errorOf("accountNumber", "AB1")).toBe(min(4));
    expect(errorOf("accountNumber", "AB12")).toBeUndefined();
    expect(errorOf("accountNumber", `AB${"1".repeat(18)}`)).toBeUndefined();
    expect(errorOf("accountNumber", `AB${"1".repeat(19)}`)).toBe(max(20));
  });

  it("wants capital letters followed by digits", () => {
    expect(errorOf("accountNumber", "abc123")).toBe(ACCOUNT_NUMBER);
    expect(errorOf("accountNumber", "Abc123")).toBe(ACCOUNT_NUMBER);
    expect(errorOf("accountNumber", "123ABC")).toBe(ACCOUNT_NUMBER);
    expect(errorOf("accountNumber", "ABCD")).toBe(ACCOUNT_NUMBER);
    expect(errorOf("accountNumber", "1234")).toBe(ACCOUNT_NUMBER);
    expect(errorOf("accountNumber", "AB 123")).toBe(ACCOUNT_NUMBER);
    expect(errorOf("accountNumber", "  ABC123  ")).toBeUndefined();
  });
});

describe("Add Care Site: name (required, 1 to 50, letters and spaces)", () => {
  it("is required", () => {
    expect(errorOf("name", "")).toBe(REQUIRED);
    expect(errorOf("name", "   ")).toBe(REQUIRED);
    expect(errorOf("name", undefined)).toBe(REQUIRED);
  });

  it("takes 1 and 50 letters, not 51", () => {
    expect(errorOf("name", "A")).toBeUndefined();
    expect(errorOf("name", "A".repeat(50))).toBeUndefined();
    expect(errorOf("name", "A".repeat(51))).toBe(max(50));
  });

  it("takes letters and spaces only", () => {
    expect(errorOf("name", "Saint Mary Care")).toBeUndefined();
    expect(errorOf("name", "Clínica São José")).toBeUndefined();
    expect(errorOf("name", "St. Mary's")).toBe(ALPHABETS);
    expect(errorOf("name", "Care 24")).toBe(ALPHABETS);
  });
});

describe("Add Care Site: city (required, letters, max 35)", () => {
  it("checks required, letters and 35/36 characters", () => {
    expect(errorOf("city", "")).toBe(REQUIRED);
    expect(errorOf("city", "San Antonio")).toBeUndefined();
    expect(errorOf("city", "Austin 2")).toBe(ALPHABETS);
    expect(errorOf("city", "A".repeat(35))).toBeUndefined();
    expect(errorOf("city", "A".repeat(36))).toBe(max(35));
  });
});

describe("Add Care Site: state (required, letters, max 35, the US list)", () => {
  it("uses the dropdown's messages", () => {
    expect(errorOf("state", "")).toBe(REQUIRED);
    expect(errorOf("state", "Texas1")).toBe(ALPHABETS);
    expect(errorOf("state", "A".repeat(36))).toBe(max(35));
  });

  it("wants a state of the list for the United States, free text elsewhere", () => {
    expect(errorOf("state", "Texass")).toBe(DROPDOWN);
    expect(errorOf("state", "texas")).toBe(DROPDOWN);
    expect(errorOf("state", "District of Columbia")).toBeUndefined();
    expect(errorOf("state", "Ontario", { country: "Canada" })).toBeUndefined();
    expect(errorOf("state", "Ontario 1", { country: "Canada" })).toBe(ALPHABETS);
  });
});

describe("Add Care Site: country (required)", () => {
  it("says Required when missing or not a country of the list", () => {
    expect(errorOf("country", "")).toBe(REQUIRED);
    expect(errorOf("country", undefined)).toBe(REQUIRED);
    expect(errorOf("country", "Atlantis")).toBe(REQUIRED);
    expect(errorOf("country", "Canada", { state: "Quebec" })).toBeUndefined();
  });

  it("does not judge the state against a country that failed", () => {
    expect(issues({ ...valid, country: "", state: "Bavaria" }).state).toBeUndefined();
  });
});

describe("Add Care Site: zip (required, alphanumeric, 3 to 9)", () => {
  it("checks 2, 3, 9 and 10 characters", () => {
    expect(errorOf("zip", "")).toBe(REQUIRED);
    expect(errorOf("zip", "12")).toBe(min(3));
    expect(errorOf("zip", "123")).toBeUndefined();
    expect(errorOf("zip", "123456789")).toBeUndefined();
    expect(errorOf("zip", "1234567890")).toBe(max(9));
  });

  it("takes letters and digits only", () => {
    expect(errorOf("zip", "K1A0B1")).toBeUndefined();
    expect(errorOf("zip", "78701-1234")).toBe(ALPHANUMERIC);
    expect(errorOf("zip", "K1A 0B1")).toBe(ALPHANUMERIC);
  });
});

describe("Add Care Site: website (valid website)", () => {
  it("is optional", () => {
    expect(errorOf("website", "")).toBeUndefined();
  });

  it.each([
    "example.com",
    "www.example.com",
    "http://example.com",
    "https://care.example.org/path?x=1#top",
    "https://example.co.uk:8443/",
  ])("accepts %s", (value) => {
    expect(errorOf("website", value)).toBeUndefined();
  });

  it.each([
    "example",
    "http://",
    "ftp://example.com",
    "https://exa mple.com",
    "example.c",
    "https://example.com/a b",
    "javascript:alert(1)",
  ])("refuses %s", (value) => {
    expect(errorOf("website", value)).toBe(WEBSITE);
  });

  it("caps its length", () => {
    expect(errorOf("website", `https://example.com/${"a".repeat(300)}`)).toBe(max(255));
  });
});

describe("Add Care Site: phone (optional; country code and number)", () => {
  it("is optional; the country code defaults to 1", () => {
    expect(errorOf("phone", "")).toBeUndefined();
    const result = addCareSiteSchema.safeParse({ ...valid, phoneCountry: "", phone: "5125550100" });
    expect(careSiteInput(result.data!).phone).toBe("15125550100");
  });

  it("takes digits only, at most 15, that make a valid number of the country", () => {
    expect(errorOf("phone", "512-555-01ab")).toBe("Enter valid phone number");
    // Issue 20 item 1: "12" was accepted.
    for (const bad of ["12", "1".repeat(14), "5550100123"])
      expect(errorOf("phone", bad), bad).toBe("Enter valid phone number");
    expect(errorOf("phone", "1".repeat(16))).toBe(max(15));
    expect(errorOf("phoneCountry", "1a")).toBe("Enter valid phone number");
  });
});

describe("Add Care Site: the validator", () => {
  it("reports each field once from form data and ignores unknown keys", async () => {
    const form = new FormData();
    form.set("intent", "addCareSite");
    form.set("formToken", "x");
    form.set("country", "United States");
    form.set("state", "Nowhere");
    form.set("accountNumber", "abc");
    form.set("website", "nope");
    const result = await addCareSiteValidator.validate(form);
    expect(result.error?.fieldErrors).toEqual({
      accountNumber: min(4),
      name: REQUIRED,
      state: DROPDOWN,
      city: REQUIRED,
      zip: REQUIRED,
      website: WEBSITE,
    });
  });

  it("refuses a repeated field (an array) with Invalid input instead of throwing", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(valid)) form.set(k, v);
    form.append("name", "Second Name");
    const result = await addCareSiteValidator.validate(form);
    expect(result.error?.fieldErrors).toEqual({ name: "Invalid input" });
  });
});
