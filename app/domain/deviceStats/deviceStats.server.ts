// Device statistics (spec 3 §2.9, §3 "Device stat row", §4, §5, §7.5, §9): the performance records
// devices post to the device API, listed by a time range and a search, six averages, CSV and Excel
// export, delete all, and the retention job. The page's password gate is gate.server.ts; the
// columns are columns.ts, the query query.ts, the reading records.server.ts.
import { PassThrough, Readable } from "node:stream";
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import ExcelJS from "exceljs";
import { csvChunks, toCsv } from "~/lib/csv";
import { prisma } from "~/lib/db.server";
import { DEFAULT_TIME_ZONE } from "~/lib/time";
import { audit } from "../audit.server";
import {
  averageLines,
  cellText,
  formatStatTime,
  STAT_COLUMN_KEYS,
  STAT_COLUMNS,
  type DeviceStatRow,
  type StatColumnKey,
} from "./columns";
import { toLocalMinute, type StatsFilter, type StatsQuery } from "./query";
import {
  allRows,
  deviceStatAverages,
  findDeviceStatProfile,
  HOUR_MS,
  listDeviceStats,
} from "./records.server";

export * from "./columns";
export * from "./query";
export { deviceStatAverages, findDeviceStatProfile, listDeviceStats } from "./records.server";

const PURGE_BATCH = 10_000;

/** What the page shows for a query: the rows in the chosen columns, the averages, a profile. */
export async function loadDeviceStatsPage(view: {
  query: StatsQuery;
  columns: StatColumnKey[];
  /** The record whose profile the dialog shows, if it is open. */
  profileId: number | null;
  deleted: string | null;
}) {
  const { query, columns } = view;
  const [list, averages, profile] = await Promise.all([
    listDeviceStats(query.filter, query.page, query.size),
    deviceStatAverages(query.filter),
    view.profileId === null ? null : findDeviceStatProfile(view.profileId),
  ]);
  return {
    q: query.filter.q,
    size: query.size,
    range: {
      start: toLocalMinute(query.filter.start),
      end: toLocalMinute(query.filter.end),
      shown: `${formatStatTime(query.filter.start)} – ${formatStatTime(query.filter.end)}`,
      isDefault: query.defaultRange,
      error: query.rangeError,
    },
    columns,
    page: list.page,
    totalPages: list.totalPages,
    total: list.total,
    rows: list.rows.map((row) => ({
      id: row.id,
      hasProfile: Boolean(row.profile),
      cells: Object.fromEntries(columns.map((k) => [k, cellText(row, k)])),
    })),
    averages,
    profile: profile && {
      ...profile,
      createdAt: formatStatTime(profile.createdAt),
      keys: [...new Set(profile.records.flatMap((r) => Object.keys(r)))],
      records: profile.records.map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [
            k,
            typeof v === "object" ? JSON.stringify(v) : String(v),
          ]),
        ),
      ),
    },
    deleted: view.deleted,
  };
}

export type DeviceStatsPage = Awaited<ReturnType<typeof loadDeviceStatsPage>>;

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
