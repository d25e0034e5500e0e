// The profile's Therapy Details (the therapies of a chosen day and the cycles of one) and Therapy
// Trends (the range's daily averages, a day's cycles, HMR and the score history), spec 3 §2.2.
import type { MouseEvent } from "react";
import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
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
        <DayLinks
          days={view.trends.days}
          current={view.trends.drillDown?.day ?? null}
          location={location}
        />
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

const DAY_STAND_IN = "trendDayStandIn";

/**
 * "Cycles of a day": a link per day with data, 730 of them over two years. Plain anchors with one
 * click handler on the list instead of a router Link each (a Link costs hooks and a resolved path
 * per day on the server and again in hydration); a plain click navigates on the client as a Link
 * would (keeping the scroll position), and anything else (a new tab, no JavaScript) follows the href.
 */
function DayLinks({
  days,
  current,
  location,
}: {
  days: { day: string; text: string }[];
  current: string | null;
  location: { pathname: string; search: string };
}) {
  const navigate = useNavigate();
  // The href a Link to withParams(search, { trendDay }) renders: this path, the search with trendDay.
  // Serialised once with a stand-in day, then each day put in its place (a day needs no escaping).
  const params = new URLSearchParams(location.search);
  params.set("trendDay", DAY_STAND_IN);
  const [before, after, ...more] = `${location.pathname}?${params.toString()}#trends`.split(
    DAY_STAND_IN,
  );
  const hrefOf = (day: string) => {
    if (more.length === 0) return `${before}${day}${after}`;
    params.set("trendDay", day);
    return `${location.pathname}?${params.toString()}#trends`;
  };
  function follow(event: MouseEvent<HTMLElement>) {
    const link = (event.target as Element).closest("a");
    if (!link || event.button !== 0 || event.defaultPrevented) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(link.getAttribute("href") ?? "", { preventScrollReset: true });
  }
  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- the anchors inside are the controls (Enter on a focused anchor is a click)
    <nav aria-label="Cycles of a day" className="small mt-2" onClick={follow}>
      Cycles of a day:{" "}
      {days.map((d) => (
        <a
          key={d.day}
          className="me-2"
          href={hrefOf(d.day)}
          aria-current={current === d.day ? "true" : undefined}
        >
          {d.text}
        </a>
      ))}
    </nav>
  );
}
