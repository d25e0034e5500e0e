// The adherence score gauge (spec 3 §2.2, §9): a ring filled to the score, the whole percent in
// the middle, "-" without a score. Plain SVG: a circle with a dash as long as the score.
import type { GaugeShape } from "./adherenceShape";
import { CHART_COLORS } from "./colors";
import { FONT_FAMILY, TEXT_COLOR } from "./ChartFrame";

const SIZE = 140;
const STROKE = 14;
const RADIUS = (SIZE - STROKE) / 2;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

export function AdherenceGauge({ gauge }: { gauge: GaugeShape }) {
  const label =
    gauge.percent === null ? "Adherence score: no score" : `Adherence score: ${gauge.text}`;
  const c = SIZE / 2;
  const filled = Math.round(CIRCUMFERENCE * gauge.fraction * 100) / 100;
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={SIZE}
      height={SIZE}
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      role="img"
      aria-label={label}
    >
      <title>{label}</title>
      <circle
        cx={c}
        cy={c}
        r={RADIUS}
        fill="none"
        stroke={CHART_COLORS.grey}
        strokeOpacity={0.3}
        strokeWidth={STROKE}
      />
      {filled > 0 ? (
        <circle
          className="gauge-arc"
          cx={c}
          cy={c}
          r={RADIUS}
          fill="none"
          stroke={CHART_COLORS.blue}
          strokeWidth={STROKE}
          strokeDasharray={`${filled} ${Math.ceil(CIRCUMFERENCE)}`}
          transform={`rotate(-90 ${c} ${c})`}
        />
      ) : null}
      <text
        x={c}
        y={c}
        textAnchor="middle"
        dominantBaseline="central"
        fontFamily={FONT_FAMILY}
        fontSize={28}
        fontWeight="bold"
        fill={TEXT_COLOR}
      >
        {gauge.text}
      </text>
    </svg>
  );
}
