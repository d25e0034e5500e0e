// What /decrypt shows (spec 3 §2.7, §4, §5): the decrypt tool's own page, or an upload's therapy
// dashboard with its graph drawn on the server (SVG), the summary's rows, the report drawer's
// thumbnails and the dialog the URL opens (?dialog=summary|preview|help|annotate).
import { therapyDashboardChartSvg } from "./ui/chartSvg.server";
import { ZOOM_MAX, ZOOM_MIN } from "./dashboard";
import { DECRYPT_DIALOG } from "./decryptDialog";
import { findLogFile, loadDecryptDialog, type LogFileRecord } from "./deviceLog.server";
import { formatSummaryField, type LogSummary } from "./summary";
import { loadTherapyDashboard, reportItemGraphs } from "./therapyDashboard.server";

const SUMMARY_FIELDS: [string, keyof LogSummary][] = [
  ["Total Therapies", "totalTherapies"],
  ["First Therapy", "firstTherapyAt"],
  ["Last Therapy", "lastTherapyAt"],
  ["Average Cycles per Therapy", "average_NC"],
  ["Average Therapies per Day", "average_Therapy"],
  ["SD Therapies per Day", "sdTherapiesPerDay"],
  ["Days Without Therapy", "noDaysWithoutTherapy"],
  ["Average Expiratory Volume (ml)", "average_EV"],
  ["SD Expiratory Volume (ml)", "sdExpVol"],
  ["Average Peak Expiratory Flow (L/min)", "average_PF"],
  ["SD Peak Expiratory Flow (L/min)", "sdExpFlow"],
  ["HMR (hours)", "HMR"],
  ["Usage HMR (hours)", "usageHMR"],
];

/** A page number from the query: a positive integer, 1 otherwise. */
export const positiveInt = (text: string | null) => {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : 1;
};

/** The decrypt dialog as the tool's own page (no uuid), for any visitor. */
export async function loadDecryptTool(search: URLSearchParams) {
  const dialog = new URLSearchParams(search);
  dialog.set("dialog", DECRYPT_DIALOG);
  return (await loadDecryptDialog(dialog))!;
}

/**
 * The cough log a dashboard URL names: `missing` when there is none (or it is not a cough log),
 * `wrongDevice` when `id` names another device.
 */
export async function findCoughLog(uuid: string | null, deviceId: string | null) {
  const file = await findLogFile(uuid);
  if (!file || file.deviceType !== "cough") return { missing: true as const };
  if (deviceId && deviceId !== file.deviceSerial) return { wrongDevice: true as const };
  return { file };
}

/** The dashboard's query, read from the URL. */
export function readDashboardQuery(search: URLSearchParams) {
  const dialog = search.get("dialog");
  return {
    startDate: search.get("startDate"),
    endDate: search.get("endDate"),
    q: search.get("q") ?? "",
    tablePage: positiveInt(search.get("tp")),
    graphPage: positiveInt(search.get("gp")),
    showTable: search.get("therapies") !== "hide",
    drawer: search.get("drawer") === "report",
    dialog,
    item: search.get("item") ?? "",
    zoom: Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Number(search.get("zoom")) || ZOOM_MIN)),
    annotate: dialog === "annotate" ? { x: search.get("x") ?? "", y: search.get("y") ?? "" } : null,
  };
}

export type DashboardQuery = ReturnType<typeof readDashboardQuery>;

export async function loadDashboardPage(file: LogFileRecord, query: DashboardQuery) {
  const view = await loadTherapyDashboard(file, query);
  const [preview] = query.dialog === "preview" ? await reportItemGraphs(file, query.item) : [];
  const thumbnails = query.drawer
    ? (await reportItemGraphs(file)).map((graph) => ({
        id: graph.id,
        caption: graph.caption,
        svg: therapyDashboardChartSvg(graph.page, graph.annotations),
      }))
    : view.items.map((item) => ({ ...item, svg: "" }));
  return {
    ...view,
    graph: {
      page: view.graph.page.page,
      pages: view.graph.page.pages,
      points: view.graph.page.points,
      annotations: view.graph.annotations,
      svg: therapyDashboardChartSvg(view.graph.page, view.graph.annotations),
    },
    summaryRows: SUMMARY_FIELDS.map(([label, key]) => [
      label,
      formatSummaryField(view.summary, key),
    ]),
    q: query.q,
    showTable: query.showTable,
    drawer: query.drawer,
    thumbnails,
    dialog: query.dialog,
    preview: preview
      ? {
          id: query.item,
          caption: preview.caption,
          svg: therapyDashboardChartSvg(preview.page, preview.annotations),
          zoom: query.zoom,
        }
      : null,
    annotate: query.annotate,
  };
}

export type DashboardPage = Awaited<ReturnType<typeof loadDashboardPage>>;
