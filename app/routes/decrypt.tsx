// /decrypt?uuid=&id=&startDate=&endDate=: the therapy dashboard of an uploaded cough log (spec 3
// §2.7, §4, §5). Public: the upload's uuid is the only key. Every part is a link or a form that
// posts and redirects (selections, annotations and the report list live on the server), so it
// works without JavaScript; public/js/therapy-dashboard.js adds the right-click annotation, the
// 'Adding Graph ....' indicator and the guided tour. The page does not hydrate.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Dialog } from "~/ui/Dialog";
import { Flash } from "~/ui/Flash";
import { DateInput } from "~/ui/forms";
import { DecryptLogDialog } from "~/domain/deviceLogs/ui/DecryptLogDialog";
import { readForm } from "~/lib/formBody.server";
import { DECRYPT_DIALOG } from "~/domain/deviceLogs/decryptDialog";
import { notFound } from "~/lib/http.server";
import { withParams } from "~/lib/listParams";
import { redirectWithFlash } from "~/lib/session.server";
import { findLogFile, loadDecryptDialog, type LogFileRecord } from "~/domain/deviceLogs/deviceLog.server";
import {
  addAnnotation,
  addReportItem,
  ANNOTATION_MAX,
  clearSelection,
  countReportItems,
  deleteReportItem,
  loadTherapyDashboard,
  readDashboardRange,
  reportItemGraphs,
  saveSelection,
} from "~/domain/deviceLogs/therapyDashboard.server";
import { therapyDashboardChartSvg } from "~/domain/deviceLogs/ui/chartSvg.server";
import { formatSummaryValue } from "~/domain/deviceLogs/summary";
import { useRootFlash, type RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title:
      data && "file" in data
        ? `${data.file.serial} Therapy Dashboard | ARC Connect`
        : "Decrypt Log Files | ARC Connect",
  },
];

const ZOOM_STEP = 0.2;
const ZOOM_MIN = 1;
const ZOOM_MAX = 3;

const positiveInt = (text: string | null) => {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : 1;
};

async function requireCoughLog(search: URLSearchParams) {
  const file = await findLogFile(search.get("uuid"));
  if (!file || file.deviceType !== "cough") notFound("This log file is not available.");
  if (search.get("id") && search.get("id") !== file.deviceSerial) notFound();
  return file;
}

const SUMMARY_FIELDS: [
  string,
  keyof Awaited<ReturnType<typeof loadTherapyDashboard>>["summary"],
][] = [
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

export async function loader({ request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  if (!search.has("uuid")) {
    // The tool's own page: the decrypt dialog for any visitor, signed in or not.
    const dialog = new URLSearchParams(search);
    dialog.set("dialog", DECRYPT_DIALOG);
    return { tool: (await loadDecryptDialog(dialog))! };
  }
  const file = await requireCoughLog(search);
  const view = await loadTherapyDashboard(file, {
    startDate: search.get("startDate"),
    endDate: search.get("endDate"),
    q: search.get("q") ?? "",
    tablePage: positiveInt(search.get("tp")),
    graphPage: positiveInt(search.get("gp")),
  });
  const dialog = search.get("dialog");
  const drawer = search.get("drawer") === "report";
  const zoom = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Number(search.get("zoom")) || ZOOM_MIN));
  const [preview] =
    dialog === "preview" ? await reportItemGraphs(file, search.get("item") ?? "") : [];
  const thumbnails = drawer
    ? (await reportItemGraphs(file)).map((graph) => ({
        id: graph.id,
        caption: graph.caption,
        svg: therapyDashboardChartSvg(graph.page, graph.annotations),
      }))
    : view.items.map((item) => ({ ...item, svg: "" }));
  return {
    tool: null,
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
      formatSummaryValue(view.summary[key]),
    ]),
    q: search.get("q") ?? "",
    showTable: search.get("therapies") !== "hide",
    drawer,
    thumbnails,
    dialog,
    preview: preview
      ? {
          id: search.get("item") ?? "",
          caption: preview.caption,
          svg: therapyDashboardChartSvg(preview.page, preview.annotations),
          zoom,
        }
      : null,
    annotate: dialog === "annotate" ? { x: search.get("x") ?? "", y: search.get("y") ?? "" } : null,
  };
}

const ids = (values: FormDataEntryValue[]) =>
  values.map(Number).filter((n) => Number.isInteger(n) && n > 0);

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const search = url.searchParams;
  const file: LogFileRecord = await requireCoughLog(search);
  const form = await readForm(request);
  const back = (changes: Record<string, string | null> = {}) =>
    `${url.pathname}${withParams(url.search, changes)}`;
  const dates = readDashboardRange(search.get("startDate"), search.get("endDate"), file);

  switch (form.get("intent")) {
    case "range": {
      const startDate = String(form.get("startDate") ?? "");
      const endDate = String(form.get("endDate") ?? "");
      // Applying a range clears the selection (spec 3 §4); a refused one changes nothing.
      if (readDashboardRange(startDate, endDate, file).valid) await clearSelection(file);
      return redirect(back({ startDate, endDate, tp: null, gp: null, q: null }));
    }
    case "select":
      await saveSelection(file, ids(form.getAll("shown")), ids(form.getAll("eventId")));
      return redirect(back({ gp: null }));
    case "clearSelection":
      await clearSelection(file);
      return redirect(back({ gp: null }));
    case "addGraph":
      await addReportItem(file, dates.range, positiveInt(search.get("gp")));
      return redirectWithFlash(request, back(), "success", "Graph added to the report.");
    case "generate":
      if ((await countReportItems(file)) === 0)
        await addReportItem(file, dates.range, positiveInt(search.get("gp")));
      return redirect(back({ drawer: "report", dialog: null }));
    case "deleteItem":
      await deleteReportItem(file, String(form.get("item") ?? ""));
      return redirect(back({ dialog: null, item: null, zoom: null }));
    case "annotate": {
      const result = await addAnnotation(file, dates.range, {
        x: Number(form.get("x")),
        y: Number(form.get("y")),
        text: String(form.get("text") ?? ""),
      });
      if (!result.ok)
        return data(
          {
            annotationError: result.message,
            typed: {
              x: String(form.get("x") ?? ""),
              y: String(form.get("y") ?? ""),
              text: String(form.get("text") ?? ""),
            },
          },
          { status: 400 },
        );
      return redirect(back({ dialog: null, x: null, y: null }));
    }
    default:
      throw new Response("Unknown intent", { status: 400 });
  }
}

type LoaderData = Exclude<ReturnType<typeof useLoaderData<typeof loader>>, { tool: object }>;

export default function DecryptPage() {
  const loaded = useLoaderData<typeof loader>();
  if (loaded.tool) {
    return (
      <main className="public-page py-5">
        <DecryptLogDialog data={loaded.tool} origin="/decrypt" closeHref="/" />
      </main>
    );
  }
  return <TherapyDashboard view={loaded as LoaderData} />;
}

function TherapyDashboard({ view }: { view: LoaderData }) {
  const flash = useRootFlash();
  const location = useLocation();
  const href = (changes: Record<string, string | null>) =>
    `${location.pathname}${withParams(location.search, changes)}`;
  const itemCount = view.items.length;

  return (
    <div className="therapy-dashboard">
      <header className="dashboard-header navbar navbar-dark bg-primary px-3 sticky-top">
        <Link to="/" className="navbar-brand fw-bold" data-tour="1" reloadDocument>
          ARC Connect
        </Link>
        <h1 className="h5 text-white mb-0 flex-grow-1">{view.file.serial} Therapy Dashboard</h1>
        <div className="d-flex gap-2">
          <Link
            to={href({ dialog: "help" })}
            className="btn btn-sm btn-light"
            data-role="how-to-use"
            preventScrollReset
          >
            How to use
          </Link>
          <Form method="post" data-tour="6">
            <button type="submit" name="intent" value="generate" className="btn btn-sm btn-warning">
              Generate Report{itemCount > 0 ? ` (${itemCount})` : ""}
            </button>
          </Form>
        </div>
      </header>

      <div className="container-fluid py-2">
        <Flash flash={flash} />
        {view.deviceNote ? (
          <div className="alert alert-warning py-2" role="alert">
            {view.deviceNote}
          </div>
        ) : null}
        <Toolbar view={view} href={href} />
      </div>

      <div className="dashboard-body d-flex align-items-start gap-3 px-3 pb-4">
        {view.showTable ? <TherapyTable view={view} href={href} /> : null}
        <section className="flex-grow-1 dashboard-graph" aria-label="Therapy graph" data-tour="4">
          {view.label ? (
            <p className="fw-semibold mb-1" data-testid="graph-label">
              {view.label}
            </p>
          ) : null}
          <div
            className="chart-scroll border rounded bg-white"
            data-annotate-href={href({ dialog: "annotate", x: "X", y: "Y" })}
            // The SVG is made on the server from numbers (svg.server.tsx): no user text but
            // annotations, which React escapes into it as text nodes.
            dangerouslySetInnerHTML={{ __html: view.graph.svg }}
          />
          <GraphPager view={view} href={href} />
          <AnnotationForm x="" y="" points={view.graph.points} compact error={null} text="" />
        </section>
        {view.drawer ? <ReportDrawer view={view} href={href} /> : null}
      </div>

      <Dialogs view={view} href={href} />
      <script src="/js/therapy-dashboard.js" defer />
    </div>
  );
}

type ViewProps = { view: LoaderData; href: (changes: Record<string, string | null>) => string };

function Toolbar({ view, href }: ViewProps) {
  const { dates } = view;
  const hasSummary = view.summary.totalTherapies > 0;
  return (
    <div className="d-flex flex-wrap align-items-end gap-3 border rounded p-2 bg-light">
      <Link
        to={href({ therapies: view.showTable ? "hide" : null })}
        className="btn btn-outline-secondary btn-sm"
        preventScrollReset
      >
        {view.showTable ? "Hide Therapies" : "Show Therapies"}
      </Link>
      <Form
        method="post"
        className="d-flex flex-wrap align-items-end gap-2"
        data-tour="2"
        noValidate
      >
        <input type="hidden" name="intent" value="range" />
        <DateInput
          name="startDate"
          label="From"
          value={dates.typed.from || (dates.valid ? (dates.range.from ?? "") : "")}
          min={dates.first}
          max={dates.last}
          error={dates.errors.from}
          small
        />
        <DateInput
          name="endDate"
          label="To"
          value={dates.typed.to || (dates.valid ? (dates.range.to ?? "") : "")}
          min={dates.first}
          max={dates.last}
          error={dates.errors.to}
          small
        />
        <button type="submit" className="btn btn-primary btn-sm">
          Apply
        </button>
        <Link
          to={href({ startDate: null, endDate: null, tp: null, gp: null })}
          className="btn btn-link btn-sm"
        >
          Clear
        </Link>
      </Form>
      {view.yearWarning ? (
        <p className="text-warning-emphasis small mb-0" role="alert">
          {view.yearWarning}
        </p>
      ) : null}
      <div className="ms-auto d-flex gap-2">
        {hasSummary ? (
          <Link
            to={href({ dialog: "summary" })}
            className="btn btn-outline-primary btn-sm"
            preventScrollReset
          >
            Summary
          </Link>
        ) : (
          <button type="button" className="btn btn-outline-primary btn-sm" disabled>
            Summary
          </button>
        )}
        <Form method="post" data-tour="5">
          <button
            type="submit"
            name="intent"
            value="addGraph"
            className="btn btn-success btn-sm"
            data-role="add-graph"
            disabled={view.graph.points === 0}
          >
            Add Graph to Report
          </button>
        </Form>
      </div>
    </div>
  );
}

function TherapyTable({ view, href }: ViewProps) {
  const { table } = view;
  const selected = new Set(view.selection);
  return (
    <aside
      className="therapy-drawer border rounded bg-white p-2"
      aria-label="Therapy Table"
      data-tour="3"
    >
      <h2 className="h6">Therapy Table</h2>
      <Form method="get" className="mb-2" role="search">
        {["uuid", "id", "startDate", "endDate", "therapies", "drawer"].map((k) => (
          <HiddenParam key={k} name={k} />
        ))}
        <label htmlFor="therapy-search" className="visually-hidden">
          Search therapies
        </label>
        <input
          id="therapy-search"
          type="search"
          name="q"
          defaultValue={view.q}
          placeholder="Event ID, Event Type, Log Type"
          className="form-control form-control-sm"
        />
      </Form>
      {table.rows.length === 0 ? (
        <p className="text-muted small">No data available</p>
      ) : (
        <Form method="post" className="therapy-select">
          {table.rows.map((row) => (
            <input key={row["Event ID"]} type="hidden" name="shown" value={row["Event ID"]} />
          ))}
          <ul className="list-unstyled small mb-2">
            {table.rows.map((row) => (
              <li key={row["Event ID"]} className="border-bottom py-1">
                <div className="d-flex align-items-start gap-2">
                  <input
                    type="checkbox"
                    name="eventId"
                    value={row["Event ID"]}
                    defaultChecked={selected.has(row["Event ID"])}
                    className="form-check-input mt-1"
                    aria-label={`Select therapy ${row["Event ID"]}`}
                  />
                  <details className="flex-grow-1">
                    <summary>
                      <span className="fw-semibold">{row["Time Stamp"]}</span>
                      <br />
                      Cycles {row.N_C ?? "N/A"} · {row.MODE ?? "N/A"} · #{row["Event ID"]} ·{" "}
                      {row["Log Type"]}
                    </summary>
                    <dl className="row mb-0 mt-1">
                      <KeyValue
                        label="Pause"
                        value={`${row.P_P ?? "N/A"} cmH2O, ${row.P_T ?? "N/A"} s`}
                      />
                      <KeyValue
                        label="Inspiratory"
                        value={`${row.I_P ?? "N/A"} cmH2O, ${row.I_T ?? "N/A"} s`}
                      />
                      <KeyValue
                        label="Expiratory"
                        value={`${row.E_P ?? "N/A"} cmH2O, ${row.E_T ?? "N/A"} s`}
                      />
                      {row.other.map((o) => (
                        <KeyValue key={o.key} label={o.key} value={o.value} />
                      ))}
                    </dl>
                  </details>
                </div>
              </li>
            ))}
          </ul>
          <div className="d-flex gap-2 flex-wrap">
            <button
              type="submit"
              name="intent"
              value="select"
              className="btn btn-sm btn-primary"
              data-role="apply-selection"
            >
              Update selection
            </button>
            {view.selection.length > 0 ? (
              <button
                type="submit"
                name="intent"
                value="clearSelection"
                className="btn btn-sm btn-outline-secondary"
              >
                Clear selection ({view.selection.length})
              </button>
            ) : null}
          </div>
        </Form>
      )}
      {table.pages > 1 ? (
        <nav
          aria-label="Therapy pages"
          className="d-flex justify-content-between align-items-center mt-2 small"
        >
          <PageLink href={href({ tp: String(table.page - 1) })} disabled={table.page <= 1}>
            Previous
          </PageLink>
          <span>
            Page {table.page} of {table.pages} ({table.total})
          </span>
          <PageLink
            href={href({ tp: String(table.page + 1) })}
            disabled={table.page >= table.pages}
          >
            Next
          </PageLink>
        </nav>
      ) : null}
    </aside>
  );
}

function HiddenParam({ name }: { name: string }) {
  const value = new URLSearchParams(useLocation().search).get(name);
  return value ? <input type="hidden" name={name} value={value} /> : null;
}

function KeyValue({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="col-5 fw-normal text-muted">{label}</dt>
      <dd className="col-7 mb-0">{value}</dd>
    </>
  );
}

function PageLink({
  href,
  disabled,
  children,
}: {
  href: string;
  disabled: boolean;
  children: ReactNode;
}) {
  return disabled ? (
    <span className="text-muted">{children}</span>
  ) : (
    <Link to={href} preventScrollReset>
      {children}
    </Link>
  );
}

function GraphPager({ view, href }: ViewProps) {
  const { graph } = view;
  if (graph.pages <= 1) return <p className="small text-muted mt-1">{graph.points} points</p>;
  return (
    <nav aria-label="Graph pages" className="d-flex gap-3 align-items-center small mt-1">
      <PageLink href={href({ gp: String(graph.page - 1) })} disabled={graph.page <= 1}>
        Previous points
      </PageLink>
      <span>
        Points page {graph.page} of {graph.pages} ({graph.points} points)
      </span>
      <PageLink href={href({ gp: String(graph.page + 1) })} disabled={graph.page >= graph.pages}>
        Next points
      </PageLink>
    </nav>
  );
}

function AnnotationForm({
  x,
  y,
  text,
  points,
  error,
  compact,
}: {
  x: string;
  y: string;
  text: string;
  points: number;
  error: string | null;
  compact?: boolean;
}) {
  if (points === 0) return null;
  return (
    <Form
      method="post"
      className={
        compact ? "d-flex flex-wrap align-items-end gap-2 mt-2 annotation-form" : "annotation-form"
      }
      aria-label="Add Annotation"
    >
      <input type="hidden" name="intent" value="annotate" />
      {compact ? <span className="small fw-semibold">Add Annotation</span> : null}
      <div>
        <label className="form-label small mb-0" htmlFor={`ann-x-${compact ? "c" : "d"}`}>
          Position x (point)
        </label>
        <input
          id={`ann-x-${compact ? "c" : "d"}`}
          type="number"
          name="x"
          min={1}
          max={points}
          step={1}
          required
          defaultValue={x}
          className="form-control form-control-sm"
        />
      </div>
      <div>
        <label className="form-label small mb-0" htmlFor={`ann-y-${compact ? "c" : "d"}`}>
          Position y (cm H2O)
        </label>
        <input
          id={`ann-y-${compact ? "c" : "d"}`}
          type="number"
          name="y"
          min={-90}
          max={90}
          step="any"
          required
          defaultValue={y}
          className="form-control form-control-sm"
        />
      </div>
      <div className="flex-grow-1">
        <label className="form-label small mb-0" htmlFor={`ann-text-${compact ? "c" : "d"}`}>
          Text
        </label>
        <input
          id={`ann-text-${compact ? "c" : "d"}`}
          type="text"
          name="text"
          maxLength={ANNOTATION_MAX}
          defaultValue={text}
          className={`form-control form-control-sm${error ? " is-invalid" : ""}`}
          data-role="annotation-text"
        />
        {error ? <div className="invalid-feedback d-block">{error}</div> : null}
      </div>
      <button type="submit" className="btn btn-sm btn-primary" data-role="annotation-add">
        Add
      </button>
    </Form>
  );
}

function ReportDrawer({ view, href }: ViewProps) {
  return (
    <aside className="report-drawer border rounded bg-white p-2" aria-label="Generate Report">
      <div className="d-flex justify-content-between align-items-center mb-2">
        <h2 className="h6 mb-0">Generate Report</h2>
        <Link to={href({ drawer: null })} className="btn-close" aria-label="Close report" />
      </div>
      {view.items.length > 0 ? (
        <a
          href={`/decrypt/pdf?${new URLSearchParams({
            uuid: view.file.uuid,
            startDate: view.dates.range.from ?? "",
            endDate: view.dates.range.to ?? "",
          })}`}
          className="btn btn-primary btn-sm w-100 mb-2"
          download
        >
          Download
        </a>
      ) : (
        <button type="button" className="btn btn-primary btn-sm w-100 mb-2" disabled>
          Download
        </button>
      )}
      <p className="small mb-2">Selected Graphs: {view.items.length}</p>
      <ol className="list-unstyled mb-0">
        {view.thumbnails.map((item) => (
          <li key={item.id} className="border rounded p-1 mb-2">
            <div
              className="report-thumb"
              aria-hidden="true"
              dangerouslySetInnerHTML={{ __html: item.svg }}
            />
            <p className="small mb-1">{item.caption}</p>
            <div className="d-flex gap-2">
              <Link
                to={href({ dialog: "preview", item: item.id, zoom: null })}
                className="btn btn-outline-secondary btn-sm"
              >
                Preview
              </Link>
              <Form method="post">
                <input type="hidden" name="item" value={item.id} />
                <button
                  type="submit"
                  name="intent"
                  value="deleteItem"
                  className="btn btn-outline-danger btn-sm"
                >
                  Delete
                </button>
              </Form>
            </div>
          </li>
        ))}
      </ol>
    </aside>
  );
}

function Dialogs({ view, href }: ViewProps) {
  const actionData = useActionData<typeof action>();
  const close = href({ dialog: null, item: null, zoom: null, x: null, y: null });
  const annotationError = actionData && "annotationError" in actionData ? actionData : null;
  if (annotationError || view.annotate) {
    const typed = annotationError?.typed ?? { ...view.annotate!, text: "" };
    return (
      <Dialog title="Add Annotation" closeHref={close} size="sm">
        <AnnotationForm
          x={typed.x}
          y={typed.y}
          text={typed.text}
          points={Math.max(view.graph.points, 1)}
          error={annotationError?.annotationError ?? null}
        />
      </Dialog>
    );
  }
  switch (view.dialog) {
    case "summary":
      return (
        <Dialog title="Therapy Summary" closeHref={close}>
          {view.summary.totalTherapies === 0 ? (
            <p>No summary data available.</p>
          ) : (
            <table className="table table-sm" data-testid="summary-table">
              <tbody>
                {view.summaryRows.map(([label, value]) => (
                  <tr key={label}>
                    <th scope="row" className="fw-normal">
                      {label}
                    </th>
                    <td className="text-end">{value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Dialog>
      );
    case "preview":
      return view.preview ? (
        <Dialog title="Image Viewer" closeHref={close} size="lg">
          <p className="small">{view.preview.caption}</p>
          <div className="image-viewer overflow-auto border">
            <div
              style={{ transform: `scale(${view.preview.zoom})`, transformOrigin: "0 0" }}
              dangerouslySetInnerHTML={{ __html: view.preview.svg }}
            />
          </div>
          <div className="d-flex gap-2 mt-2">
            <Link
              to={href({ zoom: String(Math.round((view.preview.zoom + ZOOM_STEP) * 10) / 10) })}
              className="btn btn-outline-secondary btn-sm"
              preventScrollReset
            >
              Zoom In
            </Link>
            {view.preview.zoom > ZOOM_MIN ? (
              <Link
                to={href({ zoom: String(Math.round((view.preview.zoom - ZOOM_STEP) * 10) / 10) })}
                className="btn btn-outline-secondary btn-sm"
                preventScrollReset
              >
                Zoom Out
              </Link>
            ) : (
              <button type="button" className="btn btn-outline-secondary btn-sm" disabled>
                Zoom Out
              </button>
            )}
            <Link to={close} className="btn btn-secondary btn-sm ms-auto">
              Close
            </Link>
          </div>
        </Dialog>
      ) : null;
    case "help":
      return (
        <Dialog title="How to use" closeHref={close}>
          <ol>
            <li>The logo takes you back to the start page.</li>
            <li>Choose From and To within the log&apos;s therapy dates and Apply.</li>
            <li>
              In the Therapy Table, tick therapies and Update selection to show only those on the
              graph; open a row for its pressures and durations.
            </li>
            <li>
              The graph shows each cycle: set pressures as bars, peak inspiratory pressure markers,
              peak expiratory flow and expiratory volume lines. Right-click a point (or use the Add
              Annotation form) to write a note on it.
            </li>
            <li>Add Graph to Report keeps what the graph shows now.</li>
            <li>Generate Report lists the kept graphs; Download makes the PDF.</li>
          </ol>
          <button type="button" className="btn btn-primary btn-sm d-none" data-role="start-tour">
            Start the guided tour
          </button>
        </Dialog>
      );
    default:
      return null;
  }
}
