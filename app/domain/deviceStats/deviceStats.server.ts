// Device statistics (spec 3 §2.9, §3 "Device stat row", §4, §5, §7.5, §9): the performance records
// devices post to the device API, listed by a time range and a search, six averages, CSV and Excel
// export, delete all, and the retention job. The page's password gate is domain/deviceStats/gate.server.ts.
import { PassThrough, Readable } from "node:stream";
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import ExcelJS from "exceljs";
import { csvChunks, toCsv } from "~/lib/csv";
import { prisma } from "~/lib/db.server";
import { DEFAULT_TIME_ZONE } from "~/lib/time";
import type { Prisma } from "~/generated/prisma/client";
import { audit } from "../audit.server";

export const PAGE_SIZES = [10, 50, 100, 200, 500, 1000] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** The default range: the last 10 minutes (spec 3 §9). */
export const DEFAULT_RANGE_MS = 600_000;
export const DEFAULT_COLUMN_COUNT = 12;
export const RANGE_MESSAGE = "End Date Time should be greater than Start Date and Time";
const EXPORT_BATCH = 2000;
const PURGE_BATCH = 10_000;

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

export type StatsFilter = { start: Date; end: Date; q: string };

// ---------------------------------------------------------------------------------------------
// The query of the page
// ---------------------------------------------------------------------------------------------

const LOCAL_MINUTE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A datetime-local value (YYYY-MM-DDTHH:mm) read in the portal's zone, or null. */
export function parseLocalMinute(value: string | null, timeZone = DEFAULT_TIME_ZONE) {
  const m = value ? LOCAL_MINUTE.exec(value) : null;
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const date = new TZDate(y, mo - 1, d, h, mi, 0, timeZone);
  if (Number.isNaN(date.getTime()) || date.getMonth() !== mo - 1) return null;
  return new Date(date.getTime());
}

/** The datetime-local value of an instant in the portal's zone. */
export function toLocalMinute(instant: Date, timeZone = DEFAULT_TIME_ZONE) {
  return format(new TZDate(instant, timeZone), "yyyy-MM-dd'T'HH:mm");
}

export type StatsQuery = {
  filter: StatsFilter;
  /** Whether the range is the default one (the last 10 minutes, moving with each load). */
  defaultRange: boolean;
  rangeError: string | null;
  page: number;
  size: number;
};

/**
 * Reads start, end (datetime-local, the portal's zone), q, page and size. No range, or a range
 * whose end is not after its start (with the spec's message), gives the last 10 minutes.
 */
export function readStatsQuery(search: URLSearchParams, now = new Date()): StatsQuery {
  const start = parseLocalMinute(search.get("start"));
  const end = parseLocalMinute(search.get("end"));
  const given = search.has("start") || search.has("end");
  const valid = start !== null && end !== null && end > start;
  const size = Number(search.get("size"));
  const page = Number.parseInt(search.get("page") ?? "1", 10);
  return {
    filter: {
      start: valid ? start : new Date(now.getTime() - DEFAULT_RANGE_MS),
      end: valid ? end : now,
      q: (search.get("q") ?? "").trim().slice(0, 100),
    },
    defaultRange: !valid,
    rangeError: given && !valid ? RANGE_MESSAGE : null,
    page: Number.isFinite(page) && page > 0 ? page : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/**
 * The records of the range, and with a search, of the devices whose serial contains it. The
 * serials come from the Device table (one row per device), so the search is an index lookup on
 * (serial, createdAt) rather than a scan of every record in the range.
 */
async function whereOf(filter: StatsFilter): Promise<Prisma.DeviceStatWhereInput> {
  const range = { createdAt: { gte: filter.start, lte: filter.end } };
  if (!filter.q) return range;
  const devices = await prisma.device.findMany({
    where: { serial: { contains: filter.q } },
    select: { serial: true },
  });
  return { ...range, serial: { in: devices.map((d) => d.serial) } };
}

const newestFirst: Prisma.DeviceStatOrderByWithRelationInput[] = [
  { createdAt: "desc" },
  { id: "desc" },
];

/** One page of records, newest first, with the Total and the number of pages. */
export async function listDeviceStats(filter: StatsFilter, page: number, size: number) {
  const where = await whereOf(filter);
  const total = await prisma.deviceStat.count({ where });
  const totalPages = Math.max(1, Math.ceil(total / size));
  const current = Math.min(page, totalPages);
  const rows = await prisma.deviceStat.findMany({
    where,
    orderBy: newestFirst,
    skip: (current - 1) * size,
    take: size,
  });
  return { rows, total, totalPages, page: current };
}

export type DeviceStatRow = Awaited<ReturnType<typeof listDeviceStats>>["rows"][number];

const HOUR_MS = 3_600_000;

type Sums = Record<"memory" | "cpu" | "temperature", { count: number; sum: number }>;
const emptySums = (): Sums => ({
  memory: { count: 0, sum: 0 },
  cpu: { count: 0, sum: 0 },
  temperature: { count: 0, sum: 0 },
});

/** Counts and sums per core of the records themselves (the search, and the edges of a range). */
async function recordSums(where: Prisma.DeviceStatWhereInput, into: Map<string, Sums>) {
  const groups = await prisma.deviceStat.groupBy({
    by: ["core"],
    where: { ...where, core: { in: ["Single", "Dual"] } },
    _count: { memoryUsage: true, cpuUsage: true, temperature: true },
    _sum: { memoryUsage: true, cpuUsage: true, temperature: true },
  });
  for (const g of groups) {
    const sums = into.get(g.core!) ?? emptySums();
    sums.memory.count += g._count.memoryUsage;
    sums.memory.sum += g._sum.memoryUsage ?? 0;
    sums.cpu.count += g._count.cpuUsage;
    sums.cpu.sum += g._sum.cpuUsage ?? 0;
    sums.temperature.count += g._count.temperature;
    sums.temperature.sum += g._sum.temperature ?? 0;
    into.set(g.core!, sums);
  }
}

/** Counts and sums per core of whole hours, from DeviceStatHour (kept by triggers). */
async function hourSums(from: Date, until: Date, into: Map<string, Sums>) {
  const groups = await prisma.deviceStatHour.groupBy({
    by: ["core"],
    where: { hour: { gte: from, lt: until } },
    _sum: {
      memoryCount: true,
      memorySum: true,
      cpuCount: true,
      cpuSum: true,
      temperatureCount: true,
      temperatureSum: true,
    },
  });
  for (const { core, _sum: t } of groups) {
    const sums = into.get(core) ?? emptySums();
    sums.memory.count += t.memoryCount ?? 0;
    sums.memory.sum += t.memorySum ?? 0;
    sums.cpu.count += t.cpuCount ?? 0;
    sums.cpu.sum += t.cpuSum ?? 0;
    sums.temperature.count += t.temperatureCount ?? 0;
    sums.temperature.sum += t.temperatureSum ?? 0;
    into.set(core, sums);
  }
}

const AVERAGE_SOURCE = {
  memoryUsage: "memory",
  cpuUsage: "cpu",
  temperature: "temperature",
} as const;

/**
 * The six averages over the range and search, two decimals; null where there is no record.
 * Without a search, the whole hours of the range come from DeviceStatHour and only the partial
 * hours at its two ends from the records, so 30 days cost about 720 rows, not a million.
 */
export async function deviceStatAverages(filter: StatsFilter): Promise<Averages> {
  const byCore = new Map<string, Sums>();
  const start = filter.start.getTime();
  const end = filter.end.getTime();
  const firstHour = Math.ceil(start / HOUR_MS) * HOUR_MS;
  const afterLastHour = Math.floor((end + 1) / HOUR_MS) * HOUR_MS;
  if (filter.q || firstHour >= afterLastHour) {
    await recordSums(await whereOf(filter), byCore);
  } else {
    await hourSums(new Date(firstHour), new Date(afterLastHour), byCore);
    if (start < firstHour) {
      await recordSums({ createdAt: { gte: filter.start, lt: new Date(firstHour) } }, byCore);
    }
    if (afterLastHour <= end) {
      await recordSums({ createdAt: { gte: new Date(afterLastHour), lte: filter.end } }, byCore);
    }
  }
  const result = {} as Averages;
  for (const a of AVERAGES) {
    const sums = byCore.get(a.core)?.[AVERAGE_SOURCE[a.field]];
    result[a.key] = sums && sums.count > 0 ? Math.round((sums.sum / sums.count) * 100) / 100 : null;
  }
  return result;
}

/** A record's profile (a JSON list of records) for the profile-data dialog; null if none. */
export async function findDeviceStatProfile(id: number) {
  if (!Number.isSafeInteger(id)) return null;
  const row = await prisma.deviceStat.findUnique({
    where: { id },
    select: { id: true, serial: true, createdAt: true, profile: true },
  });
  if (!row) return null;
  let records: Record<string, unknown>[] = [];
  try {
    const parsed: unknown = row.profile ? JSON.parse(row.profile) : [];
    const list = Array.isArray(parsed) ? parsed : [parsed];
    records = list.map((r) =>
      r && typeof r === "object" && !Array.isArray(r)
        ? (r as Record<string, unknown>)
        : { value: r },
    );
  } catch {
    records = [];
  }
  return {
    id: row.id,
    serial: row.serial,
    createdAt: row.createdAt,
    raw: row.profile ?? "",
    records,
  };
}

// ---------------------------------------------------------------------------------------------
// Cells and exports
// ---------------------------------------------------------------------------------------------

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

function averageLines(averages: Averages) {
  return AVERAGES.map((a) => [
    `Average ${a.label}`,
    averages[a.key] === null ? "N/A" : averages[a.key]!.toFixed(2),
  ]);
}

/**
 * Every record of the range and search, newest first, read in batches (flat memory); each batch
 * starts after the last record of the one before (createdAt, id), so deep batches cost no more.
 */
async function* allRows(filter: StatsFilter) {
  const where = await whereOf(filter);
  let last: { createdAt: Date; id: number } | null = null;
  for (;;) {
    const after: Prisma.DeviceStatWhereInput = last
      ? {
          OR: [
            { createdAt: { lt: last.createdAt } },
            { createdAt: last.createdAt, id: { lt: last.id } },
          ],
        }
      : {};
    const batch: DeviceStatRow[] = await prisma.deviceStat.findMany({
      where: { AND: [where, after] },
      orderBy: newestFirst,
      take: EXPORT_BATCH,
    });
    yield* batch;
    if (batch.length < EXPORT_BATCH) return;
    last = batch[batch.length - 1];
  }
}

/** 'DeviceStats' plus the current date-time (spec 3 §2.9), e.g. DeviceStats_2026-11-21_09-30-00.csv. */
export function exportFileName(extension: "csv" | "xlsx", now = new Date()) {
  return `DeviceStats_${format(new TZDate(now, DEFAULT_TIME_ZONE), "yyyy-MM-dd_HH-mm-ss")}.${extension}`;
}

/** The records as CSV (lib/csv), then a blank line and the six averages; streamed. */
export function deviceStatsCsv(filter: StatsFilter): ReadableStream<Uint8Array> {
  async function* records() {
    for await (const row of allRows(filter)) {
      yield Object.fromEntries(STAT_COLUMN_KEYS.map((k) => [k, cellText(row, k)]));
    }
  }
  async function* csv() {
    for await (const chunk of csvChunks(
      records(),
      { fields: [...STAT_COLUMN_KEYS], quote: "needed" },
      512,
    )) {
      yield Buffer.from(chunk);
    }
    const averages = await deviceStatAverages(filter);
    const lines = averageLines(averages).map(([label, value]) => ({ label, value }));
    const tail = toCsv(lines, { header: false, quote: "needed" });
    yield Buffer.from(`\n\n${tail}\n`);
  }
  return Readable.toWeb(Readable.from(csv())) as ReadableStream<Uint8Array>;
}

/**
 * The records as an Excel workbook (exceljs' streaming writer: rows are committed as they are
 * written): sheet "DeviceStats" with the records, sheet "Averages" with the six averages.
 */
export function deviceStatsXlsx(filter: StatsFilter): ReadableStream<Uint8Array> {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false });
  (async () => {
    const sheet = workbook.addWorksheet("DeviceStats");
    sheet.columns = STAT_COLUMNS.map((c) => ({ header: c.key, key: c.key }));
    for await (const row of allRows(filter)) {
      sheet
        .addRow(
          Object.fromEntries(
            STAT_COLUMNS.map((c) => {
              const value = row[c.field as keyof DeviceStatRow];
              return [c.key, c.kind === "time" ? formatStatTime(value as Date | null) : value];
            }),
          ),
        )
        .commit();
    }
    sheet.commit();
    const averages = workbook.addWorksheet("Averages");
    for (const line of averageLines(await deviceStatAverages(filter)))
      averages.addRow(line).commit();
    averages.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error as Error));
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}

// ---------------------------------------------------------------------------------------------
// Deleting
// ---------------------------------------------------------------------------------------------

/** Delete all (spec 3 §2.9), recorded in the audit log with the number of records. */
export async function deleteAllDeviceStats(by: { ip: string | null }) {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.deviceStat.deleteMany({});
    await tx.deviceStatHour.deleteMany({});
    await audit(
      {
        actorId: null,
        action: "device_stats.deleted",
        targetType: "DeviceStat",
        ip: by.ip,
        detail: { count },
      },
      tx,
    );
    return count;
  });
}

/** The retention job: deletes records older than `days`, in batches so writers are not held up. */
export async function purgeOldDeviceStats(days: number, now = new Date()) {
  const before = new Date(now.getTime() - days * 86_400_000);
  let deleted = 0;
  for (;;) {
    const ids = await prisma.deviceStat.findMany({
      where: { createdAt: { lt: before } },
      select: { id: true },
      take: PURGE_BATCH,
    });
    if (ids.length === 0) {
      // The triggers emptied these hours; their rows go too.
      await prisma.deviceStatHour.deleteMany({
        where: { hour: { lt: new Date(before.getTime() - HOUR_MS) } },
      });
      return deleted;
    }
    const { count } = await prisma.deviceStat.deleteMany({
      where: { id: { in: ids.map((r) => r.id) } },
    });
    deleted += count;
  }
}
