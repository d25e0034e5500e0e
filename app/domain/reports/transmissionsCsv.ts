// The patient profile's transmissions download (spec 3 §2.2 footer): pure, rows in and CSV out.
// The one CSV writer (lib/csv) does the quoting and disarms formulas; instants are shown in the
// care site's zone.
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { toCsv } from "~/lib/csv";
import { patientFileNamePrefix, zoneLabel } from "./patientReport";

export type TransmissionCsvRow = {
  receivedAt: Date;
  sentAt: Date;
  serial: string;
  therapies: number;
  duplicates: number;
  deviatingTherapies: number;
  therapyAdjustment: boolean;
  hmr: number | null;
  firstTherapyAt: Date | null;
  lastTherapyAt: Date | null;
};

const FIELDS = [
  { label: "Received", value: "received" },
  { label: "Sent", value: "sent" },
  { label: "Device serial", value: "serial" },
  { label: "Therapies", value: "therapies" },
  { label: "Duplicates", value: "duplicates" },
  { label: "Deviating therapies", value: "deviatingTherapies" },
  { label: "Therapy adjustment", value: "therapyAdjustment" },
  { label: "HMR", value: "hmr" },
  { label: "First therapy", value: "firstTherapy" },
  { label: "Last therapy", value: "lastTherapy" },
];

export function buildTransmissionsCsv(rows: TransmissionCsvRow[], timeZone: string): string {
  const at = (instant: Date | null) =>
    instant ? format(new TZDate(instant, timeZone), "dd-MMM-yyyy HH:mm") : null;
  return toCsv(
    rows.map((row) => ({
      received: at(row.receivedAt),
      sent: at(row.sentAt),
      serial: row.serial,
      therapies: row.therapies,
      duplicates: row.duplicates,
      deviatingTherapies: row.deviatingTherapies,
      therapyAdjustment: row.therapyAdjustment ? "Yes" : "No",
      hmr: row.hmr,
      firstTherapy: at(row.firstTherapyAt),
      lastTherapy: at(row.lastTherapyAt),
    })),
    { fields: FIELDS },
  );
}

export type ReportStamp = {
  patientName: string;
  window: { fromDay: string; toDay: string };
  generatedAt: Date;
  generatedBy: string;
  adherenceRule: string;
  timeZone: string;
};

const dmy = (day: string) => {
  const [y, m, d] = day.split("-").map(Number);
  return format(new Date(y, m - 1, d), "dd-MMM-yyyy");
};

/**
 * The download as a report (issue 6: each report states its data window, when and by whom it was
 * generated, and the adherence rule): those four lines, an empty line, then the table.
 */
export function transmissionsReportCsv(rows: TransmissionCsvRow[], stamp: ReportStamp): string {
  const generated = `${format(new TZDate(stamp.generatedAt, stamp.timeZone), "dd-MMM-yyyy HH:mm")} ${zoneLabel(stamp.generatedAt, stamp.timeZone)}`;
  const preamble = toCsv(
    [
      { label: "Transmissions of", value: stamp.patientName },
      { label: "Data window", value: `${dmy(stamp.window.fromDay)} to ${dmy(stamp.window.toDay)}` },
      { label: "Generated", value: `${generated} by ${stamp.generatedBy}` },
      { label: "Adherence rule", value: stamp.adherenceRule },
    ],
    { fields: ["label", "value"], header: false },
  );
  return `${preamble}\n\n${buildTransmissionsCsv(rows, stamp.timeZone)}`;
}

/** e.g. "Doe_Jane_transmissions_2026-11-01_2026-11-20.csv". */
export function transmissionsCsvFileName(
  patient: { firstName: string; lastName: string },
  fromDay: string,
  toDay: string,
): string {
  return `${patientFileNamePrefix(patient)}transmissions_${fromDay}_${toDay}.csv`;
}
