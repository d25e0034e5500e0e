// Reading the records (spec 3 §2.9): one page of a range and search, the six averages, a record's
// profile, and every record in batches for the exports. Prisma's client throughout: the averages
// read whole hours from DeviceStatHour (kept by triggers), so no raw SQL is needed.
import { prisma } from "~/lib/db.server";
import type { Prisma } from "~/generated/prisma/client";
import { AVERAGES, type Averages, type DeviceStatRow } from "./columns";
import type { StatsFilter } from "./query";

const EXPORT_BATCH = 2000;
export const HOUR_MS = 3_600_000;

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

/**
 * Every record of the range and search, newest first, read in batches (flat memory); each batch
 * starts after the last record of the one before (createdAt, id), so deep batches cost no more.
 */
export async function* allRows(filter: StatsFilter) {
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
