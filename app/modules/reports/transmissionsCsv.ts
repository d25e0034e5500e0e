// The patient profile's transmissions download (spec 3 §2.2 footer): pure, rows in and CSV out.
// json2csv does the quoting; instants are shown in the care site's zone.
import { TZDate } from "@date-fns/tz";
import { Parser } from "@json2csv/plainjs";
import { format } from "date-fns";
import { patientFileNamePrefix } from "./patientReport";

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
  return new Parser({ fields: FIELDS }).parse(
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
  );
}

/** e.g. "Doe_Jane_transmissions_2026-11-01_2026-11-20.csv". */
export function transmissionsCsvFileName(
  patient: { firstName: string; lastName: string },
  fromDay: string,
  toDay: string,
): string {
  return `${patientFileNamePrefix(patient)}transmissions_${fromDay}_${toDay}.csv`;
}
