// The log file's name, the key list and the date-plausibility messages (DEVICE-LOG-FORMAT.md
// "File name" and "Keys", spec 3 §5, §8, §9).
import { describe, expect, it } from "vitest";
import { describeLogFile, estimateSeconds, parseLogFileName } from "~/domain/deviceLogs/fileName";
import { DEMO_KEY_HEX, DEMO_KEY_ID, parseLogKeys } from "~/domain/deviceLogs/keys";
import {
  DEVICE_DATE_NOTE,
  deviceDateNote,
  INVALID_FILE_NAME,
  isPlausibleYear,
  LOG_YEAR_WARNING,
  logYearWarning,
} from "~/domain/deviceLogs/messages";

const NAME_MESSAGE = "Invalid File uploaded please upload BiWaze System encrypted log file";

describe("log file names", () => {
  it("reads a cough log's name", () => {
    expect(parseLogFileName("C12345_05032025_143015_system.csv")).toEqual({
      ok: true,
      meta: {
        fileName: "C12345_05032025_143015_system.csv",
        deviceId: "12345",
        deviceType: "cough",
        prefix: "C",
        date: "2025-03-05",
        time: "14:30:15",
      },
    });
  });

  it("reads a clear log's name with letters in the device id", () => {
    const parsed = parseLogFileName("KAb9Z_29022024_235959_system.csv");
    expect(parsed).toMatchObject({
      ok: true,
      meta: {
        deviceId: "Ab9Z",
        deviceType: "clear",
        prefix: "K",
        date: "2024-02-29",
        time: "23:59:59",
      },
    });
  });

  it.each([
    ["wrong prefix", "X12345_05032025_143015_system.csv"],
    ["lower-case prefix", "c12345_05032025_143015_system.csv"],
    ["no device id", "C_05032025_143015_system.csv"],
    ["device id with a dash", "C12-45_05032025_143015_system.csv"],
    ["device id with a non-ASCII letter", "C12é45_05032025_143015_system.csv"],
    ["short date", "C12345_5032025_143015_system.csv"],
    ["short time", "C12345_05032025_14301_system.csv"],
    ["no _system", "C12345_05032025_143015.csv"],
    ["other suffix", "C12345_05032025_143015_events.csv"],
    ["upper-case extension", "C12345_05032025_143015_system.CSV"],
    ["other extension", "C12345_05032025_143015_system.txt"],
    ["a path", "logs/C12345_05032025_143015_system.csv"],
    ["a copy suffix", "C12345_05032025_143015_system (1).csv"],
    ["31 April", "C12345_31042025_120000_system.csv"],
    ["29 February of a common year", "C12345_29022025_120000_system.csv"],
    ["29 February 1900", "C12345_29021900_120000_system.csv"],
    ["month 13", "C12345_01132025_120000_system.csv"],
    ["month 0", "C12345_01002025_120000_system.csv"],
    ["day 0", "C12345_00012025_120000_system.csv"],
    ["day 32", "C12345_32012025_120000_system.csv"],
    ["hour 24", "C12345_01012025_240000_system.csv"],
    ["minute 60", "C12345_01012025_236000_system.csv"],
    ["second 60", "C12345_01012025_235960_system.csv"],
    ["empty", ""],
  ])("refuses %s", (_, name) => {
    expect(parseLogFileName(name)).toEqual({ ok: false, message: NAME_MESSAGE });
  });

  it("accepts the last second of a day and 29 February 2000", () => {
    expect(parseLogFileName("C1_29022000_235959_system.csv").ok).toBe(true);
    expect(parseLogFileName("C1_31122025_000000_system.csv").ok).toBe(true);
  });

  it("estimates 0.27 s per KB of 1024 bytes", () => {
    expect(estimateSeconds(1024)).toBeCloseTo(0.27, 12);
    expect(estimateSeconds(10 * 1024 * 1024)).toBeCloseTo(10 * 1024 * 0.27, 9);
    expect(describeLogFile("K77_01012026_080000_system.csv", 2048)).toEqual({
      ok: true,
      meta: {
        fileName: "K77_01012026_080000_system.csv",
        deviceId: "77",
        deviceType: "clear",
        prefix: "K",
        date: "2026-01-01",
        time: "08:00:00",
        sizeKB: 2,
        estimatedSeconds: 0.54,
      },
    });
    expect(describeLogFile("nope.csv", 10)).toEqual({ ok: false, message: INVALID_FILE_NAME });
  });
});

describe("log keys", () => {
  const other = "00".repeat(32);

  it("reads one or more keyId:hex entries", () => {
    const keys = parseLogKeys(`${DEMO_KEY_ID}:${DEMO_KEY_HEX}, prod-2026:${other.toUpperCase()}`);
    expect([...keys.keys()]).toEqual(["demo", "prod-2026"]);
    expect(keys.get("demo")!.toString("hex")).toBe(DEMO_KEY_HEX);
    expect(keys.get("prod-2026")!.length).toBe(32);
    expect(parseLogKeys(`DEVICE_LOG_KEYS=a:${other}`).has("a")).toBe(true);
    expect(parseLogKeys("").size).toBe(0);
  });

  it.each([
    ["no colon", other],
    ["short key", `a:${"0".repeat(62)}`],
    ["long key", `a:${"0".repeat(66)}`],
    ["not hex", `a:${"g".repeat(64)}`],
    ["bad key id", `a_b:${other}`],
    ["key id over 32", `${"a".repeat(33)}:${other}`],
    ["empty entry", `a:${other},`],
    ["repeated id", `a:${other},a:${other}`],
  ])("throws on %s without echoing the key", (_, text) => {
    expect(() => parseLogKeys(text)).toThrow(/DEVICE_LOG_KEYS/);
    try {
      parseLogKeys(text);
    } catch (error) {
      expect((error as Error).message).not.toContain(other);
    }
  });
});

describe("date plausibility", () => {
  const now = new Date(2026, 5, 15);

  it("accepts 2020 to next year", () => {
    expect([2019, 2020, 2026, 2027, 2028].map((y) => isPlausibleYear(y, now))).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
    expect(logYearWarning(2019, now)).toBe(
      "We found dates on your device system that may be incorrect; please verify and update the system date.",
    );
    expect(logYearWarning(2028, now)).toBe(LOG_YEAR_WARNING);
    expect(logYearWarning(2027, now)).toBeNull();
  });

  it("notes a start year before 2020 or an end year after next year", () => {
    expect(DEVICE_DATE_NOTE).toBe(
      "Note: We found dates on your device system that may be incorrect. Please verify and update the system date to ensure accurate therapy dates moving forward.",
    );
    expect(deviceDateNote({ startYear: 2019, endYear: 2025 }, now)).toBe(DEVICE_DATE_NOTE);
    expect(deviceDateNote({ startYear: 2020, endYear: 2028 }, now)).toBe(DEVICE_DATE_NOTE);
    expect(deviceDateNote({ startYear: 2020, endYear: 2027 }, now)).toBeNull();
  });
});
