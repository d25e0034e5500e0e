// A decrypted log back to CSV (both device types), through json2csv as the routes will use it.
import { stringQuoteOnlyIfNecessary } from "@json2csv/formatters";
import { Parser } from "@json2csv/plainjs";
import { describe, expect, it } from "vitest";
import { DEVICE_LOG_CSV_FIELDS, deviceLogCsvRows } from "~/domain/deviceLogs/csv";
import { DEMO_KEY_HEX, parseLogKeys } from "~/domain/deviceLogs/keys";
import { readDeviceLog } from "~/domain/deviceLogs/reader";
import { chunked, encryptedLog, HEADER } from "../support/deviceLogFixture";

const keys = parseLogKeys(`demo:${DEMO_KEY_HEX}`);
const clear = { keys, expectedDeviceId: "12345", deviceType: "clear" as const };

const ROWS = [
  '1,SYSTEM,INFO,2025-06-01 08:00:00,"EVENT:POWER_ON"',
  '2,THERAPY,INFO,2025-06-01 08:01:00,"MODE:CPEP,DUR:300,PRES:15,FREQ:0"',
  '3,THERAPY,INFO,2025-06-02 08:01:00,"MODE:CHFO,DUR:240,PRES:10,FREQ:5"',
  '4,ALARM,WARNING,2025-06-03 09:00:00,"CODE:E7,MSG:Check ""filter"", then restart"',
  '5,THERAPY,INFO,2025-06-03 10:00:00,"MODE:NEB,DUR:600,PRES:0,FREQ:0"',
];

async function csvRows(text: string, range = {}) {
  const rows = [];
  for await (const row of deviceLogCsvRows(chunked(text, 100), { ...clear, ...range }))
    rows.push(row);
  return rows;
}

describe("CSV rows of a log", () => {
  it("are the five columns with the Value as the device wrote it", async () => {
    const rows = await csvRows(encryptedLog({ rows: ROWS }));
    expect(rows).toHaveLength(5);
    expect(rows[3]).toEqual({
      "Event ID": 4,
      "Event Type": "ALARM",
      "Log Type": "WARNING",
      "Time Stamp": "2025-06-03 09:00:00",
      Value: 'CODE:E7,MSG:Check "filter", then restart',
    });
    expect(DEVICE_LOG_CSV_FIELDS.join(",")).toBe(HEADER);
  });

  it("give the log's own text back through json2csv, which reads as already decrypted", async () => {
    const rows = await csvRows(encryptedLog({ rows: ROWS }));
    const csv = new Parser({
      fields: [...DEVICE_LOG_CSV_FIELDS],
      formatters: { string: stringQuoteOnlyIfNecessary() },
    }).parse(rows);
    // Quotes only where needed: a Value of one pair has no comma to protect.
    const unquoted = ROWS[0].replace('"EVENT:POWER_ON"', "EVENT:POWER_ON");
    expect(csv).toBe([HEADER, unquoted, ...ROWS.slice(1)].join("\n"));
    const again = (text: string) => readDeviceLog(chunked(text), clear).next();
    await expect(again(csv)).rejects.toMatchObject({ outcome: "alreadyDecrypted" });
    // json2csv's default quoting too.
    const quoted = new Parser({ fields: [...DEVICE_LOG_CSV_FIELDS] }).parse(rows);
    await expect(again(quoted)).rejects.toMatchObject({ outcome: "alreadyDecrypted" });
  });

  it("keep rows whose own date is within From..To", async () => {
    const text = encryptedLog({ rows: ROWS });
    const ids = async (range: object) => (await csvRows(text, range)).map((r) => r["Event ID"]);
    expect(await ids({ from: "2025-06-02" })).toEqual([3, 4, 5]);
    expect(await ids({ from: "2025-06-01", to: "2025-06-02" })).toEqual([1, 2, 3]);
    expect(await ids({ to: "2025-05-31" })).toEqual([]);
  });

  it("end in the corruption error when the file is truncated", async () => {
    await expect(csvRows(encryptedLog({ rows: ROWS, end: null }))).rejects.toMatchObject({
      outcome: "corrupted",
    });
  });

  // The export (domain/deviceLogs/deviceLog logCsvStream) writes through lib/csv, which disarms formula
  // cells; before that, no cell of a log can start one: the Event ID is digits, the types are
  // fixed words, the Time Stamp starts with its year, and a Value starts with a KEY: pair.
  it("refuse a log whose Value would start a spreadsheet formula", async () => {
    for (const value of ['"=HYPERLINK(""x"")"', "+1+cmd", "-2+3", "@SUM(1)", '"\t=1+1"']) {
      const rows = [ROWS[0], `2,SYSTEM,INFO,2025-06-01 08:02:00,${value}`];
      await expect(csvRows(encryptedLog({ rows }))).rejects.toMatchObject({ outcome: "corrupted" });
    }
  });
});
