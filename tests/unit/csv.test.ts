// The one CSV writer (lib/csv) and the pure transmissions export that uses it.
import { describe, expect, it } from "vitest";
import { csvChunks, disarmCell, toCsv } from "~/lib/csv";
import { transmissionsReportCsv, type TransmissionCsvRow } from "~/domain/reports/transmissionsCsv";
import { armedCells, csvRecords, disarmed, FORMULA_CELLS } from "../support/csvInjection";

describe("disarmCell", () => {
  it("puts a single quote before a cell starting with = + - @ tab or carriage return", () => {
    for (const cell of FORMULA_CELLS) expect(disarmCell(cell)).toBe(disarmed(cell));
  });

  it("leaves plain numbers, ordinary text and the empty cell as they are", () => {
    for (const cell of ["-1.5", "+3", "-40", "2e-4", "-.5", "0", "", "Doe", "a=b", "x@y.test"]) {
      expect(disarmCell(cell)).toBe(cell);
    }
    // Not a plain number: a formula that starts like one.
    expect(disarmCell("-1+2")).toBe("'-1+2");
    expect(disarmCell("-1.5e3*A1")).toBe("'-1.5e3*A1");
  });
});

describe("toCsv and csvChunks", () => {
  const rows = FORMULA_CELLS.map((cell, i) => ({ n: i, text: cell, reading: -1.5 }));

  it("write every formula cell disarmed, numbers as numbers, headers as given", () => {
    for (const quote of ["always", "needed"] as const) {
      const records = csvRecords(toCsv(rows, { fields: ["n", "text", "reading"], quote }));
      expect(records[0]).toEqual(["n", "text", "reading"]);
      expect(records.slice(1).map((r) => r[1])).toEqual(FORMULA_CELLS.map(disarmed));
      expect(records.slice(1).every((r) => r[2] === "-1.5")).toBe(true);
      expect(armedCells(records)).toEqual([]);
    }
  });

  it("quote as json2csv does for ordinary data: always by default, or only where needed", () => {
    const plain = [{ a: "x", b: 'say "hi", then go', c: 3 }];
    expect(toCsv(plain)).toBe('"a","b","c"\n"x","say ""hi"", then go",3');
    expect(toCsv(plain, { quote: "needed" })).toBe('a,b,c\nx,"say ""hi"", then go",3');
    expect(toCsv(plain, { header: false, withBOM: true })).toBe(
      '\ufeff"x","say ""hi"", then go",3',
    );
  });

  it("stream the same text as the one-go writer", async () => {
    const many = Array.from({ length: 700 }, (_, i) => ({ n: i, text: FORMULA_CELLS[i % 6] }));
    let streamed = "";
    for await (const chunk of csvChunks(many, { fields: ["n", "text"], quote: "needed" }, 100)) {
      streamed += chunk;
    }
    expect(streamed).toBe(toCsv(many, { fields: ["n", "text"], quote: "needed" }));
    let empty = "";
    for await (const chunk of csvChunks([], { fields: ["n", "text"] })) empty += chunk;
    expect(empty).toBe('"n","text"');
  });
});

describe("the transmissions export", () => {
  it("disarms a serial and a patient name that would run as formulas", () => {
    const at = new Date("2026-11-05T14:05:00Z");
    const rows: TransmissionCsvRow[] = FORMULA_CELLS.map((cell) => ({
      receivedAt: at,
      sentAt: at,
      serial: cell,
      therapies: 1,
      duplicates: 0,
      deviatingTherapies: 0,
      therapyAdjustment: false,
      hmr: -1.5,
      firstTherapyAt: null,
      lastTherapyAt: null,
    }));
    for (const cell of FORMULA_CELLS) {
      const csv = transmissionsReportCsv(rows, {
        patientName: cell,
        window: { fromDay: "2026-11-01", toDay: "2026-11-20" },
        generatedAt: at,
        generatedBy: cell,
        adherenceRule: "Day adherence = completed / goal.",
        timeZone: "America/Chicago",
      });
      const records = csvRecords(csv);
      expect(records[0]).toEqual(["Transmissions of", disarmed(cell)]);
      const table = records.slice(records.findIndex((r) => r[0] === "Received") + 1);
      expect(table.map((r) => r[2])).toEqual(FORMULA_CELLS.map(disarmed));
      expect(table.map((r) => r[7])).toEqual(FORMULA_CELLS.map(() => "-1.5"));
      expect(armedCells(records)).toEqual([]);
    }
  });
});
