// The device-log generator checked against shared/DEVICE-LOG-FORMAT.md with node:crypto and
// csv-parse alone: nothing here trusts the generator's own helpers (the demo key is copied from the
// contract), so a generator that drifts from the contract fails here, not in the reader's tests.
import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  deviceLogLines,
  writeDeviceLog,
  type WriteDeviceLogOptions,
} from "../../scripts/make-device-log";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DEMO_KEY = Buffer.from(
  "abb91ebdce2a968d0da34512fa6b1704f9bc3e0f562636826ea2d51ee87e2618",
  "hex",
);
const HEADER = "Event ID,Event Type,Log Type,Time Stamp,Value";
const FIRST_LINE = /^BWZLOG\/1;key=([A-Za-z0-9-]{1,32});device=([A-Za-z0-9]+)$/;
const FILE_NAME = /^([CK])([A-Za-z0-9]+)_(\d{2})(\d{2})(\d{4})_(\d{2})(\d{2})(\d{2})_system\.csv$/;
const STAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

type Opened = { ok: true; text: string } | { ok: false; reason: "base64" | "auth" };

function openRecord(line: string, index: number, key: Buffer, keyId: string): Opened {
  if (line.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(line)) {
    return { ok: false, reason: "base64" };
  }
  const bytes = Buffer.from(line, "base64");
  if (bytes.length < 28) return { ok: false, reason: "base64" };
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(`${keyId}:${index}`, "ascii"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const text = Buffer.concat([
      decipher.update(bytes.subarray(12, bytes.length - 16)),
      decipher.final(),
    ]).toString("utf8");
    return { ok: true, text };
  } catch {
    return { ok: false, reason: "auth" };
  }
}

/** The file split as the contract says: lines, the clear first line, every record opened. */
function readLog(file: string, key = DEMO_KEY) {
  const text = fs.readFileSync(file, "latin1");
  const finalNewline = text.endsWith("\n");
  const lines = (finalNewline ? text.replace(/\r?\n$/, "") : text).split(/\r?\n/);
  const match = FIRST_LINE.exec(lines[0]);
  const keyId = match?.[1] ?? "";
  const records = lines.slice(1).map((line, index) => openRecord(line, index, key, keyId));
  return { text, lines, finalNewline, keyId, deviceId: match?.[2], records };
}

function texts(records: Opened[]) {
  return records.map((record, index) => {
    if (!record.ok) throw new Error(`record ${index} does not open (${record.reason})`);
    return record.text;
  });
}

type Row = { eventId: number; type: string; logType: string; stamp: string; value: string[][] };

function rowsOf(csvRows: string[]): Row[] {
  for (const line of csvRows) {
    // Plain first four fields, the Value always quoted (it holds commas).
    expect(line).toMatch(/^\d+,[A-Z]+,[A-Z]+,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,"(?:[^"]|"")*"$/);
  }
  const parsed = parse(csvRows.join("\n")) as string[][];
  expect(parsed).toHaveLength(csvRows.length);
  return parsed.map((fields) => {
    expect(fields).toHaveLength(5);
    return {
      eventId: Number(fields[0]),
      type: fields[1],
      logType: fields[2],
      stamp: fields[3],
      value: fields[4].split(",").map((pair) => {
        const at = pair.indexOf(":");
        expect(at).toBeGreaterThan(0);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
    };
  });
}

/** A whole, valid log: first line, every record, header, #END count. Answers the rows. */
function validLog(file: string, deviceId: string) {
  const log = readLog(file);
  expect(log.finalNewline).toBe(true);
  expect(log.lines.every((line) => line.length > 0)).toBe(true);
  expect(log.lines[0]).toBe(`BWZLOG/1;key=demo;device=${deviceId}`);
  const plain = texts(log.records);
  expect(plain[0]).toBe(HEADER);
  const m = plain.length - 2;
  expect(plain[plain.length - 1]).toBe(`#END;records=${m}`);
  return { log, plain, rows: rowsOf(plain.slice(1, -1)) };
}

const keysOf = (row: Row) => row.value.map(([key]) => key);
const valueOf = (row: Row, key: string) => row.value.find(([k]) => k === key)?.[1];

function checkFileName(fileName: string, type: "C" | "K", deviceId: string, stamp: string) {
  const match = FILE_NAME.exec(fileName);
  expect(match).not.toBeNull();
  const [, t, id, dd, mm, yyyy, hh, mi, ss] = match!;
  expect([t, id, `${dd}${mm}${yyyy}_${hh}${mi}${ss}`]).toEqual([type, deviceId, stamp]);
  const date = new Date(Date.UTC(+yyyy, +mm - 1, +dd));
  expect(date.getUTCDate()).toBe(+dd); // a real calendar date
  expect(+hh < 24 && +mi < 60 && +ss < 60).toBe(true);
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "make-device-log-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const cough = (extra: Partial<WriteDeviceLogOptions> = {}): WriteDeviceLogOptions => ({
  type: "cough",
  deviceId: "BWC1001",
  dir: fs.mkdtempSync(path.join(dir, "c-")),
  from: "2025-03-01",
  to: "2025-03-10",
  seed: 7,
  ...extra,
});

describe("make-device-log: a cough log", () => {
  it("follows the container, the rows and the file name of the contract", async () => {
    const result = await writeDeviceLog(cough());
    checkFileName(result.fileName, "C", "BWC1001", "10032025_183000");
    expect(result.path).toBe(path.join(path.dirname(result.path), result.fileName));
    expect(fs.statSync(result.path).size).toBe(result.bytes);
    expect(fs.readdirSync(path.dirname(result.path))).toEqual([result.fileName]);
    const { rows } = validLog(result.path, "BWC1001");
    expect(rows).toHaveLength(result.rows);

    expect(rows[0].eventId).toBe(1);
    rows.forEach((row, i) => i > 0 && expect(row.eventId).toBeGreaterThan(rows[i - 1].eventId));
    const stamps = rows.map((row) => row.stamp);
    for (const stamp of stamps) {
      expect(stamp).toMatch(STAMP);
      expect(stamp >= "2025-03-01" && stamp < "2025-03-11").toBe(true);
    }
    expect([...stamps].sort()).toEqual(stamps);
    for (const row of rows) {
      expect(["THERAPY", "CYCLE", "SETTINGS", "SYSTEM", "ALARM"]).toContain(row.type);
      expect(["INFO", "WARNING", "ERROR"]).toContain(row.logType);
    }

    const therapies = new Map(rows.filter((r) => r.type === "THERAPY").map((r) => [r.eventId, r]));
    const cycles = rows.filter((row) => row.type === "CYCLE");
    expect(therapies.size).toBe(result.therapies);
    expect(cycles).toHaveLength(result.cycles);
    for (const therapy of therapies.values()) {
      expect(keysOf(therapy)).toEqual([..."MODE R_C N_C P_P I_P E_P P_T I_T E_T O_F".split(" ")]);
      expect(["Auto", "Manual"]).toContain(valueOf(therapy, "MODE"));
      expect(Number(valueOf(therapy, "E_P"))).toBeLessThan(0);
      expect(Number(valueOf(therapy, "I_P"))).toBeGreaterThan(0);
      expect(Number(valueOf(therapy, "N_C"))).toBeLessThanOrEqual(Number(valueOf(therapy, "R_C")));
      expect(["0", "1"]).toContain(valueOf(therapy, "O_F"));
    }
    // Each THERAPY row is followed by its cycles, numbered from 1, as many as N_C says.
    let current: Row | undefined;
    let expected = 0;
    for (const row of rows) {
      if (row.type === "THERAPY") {
        if (current) expect(expected).toBe(Number(valueOf(current, "N_C")));
        current = row;
        expected = 0;
      } else if (row.type === "CYCLE") {
        expect(keysOf(row)).toEqual(["TS_REF", "C_N", "P_IP", "E_V", "P_F", "SPO2", "O_F"]);
        const ref = Number(valueOf(row, "TS_REF"));
        expect(therapies.has(ref)).toBe(true);
        expect(ref).toBe(current?.eventId);
        expect(Number(valueOf(row, "C_N"))).toBe(++expected);
        const spo2 = valueOf(row, "SPO2")!;
        expect(spo2 === "false" || (/^\d+$/.test(spo2) && +spo2 <= 100)).toBe(true);
        expect(Number(valueOf(row, "E_V"))).toBeGreaterThan(0);
      }
    }
    expect(expected).toBe(Number(valueOf(current!, "N_C")));

    // Every day: power on first, HMR then power off last; HMR grows.
    const days = new Map<string, Row[]>();
    for (const row of rows) {
      const day = row.stamp.slice(0, 10);
      days.set(day, [...(days.get(day) ?? []), row]);
    }
    expect(days.size).toBeGreaterThanOrEqual(9);
    for (const dayRows of days.values()) {
      expect(dayRows[0].value).toEqual([["EVENT", "POWER_ON"]]);
      expect(keysOf(dayRows[dayRows.length - 2])).toEqual(["EVENT", "HMR"]);
      expect(dayRows[dayRows.length - 1].value).toEqual([["EVENT", "POWER_OFF"]]);
      const perDay = dayRows.filter((row) => row.type === "THERAPY").length;
      expect(perDay >= 1 && perDay <= 4).toBe(true);
    }
    const hmr = rows
      .filter((row) => valueOf(row, "EVENT") === "HMR")
      .map((r) => valueOf(r, "HMR")!);
    hmr.forEach((h, i) => {
      expect(h).toMatch(/^\d+\.\d+$/);
      if (i > 0) expect(+h).toBeGreaterThan(+hmr[i - 1]);
    });
  });

  it("has SETTINGS rows with the THERAPY keys less N_C and ALARM rows with CODE and MSG", async () => {
    const result = await writeDeviceLog(cough({ from: "2025-01-01", to: "2025-06-30", seed: 3 }));
    const { rows } = validLog(result.path, "BWC1001");
    const settings = rows.filter((row) => row.type === "SETTINGS");
    const alarms = rows.filter((row) => row.type === "ALARM");
    expect(settings.length).toBeGreaterThan(0);
    expect(alarms.length).toBeGreaterThan(0);
    for (const row of settings) {
      expect(keysOf(row)).toEqual("MODE R_C P_P I_P E_P P_T I_T E_T O_F".split(" "));
    }
    for (const row of alarms) {
      expect(keysOf(row)).toEqual(["CODE", "MSG"]);
      expect(["WARNING", "ERROR"]).toContain(row.logType);
    }
    // Some days without any therapy, for the summary's noDaysWithoutTherapy.
    expect(new Set(rows.map((row) => row.stamp.slice(0, 10))).size).toBeLessThan(181);
  });

  it("honours --therapies-per-day, --file-date, --key-id/--key-hex and --crlf", async () => {
    const keyHex = crypto.randomBytes(32).toString("hex");
    const result = await writeDeviceLog(
      cough({
        deviceId: "X9",
        therapiesPerDay: 3,
        fileDate: "29022024_235959",
        keyId: "site-2",
        keyHex,
        crlf: true,
      }),
    );
    expect(result.fileName).toBe("CX9_29022024_235959_system.csv");
    const log = readLog(result.path, Buffer.from(keyHex, "hex"));
    expect(log.lines[0]).toBe("BWZLOG/1;key=site-2;device=X9");
    expect(log.text.match(/\r\n/g)).toHaveLength(log.lines.length);
    expect(log.text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    const plain = texts(log.records);
    const rows = rowsOf(plain.slice(1, -1));
    expect(rows.filter((row) => row.type === "THERAPY")).toHaveLength(30);
    expect(result.therapies).toBe(30);
  });
});

describe("make-device-log: a clear log", () => {
  it("has THERAPY rows with MODE, DUR, PRES and FREQ, and no cycles", async () => {
    const result = await writeDeviceLog({
      type: "clear",
      deviceId: "BWK77",
      dir: fs.mkdtempSync(path.join(dir, "k-")),
      from: "2025-12-30",
      to: "2026-01-02",
      seed: 11,
    });
    checkFileName(result.fileName, "K", "BWK77", "02012026_183000");
    const { rows } = validLog(result.path, "BWK77");
    const therapies = rows.filter((row) => row.type === "THERAPY");
    expect(therapies.length).toBe(result.therapies);
    expect(therapies.length).toBeGreaterThanOrEqual(4);
    expect(result.cycles).toBe(0);
    for (const row of rows) expect(["THERAPY", "SYSTEM", "ALARM"]).toContain(row.type);
    for (const row of therapies) {
      expect(keysOf(row)).toEqual(["MODE", "DUR", "PRES", "FREQ"]);
      expect(["CPEP", "CHFO", "NEB"]).toContain(valueOf(row, "MODE"));
      expect(Number(valueOf(row, "DUR"))).toBeGreaterThan(0);
    }
    rows.forEach((row, i) => i > 0 && expect(row.eventId).toBe(rows[i - 1].eventId + 1));
    expect(rows.map((row) => row.stamp)).toEqual(rows.map((row) => row.stamp).sort());
  });
});

describe("make-device-log: faults", () => {
  it("--corrupt-record N: record N fails authentication, the others open", async () => {
    const result = await writeDeviceLog(cough({ corruptRecord: 3 }));
    const { records, lines } = readLog(result.path);
    expect(lines[0]).toBe("BWZLOG/1;key=demo;device=BWC1001");
    expect(records[3]).toEqual({ ok: false, reason: "auth" });
    expect(records.filter((record) => !record.ok)).toHaveLength(1);
    expect((records[records.length - 1] as { text: string }).text).toBe(
      `#END;records=${records.length - 2}`,
    );
  });

  it("--corrupt-record beyond the last record is refused and leaves no file", async () => {
    const options = cough({ from: "2025-03-01", to: "2025-03-01", corruptRecord: 10_000 });
    await expect(writeDeviceLog(options)).rejects.toThrow(/corrupt-record/);
    expect(fs.readdirSync(options.dir)).toEqual([]);
  });

  it("--truncate: no #END record; cut: the last line cut half way", async () => {
    const whole = readLog((await writeDeviceLog(cough())).path);
    const truncated = readLog((await writeDeviceLog(cough({ truncate: true }))).path);
    const plain = texts(truncated.records);
    expect(truncated.finalNewline).toBe(true);
    expect(plain[0]).toBe(HEADER);
    expect(plain.some((text) => text.startsWith("#END"))).toBe(false);
    expect(plain).toEqual(texts(whole.records).slice(0, -1));

    const cut = readLog((await writeDeviceLog(cough({ truncate: "cut" }))).path);
    expect(cut.finalNewline).toBe(false);
    expect(cut.records).toHaveLength(whole.records.length - 1);
    expect(cut.records[cut.records.length - 1].ok).toBe(false);
    expect(texts(cut.records.slice(0, -1))).toEqual(texts(whole.records).slice(0, -2));
  });

  it("--wrong-key: same keyId, record 0 already fails", async () => {
    const { lines, records } = readLog((await writeDeviceLog(cough({ wrongKey: true }))).path);
    expect(lines[0]).toBe("BWZLOG/1;key=demo;device=BWC1001");
    expect(records[0]).toEqual({ ok: false, reason: "auth" });
    expect(records.every((record) => !record.ok)).toBe(true);
  });

  it("--unknown-key: a well-formed keyId that is not demo", async () => {
    const { lines, keyId, records } = readLog(
      (await writeDeviceLog(cough({ unknownKey: true }))).path,
    );
    expect(lines[0]).toMatch(FIRST_LINE);
    expect(keyId).not.toBe("demo");
    expect(records.every((record) => record.ok === false && record.reason === "auth")).toBe(true);
  });

  it("--decrypted: the plain header, then the same rows as the encrypted file", async () => {
    const result = await writeDeviceLog(cough({ decrypted: true }));
    const text = fs.readFileSync(result.path, "utf8");
    expect(text.startsWith(`${HEADER}\n`)).toBe(true);
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    const { plain } = validLog((await writeDeviceLog(cough())).path, "BWC1001");
    expect(lines).toEqual(plain.slice(0, -1));
    expect(rowsOf(lines.slice(1))).toHaveLength(result.rows);
  });

  it("--clock-wrong: some stamps in 2019 and after next year, Event IDs still increasing", async () => {
    const nextYear = new Date().getFullYear() + 1;
    for (const to of ["2025-03-10", "2025-03-01"]) {
      const result = await writeDeviceLog(cough({ to, clockWrong: true }));
      const { rows } = validLog(result.path, "BWC1001");
      const years = rows.map((row) => Number(row.stamp.slice(0, 4)));
      expect(years).toContain(2019);
      expect(years.some((year) => year > nextYear)).toBe(true);
      expect(years.some((year) => year === 2025)).toBe(to === "2025-03-10");
      rows.forEach((row, i) => i > 0 && expect(row.eventId).toBeGreaterThan(rows[i - 1].eventId));
      for (const row of rows) expect(row.stamp).toMatch(STAMP);
    }
  });
});

describe("make-device-log: size and seed", () => {
  it("--size-mb 5 writes at least 5 MB, still a whole log named after its last day", async () => {
    const result = await writeDeviceLog(cough({ sizeMb: 5, therapiesPerDay: 4 }));
    expect(result.bytes).toBeGreaterThanOrEqual(5 * 1024 * 1024);
    expect(result.bytes).toBeLessThan(5.1 * 1024 * 1024);
    expect(fs.statSync(result.path).size).toBe(result.bytes);
    const { rows } = validLog(result.path, "BWC1001");
    const last = rows[rows.length - 1].stamp;
    checkFileName(
      result.fileName,
      "C",
      "BWC1001",
      `${last.slice(8, 10)}${last.slice(5, 7)}${last.slice(0, 4)}_183000`,
    );
    expect(rows[0].stamp.startsWith("2025-03-01")).toBe(true);
    expect(fs.readdirSync(path.dirname(result.path))).toEqual([result.fileName]);
  });

  it("the same seed gives the same rows under fresh nonces; another seed other rows", async () => {
    const plainOf = async (seed: number) => {
      const log = readLog((await writeDeviceLog(cough({ seed }))).path);
      return { plain: texts(log.records), lines: log.lines };
    };
    const [a, b, c] = [await plainOf(5), await plainOf(5), await plainOf(6)];
    expect(b.plain).toEqual(a.plain);
    expect(c.plain).not.toEqual(a.plain);
    const nonces = [...a.lines.slice(1), ...b.lines.slice(1)].map((line) =>
      Buffer.from(line, "base64").subarray(0, 12).toString("hex"),
    );
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it("deviceLogLines gives the file's content, line by line", async () => {
    const options = cough({ decrypted: true, therapiesPerDay: 1 });
    const lines = [...deviceLogLines(options)];
    expect(lines.every((line) => line.endsWith("\n"))).toBe(true);
    const written = await writeDeviceLog(options);
    expect(lines.join("")).toBe(fs.readFileSync(written.path, "utf8"));
    const encrypted = [...deviceLogLines({ ...options, decrypted: false })];
    expect(encrypted[0]).toBe("BWZLOG/1;key=demo;device=BWC1001\n");
    expect(encrypted).toHaveLength(lines.length + 2);
  });
});

describe("make-device-log: command line", () => {
  it("writes the file and prints its path", () => {
    const outDir = fs.mkdtempSync(path.join(dir, "cli-"));
    const printed = execFileSync(
      path.join(ROOT, "node_modules/.bin/tsx"),
      [
        "scripts/make-device-log.ts",
        "--type",
        "clear",
        "--device",
        "K42",
        "--out-dir",
        outDir,
        "--from",
        "2025-05-01",
        "--to",
        "2025-05-02",
        "--therapies-per-day",
        "2",
        "--truncate",
        "--seed",
        "9",
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    const file = path.join(outDir, "KK42_02052025_183000_system.csv");
    expect(printed.trim()).toBe(file);
    const plain = texts(readLog(file).records);
    expect(plain[0]).toBe(HEADER);
    expect(rowsOf(plain.slice(1)).filter((row) => row.type === "THERAPY")).toHaveLength(4);
  });

  it("refuses bad options", () => {
    expect(() =>
      execFileSync(
        path.join(ROOT, "node_modules/.bin/tsx"),
        ["scripts/make-device-log.ts", "--type", "fridge", "--device", "K1"],
        { cwd: ROOT, encoding: "utf8", stdio: "pipe" },
      ),
    ).toThrow(/--type must be cough or clear/);
  });
});
