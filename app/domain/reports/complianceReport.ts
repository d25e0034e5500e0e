// The therapy dashboard's report (spec 3 §2.7, §4 "Report flow", §9 "Report PDF"): pure, data in
// and bytes out. Page 1 holds the title, the device and window, the 6×4 summary table and the
// first captured graph; every further graph has a page of its own. Graphs are drawn as vector
// paths from the dashboard's chart data, not embedded as images.
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { formatDay } from "~/lib/time";
import type { ChartAnnotation } from "~/domain/deviceLogs/chart";
import type { MeasurementSeries, MergedData, SetPressureSeries } from "~/domain/deviceLogs/graph";
import {
  formatSummaryField,
  formatSummaryValue,
  type LogSummary,
} from "~/domain/deviceLogs/summary";
import {
  cycleChart,
  type CycleChartSeries,
  type MeasurementPoint,
  type SetPressurePoint,
} from "./pdfCycleChart";
import * as layout from "./pdfLayout";

export type ComplianceGraph = {
  /** e.g. "Therapies 01-Nov-2026 to 07-Nov-2026 (Selected Therapies)" */
  caption: string;
  /** The dashboard's main chart data, one point per cycle (x = point number). */
  series: CycleChartSeries;
  /** Positions in the chart's units: x a point number, y in cm H2O. */
  annotations: ChartAnnotation[];
};

/** The log's summary (domain/deviceLogs summarize), as the report's table shows it. */
export type ComplianceSummary = LogSummary;

export type ComplianceReportData = {
  productName: string; // "ARC Connect"
  serial: string; // device serial from the log file name
  window: { from: string; to: string }; // YYYY-MM-DD
  generatedAt: Date;
  timeZone: string; // IANA zone the generation date is shown in
  summary: ComplianceSummary;
  graphs: ComplianceGraph[]; // at least one
};

const setPressurePoints = (s: SetPressureSeries): SetPressurePoint[] =>
  s.x.map((x, i) => ({ x, y: s.y[i] ?? null, o: s.o[i] ?? null }));
const measurementPoints = (s: MeasurementSeries): MeasurementPoint[] =>
  s.x.map((x, i) => ({ x, y: s.y[i] ?? null }));

/** A graph page's columnar merged_data as the report chart's point lists (x = point number). */
export function complianceSeries(merged: MergedData): CycleChartSeries {
  return {
    P_P: setPressurePoints(merged.Cycle_P_P),
    I_P: setPressurePoints(merged.Cycle_I_P),
    E_P: setPressurePoints(merged.Cycle_E_P),
    P_F: measurementPoints(merged.P_F),
    P_IP: measurementPoints(merged.P_IP),
    E_V: measurementPoints(merged.E_V),
  };
}

export const COMPLIANCE_REPORT_TITLE = "Therapy Compliance Report";
const CAPTION_SPACE = 30;

/** Anything outside [A-Za-z0-9.-] (spaces included) becomes "_" so the name is one safe token. */
const fileToken = (value: string) => value.trim().replace(/[^A-Za-z0-9.-]+/g, "_");

/**
 * Spec 3 §9: product-name_Cough_{serial}_TherapyReport_{start}_{end}.pdf, e.g.
 * "ARC_Connect_Cough_C1001_TherapyReport_2026-11-01_2026-11-07.pdf" (spaces become "_").
 */
export function complianceReportFileName(
  data: Pick<ComplianceReportData, "productName" | "serial" | "window">,
): string {
  const { productName, serial, window } = data;
  return `${fileToken(productName)}_Cough_${fileToken(serial)}_TherapyReport_${fileToken(window.from)}_${fileToken(window.to)}.pdf`;
}

const value = formatSummaryValue;

/**
 * The summary table: 6 rows of two label/value pairs. The first and last therapy dates share the
 * "Therapy Period" cell, so the 13 summary fields fill the 12 pairs.
 */
export function complianceSummaryRows(s: ComplianceSummary): string[][] {
  const field = (key: keyof ComplianceSummary) => formatSummaryField(s, key);
  const period =
    s.firstTherapyAt === null && s.lastTherapyAt === null
      ? "N/A"
      : `${value(s.firstTherapyAt)} to ${value(s.lastTherapyAt)}`;
  return [
    ["Total Therapies", field("totalTherapies"), "Therapy Period", period],
    [
      "Average Cycles per Therapy",
      value(s.average_NC),
      "Days Without Therapy",
      field("noDaysWithoutTherapy"),
    ],
    [
      "Average Therapies per Day",
      value(s.average_Therapy),
      "SD Therapies per Day",
      value(s.sdTherapiesPerDay),
    ],
    [
      "Average Expiratory Volume (ml)",
      value(s.average_EV),
      "SD Expiratory Volume (ml)",
      value(s.sdExpVol),
    ],
    [
      "Average Peak Exp. Flow (L/min)",
      value(s.average_PF),
      "SD Peak Exp. Flow (L/min)",
      value(s.sdExpFlow),
    ],
    ["HMR (hours)", value(s.HMR), "Usage HMR (hours)", value(s.usageHMR)],
  ];
}

export async function buildComplianceReportPdf(data: ComplianceReportData): Promise<Buffer> {
  if (data.graphs.length === 0)
    throw new RangeError("A compliance report needs at least one graph");
  const { doc, finished } = layout.openReport(COMPLIANCE_REPORT_TITLE, {
    Title: `${COMPLIANCE_REPORT_TITLE}: ${data.serial}`,
    Creator: data.productName,
    CreationDate: data.generatedAt,
  });
  layout.paragraph(doc, `${data.productName} Cough device serial: ${data.serial}`, { bold: true });
  layout.paragraph(
    doc,
    `Report window: ${formatDay(data.window.from, "dd-MMM-yyyy")} to ${formatDay(data.window.to, "dd-MMM-yyyy")}`,
  );

  layout.heading(doc, "Therapy Summary");
  const width = layout.contentWidth(doc);
  // Sized for the longest labels at 9 pt and the "Therapy Period" value.
  layout.table(
    doc,
    [
      { header: "", width: 145 },
      { header: "", width: 90, align: "right" },
      { header: "", width: 125 },
      { header: "", width: width - 360, align: "right" },
    ],
    complianceSummaryRows(data.summary),
    { header: false, boldColumns: [0, 2], rowHeight: 18 },
  );

  // Every graph gets the height left on page 1, so the pages look alike.
  const top = doc.y + 6;
  const height = doc.page.height - layout.MARGIN.bottom - top - CAPTION_SPACE;
  data.graphs.forEach((graph, i) => {
    const y = i === 0 ? top : layout.MARGIN.top;
    if (i > 0) doc.addPage();
    const box = { x: layout.MARGIN.left, y, width, height };
    cycleChart(doc, box, graph.series, graph.annotations);
    doc.font(layout.FONT).fontSize(9).fillColor("#212529");
    doc.text(graph.caption, layout.MARGIN.left, y + height + 8, {
      width,
      align: "center",
      height: CAPTION_SPACE - 8,
      ellipsis: true,
    });
  });

  layout.pageFooters(
    doc,
    `Confidential Report Generated on ${format(new TZDate(data.generatedAt, data.timeZone), "dd-MMM-yyyy")}`,
  );
  doc.end();
  return finished;
}
