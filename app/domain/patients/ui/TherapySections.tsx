// The profile's Therapy Details (the therapies of a chosen day and the cycles of one) and Therapy
// Trends (the range's daily averages, a day's cycles, HMR and the score history), spec 3 §2.2.
import { Form, Link, useLocation } from "@remix-run/react";
import { RangePicker } from "~/ui/RangePicker";
import { withParams } from "~/lib/listParams";
import type { ProfileView } from "~/domain/patients/profileView.server";
import { FIRST_THERAPY_DAY } from "~/domain/patients/schema";
import { Chart, Section } from "./ProfileSection";

/** The profile's own query parameters, kept by the forms and links that change one of them. */
export type ProfileParams = Record<
  "p" | "range" | "from" | "to" | "day" | "therapy" | "trendDay",
  string | null
>;

export function TherapyDetails({ view, keep }: { view: ProfileView; keep: ProfileParams }) {
  const location = useLocation();
  return (
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
  );
}

export function TherapyTrends({ view, keep }: { view: ProfileView; keep: ProfileParams }) {
  const location = useLocation();
  return (
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
  );
}
