// The patient profile's PDF report (spec 3 §2.2 footer, §9 "Report PDF"): pure, data in and bytes
// out. The caller gathers and formats the data (phone, height, weight in the viewer's unit); this
// module lays it out with pdfkit's standard Helvetica and draws the charts as vector paths.
import { TZDate, tzName } from "@date-fns/tz";
import { format } from "date-fns";
import { formatDay } from "~/lib/time";
import {
  HMR_AXIS,
  HMR_TITLE,
  SCORE_AXIS,
  SCORE_HISTORY_TITLE,
  TREND_AXIS,
  TREND_SERIES,
  trendTitle,
  type TrendKey,
} from "~/ui/charts/lineShape";
import { goalBarChart, lineChart } from "./pdfCharts";
import {
  contentWidth,
  heading,
  openReport,
  pageFooters,
  paragraph,
  table,
  type Box,
  type Column,
} from "./pdfLayout";

export type ReportDay = {
  day: string; // YYYY-MM-DD (care site calendar day)
  isGoalDay: boolean;
  timesPerDay: number | null;
  therapies: number;
  completed: number;
  dayAdherence: number | null; // 0..1
  score: number | null; // 0..1, recency-weighted 7-day score as of that day; null shows "-"
  maxHmr: number | null; // hour meter reading (hours)
  peakFlow: number | null; // per-day average of cycles' peak expiratory flow, L/min
  expVolume: number | null; // per-day average expiratory volume, ml
  peakInspP: number | null; // per-day average peak inspiratory pressure, cmH2O
};

export type PatientReportData = {
  generatedAt: Date;
  generatedBy: string; // "First Last (role)"
  timeZone: string; // IANA zone of the care site; every date/time is shown in it
  window: { fromDay: string; toDay: string }; // inclusive YYYY-MM-DD
  adherenceRule: string; // a sentence explaining the adherence rule used
  patient: {
    firstName: string;
    lastName: string;
    patientTag: string | null;
    dateOfBirth: string | null;
    email: string;
    phone: string; // formatted by the caller
    careSiteName: string | null;
    deviceSerial: string | null;
    status: string;
    height: string; // formatted in the viewer's unit by the caller, "-" if unknown
    weight: string;
  };
  goals: {
    timesPerDay: number;
    days: string[]; // "mon".."sun"
    createdAt: Date;
    createdBy: string | null;
    active: boolean;
  }[]; // newest first
  currentScore: number | null; // 0..1 as of window.toDay
  days: ReportDay[]; // every day of the window, oldest first
  summary: {
    therapies: number;
    completed: number;
    deviating: number;
    daysWithTherapy: number;
    daysWithoutTherapy: number;
    averageCyclesPerTherapy: number | null;
    transmissions: number;
  };
};

export const REPORT_TITLE = "ARC Connect — Patient Report";
const PRODUCT_NAME = "ARC Connect";
const WEEK = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/** "Last_First_" with anything outside [A-Za-z0-9-] as "_" (accents dropped); "" without a name. */
export function patientFileNamePrefix(patient: { firstName: string; lastName: string }) {
  const name = `${patient.lastName}_${patient.firstName}`
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9-]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return name ? `${name}_` : "";
}

/** Spec: '{prefix_}ARC Connect.pdf', e.g. "Doe_Jane_ARC Connect.pdf". */
export function patientReportFileName(patient: { firstName: string; lastName: string }): string {
  return `${patientFileNamePrefix(patient)}${PRODUCT_NAME}.pdf`;
}

const dash = (value: string | null | undefined) => (value && value.trim() ? value : "-");
const percent = (value: number | null) => (value === null ? "-" : `${Math.round(value * 100)}%`);
const day = (value: string) => formatDay(value, "dd-MMM-yyyy");
const dateIn = (instant: Date, timeZone: string, pattern: string) =>
  format(new TZDate(instant, timeZone), pattern);

/** "CST" where the zone has an abbreviation, else its IANA name ("GMT+1" says too little). */
export function zoneLabel(instant: Date, timeZone: string) {
  const short = tzName(timeZone, instant, "short");
  return /^(GMT|UTC)[+\-\u2212]/.test(short) ? timeZone : short;
}

function goalDays(days: string[]) {
  const chosen = WEEK.filter((d) => days.includes(d));
  if (chosen.length === WEEK.length) return "Every day";
  if (chosen.length === 0) return "-";
  return chosen.map((d) => d[0].toUpperCase() + d.slice(1)).join(", ");
}

export async function buildPatientReportPdf(data: PatientReportData): Promise<Buffer> {
  const { patient, timeZone } = data;
  const fullName = `${patient.firstName} ${patient.lastName}`.trim();
  const { doc, finished } = openReport(REPORT_TITLE, {
    Title: `${REPORT_TITLE}: ${fullName}`,
    Author: data.generatedBy,
    Creator: PRODUCT_NAME,
    CreationDate: data.generatedAt,
  });
  paragraph(doc, `Data from ${day(data.window.fromDay)} to ${day(data.window.toDay)}`, {
    bold: true,
  });
  const generatedOn = `${dateIn(data.generatedAt, timeZone, "dd-MMM-yyyy HH:mm")} ${zoneLabel(data.generatedAt, timeZone)}`;
  paragraph(doc, `Generated on ${generatedOn} by ${data.generatedBy}`);
  paragraph(doc, data.adherenceRule);

  identity(doc, data);
  goals(doc, data);
  adherence(doc, data);
  summary(doc, data);
  charts(doc, data);
  pageFooters(
    doc,
    `Confidential Report Generated on ${dateIn(data.generatedAt, timeZone, "dd-MMM-yyyy")}`,
  );

  doc.end();
  return finished;
}

function identity(doc: PDFKit.PDFDocument, { patient }: PatientReportData) {
  heading(doc, "Patient");
  const rows: [string, string][] = [
    ["Name", `${patient.firstName} ${patient.lastName}`.trim()],
    ["Patient Id", dash(patient.patientTag)],
    [
      "Date of birth",
      patient.dateOfBirth && /^\d{4}-\d{2}-\d{2}$/.test(patient.dateOfBirth)
        ? day(patient.dateOfBirth)
        : dash(patient.dateOfBirth),
    ],
    ["Email", dash(patient.email)],
    ["Phone", dash(patient.phone)],
    ["Care site", dash(patient.careSiteName)],
    ["Device serial", dash(patient.deviceSerial)],
    ["Status", dash(patient.status)],
    ["Height", dash(patient.height)],
    ["Weight", dash(patient.weight)],
  ];
  const width = contentWidth(doc);
  table(
    doc,
    [
      { header: "", width: 120 },
      { header: "", width: width - 120 },
    ],
    rows,
    { header: false, boldFirstColumn: true },
  );
}

function goals(doc: PDFKit.PDFDocument, data: PatientReportData) {
  heading(doc, "Therapy goals");
  if (data.goals.length === 0) return paragraph(doc, "No therapy goal set");
  const created = (d: Date) => dateIn(d, data.timeZone, "dd-MMM-yyyy");
  const active = data.goals.find((g) => g.active);
  paragraph(
    doc,
    active
      ? `Active goal: ${active.timesPerDay} ${active.timesPerDay === 1 ? "therapy" : "therapies"} per day, ${goalDays(active.days).toLowerCase()} (set on ${created(active.createdAt)} by ${dash(active.createdBy)})`
      : "Active goal: none",
  );
  const width = contentWidth(doc);
  const columns: Column[] = [
    { header: "Set on", width: 75 },
    { header: "Therapies per day", width: 95, align: "right" },
    { header: "Days", width: 150 },
    { header: "Set by", width: width - 75 - 95 - 150 - 60 },
    { header: "Status", width: 60 },
  ];
  table(
    doc,
    columns,
    data.goals.map((g) => [
      created(g.createdAt),
      String(g.timesPerDay),
      goalDays(g.days),
      dash(g.createdBy),
      g.active ? "Active" : "Inactive",
    ]),
  );
}

function adherence(doc: PDFKit.PDFDocument, data: PatientReportData) {
  heading(doc, "Adherence");
  paragraph(
    doc,
    `Current adherence score (as of ${day(data.window.toDay)}): ${percent(data.currentScore)}`,
    { bold: true },
  );
  const columns: Column[] = [
    { header: "Day", width: 85 },
    { header: "Weekday", width: 60 },
    { header: "Goal", width: 60, align: "right" },
    { header: "Therapies", width: 75, align: "right" },
    { header: "Completed", width: 75, align: "right" },
    { header: "Day adherence", width: 85, align: "right" },
    { header: "Score", width: contentWidth(doc) - 440, align: "right" },
  ];
  table(
    doc,
    columns,
    data.days.map((d) => [
      day(d.day),
      formatDay(d.day, "EEE"),
      d.isGoalDay && d.timesPerDay !== null ? String(d.timesPerDay) : "-",
      String(d.therapies),
      String(d.completed),
      percent(d.dayAdherence),
      percent(d.score),
    ]),
    { fontSize: 8.5, rowHeight: 13 },
  );
}

function summary(doc: PDFKit.PDFDocument, { summary: s }: PatientReportData) {
  heading(doc, "Therapy summary");
  const rows: [string, string][] = [
    ["Therapies", String(s.therapies)],
    ["Completed therapies", String(s.completed)],
    ["Deviating therapies", String(s.deviating)],
    ["Days with therapy", String(s.daysWithTherapy)],
    ["Days without therapy", String(s.daysWithoutTherapy)],
    [
      "Average cycles per therapy",
      s.averageCyclesPerTherapy === null ? "-" : s.averageCyclesPerTherapy.toFixed(1),
    ],
    ["Transmissions", String(s.transmissions)],
  ];
  table(
    doc,
    [
      { header: "", width: 160 },
      { header: "", width: 100, align: "right" },
    ],
    rows,
    { header: false, boldFirstColumn: true },
  );
}

function charts(doc: PDFKit.PDFDocument, data: PatientReportData) {
  const days = data.days.map((d) => d.day);
  const x = doc.page.margins.left;
  const width = contentWidth(doc);
  // Drawing text moves doc.y, so the flow resumes below each chart's box, not below its last label.
  const chart = (height: number, draw: (box: Box) => void) => {
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
    const box = { x, y: doc.y, width, height };
    draw(box);
    doc.x = x;
    doc.y = box.y + height + 14;
  };

  heading(doc, "Charts", 170);
  chart(170, (box) =>
    goalBarChart(
      doc,
      box,
      "Completed therapies vs goal (per day)",
      days,
      data.days.map((d) => (d.isGoalDay ? (d.timesPerDay ?? 0) : 0)),
      data.days.map((d) => d.completed),
    ),
  );
  chart(150, (box) =>
    lineChart(
      doc,
      box,
      `${SCORE_HISTORY_TITLE} (%)`,
      days,
      data.days.map((d) => (d.score === null ? null : d.score * 100)),
      SCORE_AXIS,
    ),
  );
  // The page's chart titles, with the unit the page writes on the axis.
  heading(doc, "Therapy trends (per-day averages)", 115);
  const trends: TrendKey[] = ["peakFlow", "expVolume", "peakInspP"];
  for (const key of trends) {
    const title = `${trendTitle(key, "day")} (${TREND_SERIES[key].unit})`;
    chart(115, (box) =>
      lineChart(
        doc,
        box,
        title,
        days,
        data.days.map((d) => d[key]),
        TREND_AXIS,
      ),
    );
  }
  chart(140, (box) =>
    lineChart(
      doc,
      box,
      `${HMR_TITLE} (hours)`,
      days,
      data.days.map((d) => d.maxHmr),
      HMR_AXIS,
    ),
  );
}
