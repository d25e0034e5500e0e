// The therapy dashboard of an uploaded cough log (spec 3 §2.7, §4, §5, §9): the date range and its
// rules, the therapy table, the graph with its annotations, the summary, and the report list.
// Selections, annotations and report items are kept in the database under the upload, so every
// part works with plain forms; they go when the upload goes (cascade).
import { prisma } from "~/lib/db.server";
import { DEFAULT_TIME_ZONE } from "~/lib/time";
import type { DayRange } from "~/domain/deviceLogs/calendar";
import { graphPage, therapyTableRows, GRAPH_PAGE_POINTS } from "~/domain/deviceLogs/graph";
import { deviceDateNote, logYearWarning } from "~/domain/deviceLogs/messages";
import { therapyIndexOf, type CoughLogModel } from "~/domain/deviceLogs/model";
import { summaryOf } from "~/domain/deviceLogs/summary";
import { ANNOTATION_MAX, dashboardRangeErrors, outsideRangeMessage } from "./dashboard";
import {
  complianceReportFileName,
  complianceSeries,
  buildComplianceReportPdf,
  type ComplianceGraph,
} from "~/domain/reports/complianceReport";
import { dmyToIso, loadCoughModel, type LogFileRecord } from "./deviceLog.server";

export const PRODUCT_NAME = "ARC Connect";
export const SELECTED_LABEL = "Selected Therapies";
export const ANNOTATION_TEXT_REQUIRED = "Please enter the annotation text.";

/**
 * The dashboard's range (spec 3 §5): both dates within the first and last therapy dates, From not
 * after To. An invalid pair shows its messages and the whole log is shown meanwhile.
 */
export function readDashboardRange(
  startDate: string | null,
  endDate: string | null,
  file: Pick<LogFileRecord, "firstTherapyAt" | "lastTherapyAt">,
) {
  const first = file.firstTherapyAt ? dmyToIso(file.firstTherapyAt) : null;
  const last = file.lastTherapyAt ? dmyToIso(file.lastTherapyAt) : null;
  const typed = { from: startDate ?? "", to: endDate ?? "" };
  const outside = outsideRangeMessage(file.firstTherapyAt, file.lastTherapyAt);
  const errors = dashboardRangeErrors(typed, { first, last, outside });
  const valid = !errors.from && !errors.to;
  const range: DayRange = valid
    ? { from: typed.from || first || undefined, to: typed.to || last || undefined }
    : { from: first ?? undefined, to: last ?? undefined };
  return { range, typed, errors, valid, first, last };
}

export const parseIds = (json: string): number[] => {
  try {
    const ids = JSON.parse(json) as unknown;
    return Array.isArray(ids) ? ids.filter((n): n is number => Number.isInteger(n)) : [];
  } catch {
    return [];
  }
};

function rangeCaption(range: DayRange, selected: boolean, page: number, pages: number) {
  const span = `Therapies ${range.from ?? "start"} to ${range.to ?? "end"}`;
  const paged =
    pages > 1 ? `, points ${(page - 1) * GRAPH_PAGE_POINTS + 1}+ (page ${page} of ${pages})` : "";
  return `${span}${paged}${selected ? ` (${SELECTED_LABEL})` : ""}`;
}

/** The graph of a view with the annotations anchored to its cycles, x as the point number. */
async function graphWithAnnotations(
  file: LogFileRecord,
  model: CoughLogModel,
  query: DayRange & { eventIds: number[]; page: number },
) {
  const page = graphPage(model, query);
  const ids = page.cycleEventIds ?? [];
  const notes = ids.length
    ? await prisma.logAnnotation.findMany({
        where: { logFileId: file.id, cycleEventId: { gte: ids[0], lte: ids[ids.length - 1] } },
        orderBy: { createdAt: "asc" },
      })
    : [];
  const pointOf = new Map(ids.map((id, i) => [id, page.merged_data.P_F.x[i]]));
  const annotations = notes.flatMap((n) => {
    const x = pointOf.get(n.cycleEventId);
    return x === undefined ? [] : [{ id: n.id, x, y: n.y, text: n.text }];
  });
  return { page, annotations };
}

export type DashboardQuery = {
  startDate: string | null;
  endDate: string | null;
  q: string;
  tablePage: number;
  graphPage: number;
};

export async function loadTherapyDashboard(
  file: LogFileRecord,
  query: DashboardQuery,
  now = new Date(),
) {
  const dates = readDashboardRange(query.startDate, query.endDate, file);
  // A model read from disk comes with its summary of this range (computed in the worker).
  const model = await loadCoughModel(file, dates.range);
  const selection = parseIds(file.selection);
  const table = therapyTableRows(model, { ...dates.range, q: query.q, page: query.tablePage });
  const graph = await graphWithAnnotations(file, model, {
    ...dates.range,
    eventIds: selection,
    page: query.graphPage,
  });
  const summary = summaryOf(model, dates.range);
  const items = await prisma.logReportItem.findMany({
    where: { logFileId: file.id },
    orderBy: { createdAt: "asc" },
  });
  const years = (a: string | null, b: string | null) => ({
    startYear: Number(a?.slice(0, 4) ?? now.getFullYear()),
    endYear: Number(b?.slice(0, 4) ?? now.getFullYear()),
  });
  const therapyYears = years(dates.first, dates.last);
  return {
    file: {
      uuid: file.id,
      serial: file.deviceSerial,
      fileName: file.fileName,
      firstTherapyAt: file.firstTherapyAt,
      lastTherapyAt: file.lastTherapyAt,
      expiresAt: file.expiresAt.toISOString(),
    },
    dates,
    selection,
    label: selection.length > 0 ? SELECTED_LABEL : "",
    table,
    graph,
    summary,
    items: items.map((i) => ({ id: i.id, caption: i.caption })),
    deviceNote: deviceDateNote(years(file.logsFrom, file.logsTo), now),
    yearWarning:
      logYearWarning(therapyYears.startYear, now) ?? logYearWarning(therapyYears.endYear, now),
  };
}

/**
 * The table's checkboxes for one page: the ids shown on that page are replaced by those ticked,
 * the rest of the selection stays.
 */
export async function saveSelection(file: LogFileRecord, shown: number[], ticked: number[]) {
  const model = await loadCoughModel(file);
  const known = (id: number) => therapyIndexOf(model, id) !== -1;
  const keep = parseIds(file.selection).filter((id) => !shown.includes(id));
  const next = [...new Set([...keep, ...ticked.filter(known)])].sort((a, b) => a - b);
  await prisma.logFile.update({
    where: { id: file.id },
    data: { selection: JSON.stringify(next) },
  });
}

export async function clearSelection(file: LogFileRecord) {
  await prisma.logFile.update({ where: { id: file.id }, data: { selection: "[]" } });
}

/** "Add Graph to Report": what the chart shows now, kept to be drawn again later. */
export async function addReportItem(file: LogFileRecord, range: DayRange, page: number) {
  const model = await loadCoughModel(file);
  const selection = parseIds(file.selection);
  const graph = graphPage(model, { ...range, eventIds: selection, page });
  await prisma.logReportItem.create({
    data: {
      logFileId: file.id,
      caption: rangeCaption(range, selection.length > 0, graph.page, graph.pages),
      fromDay: range.from ?? "",
      toDay: range.to ?? "",
      eventIds: JSON.stringify(selection),
      page: graph.page,
    },
  });
}

export async function countReportItems(file: LogFileRecord) {
  return prisma.logReportItem.count({ where: { logFileId: file.id } });
}

export async function deleteReportItem(file: LogFileRecord, id: string) {
  await prisma.logReportItem.deleteMany({ where: { id, logFileId: file.id } });
}

export type AnnotationInput = { x: number; y: number; text: string };

/**
 * An annotation at point x of the current view (range and selection), y in cm H2O. Blank text
 * is refused; a point outside the view gives an error message too.
 */
export async function addAnnotation(
  file: LogFileRecord,
  range: DayRange,
  input: AnnotationInput,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const text = input.text.trim();
  if (!text) return { ok: false, message: ANNOTATION_TEXT_REQUIRED };
  if (text.length > ANNOTATION_MAX)
    return { ok: false, message: `An annotation holds at most ${ANNOTATION_MAX} characters.` };
  if (!Number.isFinite(input.y) || input.y < -90 || input.y > 90)
    return { ok: false, message: "The position y must be between -90 and 90 cm H2O." };
  const model = await loadCoughModel(file);
  const x = Math.floor(input.x);
  const page = graphPage(model, {
    ...range,
    eventIds: parseIds(file.selection),
    page: Math.ceil(x / GRAPH_PAGE_POINTS),
  });
  const index = x - (page.page - 1) * GRAPH_PAGE_POINTS - 1;
  const cycleEventId = x >= 1 && x <= page.points ? page.cycleEventIds?.[index] : undefined;
  if (cycleEventId === undefined)
    return { ok: false, message: `The position x must be a point from 1 to ${page.points}.` };
  await prisma.logAnnotation.create({
    data: { logFileId: file.id, cycleEventId, y: input.y, text },
  });
  return { ok: true };
}

/**
 * The report list's graphs, each drawn again from the log (thumbnails, preview, PDF), in the order
 * they were added; only the item `itemId` when given.
 */
export async function reportItemGraphs(file: LogFileRecord, itemId?: string) {
  const items = await prisma.logReportItem.findMany({
    where: { logFileId: file.id, ...(itemId === undefined ? {} : { id: itemId }) },
    orderBy: { createdAt: "asc" },
  });
  if (items.length === 0) return [];
  const model = await loadCoughModel(file);
  const graphs = [];
  for (const item of items) {
    const graph = await graphWithAnnotations(file, model, {
      from: item.fromDay || undefined,
      to: item.toDay || undefined,
      eventIds: parseIds(item.eventIds),
      page: item.page,
    });
    graphs.push({ id: item.id, caption: item.caption, ...graph });
  }
  return graphs;
}

/** The Therapy Compliance Report of the report list (spec 3 §9), for the dashboard's range. */
export async function buildLogReport(file: LogFileRecord, range: DayRange, now = new Date()) {
  const items = await reportItemGraphs(file);
  if (items.length === 0) return null;
  const model = await loadCoughModel(file, range);
  const graphs: ComplianceGraph[] = items.map(({ caption, page, annotations }) => ({
    caption,
    series: complianceSeries(page.merged_data),
    annotations: annotations.map(({ x, y, text }) => ({ x, y, text })),
  }));
  const window = { from: range.from ?? "", to: range.to ?? "" };
  const data = {
    productName: PRODUCT_NAME,
    serial: file.deviceSerial,
    window,
    generatedAt: now,
    timeZone: DEFAULT_TIME_ZONE,
    summary: summaryOf(model, range),
    graphs,
  };
  return { pdf: await buildComplianceReportPdf(data), fileName: complianceReportFileName(data) };
}
