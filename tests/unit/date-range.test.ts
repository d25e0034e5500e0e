// The From/To rules of the range pickers (spec 2 §5 "Other"): one pure rule the form applies live
// with JavaScript and the server applies to what it is sent (app/lib/dateRange.ts).
import { describe, expect, it } from "vitest";
import { rangeFormState, rangeMessages, rangeProblem, readRange } from "~/lib/dateRange";

const TODAY = "2026-11-26";

describe("rangeFormState", () => {
  it("keeps To disabled, without a minimum, and Apply disabled until From has a day", () => {
    expect(rangeFormState("", "", TODAY)).toEqual({
      toDisabled: true,
      toMin: undefined,
      applyDisabled: true,
      message: null,
      flagged: { from: false, to: false },
    });
    // A To left from before is no range without its From.
    expect(rangeFormState("", "2026-11-20", TODAY)).toMatchObject({
      toDisabled: true,
      applyDisabled: true,
      message: null,
    });
  });

  it("enables To with From as its minimum once From is chosen; Apply waits for To", () => {
    expect(rangeFormState("2026-11-10", "", TODAY)).toEqual({
      toDisabled: false,
      toMin: "2026-11-10",
      applyDisabled: true,
      message: null,
      flagged: { from: false, to: false },
    });
  });

  it("enables Apply for a range the server accepts, a one-day range and today included", () => {
    for (const [from, to] of [
      ["2026-11-10", "2026-11-20"],
      ["2026-11-10", "2026-11-10"],
      ["2026-11-26", "2026-11-26"],
    ]) {
      expect(rangeFormState(from, to, TODAY)).toEqual({
        toDisabled: false,
        toMin: from,
        applyDisabled: false,
        message: null,
        flagged: { from: false, to: false },
      });
    }
  });

  it("flags a To before From (also when From moves past To) and keeps Apply disabled", () => {
    expect(rangeFormState("2026-11-20", "2026-11-10", TODAY)).toMatchObject({
      toDisabled: false,
      toMin: "2026-11-20",
      applyDisabled: true,
      message: rangeMessages.toBeforeFrom,
      flagged: { from: false, to: true },
    });
  });

  it("flags a day after today, in To or in From", () => {
    expect(rangeFormState("2026-11-20", "2026-11-27", TODAY)).toMatchObject({
      applyDisabled: true,
      message: rangeMessages.future,
      flagged: { from: false, to: true },
    });
    expect(rangeFormState("2026-11-27", "", TODAY)).toMatchObject({
      applyDisabled: true,
      message: rangeMessages.future,
      flagged: { from: true, to: false },
    });
  });

  it("agrees with the server: Apply is enabled exactly when readRange accepts the range", () => {
    const days = ["", "2026-11-01", "2026-11-25", "2026-11-26", "2026-11-27", "junk"];
    for (const from of days) {
      for (const to of days) {
        if (!from && !to) continue; // no From/To at all: the preset range, nothing to apply
        const live = rangeFormState(from, to, TODAY);
        const served = readRange(new URLSearchParams({ from, to }), "2026-11-25", TODAY);
        expect(live.applyDisabled, `${from}..${to}`).toBe(served.error !== null);
        expect(served.error).toBe(rangeProblem(from, to, TODAY));
      }
    }
  });
});

describe("readRange keeps the server's refusals", () => {
  it("answers the spec's texts and the typed values", () => {
    const refuse = (from: string, to: string) =>
      readRange(new URLSearchParams({ from, to }), "2026-11-25", TODAY);
    expect(refuse("2026-11-20", "2026-11-10")).toMatchObject({
      kind: "week",
      error: '"To" date cannot be before "From" date.',
      typed: { from: "2026-11-20", to: "2026-11-10" },
    });
    expect(refuse("2026-11-20", "2026-11-27").error).toBe("Dates after today cannot be chosen.");
    expect(refuse("2026-11-20", "").error).toBe("Please choose a From and a To date.");
    expect(refuse("2026-11-10", "2026-11-20")).toEqual({
      kind: "custom",
      fromDay: "2026-11-10",
      toDay: "2026-11-20",
      error: null,
    });
  });
});
