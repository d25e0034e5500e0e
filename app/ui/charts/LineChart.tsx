// One line chart of the patient profile (Therapy Trends and their cycle drill-down, HMR,
// adherence score history), drawn from a LineChartShape with nivo's Line. Null values are gaps.
import { Line, type LineCustomSvgLayerProps } from "@nivo/line";
import type { LineChartShape } from "./lineShape";
import { chartTheme, FONT_FAMILY, NoDataChart, TEXT_COLOR } from "./ChartFrame";
import { formatTick } from "./scale";

type Series = { id: string; data: { x: string; y: number | null }[] };

export const LINE_CHART_SIZE = { width: 640, height: 280 };
// The top margin holds the chart's visible title.
const MARGIN = { top: 36, right: 24, bottom: 56, left: 64 };
/** Up to a month, every value gets a dot; beyond, only values with no neighbour (no line). */
const DOTS_FOR_ALL_UP_TO = 31;

export function LineChart({ shape }: { shape: LineChartShape }) {
  const { width, height } = LINE_CHART_SIZE;
  if (shape.empty) return <NoDataChart width={width} height={height} label={shape.title} />;

  const labels = new Map(shape.ticks.map((t) => [t.value, t.label]));
  const data: Series[] = [{ id: shape.title, data: shape.points.map(({ x, y }) => ({ x, y })) }];
  const dotted = shape.points.filter(
    (p) => p.y !== null && (shape.points.length <= DOTS_FOR_ALL_UP_TO || p.isolated),
  );

  function Dots({ xScale, yScale }: LineCustomSvgLayerProps<Series>) {
    return (
      <g className="line-dots">
        {dotted.map((p) => (
          <circle
            key={p.x}
            cx={round(xScale(p.x))}
            cy={round(yScale(p.y))}
            r={3}
            fill={shape.color}
          />
        ))}
      </g>
    );
  }

  function Title() {
    return (
      <text
        x={0}
        y={-MARGIN.top + 18}
        fontFamily={FONT_FAMILY}
        fontSize={13}
        fontWeight="bold"
        fill={TEXT_COLOR}
      >
        {shape.title}
      </text>
    );
  }

  return (
    <Line<Series>
      width={width}
      height={height}
      margin={MARGIN}
      data={data}
      xScale={{ type: "point" }}
      yScale={{ type: "linear", min: shape.y.min, max: shape.y.max }}
      curve="linear"
      colors={[shape.color]}
      lineWidth={2}
      enablePoints={false}
      enableGridX={false}
      gridYValues={shape.y.ticks}
      axisLeft={{
        tickValues: shape.y.ticks,
        format: (v) => formatTick(Number(v)),
        legend: shape.unit,
        legendPosition: "middle",
        legendOffset: -52,
      }}
      axisBottom={{
        tickValues: shape.ticks.map((t) => t.value),
        tickRotation: shape.ticks.length > 8 ? -45 : 0,
        format: (v) => labels.get(String(v)) ?? String(v),
      }}
      layers={[Title, "grid", "markers", "axes", "lines", Dots]}
      theme={chartTheme}
      isInteractive={false}
      useMesh={false}
      animate={false}
      renderWrapper={false}
      role="img"
      ariaLabel={shape.title}
    />
  );
}

const round = (v: number) => Math.round(v * 100) / 100;
