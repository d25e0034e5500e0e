// /dev/charts: every patient-profile chart rendered on the server from made-up data, with the
// edge cases (no data, gaps, a year of days, scores over 100 %), for development only (404 in
// production).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { env } from "~/lib/env.server";
import { notFound } from "~/lib/http.server";
import {
  adherenceCalendarSvg,
  adherenceGaugeSvg,
  cycleChartSvg,
  cycleTrendChartsSvg,
  hmrChartSvg,
  scoreHistorySvg,
  trendChartsSvg,
} from "~/modules/charts/svg.server";
import type { RouteHandle } from "~/root";

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

export async function loader(_: LoaderFunctionArgs) {
  if (env.isProduction) notFound();

  const cycle = cycleChartSvg({
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
  const calendar = adherenceCalendarSvg(
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
      { heading: "Therapy cycle chart without data", note: "", svgs: [cycleChartSvg(null).svg] },
      {
        heading: "Adherence score",
        note: "Gauge at 85 %, 120 % (capped), no score; the 7-day calendar.",
        svgs: [adherenceGaugeSvg(0.853), adherenceGaugeSvg(1.2), adherenceGaugeSvg(null), calendar],
      },
      {
        heading: "Therapy Trends, 30 days",
        note: "Two days in nine without therapy (gaps).",
        svgs: Object.values(trendChartsSvg(trendDays)),
      },
      {
        heading: "Therapy Trends, 365 days",
        note: "",
        svgs: [trendChartsSvg(sampleTrendDays(365)).peakFlow],
      },
      {
        heading: "Cycles of one day",
        note: "",
        svgs: Object.values(
          cycleTrendChartsSvg(
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
          hmrChartSvg(trendDays.map((d, i) => ({ day: d.day, maxHmr: i < 3 ? null : 120 + i }))),
        ],
      },
      {
        heading: "Adherence Score History",
        note: "",
        svgs: [
          scoreHistorySvg(
            trendDays.map((d, i) => ({ day: d.day, score: i % 10 === 9 ? null : (i % 7) / 6 })),
          ),
        ],
      },
      { heading: "No data", note: "", svgs: [hmrChartSvg([]), adherenceCalendarSvg([])] },
    ],
  };
}

export default function DevCharts() {
  const { sections } = useLoaderData<typeof loader>();
  return (
    <main className="container py-4">
      <h1 className="h3">Charts</h1>
      <p className="text-muted">
        The patient profile&apos;s charts rendered on the server. Not available in production.
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
