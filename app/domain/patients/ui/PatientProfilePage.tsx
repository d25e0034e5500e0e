// The patient profile page (spec 3 §2.2–§2.4): header, Adherence Score, Therapy Details, Therapy
// Trends with the HMR graph, Therapy Goal and its history, and the PDF and CSV downloads. Charts
// arrive as SVG strings drawn on the server; everything else is links and forms.
import { Form, Link, useLocation } from "@remix-run/react";
import { useCloseHref, useDialogHref } from "~/ui/Dialog";
import { RangePicker } from "~/ui/RangePicker";
import { withParams } from "~/lib/listParams";
import type { ProfileView } from "~/domain/patients/profileView.server";
import {
  FIRST_THERAPY_DAY,
  GOAL_WEEKDAYS,
  PATIENT_TAG_MAX,
  pairingMessages,
  WEEKDAY_LABELS,
} from "~/domain/patients/schema";
import {
  ActivateDialog,
  GoalDialog,
  HealthSummaryDialog,
  MoveDeviceDialog,
  NoteDialog,
  PersonalInfoDialog,
  type GoalFormState,
} from "./ProfileDialogs";

export type { GoalFormState };

export type ProfileActionData =
  | { form: "patientTag" | "note" | "pair"; value: string; error: string }
  | { form: "goal"; goal: GoalFormState }
  /** Pairing a device that is paired with another patient of the care site: confirm first. */
  | { form: "pairMove"; serial: string; pairingId: string; fromName: string };

/** An SVG chart drawn by the server (ui/charts/svg.server.tsx: our own markup, no script). */
function Chart({ svg, className }: { svg: string; className?: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: svg }} />;
}

function Section({
  title,
  id,
  children,
}: {
  title: string;
  id: string;
  children: React.ReactNode;
}) {
  return (
    <section className="card mb-3" aria-labelledby={id}>
      <div className="card-body">
        <h2 className="h5" id={id}>
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

export function PatientProfilePage({
  view,
  canPair,
  canUnpair,
  actionData,
}: {
  view: ProfileView;
  canPair: boolean;
  /** The patient's device was paired where the viewer is staff (or the patient has none). */
  canUnpair: boolean;
  actionData?: ProfileActionData;
}) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const dialog = search.get("dialog");
  const closeHref = useCloseHref();
  const dialogHref = useDialogHref();
  const failed = (form: string) =>
    actionData && actionData.form === form && "error" in actionData ? actionData : null;
  const p = view.patient;
  const keep = {
    p: search.get("p"),
    range: search.get("range"),
    from: search.get("from"),
    to: search.get("to"),
    day: search.get("day"),
    therapy: search.get("therapy"),
    trendDay: search.get("trendDay"),
  };
  const goalState: GoalFormState =
    actionData?.form === "goal"
      ? actionData.goal
      : { days: [...GOAL_WEEKDAYS], count: "0", error: null };
  const tagError = failed("patientTag");
  const pairError = failed("pair");
  const noteError = failed("note");
  const move = actionData?.form === "pairMove" ? actionData : null;

  return (
    <>
      <section className="card mb-3" aria-label="Patient">
        <div className="card-body d-flex flex-wrap gap-4 align-items-start">
          <img src={p.photoUrl} alt="" width={96} height={96} className="rounded-circle" />
          <div className="flex-grow-1">
            <h2 className="h4 mb-1" data-testid="patient-name">
              {p.firstName} {p.lastName}
            </h2>
            <p className="mb-2">
              Status: <strong data-testid="patient-status">{p.statusText}</strong>
              {view.careSite ? <span className="text-muted"> · {view.careSite.name}</span> : null}
            </p>
            <Form method="post" className="d-flex gap-2 align-items-start mb-2" preventScrollReset>
              <div>
                <label htmlFor="patientTag" className="form-label small mb-0">
                  Patient Id
                </label>
                <input
                  id="patientTag"
                  name="patientTag"
                  defaultValue={tagError ? tagError.value : p.patientTag}
                  maxLength={PATIENT_TAG_MAX + 10}
                  className={`form-control form-control-sm ${tagError ? "is-invalid" : ""}`}
                  aria-describedby={tagError ? "patientTag-error" : undefined}
                />
                {tagError ? (
                  <div id="patientTag-error" className="invalid-feedback">
                    {tagError.error}
                  </div>
                ) : null}
              </div>
              <button
                type="submit"
                name="intent"
                value="patientTag"
                className="btn btn-sm btn-outline-primary mt-3"
              >
                Save
              </button>
            </Form>
            <p className="mb-2">
              Device serial:{" "}
              <strong data-testid="device-serial">{p.deviceSerial ?? "No device"}</strong>
            </p>
            {canPair && p.deviceSerial && !canUnpair ? (
              <p className="small text-muted mb-2" data-testid="paired-elsewhere">
                {pairingMessages.pairedElsewhere}
              </p>
            ) : canPair ? (
              <Form
                method="post"
                className="d-flex gap-2 align-items-start mb-2"
                preventScrollReset
              >
                {p.deviceSerial ? (
                  <button
                    type="submit"
                    name="intent"
                    value="unpair"
                    className="btn btn-sm btn-outline-danger"
                  >
                    Unpair device
                  </button>
                ) : (
                  <>
                    <div>
                      <label htmlFor="serial" className="visually-hidden">
                        Device serial
                      </label>
                      <input
                        id="serial"
                        name="serial"
                        placeholder="Device serial"
                        defaultValue={pairError?.value}
                        className={`form-control form-control-sm ${pairError ? "is-invalid" : ""}`}
                      />
                      {pairError ? <div className="invalid-feedback">{pairError.error}</div> : null}
                    </div>
                    <button
                      type="submit"
                      name="intent"
                      value="pair"
                      className="btn btn-sm btn-outline-primary"
                    >
                      Pair device
                    </button>
                  </>
                )}
              </Form>
            ) : null}
          </div>
          <div className="d-flex flex-column gap-2">
            <div>
              {p.accepted ? (
                <Form method="post" preventScrollReset>
                  <button
                    type="submit"
                    name="intent"
                    value="deactivate"
                    role="switch"
                    aria-checked="true"
                    className="btn btn-sm btn-success"
                  >
                    Account on
                  </button>
                </Form>
              ) : (
                <Link
                  to={dialogHref("activate")}
                  role="switch"
                  aria-checked="false"
                  className="btn btn-sm btn-outline-secondary"
                  preventScrollReset
                >
                  Account off
                </Link>
              )}
            </div>
            <Link
              to={dialogHref("health")}
              className="btn btn-sm btn-outline-primary"
              preventScrollReset
            >
              Health Summary
            </Link>
            <Link
              to={dialogHref("personal")}
              className="btn btn-sm btn-outline-primary"
              preventScrollReset
            >
              Personal Info
            </Link>
            <Link
              to={dialogHref("note")}
              className="btn btn-sm btn-outline-primary"
              preventScrollReset
            >
              Note
            </Link>
          </div>
        </div>
      </section>

      <Section title="Adherence Score" id="adherence">
        <div className="d-flex flex-wrap gap-4 align-items-center">
          <div className="text-center">
            <Chart svg={view.adherence.gaugeSvg} />
            <p className="small text-muted mb-0">
              As of {view.asOf}:{" "}
              <strong data-testid="adherence-score">
                {view.adherence.percent === null ? "-" : `${view.adherence.percent}%`}
              </strong>
            </p>
          </div>
          <div>
            <Chart svg={view.adherence.calendarSvg} />
            <ul
              className="list-inline small mb-0"
              aria-label="Last 7 days"
              data-testid="adherence-days"
            >
              {view.adherence.calendar.map((c) => (
                <li key={c.day} className="list-inline-item">
                  {c.day}: {c.text}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </Section>

      <Section title="Therapy Details" id="therapy">
        <Form method="get" className="d-flex gap-2 align-items-end mb-3" preventScrollReset>
          {Object.entries({ ...keep, day: null, therapy: null }).map(([name, value]) =>
            value ? <input key={name} type="hidden" name={name} value={value} /> : null,
          )}
          <div>
            <label htmlFor="therapy-day" className="form-label small mb-0">
              Therapy day
            </label>
            <input
              id="therapy-day"
              name="day"
              type="date"
              min={FIRST_THERAPY_DAY}
              max={view.today}
              defaultValue={view.therapy.day}
              className="form-control form-control-sm"
            />
          </div>
          <button type="submit" className="btn btn-sm btn-outline-primary">
            Show
          </button>
        </Form>
        {view.therapy.therapies.length === 0 ? (
          <p className="text-muted">No therapies on {view.therapy.dayText}.</p>
        ) : (
          <table className="table table-sm" aria-label={`Therapies on ${view.therapy.dayText}`}>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Mode</th>
                <th scope="col">Cycles</th>
                <th scope="col">Completed</th>
                <th scope="col">Deviation</th>
              </tr>
            </thead>
            <tbody>
              {view.therapy.therapies.map((t) => (
                <tr
                  key={t.id}
                  className={t.id === view.therapy.selectedId ? "table-active" : undefined}
                >
                  <td>
                    <Link
                      to={withParams(location.search, { therapy: t.id })}
                      aria-current={t.id === view.therapy.selectedId ? "true" : undefined}
                      preventScrollReset
                    >
                      {t.time}
                    </Link>
                  </td>
                  <td>{t.mode}</td>
                  <td>{t.cycles}</td>
                  <td>{t.completed ? "Yes" : "No"}</td>
                  <td>{t.deviates ? "Yes" : "No"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="fw-semibold mb-1" data-testid="therapy-mode">
          {view.therapy.chart.caption}
        </p>
        <Chart svg={view.therapy.chart.svg} className="overflow-auto" />
        {view.therapy.chart.details.length > 0 ? (
          <details className="mt-2">
            <summary>Cycle details</summary>
            <table className="table table-sm mt-2" aria-label="Cycle details">
              <thead>
                <tr>
                  <th scope="col">Cycle</th>
                  {view.therapy.chart.details[0].lines.map((line) => (
                    <th scope="col" key={line}>
                      {line.split(":")[0]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {view.therapy.chart.details.map((d) => (
                  <tr key={d.n}>
                    <th scope="row">{d.title}</th>
                    {d.lines.map((line) => (
                      <td key={line}>{line.split(": ").slice(1).join(": ")}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        ) : null}
      </Section>

      <Section title="Therapy Trends" id="trends">
        <RangePicker
          range={view.trends.range}
          today={view.today}
          kinds={["week", "month"]}
          keep={{ p: keep.p, day: keep.day, therapy: keep.therapy }}
          reset={["trendDay"]}
          label="Graph range"
        />
        <div className="row g-3">
          <div className="col-xl-6">
            <Chart svg={view.trends.charts.peakFlow} />
          </div>
          <div className="col-xl-6">
            <Chart svg={view.trends.charts.expVolume} />
          </div>
          <div className="col-xl-6">
            <Chart svg={view.trends.charts.peakInspP} />
          </div>
        </div>
        {view.trends.days.length > 0 ? (
          <nav aria-label="Cycles of a day" className="small mt-2">
            Cycles of a day:{" "}
            {view.trends.days.map((d) => (
              <Link
                key={d.day}
                to={`${withParams(location.search, { trendDay: d.day })}#trends`}
                className="me-2"
                aria-current={view.trends.drillDown?.day === d.day ? "true" : undefined}
                preventScrollReset
              >
                {d.text}
              </Link>
            ))}
          </nav>
        ) : null}
        {view.trends.drillDown ? (
          <div className="mt-3" aria-label={`Cycles of ${view.trends.drillDown.text}`} role="group">
            <h3 className="h6">
              Cycles of {view.trends.drillDown.text}{" "}
              <Link to={withParams(location.search, { trendDay: null })} preventScrollReset>
                (close)
              </Link>
            </h3>
            <div className="row g-3">
              <div className="col-xl-6">
                <Chart svg={view.trends.drillDown.charts.peakFlow} />
              </div>
              <div className="col-xl-6">
                <Chart svg={view.trends.drillDown.charts.expVolume} />
              </div>
              <div className="col-xl-6">
                <Chart svg={view.trends.drillDown.charts.peakInspP} />
              </div>
            </div>
          </div>
        ) : null}
        <h3 className="h6 mt-3">HMR</h3>
        <Chart svg={view.trends.hmrSvg} />
        <h3 className="h6 mt-3">Adherence Score History</h3>
        <Chart svg={view.adherence.historySvg} />
      </Section>

      <Section title="Therapy Goal" id="goals">
        {view.goals[0] ? (
          <p data-testid="active-goal">
            {view.goals[0].timesPerDay} therapies a day on{" "}
            {view.goals[0].days
              .map((d) => WEEKDAY_LABELS[d as keyof typeof WEEKDAY_LABELS] ?? d)
              .join(", ")}
          </p>
        ) : (
          <p className="text-muted">No therapy goal set.</p>
        )}
        {view.pairId ? (
          <Link to={dialogHref("goal")} className="btn btn-primary mb-3" preventScrollReset>
            Set new therapy goals
          </Link>
        ) : (
          <button type="button" className="btn btn-primary mb-3" disabled style={{ opacity: 0.5 }}>
            Set new therapy goals
          </button>
        )}
        <h3 className="h6">Therapy Goal History</h3>
        {view.goals.length === 0 ? (
          <p className="text-muted">No data found</p>
        ) : (
          <table className="table table-sm" aria-label="Therapy Goal History">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Therapies per day</th>
                <th scope="col">Days</th>
                <th scope="col">Set by</th>
                <th scope="col">Set on</th>
              </tr>
            </thead>
            <tbody>
              {view.goals.map((g) => (
                <tr key={g.id}>
                  <td>{g.status}</td>
                  <td>{g.timesPerDay}</td>
                  <td>
                    {g.days
                      .map((d) => WEEKDAY_LABELS[d as keyof typeof WEEKDAY_LABELS] ?? d)
                      .join(", ")}
                  </td>
                  <td>{g.createdBy}</td>
                  <td>{g.createdOn}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>

      <section className="card mb-3" aria-label="Reports">
        <div className="card-body d-flex flex-wrap gap-3 align-items-end">
          <a
            href={`/app/PatientProfile/pdf${location.search}`}
            className="btn btn-outline-primary"
            download
          >
            Download PDF
          </a>
          <Form
            method="get"
            action="/app/PatientProfile/csv"
            reloadDocument
            className="d-flex gap-2 align-items-end"
          >
            <input type="hidden" name="p" value={keep.p ?? ""} />
            {(["from", "to"] as const).map((name) => (
              <div key={name}>
                <label htmlFor={`csv-${name}`} className="form-label small mb-0">
                  {name === "from" ? "From" : "To"}
                </label>
                <input
                  id={`csv-${name}`}
                  name={name}
                  type="date"
                  max={view.today}
                  defaultValue={
                    name === "from" ? view.trends.range.fromDay : view.trends.range.toDay
                  }
                  required
                  className="form-control form-control-sm"
                />
              </div>
            ))}
            <button type="submit" className="btn btn-outline-primary">
              Download CSV
            </button>
          </Form>
        </div>
      </section>

      {dialog === "health" ? <HealthSummaryDialog view={view} closeHref={closeHref} /> : null}
      {dialog === "personal" ? <PersonalInfoDialog view={view} closeHref={closeHref} /> : null}
      {dialog === "note" ? (
        <NoteDialog
          view={view}
          closeHref={closeHref}
          value={noteError?.value}
          error={noteError?.error}
        />
      ) : null}
      {dialog === "goal" && view.pairId ? (
        <GoalDialog closeHref={closeHref} state={goalState} />
      ) : null}
      {dialog === "activate" && !p.accepted ? <ActivateDialog closeHref={closeHref} /> : null}
      {move && canPair ? (
        <MoveDeviceDialog
          closeHref={closeHref}
          serial={move.serial}
          pairingId={move.pairingId}
          fromName={move.fromName}
          toName={`${p.firstName} ${p.lastName}`}
        />
      ) : null}
    </>
  );
}
