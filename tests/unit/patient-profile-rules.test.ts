// The patient profile's input rules (spec 3 §5, §8, §9): Patient Id, the goal dialog's count, its
// minus/plus buttons and Submit, and the phone display.
import { describe, expect, it } from "vitest";
import {
  cleanCount,
  formatPhone,
  goalDraftOf,
  goalDraftSchema,
  goalFormSchema,
  goalProblem,
  patientTagSchema,
  profileMessages,
  stepCount,
  therapiesText,
} from "~/domain/patients/schema";

describe("Patient Id", () => {
  const message = (value: unknown) => {
    const parsed = patientTagSchema.safeParse(value);
    return parsed.success ? null : parsed.error.issues[0].message;
  };
  it("is required and at most 25 characters, with the spec's texts", () => {
    expect(message("")).toBe("Enter a Patient ID  to continue.");
    expect(message("   ")).toBe("Enter a Patient ID  to continue.");
    expect(message(null)).toBe("Enter a Patient ID  to continue.");
    expect(message("x".repeat(25))).toBeNull();
    expect(message("x".repeat(26))).toBe("Must be less than 25 characters.");
    expect(patientTagSchema.parse("  P-0042 ")).toBe("P-0042");
  });
});

describe("therapies per day", () => {
  it("keeps digits only; an empty box stays empty", () => {
    expect(cleanCount("12")).toBe("12");
    expect(cleanCount("1a2")).toBe("12");
    expect(cleanCount("-3")).toBe("3");
    expect(cleanCount("")).toBe("");
    expect(cleanCount(null)).toBe("");
    expect(cleanCount("12345")).toBe("123");
  });
  it("minus never goes below 0, plus never above 24", () => {
    expect(stepCount("0", -1)).toBe("0");
    expect(stepCount("", -1)).toBe("0");
    expect(stepCount("", 1)).toBe("1");
    expect(stepCount("5", 1)).toBe("6");
    expect(stepCount("5", -1)).toBe("4");
    expect(stepCount("24", 1)).toBe("24");
    expect(stepCount("99", -1)).toBe("24");
  });
  it("Submit needs a count of 1 to 24 and a weekday", () => {
    const all = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
    expect(goalProblem({ days: [...all], count: "2" })).toBeNull();
    expect(goalProblem({ days: ["wed"], count: "24" })).toBeNull();
    expect(goalProblem({ days: [...all], count: "25" })).toBe(
      "Number of therapies per day can not greater than 24",
    );
    expect(goalProblem({ days: [...all], count: "0" })).toBe(profileMessages.goalNoCount);
    expect(goalProblem({ days: [...all], count: "" })).toBe(profileMessages.goalNoCount);
    expect(goalProblem({ days: [], count: "3" })).toBe(profileMessages.goalNoDays);
  });
  it("Submit refuses a count with anything but digits; minus and plus clean it", () => {
    const all = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
    const refused = goalFormSchema.paired.safeParse({ days: all, count: "2x" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ["count"],
      message: "Enter digits only in Number of therapies per day.",
    });
    expect(goalFormSchema.paired.parse({ days: all, count: " 2 " })).toEqual({
      days: all,
      count: "2",
    });
    expect(goalDraftSchema.parse({ days: all, count: "2x" })).toEqual({ days: all, count: "2" });
  });
  it("words a goal's count: 1 therapy, 2 therapies", () => {
    expect(therapiesText(1)).toBe("1 therapy");
    expect(therapiesText(2)).toBe("2 therapies");
    expect(therapiesText(24)).toBe("24 therapies");
  });
  it("reads the ticked weekdays in week order and ignores anything else", () => {
    const draft = goalDraftOf({ days: ["sun", "mon", "holiday"], count: "3x" });
    expect(draft).toEqual({ days: ["mon", "sun"], count: "3" });
    expect(goalDraftOf({ days: "wed" })).toEqual({ days: ["wed"], count: "" });
  });
});

describe("phone display", () => {
  it("shows a North American number as (xxx) xxx-xxxx, +1 when stored with its code", () => {
    expect(formatPhone("15125550123")).toBe("+1 (512) 555-0123");
    expect(formatPhone("5125550123")).toBe("(512) 555-0123");
    expect(formatPhone("+1 (512) 555-0123")).toBe("+1 (512) 555-0123");
    expect(formatPhone("4915112345678")).toBe("+4915112345678");
    expect(formatPhone("12345")).toBe("12345");
    expect(formatPhone(null)).toBe("");
  });
});
