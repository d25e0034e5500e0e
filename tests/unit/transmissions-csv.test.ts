import { describe, expect, it } from "vitest";
import {
  buildTransmissionsCsv,
  transmissionsCsvFileName,
  transmissionsReportCsv,
  type TransmissionCsvRow,
} from "~/domain/reports/transmissionsCsv";

const HEADER =
  '"Received","Sent","Device serial","Therapies","Duplicates","Deviating therapies","Therapy adjustment","HMR","First therapy","Last therapy"';

function row(overrides: Partial<TransmissionCsvRow> = {}): TransmissionCsvRow {
  return {
    receivedAt: new Date("2026-11-05T14:05:00Z"),
    sentAt: new Date("2026-11-05T14:04:00Z"),
    serial: "BW-000123",
    therapies: 3,
    duplicates: 0,
    deviatingTherapies: 1,
    therapyAdjustment: false,
    hmr: 1234.5,
    firstTherapyAt: new Date("2026-11-05T13:00:00Z"),
    lastTherapyAt: new Date("2026-11-05T13:40:00Z"),
    ...overrides,
  };
}

describe("transmissions CSV", () => {
  it("is the header line alone for no transmissions", () => {
    expect(buildTransmissionsCsv([], "America/Chicago")).toBe(HEADER);
  });

  it("writes one line per transmission with Yes/No and empty cells for missing values", () => {
    const csv = buildTransmissionsCsv(
      [
        row(),
        row({
          therapyAdjustment: true,
          hmr: null,
          therapies: 0,
          firstTherapyAt: null,
          lastTherapyAt: null,
        }),
      ],
      "America/Chicago",
    );
    expect(csv.split("\n")).toEqual([
      HEADER,
      '"05-Nov-2026 08:05","05-Nov-2026 08:04","BW-000123",3,0,1,"No",1234.5,"05-Nov-2026 07:00","05-Nov-2026 07:40"',
      '"05-Nov-2026 08:05","05-Nov-2026 08:04","BW-000123",0,0,1,"Yes",,,',
    ]);
  });

  it("quotes a serial holding a comma or a quote", () => {
    const csv = buildTransmissionsCsv([row({ serial: 'BW,12"3' })], "America/Chicago");
    expect(csv.split("\n")[1]).toContain(',"BW,12""3",3,');
  });

  it("shows times in the care site's zone on both sides of a DST change", () => {
    // Chicago leaves CDT (UTC-5) for CST (UTC-6) at 02:00 on 1 Nov 2026.
    const csv = buildTransmissionsCsv(
      [
        row({
          receivedAt: new Date("2026-10-31T17:00:00Z"),
          sentAt: new Date("2026-11-01T05:30:00Z"),
          firstTherapyAt: new Date("2026-11-01T06:30:00Z"),
          lastTherapyAt: new Date("2026-11-02T17:00:00Z"),
        }),
      ],
      "America/Chicago",
    );
    const cells = csv.split("\n")[1].split(",");
    expect(cells[0]).toBe('"31-Oct-2026 12:00"');
    // 05:30 UTC is 00:30 CDT; 06:30 UTC is 01:30 CDT, half an hour before the change.
    expect(cells[1]).toBe('"01-Nov-2026 00:30"');
    expect(cells[8]).toBe('"01-Nov-2026 01:30"');
    expect(cells[9]).toBe('"02-Nov-2026 11:00"');
    expect(buildTransmissionsCsv([row()], "UTC").split("\n")[1]).toMatch(
      /^"05-Nov-2026 14:05","05-Nov-2026 14:04",/,
    );
  });

  it("is named after the patient and the range", () => {
    expect(
      transmissionsCsvFileName({ firstName: "Jane", lastName: "Doe" }, "2026-11-01", "2026-11-20"),
    ).toBe("Doe_Jane_transmissions_2026-11-01_2026-11-20.csv");
    expect(
      transmissionsCsvFileName({ firstName: "", lastName: "" }, "2026-11-01", "2026-11-20"),
    ).toBe("transmissions_2026-11-01_2026-11-20.csv");
  });

  it("as a report, states the window, who generated it when and the adherence rule first", () => {
    const csv = transmissionsReportCsv([row()], {
      patientName: "Jane Doe",
      window: { fromDay: "2026-11-01", toDay: "2026-11-20" },
      generatedAt: new Date("2026-11-21T15:30:00Z"),
      generatedBy: "Carl Clinician (Clinician)",
      adherenceRule: "Day adherence = completed / goal.",
      timeZone: "America/Chicago",
    });
    const [stamp, table] = csv.split("\n\n");
    expect(stamp.split("\n")).toEqual([
      '"Transmissions of","Jane Doe"',
      '"Data window","01-Nov-2026 to 20-Nov-2026"',
      '"Generated","21-Nov-2026 09:30 CST by Carl Clinician (Clinician)"',
      '"Adherence rule","Day adherence = completed / goal."',
    ]);
    expect(table.split("\n")[0]).toBe(HEADER);
    expect(table.split("\n")).toHaveLength(2);
  });
});
