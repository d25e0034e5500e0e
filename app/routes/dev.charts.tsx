// /dev/charts: every patient-profile chart and the therapy dashboard graph rendered on the server
// from made-up data, with the edge cases (no data, gaps, a year of days, scores over 100 %, a full
// 300-point page), for development only (404 in production).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { env } from "~/lib/env.server";
import { notFound } from "~/lib/http.server";
// Every chart the server draws, by name: this page shows them all.
import * as charts from "~/ui/charts/svg.server";
import { therapyDashboardChartSvg } from "~/domain/deviceLogs/ui/chartSvg.server";
import type { GraphPage } from "~/domain/deviceLogs/graph";
import type { RouteHandle } from "~/ui/rootData";

export const handle: RouteHandle = { hydrate: false };
export const meta: MetaFunction = () => [{ title: "Charts | ARC Connect" }];

const FIRST_DAY = Date.UTC(2025, 0, 1);
const dayAt = (i: number) => new Date(FIRST_DAY + i * 86_400_000).toISOString().slice(0, 10);

function sampleTrendDays(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const gap = i % 9 === 4 || i % 9 === 5;
    return {
      day: dayAt(i),
      peakFlow: gap ? null : Math.round(240 + 40 * Math.sin(i / 6)),
      expVolume: gap ? null : Math.round(1100 + 150 * Math.cos(i / 8)),
      peakInspP: gap ? null : 38 + (i % 4),
    };
  });
}

/**
 * A hand-made therapy dashboard page: points first..first+count-1 of `total`, oscillation on and
 * off in blocks of 40, and missing values here and there (a run of flow gaps, an isolated volume,
 * points without a peak inspiratory pressure or an oscillation flag).
 */
function sampleGraphPage(first: number, count: number, total: number): GraphPage {
  const xs = Array.from({ length: count }, (_, i) => first + i);
  const o = (i: number) => (i % 97 === 96 ? null : Math.floor(i / 40) % 2 === 0 ? 1 : 0);
  const set = (y: (i: number) => number | null) => ({
    x: xs,
    y: xs.map((_, i) => y(i)),
    o: xs.map((_, i) => o(i)),
  });
  const measured = (y: (i: number) => number | null) => ({ x: xs, y: xs.map((_, i) => y(i)) });
  const start = Date.UTC(2026, 10, 1, 8, 0, 0);
  return {
    page: Math.ceil(first / 300),
    pages: Math.ceil(total / 300),
    points: total,
    merged_data: {
      Cycle_P_P: set(() => 5),
      Cycle_I_P: set((i) => (i % 50 === 49 ? null : 40)),
      Cycle_E_P: set(() => -40),
      P_F: measured((i) => (i >= 120 && i < 126 ? null : Math.round(240 + 30 * Math.sin(i / 9)))),
      P_IP: measured((i) => (i % 23 === 22 ? null : 36 + (i % 5))),
      E_V: measured((i) =>
        (i >= 200 && i < 203) || (i >= 204 && i < 207) ? null : 1400 + 12 * (i % 20),
      ),
    },
    timeStamps: xs.map((_, i) =>
      new Date(start + i * 7_000).toISOString().slice(0, 19).replace("T", " "),
    ),
  };
}

const EMPTY_GRAPH_PAGE: GraphPage = {
  page: 1,
  pages: 0,
  points: 0,
  merged_data: {
    Cycle_P_P: { x: [], y: [], o: [] },
    Cycle_I_P: { x: [], y: [], o: [] },
    Cycle_E_P: { x: [], y: [], o: [] },
    P_F: { x: [], y: [] },
    P_IP: { x: [], y: [] },
    E_V: { x: [], y: [] },
  },
  timeStamps: [],
};

export async function loader(_: LoaderFunctionArgs) {
  if (env.isProduction) notFound();

  const cycle = charts.cycleChartSvg({
    mode: "Auto",
    prescribedCycles: 6,
    cyclesDelivered: 4,
    settings: { pauseP: 5, inspP: 40, expP: -40, oscillation: true },
    cycles: [1, 2, 3, 5].map((n) => ({
      n,
      peakInspP: 37 + n / 2,
      expVolume: 1150 + n * 20,
      peakFlow: 240 + n * 3.25,
      spo2: n === 2 ? null : 97,
      oscillation: true,
    })),
  });
  const calendar = charts.adherenceCalendarSvg(
    [0, 1, 2, 3, 4, 5, 6].map((i) => ({
      day: dayAt(i),
      isGoalDay: i !== 5,
      timesPerDay: 3,
      completed: [0, 1, 2, 3, 4, 0, 0][i],
    })),
  );
  const trendDays = sampleTrendDays(30);

  return {
    sections: [
      { heading: "Therapy cycle chart", note: cycle.caption, svgs: [cycle.svg] },
      {
        heading: "Therapy cycle chart without data",
        note: "",
        svgs: [charts.cycleChartSvg(null).svg],
      },
      {
        heading: "Adherence score",
        note: "Gauge at 85 %, 120 % (capped), no score; the 7-day calendar.",
        svgs: [
          charts.adherenceGaugeSvg(0.853),
          charts.adherenceGaugeSvg(1.2),
          charts.adherenceGaugeSvg(null),
          calendar,
        ],
      },
      {
        heading: "Therapy Trends, 30 days",
        note: "Two days in nine without therapy (gaps).",
        svgs: Object.values(charts.trendChartsSvg(trendDays)),
      },
      {
        heading: "Therapy Trends, 365 days",
        note: "",
        svgs: [charts.trendChartsSvg(sampleTrendDays(365)).peakFlow],
      },
      {
        heading: "Cycles of one day",
        note: "",
        svgs: Object.values(
          charts.cycleTrendChartsSvg(
            ["08:02", "08:02", "08:03", "19:40", "19:41"].map((time, i) => ({
              time,
              peakFlow: 230 + i * 6,
              expVolume: i === 2 ? null : 1100 + i * 25,
              peakInspP: 39,
            })),
          ),
        ),
      },
      {
        heading: "HMR",
        note: "",
        svgs: [
          charts.hmrChartSvg(
            trendDays.map((d, i) => ({ day: d.day, maxHmr: i < 3 ? null : 120 + i })),
          ),
        ],
      },
      {
        heading: "Adherence Score History",
        note: "",
        svgs: [
          charts.scoreHistorySvg(
            trendDays.map((d, i) => ({ day: d.day, score: i % 10 === 9 ? null : (i % 7) / 6 })),
          ),
        ],
      },
      {
        heading: "No data",
        note: "",
        svgs: [charts.hmrChartSvg([]), charts.adherenceCalendarSvg([])],
      },
      {
        heading: "Therapy dashboard graph",
        note:
          "A full 300-point page (1 of 3), oscillation on and off, gaps in every measurement; " +
          "8 points with two annotations; an empty page. Hover a point for its tooltip.",
        svgs: [
          therapyDashboardChartSvg(sampleGraphPage(1, 300, 750)),
          therapyDashboardChartSvg(sampleGraphPage(1, 8, 8), [
            { x: 3, y: 40, text: "Weak cough" },
            { x: 7, y: -40, text: "Patient tired, paused therapy" },
          ]),
          therapyDashboardChartSvg(EMPTY_GRAPH_PAGE),
        ],
      },
    ],
  };
}

export default function DevCharts() {
  const { sections } = useLoaderData<typeof loader>();
  return (
    <main className="container py-4">
      <h1 className="h3">Charts</h1>
      <p className="text-muted">
        The patient profile&apos;s charts and the therapy dashboard graph rendered on the server.
        Not available in production.
      </p>
      {sections.map((section) => (
        <section key={section.heading} className="mb-4">
          <h2 className="h5">{section.heading}</h2>
          {section.note ? <p className="text-muted small">{section.note}</p> : null}
          <div className="d-flex flex-wrap gap-3 align-items-start">
            {section.svgs.map((svg, i) => (
              <div
                key={i}
                className="dev-chart"
                style={{ maxWidth: "100%" }}
                // Built by svg.server.tsx from our own data: static markup, no scripts.
                dangerouslySetInnerHTML={{ __html: svg }}
              />
            ))}
          </div>
        </section>
      ))}
    </main>
  );
}
