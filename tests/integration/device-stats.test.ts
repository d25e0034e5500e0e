// Device statistics against the real database: the range and search, paging, the six averages,
// the password gate (constant-time compare, limited attempts, a cookie for this page only), the
// column choice, exports (the CSV parsed, the workbook opened with exceljs), delete all with its
// audit row, and the retention job.
import crypto from "node:crypto";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { DEMO_DEVICE_STATS_PASSWORD } from "~/lib/env.server";
import type { FormReplyData } from "~/lib/form.server";
import { GATE_MESSAGES } from "~/domain/deviceStats/gate.server";
import {
  DEFAULT_COLUMNS,
  deviceStatAverages,
  listDeviceStats,
  purgeOldDeviceStats,
  RANGE_MESSAGE,
  readStatsQuery,
  toLocalMinute,
} from "~/domain/deviceStats/deviceStats.server";
import { loader as exportLoader } from "~/routes/deviceStats.export";
import { action, loader } from "~/routes/deviceStats";
import { bodyOf, Browser, locationOf, statusOf } from "../support/requests";

const MINUTE = 60_000;

function serial() {
  return `ST${crypto.randomBytes(4).toString("hex").toUpperCase()}`;
}

async function insertStats(
  device: string,
  rows: {
    at: Date;
    core?: string;
    memory?: number;
    cpu?: number;
    temp?: number;
    profile?: unknown;
  }[],
) {
  // Records arrive through the device API, so their device is provisioned.
  const { id: deviceId } = await prisma.device.upsert({
    where: { serial: device },
    create: { serial: device, type: "cough", tokenHash: "not-a-real-token" },
    update: {},
  });
  await prisma.deviceStat.createMany({
    data: rows.map((r) => ({
      deviceId,
      serial: device,
      deviceType: "cough",
      core: r.core ?? "Single",
      memoryUsage: r.memory ?? null,
      cpuUsage: r.cpu ?? null,
      temperature: r.temp ?? null,
      createdAt: r.at,
      profile: r.profile === undefined ? null : JSON.stringify(r.profile),
      testType: "burn-in",
    })),
  });
}

/** A browser past the password box. */
async function opened(ip = `198.51.100.${crypto.randomInt(1, 250)}`) {
  const browser = new Browser(ip);
  const result = await browser.run(
    action,
    browser.post("/deviceStats", { intent: "password", password: DEMO_DEVICE_STATS_PASSWORD }),
  );
  expect(locationOf(result)).toBe("/deviceStats");
  return browser;
}

type Page = {
  gate: unknown;
  stats: {
    total: number;
    page: number;
    totalPages: number;
    columns: string[];
    rows: { id: number; cells: Record<string, string> }[];
    averages: Record<string, number | null>;
    range: { error: string | null; isDefault: boolean };
    profile: { records: Record<string, string>[]; raw: string } | null;
  } | null;
};

describe("the query", () => {
  it("defaults to the last 10 minutes, and refuses an end not after the start", () => {
    const now = new Date("2026-11-21T15:00:00Z");
    const none = readStatsQuery(new URLSearchParams(), now);
    expect(none.filter.end).toEqual(now);
    expect(none.filter.start).toEqual(new Date(now.getTime() - 10 * MINUTE));
    expect(none.defaultRange).toBe(true);
    expect(none.rangeError).toBeNull();
    expect(none.size).toBe(10);

    // Chicago is UTC-6 in November.
    const given = readStatsQuery(
      new URLSearchParams({ start: "2026-11-20T08:00", end: "2026-11-20T09:05", size: "500" }),
      now,
    );
    expect(given.filter.start.toISOString()).toBe("2026-11-20T14:00:00.000Z");
    expect(given.filter.end.toISOString()).toBe("2026-11-20T15:05:00.000Z");
    expect(given.size).toBe(500);
    expect(toLocalMinute(given.filter.start)).toBe("2026-11-20T08:00");

    for (const bad of [
      { start: "2026-11-20T09:00", end: "2026-11-20T09:00" },
      { start: "2026-11-20T09:00", end: "2026-11-20T08:55" },
      { start: "2026-11-20T09:00", end: "garbage" },
    ]) {
      const q = readStatsQuery(new URLSearchParams(bad), now);
      expect(q.rangeError).toBe("End Date Time should be greater than Start Date and Time");
      expect(q.defaultRange).toBe(true);
    }
    expect(RANGE_MESSAGE).toBe("End Date Time should be greater than Start Date and Time");
    expect(readStatsQuery(new URLSearchParams({ size: "7" }), now).size).toBe(10);
  });
});

describe("list and averages", () => {
  it("pages the range newest first, searches, and averages per core with two decimals", async () => {
    const device = serial();
    const base = Date.now() - 60 * MINUTE;
    await insertStats(device, [
      ...Array.from({ length: 25 }, (_, k) => ({
        at: new Date(base + k * MINUTE),
        core: k % 2 ? "Dual" : "Single",
        memory: 10 + k,
        cpu: 20 + k / 3,
        temp: 40,
      })),
      // Outside the range: not listed, not averaged.
      { at: new Date(base - 120 * MINUTE), core: "Single", memory: 1000, cpu: 1000, temp: 1000 },
    ]);
    const filter = {
      start: new Date(base),
      end: new Date(base + 30 * MINUTE),
      q: device.toLowerCase(),
    };
    const first = await listDeviceStats(filter, 1, 10);
    expect(first.total).toBe(25);
    expect(first.totalPages).toBe(3);
    expect(first.rows[0].memoryUsage).toBe(34);
    const last = await listDeviceStats(filter, 99, 10);
    expect(last.page).toBe(3);
    expect(last.rows).toHaveLength(5);

    const averages = await deviceStatAverages(filter);
    // Single: k = 0, 2, ..., 24 (13 rows); Dual: k = 1, 3, ..., 23 (12 rows).
    expect(averages.averageSingleCoreMemoryUsage).toBe(22);
    expect(averages.averageDualCoreMemoryUsage).toBe(22);
    expect(averages.averageSingleCoreCpuUsage).toBe(24);
    expect(averages.averageDualCoreCpuUsage).toBe(24);
    expect(averages.averageSingleCoreTemp).toBe(40);

    const nothing = await deviceStatAverages({ ...filter, q: "no-such-device" });
    expect(Object.values(nothing).every((v) => v === null)).toBe(true);
  });
});

describe("averages from hourly sums", () => {
  /** The six averages straight from the records, as SQLite's AVG computes them. */
  async function rawAverages(start: Date, end: Date) {
    const rows = await prisma.$queryRaw<
      { core: string; m: number | null; c: number | null; t: number | null }[]
    >`
      SELECT "core", AVG("memoryUsage") AS m, AVG("cpuUsage") AS c, AVG("temperature") AS t
      FROM "DeviceStat" WHERE "createdAt" >= ${start.getTime()} AND "createdAt" <= ${end.getTime()}
        AND "core" IN ('Single', 'Dual') GROUP BY "core"`;
    const round = (v: number | null | undefined) => (v == null ? null : Math.round(v * 100) / 100);
    const of = (core: string) => rows.find((r) => r.core === core);
    return {
      averageSingleCoreMemoryUsage: round(of("Single")?.m),
      averageSingleCoreCpuUsage: round(of("Single")?.c),
      averageSingleCoreTemp: round(of("Single")?.t),
      averageDualCoreMemoryUsage: round(of("Dual")?.m),
      averageDualCoreCpuUsage: round(of("Dual")?.c),
      averageDualCoreTemp: round(of("Dual")?.t),
    };
  }

  it("match the records' own averages over whole and partial hours, after deletes and changes", async () => {
    const device = serial();
    // Five hours of a day no other test writes to, a record every 7 minutes, some values missing.
    const base = Date.UTC(2024, 0, 3, 10, 0, 0);
    await insertStats(
      device,
      Array.from({ length: 43 }, (_, k) => ({
        at: new Date(base + k * 7 * MINUTE + 13_000),
        core: k % 3 ? "Single" : "Dual",
        memory: k % 5 === 0 ? undefined : 30 + ((k * 37) % 41),
        cpu: 10 + ((k * 13) % 29),
        temp: k % 4 === 0 ? undefined : 40 + (k % 7),
      })),
    );
    const ranges = [
      [new Date(base + 17 * MINUTE), new Date(base + 4 * 60 * MINUTE + 43 * MINUTE + 30_000)],
      [new Date(base), new Date(base + 3 * 60 * MINUTE - 1)],
      [new Date(base + 61 * MINUTE), new Date(base + 119 * MINUTE)],
      [new Date(base - 60 * MINUTE), new Date(base + 6 * 60 * MINUTE)],
    ] as const;
    const check = async () => {
      for (const [start, end] of ranges) {
        expect(await deviceStatAverages({ start, end, q: "" })).toEqual(
          await rawAverages(start, end),
        );
      }
    };
    await check();
    const someIds = await prisma.deviceStat.findMany({
      where: { serial: device },
      select: { id: true },
      orderBy: { id: "asc" },
      take: 9,
    });
    await prisma.deviceStat.deleteMany({
      where: { id: { in: someIds.slice(0, 6).map((r) => r.id) } },
    });
    await prisma.deviceStat.update({
      where: { id: someIds[7].id },
      data: { core: "Dual", memoryUsage: 99, createdAt: new Date(base + 200 * MINUTE) },
    });
    await check();
    expect(
      (await deviceStatAverages({ start: ranges[0][0], end: ranges[0][1], q: "" }))
        .averageDualCoreMemoryUsage,
    ).not.toBeNull();
  });
});

describe("the page", () => {
  it("shows only the password box until the right password; wrong ones are refused, then locked", async () => {
    const browser = new Browser(`203.0.113.${crypto.randomInt(1, 250)}`);
    const closed = await bodyOf<Page>(await browser.run(loader, browser.get("/deviceStats")));
    expect(closed.stats).toBeNull();
    expect(closed.gate).toEqual({ configured: true });

    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await browser.run(
        action,
        browser.post("/deviceStats", { intent: "password", password: `wrong-${attempt}` }),
      );
      expect(statusOf(wrong)).toBe(401);
      // The refusal never holds the password (the box is not filled in again).
      expect((await bodyOf<FormReplyData>(wrong)).repopulateFields).toEqual({});
      expect((await bodyOf<FormReplyData>(wrong)).fieldErrors.password).toBe(
        attempt < 5 ? GATE_MESSAGES.wrong : GATE_MESSAGES.locked,
      );
    }
    // Locked: even the right password is refused now, from this address.
    const locked = await browser.run(
      action,
      browser.post("/deviceStats", { intent: "password", password: DEMO_DEVICE_STATS_PASSWORD }),
    );
    expect((await bodyOf<FormReplyData>(locked)).fieldErrors.password).toBe(GATE_MESSAGES.locked);
    expect(browser.cookie).toBe("");

    // Posts other than the password are sent back to the box.
    const sneaky = await browser.run(action, browser.post("/deviceStats", { intent: "deleteAll" }));
    expect(locationOf(sneaky)).toBe("/deviceStats");
    const exported = await browser.run(exportLoader, browser.get("/deviceStats/export?format=csv"));
    expect(locationOf(exported)).toBe("/deviceStats");

    const other = await opened();
    expect(other.cookie).toMatch(/^__arc_devicestats=/);
    const open = await bodyOf<Page>(await other.run(loader, other.get("/deviceStats")));
    expect(open.stats).not.toBeNull();
    expect(open.stats!.columns).toEqual(DEFAULT_COLUMNS);
  });

  it("keeps the chosen columns, shows a record's profile, and says when the range is wrong", async () => {
    const device = serial();
    const at = new Date(Date.now() - 2 * MINUTE);
    await insertStats(device, [
      {
        at,
        memory: 12.5,
        profile: [
          { step: 1, pressure: 40 },
          { step: 2, pressure: 38 },
        ],
      },
    ]);
    const browser = await opened();
    const access = browser.cookie;
    const saved = await browser.run(
      action,
      browser.post("/deviceStats", {
        intent: "columns",
        column: ["device_id", "memory_usage_percentage", "nonsense"],
        from: `?q=${device}`,
      }),
    );
    expect(locationOf(saved)).toBe(`/deviceStats?q=${device}`);
    const setCookie = (saved as Response).headers.get("Set-Cookie")!;
    browser.cookie = `${access}; ${setCookie.split(";")[0]}`;
    const page = await bodyOf<Page>(
      await browser.run(loader, browser.get(`/deviceStats?q=${device}`)),
    );
    expect(page.stats!.columns).toEqual(["device_id", "memory_usage_percentage"]);
    expect(page.stats!.rows).toEqual([
      {
        id: expect.any(Number),
        hasProfile: true,
        cells: { device_id: device, memory_usage_percentage: "12.5" },
      },
    ]);

    const id = page.stats!.rows[0].id;
    const withProfile = await bodyOf<Page>(
      await browser.run(loader, browser.get(`/deviceStats?q=${device}&dialog=profile&id=${id}`)),
    );
    expect(withProfile.stats!.profile!.records).toEqual([
      { step: "1", pressure: "40" },
      { step: "2", pressure: "38" },
    ]);
    expect(JSON.parse(withProfile.stats!.profile!.raw)).toHaveLength(2);

    const wrongRange = await bodyOf<Page>(
      await browser.run(
        loader,
        browser.get("/deviceStats?start=2026-11-20T09:00&end=2026-11-20T08:00"),
      ),
    );
    expect(wrongRange.stats!.range).toMatchObject({ error: RANGE_MESSAGE, isDefault: true });
  });

  it("exports the range and search as CSV and as an Excel workbook, with the averages", async () => {
    const device = serial();
    const base = Date.now() - 5 * MINUTE;
    await insertStats(device, [
      { at: new Date(base), core: "Single", memory: 10, cpu: 30, temp: 41 },
      { at: new Date(base + MINUTE), core: "Dual", memory: 20, cpu: 50, temp: 45.555 },
      { at: new Date(base + 2 * MINUTE), core: "Single", memory: 11, cpu: 31, temp: 42 },
    ]);
    const browser = await opened();
    const csv = (await browser.run(
      exportLoader,
      browser.get(`/deviceStats/export?format=csv&q=${device}`),
    )) as Response;
    expect(csv.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="DeviceStats_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await csv.text()).trim().split("\n");
    expect(lines[0].split(",").slice(0, 5)).toEqual([
      "id",
      "device_type",
      "core",
      "device_id",
      "memory_usage_percentage",
    ]);
    expect(lines.slice(1, 4).map((l) => l.split(",")[3])).toEqual([device, device, device]);
    expect(lines[1].split(",")[4]).toBe("11");
    expect(lines).toContain("Average Single Core Memory Usage,10.50");
    expect(lines).toContain("Average Dual Core Temperature,45.56");

    const xlsx = (await browser.run(
      exportLoader,
      browser.get(`/deviceStats/export?format=xlsx&q=${device}`),
    )) as Response;
    expect(xlsx.headers.get("Content-Type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const sheet = workbook.getWorksheet("DeviceStats")!;
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(1).getCell(4).value).toBe("device_id");
    expect(sheet.getRow(2).getCell(5).value).toBe(11);
    const averages = workbook.getWorksheet("Averages")!;
    expect(averages.getRow(1).values).toEqual([
      undefined,
      "Average Single Core Memory Usage",
      "10.50",
    ]);
  });

  it("deletes all after the confirmation, with an audit row", async () => {
    await insertStats(serial(), [{ at: new Date() }]);
    const browser = await opened();
    const done = await browser.run(
      action,
      browser.post("/deviceStats", { intent: "deleteAll", from: "?dialog=delete&q=x" }),
    );
    expect(locationOf(done)).toMatch(/^\/deviceStats\?q=x&deleted=\d+$/);
    expect(await prisma.deviceStat.count()).toBe(0);
    const event = await prisma.auditEvent.findFirst({
      where: { action: "device_stats.deleted" },
      orderBy: { at: "desc" },
    });
    expect(JSON.parse(event!.detail!)).toMatchObject({ count: expect.any(Number) });
  });
});

describe("retention", () => {
  it("removes records older than the retention days and keeps the rest", async () => {
    const device = serial();
    const now = new Date();
    await insertStats(device, [
      { at: new Date(now.getTime() - 91 * 86_400_000) },
      { at: new Date(now.getTime() - 95 * 86_400_000) },
      { at: new Date(now.getTime() - 89 * 86_400_000) },
    ]);
    expect(await purgeOldDeviceStats(90, now)).toBeGreaterThanOrEqual(2);
    expect(await prisma.deviceStat.count({ where: { serial: device } })).toBe(1);
  });
});
