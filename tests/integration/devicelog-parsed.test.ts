// A decrypted log's parsed forms on disk (issue 23 item 6): opening a log again reads them, not
// the upload; they are sealed (no plaintext, tampering refused); the purge removes them; the
// models kept in memory stay within their bound; the decrypt runs in a worker thread.
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { threadId } from "node:worker_threads";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { decryptJobs, keyOfLog, parsedPaths } from "~/domain/deviceLogs/decryptJob.server";
import {
  findLogFile,
  LOG_FILE_FIELD,
  loadCoughModel,
  logCsvStream,
  modelCache,
  purgeExpiredLogFiles,
  type LogFileRecord,
} from "~/domain/deviceLogs/deviceLog.server";
import type { Column, CoughLogModel } from "~/domain/deviceLogs/model";
import { ParsedLogTampered, SealedFileWriter } from "~/domain/deviceLogs/parsedLog.server";
import { summarize, summaryCounts } from "~/domain/deviceLogs/summary";
import {
  addReportItem,
  loadTherapyDashboard,
  reportItemGraphs,
} from "~/domain/deviceLogs/therapyDashboard.server";
import { startDecryptServer } from "../support/decryptServer";
import { writeDeviceLog } from "../../scripts/make-device-log";

const logRoot = path.join(env.dataDir, "devicelogs");
const parsedRoot = path.join(logRoot, "parsed");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "arc-devicelog-parsed-"));
const HOUR = 3_600_000;

let server: Awaited<ReturnType<typeof startDecryptServer>>;
const defaultLimit = modelCache.limitBytes;
beforeAll(async () => {
  server = await startDecryptServer();
});
afterAll(async () => {
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
});
beforeEach(async () => {
  await prisma.logFile.deleteMany();
  await fsp.rm(logRoot, { recursive: true, force: true });
  modelCache.clear();
  server.failures.length = 0;
});
afterEach(() => {
  modelCache.limitBytes = defaultLimit;
  expect(server.failures).toEqual([]);
});

async function generated(name: string, options: { to?: string; therapiesPerDay?: number } = {}) {
  const written = await writeDeviceLog({
    dir: path.join(work, name),
    type: "cough",
    deviceId: "2301A0042",
    from: "2026-02-01",
    to: options.to ?? "2026-02-14",
    therapiesPerDay: options.therapiesPerDay,
    seed: 11,
  });
  return { name: path.basename(written.path), content: await fsp.readFile(written.path) };
}

/** Uploads through the decrypt dialog's form and returns the stored upload. */
async function uploaded(log: { name: string; content: Buffer }): Promise<LogFileRecord> {
  const form = new FormData();
  form.append(LOG_FILE_FIELD, new Blob([new Uint8Array(log.content)]), log.name);
  const response = await fetch(`${server.url}/decrypt/upload`, {
    method: "POST",
    body: form,
    redirect: "manual",
  });
  await response.arrayBuffer();
  const uuid = new URL(response.headers.get("location")!, server.url).searchParams.get("log");
  const file = await findLogFile(uuid);
  if (!file) throw new Error(`upload refused: ${response.headers.get("location")}`);
  return file;
}

/** The CSV download, through the route. */
async function csvOf(file: LogFileRecord, range: { from?: string; to?: string } = {}) {
  const query = new URLSearchParams({ uuid: file.id, ...range });
  const response = await fetch(`${server.url}/decrypt/csv?${query}`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The CSV stream itself, read to its end (a fault mid-way throws). */
async function csvStreamed(file: LogFileRecord) {
  let text = "";
  for await (const chunk of logCsvStream(file, {}) as unknown as AsyncIterable<string>)
    text += chunk;
  return text;
}

const dashboardOf = (file: LogFileRecord) =>
  loadTherapyDashboard(
    file,
    { startDate: null, endDate: null, q: "", tablePage: 1, graphPage: 1 },
    new Date("2026-03-01T00:00:00Z"),
  );

/**
 * Writes a model in the sealed form of version 1: the head (its size, then its JSON) and every
 * column's values in one stream of bytes, cut into segments wherever SEGMENT_BYTES falls.
 */
function writeVersion1(file: string, key: Buffer, logId: string, model: CoughLogModel) {
  const TYPES: Record<string, string> = { Float64Array: "f64", Float32Array: "f32", Int32Array: "i32", Uint8Array: "u8" }; // prettier-ignore
  const columns = (["therapies", "cycles", "hmr"] as const).flatMap(
    (group) =>
    Object.entries(model[group] as Record<string, Column>).map(([key, column]) => ({ group, key, column })), // prettier-ignore
  );
  const head = {
    version: 1,
    keyId: model.keyId,
    deviceId: model.deviceId,
    rows: model.rows,
    firstStamp: model.firstStamp,
    lastStamp: model.lastStamp,
    modes: model.modes,
    therapyExtras: [...model.therapyExtras.entries()],
    orphanCycles: model.orphanCycles,
    settings: model.settings,
    alarms: model.alarms,
    systemEvents: model.systemEvents,
    columns: columns.map(({ group, key, column }) => ({ group, key, type: TYPES[column.make(0).constructor.name], length: column.length })), // prettier-ignore
  };
  const json = Buffer.from(JSON.stringify(head), "utf8");
  const size = Buffer.alloc(4);
  size.writeUInt32LE(json.length, 0);
  const writer = new SealedFileWriter(file, key, "model", logId);
  writer.push(size);
  writer.push(json);
  for (const { column } of columns)
    for (const view of column.views())
      writer.push(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  writer.close();
}

const partsOf = async (id: string) =>
  (await fsp.readdir(parsedRoot).catch(() => [] as string[])).filter((f) => f.startsWith(id));

describe("a log opened again", () => {
  it("reads its parsed form: same dashboard, report graphs and CSV with the upload gone or corrupted, no decrypt", async () => {
    const file = await uploaded(await generated("reopen"));
    expect((await partsOf(file.id)).sort()).toEqual([`${file.id}.model`, `${file.id}.rows`]);
    await addReportItem(file, {}, 1);
    const first = {
      dashboard: await dashboardOf(file),
      graphs: await reportItemGraphs(file),
      csv: await csvOf(file),
      march: await csvOf(file, { from: "2026-02-03", to: "2026-02-05" }),
    };
    expect(first.dashboard.summary.totalTherapies).toBeGreaterThan(0);
    expect(first.csv.split("\n").length).toBeGreaterThan(100);

    // As after a restart, with the encrypted upload corrupted, then removed.
    const started = decryptJobs.started;
    const original = path.join(env.dataDir, file.storagePath);
    const bytes = await fsp.readFile(original);
    bytes.fill(0x41, 100, bytes.length - 100);
    await fsp.writeFile(original, bytes);
    for (const step of ["corrupted", "removed"]) {
      if (step === "removed") await fsp.rm(original);
      modelCache.clear();
      expect(await dashboardOf(file), step).toEqual(first.dashboard);
      expect(await reportItemGraphs(file), step).toEqual(first.graphs);
      expect(await csvOf(file), step).toBe(first.csv);
      expect(await csvOf(file, { from: "2026-02-03", to: "2026-02-05" }), step).toBe(first.march);
    }
    expect(decryptJobs.started).toBe(started);
  });

  it("reads the parsed model in a worker thread, not on the main one, and only once for requests at once", async () => {
    const file = await uploaded(await generated("read-in-worker"));
    const dashboard = await dashboardOf(file);
    modelCache.clear();
    const reads: number[] = [];
    const onRead = (id: string, threadId: number) => id === file.id && reads.push(threadId);
    decryptJobs.on("modelRead", onRead);
    try {
      const started = decryptJobs.started;
      expect(await Promise.all([dashboardOf(file), dashboardOf(file)])).toEqual([
        dashboard,
        dashboard,
      ]);
      expect(decryptJobs.started).toBe(started);
    } finally {
      decryptJobs.off("modelRead", onRead);
    }
    expect(reads).toHaveLength(1);
    expect(reads[0]).not.toBe(threadId);
  });

  it("without parsed forms (an upload from before them), decrypts the upload once in the worker and keeps them", async () => {
    const file = await uploaded(await generated("rebuild"));
    const dashboard = await dashboardOf(file);
    const csv = await csvOf(file);
    modelCache.clear();
    for (const part of await partsOf(file.id)) await fsp.rm(path.join(parsedRoot, part));

    const started = decryptJobs.started;
    // Three requests at once share one decrypt.
    const again = await Promise.all([dashboardOf(file), dashboardOf(file), csvOf(file)]);
    expect(again).toEqual([dashboard, dashboard, csv]);
    expect(decryptJobs.started).toBe(started + 1);
    expect((await partsOf(file.id)).sort()).toEqual([`${file.id}.model`, `${file.id}.rows`]);
  });
});

/** A sealed file with its first two segments in the other order (magic and key check: 24 bytes;
 * a segment: length u32, last flag, nonce 12, ciphertext, tag 16). */
function swapFirstSegments(file: Buffer) {
  const end = (at: number) => at + 5 + 12 + file.readUInt32LE(at) + 16;
  const first = 24;
  const second = end(first);
  const third = end(second);
  return Buffer.concat([
    file.subarray(0, first),
    file.subarray(second, third),
    file.subarray(first, second),
    file.subarray(third),
  ]);
}

describe("the reopen's work off the main thread", () => {
  it("a model sealed in the older form (version 1) is stale: the upload is decrypted again once, and the new form read after", async () => {
    const file = await uploaded(await generated("version-1"));
    const dashboard = await dashboardOf(file);
    writeVersion1(parsedPaths(file.id).modelPath, keyOfLog(file.id), file.id, await loadCoughModel(file)); // prettier-ignore
    const started = decryptJobs.started;
    for (const step of ["version 1 on disk", "rewritten"]) {
      modelCache.clear();
      expect(await dashboardOf(file), step).toEqual(dashboard);
      expect(decryptJobs.started, step).toBe(started + 1);
    }
  });

  it("the first open's summary comes from the worker that reads the model; the main thread computes a range's summary once", async () => {
    const file = await uploaded(await generated("summary-in-worker"));
    modelCache.clear();
    const computed = summaryCounts.computed;
    const first = await dashboardOf(file);
    const tablePage2 = await loadTherapyDashboard(
      file,
      { startDate: null, endDate: null, q: "", tablePage: 2, graphPage: 1 },
      new Date("2026-03-01T00:00:00Z"),
    );
    expect(tablePage2.summary).toEqual(first.summary);
    expect(summaryCounts.computed).toBe(computed);
    const model = await loadCoughModel(file);
    expect(first.summary).toEqual(summarize(model, first.dates.range));

    const range = { startDate: "2026-02-03", endDate: "2026-02-05", q: "", tablePage: 1, graphPage: 1 }; // prettier-ignore
    const days = await loadTherapyDashboard(file, range, new Date("2026-03-01T00:00:00Z"));
    expect(days.summary).toEqual(summarize(model, { from: "2026-02-03", to: "2026-02-05" }));
    expect(days.summary.totalTherapies).toBeLessThan(first.summary.totalTherapies);
    await loadTherapyDashboard(file, { ...range, tablePage: 2 }, new Date("2026-03-01T00:00:00Z"));
    expect(summaryCounts.computed).toBe(computed + 1);
  });

  it.runIf(process.platform === "linux")(
    "a decrypt yields to the server's requests: its worker lowers its own CPU priority, the server's stays",
    async () => {
      const file = await uploaded(await generated("priority"));
      modelCache.clear();
      for (const part of await partsOf(file.id)) await fsp.rm(path.join(parsedRoot, part));
      // A log past yieldAfterBytes (32 MB in the server; all of this one here).
      const yieldAfter = decryptJobs.yieldAfterBytes;
      decryptJobs.yieldAfterBytes = 0;
      try {
        const priority = once(decryptJobs, "priority");
        const model = loadCoughModel(file);
        expect(await priority).toEqual([file.id, 10]);
        expect(os.getPriority()).toBe(0);
        expect((await model).rows).toBe(file.rowCount);
      } finally {
        decryptJobs.yieldAfterBytes = yieldAfter;
      }
    },
  );
});

describe("the parsed forms on disk", () => {
  it("hold no plaintext: no record text, no device id, no key", async () => {
    const file = await uploaded(await generated("sealed"));
    const { modelPath, rowsPath } = parsedPaths(file.id);
    const secretBytes = Buffer.from(env.sessionSecret);
    for (const p of [modelPath, rowsPath]) {
      const raw = await fsp.readFile(p);
      const latin1 = raw.toString("latin1");
      for (const text of ["THERAPY", "CYCLE", "MODE:", "TS_REF", "2026-02-0", "2301A0042", "Auto"])
        expect(latin1, `${path.basename(p)} holds ${text}`).not.toContain(text);
      expect(raw.includes(secretBytes)).toBe(false);
    }
  });

  it("fail closed when changed: a flipped byte, a cut file or a swapped segment gives nothing and no silent decrypt", async () => {
    const file = await uploaded(
      await generated("tamper", { to: "2026-04-30", therapiesPerDay: 6 }),
    );
    const { modelPath, rowsPath } = parsedPaths(file.id);
    const keep = { model: await fsp.readFile(modelPath), rows: await fsp.readFile(rowsPath) };
    const started = decryptJobs.started;
    // The model of a small log is one segment; its rows are several.
    const edits: [string, (b: Buffer) => Buffer, "rows"?][] = [
      ["a flipped byte", (b) => Buffer.from(b.map((v, i) => (i === b.length >> 1 ? v ^ 1 : v)))],
      ["the last segment cut off", (b) => b.subarray(0, b.length - 16 - 12 - 5)],
      ["a byte added", (b) => Buffer.concat([b, Buffer.from([0])])],
      ["the first two segments swapped", swapFirstSegments, "rows"],
    ];
    for (const [what, edit, only] of edits) {
      if (!only) {
        await fsp.writeFile(modelPath, edit(keep.model));
        modelCache.clear();
        await expect(loadCoughModel(file), what).rejects.toBeInstanceOf(ParsedLogTampered);
        await fsp.writeFile(modelPath, keep.model);
      }

      await fsp.writeFile(rowsPath, edit(keep.rows));
      await expect(csvStreamed(file), what).rejects.toBeInstanceOf(ParsedLogTampered);
      await fsp.writeFile(rowsPath, keep.rows);
    }
    expect(decryptJobs.started).toBe(started);
    expect(keep.rows.length).toBeGreaterThan(256 * 1024); // rows in more than one segment
    modelCache.clear();
    expect((await loadCoughModel(file)).rows).toBe(file.rowCount);
  });
});

describe("purgeExpiredLogFiles", () => {
  it("removes an expired upload's parsed forms with it, and stray parsed forms an hour old", async () => {
    const old = await uploaded(await generated("purge-old"));
    const fresh = await uploaded(await generated("purge-fresh"));
    await loadCoughModel(old);
    await prisma.logFile.update({
      where: { id: old.id },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const stray = path.join(parsedRoot, "6f1c1a51-8a4e-4f5e-9d7b-0d1f2a3b4c5d.model");
    await fsp.writeFile(stray, "x");
    const longAgo = new Date(Date.now() - HOUR - 1_000);
    await fsp.utimes(stray, longAgo, longAgo);

    expect(await purgeExpiredLogFiles()).toEqual({ expired: 1, strays: 1 });
    expect(await partsOf(old.id)).toEqual([]);
    expect(modelCache.has(old.id)).toBe(false);
    expect(fs.existsSync(stray)).toBe(false);
    expect((await partsOf(fresh.id)).length).toBe(2);
  });
});

describe("models in memory", () => {
  it("stay within their bound, least recently used dropped first; one bigger than the bound is not kept", async () => {
    const files = [];
    for (const name of ["a", "b", "c"])
      files.push(await uploaded(await generated(`bound-${name}`)));
    await loadCoughModel(files[0]);
    const one = modelCache.bytes;
    expect(one).toBeGreaterThan(0);
    modelCache.limitBytes = Math.floor(one * 2.5);
    for (const file of [files[1], files[2], files[0], files[1]]) {
      await loadCoughModel(file);
      expect(modelCache.bytes).toBeLessThanOrEqual(modelCache.limitBytes);
    }
    expect(modelCache.size).toBe(2);
    expect([files[2], files[0], files[1]].map((f) => modelCache.has(f.id))).toEqual([
      false,
      true,
      true,
    ]);
    modelCache.limitBytes = one - 1;
    expect(modelCache.size).toBe(0);
    expect((await loadCoughModel(files[2])).rows).toBe(files[2].rowCount);
    expect(modelCache.size).toBe(0);
  });
});

describe("the decrypt worker", () => {
  it("decrypts on its own thread: it writes the parsed form while the main thread is held", async () => {
    const file = await uploaded(await generated("worker"));
    modelCache.clear();
    const { rowsPath } = parsedPaths(file.id);
    for (const part of await partsOf(file.id)) await fsp.rm(path.join(parsedRoot, part));

    const started = once(decryptJobs, "start");
    const model = loadCoughModel(file);
    await started;
    // The main thread does not return to its event loop until the worker has written rows (or a
    // minute has passed): decrypting on the main thread would write nothing meanwhile.
    const written = () =>
      [rowsPath, `${rowsPath}.part`].some((p) => fs.existsSync(p) && fs.statSync(p).size > 64);
    const guard = Date.now() + 60_000;
    while (!written() && Date.now() < guard);
    expect(written()).toBe(true);
    // And the server answers another request while that log is decrypted or read.
    const other = await fetch(`${server.url}/decrypt/csv?uuid=${file.id}x`);
    expect(other.status).toBe(404);
    expect((await model).rows).toBe(file.rowCount);
  });
});
