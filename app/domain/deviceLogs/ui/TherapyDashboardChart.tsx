// The therapy dashboard's main graph (spec 3 §2.7), drawn from shapeTherapyDashboardChart's output
// as plain SVG: bars, lines and markers on three axes are simpler by hand than as a nivo combo.
// Rendered on the server only (ui/chartSvg.server.tsx). Every point has a transparent
// band on top, class "graph-point" with its number and a pressure in data-x/data-y, for the
// right-click "Add Annotation" script, and a native <title> tooltip that works without JavaScript.
import type { SVGProps } from "react";
import {
  DASHBOARD_CHART,
  type LegendItem,
  type PlotPosition,
  textWidth,
  type TherapyDashboardChartShape,
} from "~/domain/deviceLogs/chart";
import { FONT_FAMILY, svgRoot, TEXT_COLOR } from "~/ui/charts/ChartFrame";

const MUTED = "#6c757d";
const RULE = "#adb5bd";
const GRID = "#e9ecef";
const { fontSize: FONT_SIZE, annotationFontSize: NOTE_SIZE } = DASHBOARD_CHART;

const diamondPath = (p: { x: number; y: number }, s: number) =>
  `M${p.x},${p.y - s}L${p.x + s},${p.y}L${p.x},${p.y + s}L${p.x - s},${p.y}Z`;

const polyline = (run: PlotPosition[]) =>
  run.map((p, i) => `${i === 0 ? "M" : "L"}${p.x},${p.y}`).join("");

const rectPath = (r: { x: number; y: number; width: number; height: number }) =>
  `M${r.x},${r.y}h${r.width}v${r.height}h${-r.width}Z`;

/** A path only when there is something to draw: an empty d is an error in some renderers. */
function Path(props: Omit<SVGProps<SVGPathElement>, "ref"> & { d: string }) {
  return props.d ? <path {...props} /> : null;
}

function LegendSwatch({ item }: { item: LegendItem }) {
  if (item.kind === "line")
    return <line x1={0} x2={12} y1={8} y2={8} stroke={item.color} strokeWidth={2} />;
  if (item.kind === "marker") return <path d={diamondPath({ x: 6, y: 8 }, 5)} fill={item.color} />;
  return <rect y={3} width={12} height={10} fill={item.color} />;
}

export function TherapyDashboardChart({ shape }: { shape: TherapyDashboardChartShape }) {
  const { plot, width, height } = shape;
  const right = plot.x + plot.width;
  const zero = shape.pressure.gridLines.find((t) => t.value === 0);
  const { strip } = shape;
  const stripCells = (flag: 0 | 1) =>
    shape.points
      .filter((p) => p.oscillation === flag)
      .map((p) => rectPath({ x: p.left, y: strip.y, width: p.width, height: strip.height }))
      .join("");

  return (
    <svg
      {...svgRoot(width, height)}
      aria-label={shape.title}
      className="therapy-dashboard-chart"
      fontFamily={FONT_FAMILY}
      fontSize={FONT_SIZE}
      fill={TEXT_COLOR}
    >
      <title>{shape.title}</title>

      <g className="graph-legend">
        {shape.legend.map((item) => (
          <g key={item.label} transform={`translate(${item.x},${item.y})`}>
            <LegendSwatch item={item} />
            <text x={16} y={12}>
              {item.label}
            </text>
          </g>
        ))}
      </g>

      <g className="graph-axes">
        {shape.pressure.gridLines.map((t) => (
          <line key={t.value} x1={plot.x} x2={right} y1={t.pos} y2={t.pos} stroke={GRID} />
        ))}
        {zero ? <line x1={plot.x} x2={right} y1={zero.pos} y2={zero.pos} stroke={RULE} /> : null}
        <text x={plot.x - 6} y={shape.unitsY} textAnchor="end" fontWeight="bold">
          {shape.pressure.unit}
        </text>
        {shape.pressure.ticks.map((t) => (
          <text key={t.value} x={plot.x - 6} y={t.pos + 4} textAnchor="end" fill={MUTED}>
            {t.label}
          </text>
        ))}
        {[
          { axis: shape.flow, x: right + 6 },
          { axis: shape.volume, x: right + 58 },
        ].map(({ axis, x }) => (
          <g key={axis.unit}>
            <text x={x} y={shape.unitsY} fill={axis.color} fontWeight="bold">
              {axis.unit}
            </text>
            {axis.ticks.map((t) => (
              <text key={t.value} x={x} y={t.pos + 4} fill={axis.color}>
                {t.label}
              </text>
            ))}
          </g>
        ))}
        <rect
          x={plot.x}
          y={plot.y}
          width={plot.width}
          height={plot.height}
          fill="none"
          stroke={RULE}
        />
        {shape.xTicks.map((t) => (
          <text
            key={t.value}
            x={t.pos}
            y={shape.strip.y + shape.strip.height + 14}
            textAnchor="middle"
            fill={MUTED}
          >
            {t.label}
          </text>
        ))}
        <text x={plot.x + plot.width / 2} y={height - 6} textAnchor="middle">
          {shape.xTitle}
        </text>
      </g>

      {shape.message ? (
        // On a white patch, so the zero line does not run through the words.
        <g className="graph-message">
          <rect
            x={plot.x + plot.width / 2 - textWidth(shape.message, 14) / 2 - 8}
            y={plot.y + plot.height / 2 - 12}
            width={textWidth(shape.message, 14) + 16}
            height={24}
            fill="#ffffff"
          />
          <text
            x={plot.x + plot.width / 2}
            y={plot.y + plot.height / 2}
            textAnchor="middle"
            dominantBaseline="central"
            fontSize={14}
          >
            {shape.message}
          </text>
        </g>
      ) : null}

      <g className="graph-oscillation">
        <Path d={stripCells(1)} fill={strip.on} />
        <Path d={stripCells(0)} fill={strip.off} />
      </g>

      <g className="graph-bars">
        {shape.bars.map((s) => (
          <Path key={s.key} d={s.rects.map(rectPath).join("")} fill={s.color} />
        ))}
      </g>

      <g className="graph-lines" fill="none" strokeLinejoin="round">
        {shape.lines.map((s) => (
          <g key={s.key}>
            <Path d={s.segments.map(polyline).join("")} stroke={s.color} strokeWidth={1.5} />
            {s.dots.map((p) => (
              <circle key={p.n} cx={p.x} cy={p.y} r={2} fill={s.color} />
            ))}
          </g>
        ))}
      </g>

      <Path
        className="graph-markers"
        d={shape.markers.positions.map((p) => diamondPath(p, shape.markers.size)).join("")}
        fill={shape.markers.color}
      />

      <g className="graph-annotations">
        {shape.annotations.map((a, i) => (
          <g key={i} className="graph-annotation">
            <title>{a.at.text.trim()}</title>
            <circle cx={a.x} cy={a.y} r={3} fill={TEXT_COLOR} />
            <rect {...a.box} fill="#ffffff" fillOpacity={0.85} stroke={RULE} strokeWidth={0.5} />
            <text x={a.box.x + 3} y={a.box.y + a.box.height - 4} fontSize={NOTE_SIZE}>
              {a.text}
            </text>
          </g>
        ))}
      </g>

      <g className="graph-points">
        {shape.points.map((p) => (
          <rect
            key={p.n}
            className="graph-point"
            data-x={p.n}
            data-y={p.annotationY}
            x={p.left}
            y={plot.y}
            width={p.width}
            height={shape.strip.y + shape.strip.height - plot.y}
            fill="transparent"
          >
            <title>{p.tooltip.join("\n")}</title>
          </rect>
        ))}
      </g>
    </svg>
  );
}
