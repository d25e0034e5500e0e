// Heights and weights in the viewer's measuring unit (spec 1 §2.6, spec 3 §9): stored as inches and
// pounds; Metric shows cm and kg (1 in = 2.54 cm, 1 lb = 0.454 kg), Imperial ft/in and lbs.
export type MeasuringUnit = "Imperial" | "Metric";

export function formatHeight(inches: number | null | undefined, unit: MeasuringUnit) {
  if (inches === null || inches === undefined || !Number.isFinite(inches)) return "-";
  if (unit === "Metric") return `${Math.round(inches * 2.54)} cm`;
  const whole = Math.round(inches);
  return `${Math.floor(whole / 12)} ft ${whole % 12} in`;
}

export function formatWeight(pounds: number | null | undefined, unit: MeasuringUnit) {
  if (pounds === null || pounds === undefined || !Number.isFinite(pounds)) return "-";
  return unit === "Metric" ? `${(pounds * 0.454).toFixed(1)} kg` : `${Math.round(pounds)} lbs`;
}
