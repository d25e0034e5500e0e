import { describe, expect, it } from "vitest";
import { formatHeight, formatWeight } from "~/lib/units";

describe("measuring units (spec 3 §9)", () => {
  it("shows heights in ft/in or cm", () => {
    expect(formatHeight(70, "Imperial")).toBe("5 ft 10 in");
    expect(formatHeight(70, "Metric")).toBe("178 cm");
    expect(formatHeight(71.6, "Imperial")).toBe("6 ft 0 in");
    expect(formatHeight(null, "Metric")).toBe("-");
  });
  it("shows weights in lbs or kg", () => {
    expect(formatWeight(150, "Imperial")).toBe("150 lbs");
    expect(formatWeight(150, "Metric")).toBe("68.1 kg");
    expect(formatWeight(undefined, "Imperial")).toBe("-");
  });
});
