// The therapy cycle chart (spec 3 §2.4), drawn from shapeCycleChart's output with nivo's Bar.
// Rendered on the server only (app/ui/charts/svg.server.tsx): no hover state, so each
// completed cycle's details are native SVG <title> tooltips, which work without JavaScript.
import { Bar, type BarCustomLayerProps, type BarSvgProps } from "@nivo/bar";
import { CHART_COLORS } from "./colors";
import {
  PRESSURE_KEYS,
  PRESSURE_SERIES,
  type CycleBar,
  type CycleChartShape,
  type CycleDetail,
  type PressureKey,
} from "./cycleShape";
import { chartTheme, FONT_FAMILY, FONT_SIZE, TEXT_COLOR } from "./ChartFrame";

type Datum = { cycle: string; pauseP: number; inspP: number; expP: number };
// @nivo/axes is not a direct dependency; its tick props are reached through @nivo/bar.
type RenderTick = NonNullable<NonNullable<BarSvgProps<Datum>["axisBottom"]>["renderTick"]>;
type TickProps = Parameters<RenderTick>[0];

const MARGIN = { top: 56, right: 16, bottom: 72, left: 64 };
const HEIGHT = 380;
const MIN_WIDTH = 560;
const PER_CYCLE = 64;

export function cycleChartWidth(cycles: number) {
  return Math.max(MIN_WIDTH, MARGIN.left + MARGIN.right + cycles * PER_CYCLE);
}

export function tooltipText(detail: CycleDetail) {
  return [detail.title, ...detail.lines].join("\n");
}

// A label's width at FONT_SIZE, for the strike-through line (SVG text has no measured width on
// the server). 0.55 em per character is close for "Cycle 12" in the usual sans-serif fonts.
const labelWidth = (label: string) => label.length * FONT_SIZE * 0.55;

function CycleTick({ tick, bar }: { tick: TickProps; bar: CycleBar | undefined }) {
  const label = bar?.label ?? String(tick.value);
  const half = labelWidth(label) / 2;
  return (
    <g transform={`translate(${tick.x},${tick.y})`} className="cycle-tick">
      <line y1={0} y2={5} stroke="#757575" strokeWidth={1} />
      <text
        y={18}
        textAnchor="middle"
        fontFamily={FONT_FAMILY}
        fontSize={FONT_SIZE}
        fill={TEXT_COLOR}
        className={bar?.struck ? "cycle-label cycle-label--struck" : "cycle-label"}
        style={bar?.struck ? { textDecoration: "line-through" } : undefined}
      >
        {label}
      </text>
      {bar?.struck ? (
        <line x1={-half} x2={half} y1={14} y2={14} stroke={TEXT_COLOR} strokeWidth={1} />
      ) : null}
      {bar?.detail ? (
        <g transform="translate(0,36)" className="cycle-info">
          <title>{tooltipText(bar.detail)}</title>
          <circle r={7} fill="#ffffff" stroke={CHART_COLORS.blue} strokeWidth={1.5} />
          <text
            y={4}
            textAnchor="middle"
            fontFamily="Georgia, serif"
            fontSize={11}
            fontWeight="bold"
            fill={CHART_COLORS.blue}
          >
            i
          </text>
        </g>
      ) : null}
      {bar?.wave ? (
        <path
          className="cycle-wave"
          d="M-10,56 q2.5,-5 5,0 t5,0 t5,0 t5,0"
          fill="none"
          stroke={CHART_COLORS.blue}
          strokeWidth={1.5}
        >
          <title>Oscillation on</title>
        </path>
      ) : null}
    </g>
  );
}

export function CycleChart({ shape }: { shape: CycleChartShape }) {
  const width = cycleChartWidth(shape.bars.length);
  const byLabel = new Map(shape.bars.map((b) => [b.label, b]));
  const data: Datum[] = shape.bars.map((b) => ({ cycle: b.label, ...b.values }));

  // Drawn over the bars: one transparent band per completed, measured cycle carrying its
  // tooltip, so hovering anywhere over the cycle's group shows it.
  function TooltipBands({ bars, innerHeight }: BarCustomLayerProps<Datum>) {
    const bands = new Map<string, { x0: number; x1: number }>();
    for (const b of bars) {
      const key = String(b.data.indexValue);
      const band = bands.get(key);
      bands.set(key, {
        x0: Math.min(band?.x0 ?? Infinity, b.x),
        x1: Math.max(band?.x1 ?? -Infinity, b.x + b.width),
      });
    }
    return (
      <g className="cycle-tooltips">
        {[...bands].map(([label, band]) => {
          const detail = byLabel.get(label)?.detail;
          if (!detail) return null;
          return (
            <g key={label} className="cycle-tooltip">
              <title>{tooltipText(detail)}</title>
              <rect
                x={band.x0}
                y={0}
                width={band.x1 - band.x0}
                height={innerHeight}
                fill="transparent"
              />
            </g>
          );
        })}
      </g>
    );
  }

  function CaptionAndLegend({ innerWidth }: BarCustomLayerProps<Datum>) {
    const items = [
      ...PRESSURE_KEYS.map((k) => PRESSURE_SERIES[k]),
      { label: "Not completed", color: CHART_COLORS.grey },
    ];
    const itemWidth = Math.min(130, innerWidth / items.length);
    return (
      <g className="cycle-caption">
        <text
          x={0}
          y={-36}
          fontFamily={FONT_FAMILY}
          fontSize={14}
          fontWeight="bold"
          fill={TEXT_COLOR}
        >
          {shape.caption}
        </text>
        {items.map((item, i) => (
          <g key={item.label} transform={`translate(${i * itemWidth},-16)`}>
            <rect y={-10} width={12} height={12} fill={item.color} />
            <text x={16} fontFamily={FONT_FAMILY} fontSize={FONT_SIZE} fill={TEXT_COLOR}>
              {item.label}
            </text>
          </g>
        ))}
      </g>
    );
  }

  return (
    <Bar<Datum>
      width={width}
      height={HEIGHT}
      margin={MARGIN}
      data={data}
      keys={PRESSURE_KEYS}
      indexBy="cycle"
      groupMode="grouped"
      valueScale={{ type: "linear", min: shape.axis.min, max: shape.axis.max, clamp: true }}
      indexScale={{ type: "band", round: false }}
      padding={0.3}
      innerPadding={1}
      colors={(d) =>
        byLabel.get(String(d.indexValue))?.colors[d.id as PressureKey] ?? CHART_COLORS.grey
      }
      enableLabel={false}
      enableGridY
      gridYValues={shape.axis.ticks}
      axisLeft={{
        tickValues: shape.axis.ticks,
        legend: "Pressure (cmH2O)",
        legendPosition: "middle",
        legendOffset: -48,
      }}
      axisBottom={{
        renderTick: (tick: TickProps) => (
          <CycleTick tick={tick} bar={byLabel.get(String(tick.value))} />
        ),
      }}
      markers={[{ axis: "y", value: 0, lineStyle: { stroke: "#616161", strokeWidth: 1 } }]}
      layers={["grid", "axes", "bars", "markers", CaptionAndLegend, TooltipBands]}
      theme={chartTheme}
      isInteractive={false}
      animate={false}
      renderWrapper={false}
      role="img"
      ariaLabel={`Therapy cycle chart. ${shape.caption}`}
    />
  );
}
