// The records' columns and the six averages (spec 3 §3 "Device stat row", "Device stats
// response"), and how a cell reads: pure, shared by the page, its exports and its tests.
import type { DeviceStat } from "~/generated/prisma/client";
import { DEFAULT_TIME_ZONE } from "~/lib/time";

export const DEFAULT_COLUMN_COUNT = 12;

type Kind = "number" | "text" | "time" | "json";

/** The columns in the spec's order, under the spec's field names. */
export const STAT_COLUMNS = [
  { key: "id", field: "id", kind: "number" },
  { key: "device_type", field: "deviceType", kind: "text" },
  { key: "core", field: "core", kind: "text" },
  { key: "device_id", field: "serial", kind: "text" },
  { key: "memory_usage_percentage", field: "memoryUsage", kind: "number" },
  { key: "cpu_usage_percentage", field: "cpuUsage", kind: "number" },
  { key: "temperature", field: "temperature", kind: "number" },
  { key: "test", field: "test", kind: "text" },
  { key: "created_at", field: "createdAt", kind: "time" },
  { key: "theraphy_start_time", field: "therapyStartTime", kind: "time" },
  { key: "theraphy_end_time", field: "therapyEndTime", kind: "time" },
  { key: "profile", field: "profile", kind: "json" },
  { key: "test_type", field: "testType", kind: "text" },
  { key: "usr", field: "usr", kind: "number" },
  { key: "sys", field: "sys", kind: "number" },
  { key: "nic", field: "nic", kind: "number" },
  { key: "idle", field: "idle", kind: "number" },
  { key: "io", field: "io", kind: "number" },
  { key: "irq", field: "irq", kind: "number" },
  { key: "sirq", field: "sirq", kind: "number" },
  { key: "mode", field: "mode", kind: "text" },
  { key: "oscillation", field: "oscillation", kind: "text" },
  { key: "frequency", field: "frequency", kind: "number" },
  { key: "amplitude", field: "amplitude", kind: "number" },
  { key: "cycle", field: "cycle", kind: "number" },
  { key: "flow", field: "flow", kind: "number" },
  { key: "pause_pressure", field: "pausePressure", kind: "number" },
  { key: "insp_pressure", field: "inspPressure", kind: "number" },
  { key: "exp_pressure", field: "expPressure", kind: "number" },
  { key: "duration", field: "duration", kind: "number" },
  { key: "test_dec", field: "testDec", kind: "text" },
] as const satisfies readonly { key: string; field: string; kind: Kind }[];

export type StatColumnKey = (typeof STAT_COLUMNS)[number]["key"];
export const STAT_COLUMN_KEYS = STAT_COLUMNS.map((c) => c.key) as StatColumnKey[];
export const DEFAULT_COLUMNS = STAT_COLUMN_KEYS.slice(0, DEFAULT_COLUMN_COUNT);

/** The columns a post chose (unknown names dropped), or the default ones. */
export function chosenColumns(picked: readonly string[], reset = false): StatColumnKey[] {
  const known = picked.filter((k): k is StatColumnKey =>
    (STAT_COLUMN_KEYS as string[]).includes(k),
  );
  return reset || known.length === 0 ? DEFAULT_COLUMNS : known;
}

/** The six averages (spec 3 §3 "Device stats response"), in their order on the page. */
export const AVERAGES = [
  {
    key: "averageSingleCoreMemoryUsage",
    label: "Single Core Memory Usage",
    core: "Single",
    field: "memoryUsage",
  },
  {
    key: "averageSingleCoreCpuUsage",
    label: "Single Core CPU Usage",
    core: "Single",
    field: "cpuUsage",
  },
  {
    key: "averageSingleCoreTemp",
    label: "Single Core Temperature",
    core: "Single",
    field: "temperature",
  },
  {
    key: "averageDualCoreMemoryUsage",
    label: "Dual Core Memory Usage",
    core: "Dual",
    field: "memoryUsage",
  },
  { key: "averageDualCoreCpuUsage", label: "Dual Core CPU Usage", core: "Dual", field: "cpuUsage" },
  {
    key: "averageDualCoreTemp",
    label: "Dual Core Temperature",
    core: "Dual",
    field: "temperature",
  },
] as const;

export type Averages = Record<(typeof AVERAGES)[number]["key"], number | null>;

/** A record as the table and the exports read it: the generated model's row. */
export type DeviceStatRow = DeviceStat;

// One formatter for every cell (an export formats three times per record).
const statTime = new Intl.DateTimeFormat("en-US", {
  timeZone: DEFAULT_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** MM/DD/YYYY HH:mm:ss in the portal's zone. */
export function formatStatTime(instant: Date | null) {
  return instant ? statTime.format(instant).replace(", ", " ") : "";
}

/** A cell as text (the table and the exports). */
export function cellText(row: DeviceStatRow, key: StatColumnKey) {
  const column = STAT_COLUMNS.find((c) => c.key === key)!;
  const value = row[column.field as keyof DeviceStatRow];
  if (value === null || value === undefined) return "";
  if (column.kind === "time") return formatStatTime(value as Date);
  return String(value);
}

export function averageLines(averages: Averages) {
  return AVERAGES.map((a) => [
    `Average ${a.label}`,
    averages[a.key] === null ? "N/A" : averages[a.key]!.toFixed(2),
  ]);
}
