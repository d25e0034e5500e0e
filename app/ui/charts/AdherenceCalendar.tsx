// The 7-day adherence calendar (spec 3 §2.4, last bullet): one bar per day, 68 px for a day
// whose goal was met. Plain SVG: seven rectangles need no chart library.
import { CALENDAR_BAR_MAX, type CalendarBar } from "./adherenceShape";
import { CHART_COLORS } from "./colors";
import { FONT_FAMILY, FONT_SIZE, NoDataChart, TEXT_COLOR } from "./ChartFrame";

const COLUMN = 48;
const BAR_WIDTH = 24;
const TOP = 8;
const BASELINE = TOP + CALENDAR_BAR_MAX;
const HEIGHT = BASELINE + 44;
const TITLE = "Therapies completed over the last 7 days";

export function AdherenceCalendar({ bars }: { bars: CalendarBar[] }) {
  const width = Math.max(1, bars.length) * COLUMN;
  if (bars.length === 0) return <NoDataChart width={7 * COLUMN} height={HEIGHT} label={TITLE} />;
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={width}
      height={HEIGHT}
      viewBox={`0 0 ${width} ${HEIGHT}`}
      role="img"
      aria-label={`${TITLE}. ${bars.map((b) => b.title).join(". ")}`}
    >
      <title>{TITLE}</title>
      {bars.map((bar, i) => {
        const cx = i * COLUMN + COLUMN / 2;
        const height = round(bar.height);
        return (
          <g key={bar.day}>
            <rect
              className="calendar-bar"
              data-day={bar.day}
              data-status={bar.status}
              x={cx - BAR_WIDTH / 2}
              y={round(BASELINE - bar.height)}
              width={BAR_WIDTH}
              height={height}
              rx={2}
              fill={bar.color}
            >
              <title>{bar.title}</title>
            </rect>
            <text
              x={cx}
              y={BASELINE + 18}
              textAnchor="middle"
              fontFamily={FONT_FAMILY}
              fontSize={FONT_SIZE}
              fill={TEXT_COLOR}
            >
              {bar.weekday}
            </text>
            <text
              x={cx}
              y={BASELINE + 36}
              textAnchor="middle"
              fontFamily={FONT_FAMILY}
              fontSize={FONT_SIZE}
              fill={TEXT_COLOR}
            >
              {bar.dayOfMonth}
            </text>
          </g>
        );
      })}
      <line x1={0} x2={width} y1={BASELINE} y2={BASELINE} stroke={CHART_COLORS.grey} />
    </svg>
  );
}

const round = (v: number) => Math.round(v * 100) / 100;
