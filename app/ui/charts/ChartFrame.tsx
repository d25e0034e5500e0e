// What every server-rendered chart shares: the nivo theme (text readable at 100 % zoom) and the
// frame drawn instead of a chart when there is nothing to plot.
import type { LineSvgProps } from "@nivo/line";
import { CHART_COLORS } from "./colors";

/** The attributes every chart's root <svg> has: a standalone image of the given size. */
export function svgRoot(width: number, height: number) {
  return {
    xmlns: "http://www.w3.org/2000/svg",
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
  } as const;
}

export const TEXT_COLOR = "#212529";
export const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
export const FONT_SIZE = 12;

// @nivo/theming is not a direct dependency; its PartialTheme is reached through @nivo/line.
type ChartTheme = NonNullable<
  LineSvgProps<{ id: string; data: { x: string; y: number }[] }>["theme"]
>;

export const chartTheme: ChartTheme = {
  background: "transparent",
  text: { fontFamily: FONT_FAMILY, fontSize: FONT_SIZE, fill: TEXT_COLOR },
  axis: {
    domain: { line: { stroke: "#757575", strokeWidth: 1 } },
    ticks: {
      line: { stroke: "#757575", strokeWidth: 1 },
      text: { fontFamily: FONT_FAMILY, fontSize: FONT_SIZE, fill: TEXT_COLOR },
    },
    legend: { text: { fontFamily: FONT_FAMILY, fontSize: FONT_SIZE, fill: TEXT_COLOR } },
  },
  grid: { line: { stroke: "#e0e0e0", strokeWidth: 1 } },
};

export function NoDataChart({
  width,
  height,
  label,
}: {
  width: number;
  height: number;
  label: string;
}) {
  return (
    <svg {...svgRoot(width, height)} aria-label={`${label}: no data`}>
      <title>{`${label}: no data`}</title>
      <rect
        x={0.5}
        y={0.5}
        width={width - 1}
        height={height - 1}
        fill="none"
        stroke={CHART_COLORS.grey}
        strokeWidth={1}
      />
      <text
        x={width / 2}
        y={height / 2}
        textAnchor="middle"
        dominantBaseline="central"
        fontFamily={FONT_FAMILY}
        fontSize={14}
        fill={TEXT_COLOR}
      >
        No data
      </text>
    </svg>
  );
}
