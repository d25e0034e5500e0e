// The therapy dashboard of an uploaded cough log (spec 3 §2.7, §4, §5): header, toolbar (range,
// summary, Add Graph to Report), the Therapy Table, the graph (an SVG drawn on the server), the
// report drawer and the dialogs. Links and posts only; public/js/therapy-dashboard.js adds the
// right-click annotation, the 'Adding Graph ....' indicator and the guided tour.
import { Form, Link, useLocation } from "@remix-run/react";
import { Flash, type FlashMessage } from "~/ui/Flash";
import { DateInput } from "~/ui/forms";
import { withParams } from "~/lib/listParams";
import { outsideRangeMessage } from "../dashboard";
import type { DashboardPage } from "../dashboardPage.server";
import { AnnotationForm, Dialogs, type DashboardReply } from "./DashboardDialogs";
import { PageLink } from "./PageLink";
import { TherapyTable, type ViewProps } from "./TherapyTable";

export function TherapyDashboard({
  view,
  flash,
  reply,
}: {
  view: DashboardPage;
  flash: FlashMessage | null;
  reply?: DashboardReply;
}) {
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

      <Dialogs view={view} href={href} reply={reply} />
      <script src="/js/therapy-dashboard.js" defer />
    </div>
  );
}

const DATE_FIELDS = [
  ["startDate", "From", "from"],
  ["endDate", "To", "to"],
] as const;

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
        data-role="date-range"
        data-first={dates.first ?? ""}
        data-last={dates.last ?? ""}
        data-outside={outsideRangeMessage(view.file.firstTherapyAt, view.file.lastTherapyAt)}
        noValidate
      >
        <input type="hidden" name="intent" value="range" />
        {DATE_FIELDS.map(([name, label, key]) => (
          <DateInput
            key={name}
            name={name}
            label={label}
            value={dates.typed[key] || (dates.valid ? (dates.range[key] ?? "") : "")}
            min={dates.first}
            max={dates.last}
            error={dates.errors[key]}
            small
          />
        ))}
        <button type="submit" className="btn btn-primary btn-sm" data-role="range-apply">
          Apply
        </button>
        <Link
          to={href({ startDate: null, endDate: null, tp: null, gp: null })}
          className="btn btn-link btn-sm"
          data-role="range-clear"
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
