// The streaming decrypter (DEVICE-LOG-FORMAT.md "Container" and "Rows"): every outcome, line
// endings, chunk boundaries, and that a corrupted file gives nothing back.
import { createCipheriv } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseLogKeys, DEMO_KEY_HEX } from "~/domain/deviceLogs/keys";
import { DeviceLogError } from "~/domain/deviceLogs/messages";
import { decryptToRows, readDeviceLog, type DeviceLogOptions } from "~/domain/deviceLogs/reader";
import type { DeviceLogRow } from "~/domain/deviceLogs/rows";
import {
  chunked,
  DEMO_KEY,
  encryptRecord,
  HEADER,
  joinLines,
  logLines,
} from "../support/deviceLogFixture";

const CORRUPTED =
  "Error occurred! The encrypted file is corrupted. Please re-download it from the device and try again";
const INVALID = "Invalid File uploaded. Please upload BiWaze System encrypted log file.";
const ALREADY = "Looks like you have uploaded already decrypted file";

const keys = parseLogKeys(`demo:${DEMO_KEY_HEX}`);
const options: DeviceLogOptions = { keys, expectedDeviceId: "12345", deviceType: "cough" };

const ROWS = [
  '1,THERAPY,INFO,2025-03-01 09:00:00,"MODE:Manual,R_C:5,N_C:2,P_P:0,I_P:40,E_P:-40,P_T:10,I_T:15,E_T:20,O_F:1"',
  '2,CYCLE,INFO,2025-03-01 09:00:05,"TS_REF:1,C_N:1,P_IP:38.5,E_V:1000,P_F:200,SPO2:97,O_F:1"',
  '3,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1,C_N:2,P_IP:39,E_V:1200,P_F:220,SPO2:false,O_F:1"',
  '4,SYSTEM,INFO,2025-03-01 09:10:00,"EVENT:HMR,HMR:100.5"',
  '7,ALARM,WARNING,2025-03-01 09:11:00,"CODE:E12,MSG:Low battery, connect charger"',
];

async function collect(source: Parameters<typeof readDeviceLog>[0], opts = options) {
  const rows: DeviceLogRow[] = [];
  for await (const row of readDeviceLog(source, opts)) rows.push(row);
  return rows;
}

/** The error a log ends in (or a failure when it has none). */
async function faultOf(text: string | Buffer, opts = options) {
  try {
    await collect(chunked(text, 64), opts);
  } catch (error) {
    expect(error).toBeInstanceOf(DeviceLogError);
    return error as DeviceLogError;
  }
  throw new Error("the log was accepted");
}

async function expectCorrupted(text: string | Buffer, reason: RegExp) {
  const error = await faultOf(text);
  expect(error.outcome).toBe("corrupted");
  expect(error.message).toBe(CORRUPTED);
  expect(error.reason).toMatch(reason);
  // The collecting API gives nothing back either.
  await expect(decryptToRows(chunked(text, 64), options)).rejects.toMatchObject({
    outcome: "corrupted",
  });
}

const withLines = (edit: (lines: string[]) => string[], rows = ROWS) =>
  joinLines(edit(logLines({ rows })));

describe("a valid log", () => {
  it("yields every data row, parsed, with the Value as written", async () => {
    const rows = await collect(chunked(joinLines(logLines({ rows: ROWS })), 5));
    expect(rows.map((r) => r.eventId)).toEqual([1, 2, 3, 4, 7]);
    expect(rows[0]).toMatchObject({
      record: 1,
      eventType: "THERAPY",
      logType: "INFO",
      timeStamp: "2025-03-01 09:00:00",
      value: "MODE:Manual,R_C:5,N_C:2,P_P:0,I_P:40,E_P:-40,P_T:10,I_T:15,E_T:20,O_F:1",
    });
    expect(rows[0].pairs[0]).toEqual(["MODE", "Manual"]);
    // A comma inside an alarm's MSG stays in the MSG.
    expect(rows[4].pairs).toEqual([
      ["CODE", "E12"],
      ["MSG", "Low battery, connect charger"],
    ]);
  });

  it.each([
    ["LF with a final newline", "\n", true],
    ["LF without a final newline", "\n", false],
    ["CRLF with a final newline", "\r\n", true],
    ["CRLF without a final newline", "\r\n", false],
  ] as const)("accepts %s, whatever the chunking", async (_, eol, finalNewline) => {
    const text = joinLines(logLines({ rows: ROWS }), eol, finalNewline);
    for (const size of [1, 2, 3, 64, 1 << 16]) {
      const rows = await collect(chunked(text, size));
      expect(rows.map((r) => r.eventId)).toEqual([1, 2, 3, 4, 7]);
    }
  });

  it("reads a Node stream and string chunks", async () => {
    const text = joinLines(logLines({ rows: ROWS }));
    expect(await collect(Readable.from(Buffer.from(text)))).toHaveLength(5);
    expect(await collect(Readable.from([text.slice(0, 100), text.slice(100)]))).toHaveLength(5);
  });

  it("accepts a log without data rows, and reports line 1 to onHeader", async () => {
    let header: unknown = null;
    const rows = await collect(chunked(joinLines(logLines({ rows: [] }))), {
      ...options,
      onHeader: (h) => (header = h),
    });
    expect(rows).toEqual([]);
    expect(header).toEqual({ keyId: "demo", deviceId: "12345" });
  });

  it("reads any key named in the key list and needs no expected device", async () => {
    const key = Buffer.alloc(32, 7);
    const text = joinLines(logLines({ rows: ROWS, keyId: "prod-2026", key, deviceId: "A1" }));
    const both = parseLogKeys(`demo:${DEMO_KEY_HEX},prod-2026:${key.toString("hex")}`);
    const rows = await collect(chunked(text), { keys: both, deviceType: "cough" });
    expect(rows).toHaveLength(5);
  });

  it("accepts a quoted line break in a Value (RFC 4180) and batches of many rows", async () => {
    const rows = Array.from(
      { length: 600 },
      (_, i) => `${i + 1},SYSTEM,INFO,2025-03-01 10:00:00,"EVENT:POWER_ON"`,
    );
    rows[400] = '401,ALARM,ERROR,2025-03-01 10:00:00,"CODE:E1,MSG:first line\nsecond line"';
    const read = await collect(chunked(joinLines(logLines({ rows })), 4096));
    expect(read).toHaveLength(600);
    expect(read[400].value).toBe("CODE:E1,MSG:first line\nsecond line");
    expect(read.every((r, i) => r.eventId === i + 1 && r.record === i + 1)).toBe(true);
  });

  it("keeps a time stamp whose digits are no real date (a device clock fault)", async () => {
    const rows = await collect(
      chunked(
        joinLines(logLines({ rows: ['5,SYSTEM,INFO,2025-02-30 25:00:00,"EVENT:POWER_ON"'] })),
      ),
    );
    expect(rows[0].timeStamp).toBe("2025-02-30 25:00:00");
  });
});

describe("line 1", () => {
  it.each([
    ["the plain header", `${HEADER}\n1,THERAPY,INFO,2025-03-01 09:00:00,"MODE:Manual"\n`],
    ["the header alone, no newline", HEADER],
    ["the header with CRLF", `${HEADER}\r\n`],
    ["the header after a byte-order mark", `\ufeff${HEADER}\n`],
    [
      "the header as json2csv quotes it",
      '"Event ID","Event Type","Log Type","Time Stamp","Value"\n',
    ],
  ])("%s: already decrypted", async (_, text) => {
    const error = await faultOf(text);
    expect(error.outcome).toBe("alreadyDecrypted");
    expect(error.message).toBe(ALREADY);
  });

  it.each([
    ["an empty file", ""],
    ["a blank first line", `\n${logLines({ rows: ROWS }).slice(1).join("\n")}\n`],
    ["another text", "hello world\n"],
    ["format 2", "BWZLOG/2;key=demo;device=12345\n"],
    ["lower case", "bwzlog/1;key=demo;device=12345\n"],
    ["fields swapped", "BWZLOG/1;device=12345;key=demo\n"],
    ["a key id over 32 characters", `BWZLOG/1;key=${"a".repeat(33)};device=12345\n`],
    ["a key id with an underscore", "BWZLOG/1;key=de_mo;device=12345\n"],
    ["an empty key id", "BWZLOG/1;key=;device=12345\n"],
    ["a device id with a dash", "BWZLOG/1;key=demo;device=12-345\n"],
    ["trailing text", "BWZLOG/1;key=demo;device=12345;x=1\n"],
    ["a leading space", " BWZLOG/1;key=demo;device=12345\n"],
    ["the header with a trailing comma", `${HEADER},\n`],
    ["binary", Buffer.from([0, 1, 2, 255, 10])],
    ["a long line without a newline", "x".repeat(100_000)],
  ])("%s: invalid file", async (_, text) => {
    const error = await faultOf(text);
    expect(error.outcome).toBe("invalidFile");
    expect(error.message).toBe(INVALID);
  });

  it("an unknown key id: corrupted", async () => {
    const text = joinLines(logLines({ rows: ROWS, keyId: "other", key: Buffer.alloc(32, 1) }));
    await expectCorrupted(text, /unknown key id other/);
  });

  it("a device that is not the file name's: corrupted", async () => {
    const text = joinLines(logLines({ rows: ROWS, deviceId: "99999" }));
    await expectCorrupted(text, /device/);
  });
});

describe("records", () => {
  const swapChar = (line: string, at: number) =>
    line.slice(0, at) + (line[at] === "A" ? "B" : "A") + line.slice(at + 1);

  it("a line that is not base64: corrupted", async () => {
    await expectCorrupted(
      withLines((l) => [...l.slice(0, 3), "@@@@", ...l.slice(3)]),
      /base64/,
    );
    await expectCorrupted(
      withLines((l) => [...l.slice(0, 3), "not base64!", ...l.slice(4)]),
      /base64/,
    );
  });

  it("base64 without its padding, URL-safe or with spaces: corrupted", async () => {
    // Find records whose base64 has padding, and one that uses + or /.
    let padded = "";
    let plusSlash = "";
    for (let i = 0; !padded || !plusSlash; i++) {
      const line = encryptRecord(
        DEMO_KEY,
        "demo",
        1,
        `${ROWS[0].slice(0, -1)},X:${"0".repeat(i % 3)}"`,
      );
      if (line.endsWith("=") && !padded) padded = line;
      if (/[+/]/.test(line) && !plusSlash) plusSlash = line;
    }
    const put = (line: string) => withLines((l) => [l[0], l[1], line, ...l.slice(3)]);
    await expect(collect(chunked(put(padded)))).resolves.toHaveLength(5);
    await expectCorrupted(put(padded.replace(/=+$/, "")), /base64/);
    await expectCorrupted(put(plusSlash.replace(/\+/g, "-").replace(/\//g, "_")), /base64/);
    await expectCorrupted(put(`${padded.slice(0, 8)} ${padded.slice(8)}`), /base64/);
    await expectCorrupted(put(`${padded}\t`), /base64/);
  });

  it("a record shorter than nonce and tag: corrupted", async () => {
    const short = Buffer.alloc(27, 1).toString("base64");
    await expectCorrupted(
      withLines((l) => [l[0], l[1], short, ...l.slice(3)]),
      /shorter/,
    );
  });

  it("a tampered record fails authentication: corrupted", async () => {
    await expectCorrupted(
      withLines((l) => {
        const raw = Buffer.from(l[3], "base64");
        raw[20] ^= 1;
        return [...l.slice(0, 3), raw.toString("base64"), ...l.slice(4)];
      }),
      /record 2 fails authentication/,
    );
    // A changed tag or nonce too.
    await expectCorrupted(
      withLines((l) => [...l.slice(0, 3), swapChar(l[3], 2), ...l.slice(4)]),
      /authentication/,
    );
  });

  it("a record encrypted for another index, or records swapped: corrupted", async () => {
    await expectCorrupted(
      withLines((l) => [l[0], l[1], encryptRecord(DEMO_KEY, "demo", 2, ROWS[0]), ...l.slice(3)]),
      /record 1 fails authentication/,
    );
    await expectCorrupted(
      withLines((l) => [l[0], l[1], l[3], l[2], ...l.slice(4)]),
      /record 1 fails/,
    );
    // A record dropped shifts every later index.
    await expectCorrupted(
      withLines((l) => [...l.slice(0, 3), ...l.slice(4)]),
      /record 2 fails/,
    );
    // A record of another key id (its AAD names that key).
    await expectCorrupted(
      withLines((l) => [l[0], l[1], encryptRecord(DEMO_KEY, "other", 1, ROWS[0]), ...l.slice(3)]),
      /record 1 fails/,
    );
  });

  it("a header record that is not the header: corrupted", async () => {
    await expectCorrupted(
      joinLines(logLines({ rows: ROWS, header: "Event ID,Event Type" })),
      /header/,
    );
    await expectCorrupted(joinLines(logLines({ rows: ROWS, header: `${HEADER}\n` })), /header/);
  });

  it("no records at all: corrupted", async () => {
    await expectCorrupted("BWZLOG/1;key=demo;device=12345\n", /no records/);
    await expectCorrupted("BWZLOG/1;key=demo;device=12345", /no records/);
  });

  it("a missing #END (truncation): corrupted, after the rows were read", async () => {
    await expectCorrupted(joinLines(logLines({ rows: ROWS, end: null })), /no #END/);
    // The generator hands out rows before it can know: a caller must not keep them.
    const many = Array.from(
      { length: 300 },
      (_, i) => `${i + 1},SYSTEM,INFO,2025-03-01 10:00:00,"EVENT:POWER_ON"`,
    );
    const text = joinLines(logLines({ rows: many, end: null }));
    const seen: number[] = [];
    await expect(async () => {
      for await (const row of readDeviceLog(chunked(text, 1024), options)) seen.push(row.eventId);
    }).rejects.toThrow(CORRUPTED);
    expect(seen.length).toBeGreaterThan(0);
    await expectCorrupted(text, /no #END/);
    // Cut in the middle of a record.
    const full = joinLines(logLines({ rows: ROWS }));
    await expectCorrupted(full.slice(0, full.length - 30), /base64|authentication/);
  });

  it.each([
    ["a count too high", "#END;records=6"],
    ["a count too low", "#END;records=4"],
    ["no count", "#END;records="],
    ["a leading zero", "#END;records=05"],
    ["trailing text", "#END;records=5;x"],
    ["another marker", "#END"],
  ])("a wrong #END (%s): corrupted", async (_, end) => {
    await expectCorrupted(joinLines(logLines({ rows: ROWS, end })), /#END/);
  });

  it("a record after #END: corrupted", async () => {
    await expectCorrupted(
      withLines((l) => [...l, encryptRecord(DEMO_KEY, "demo", l.length - 1, ROWS[0])]),
      /follows the #END/,
    );
  });

  it("a blank line: corrupted, including a second final newline", async () => {
    await expectCorrupted(
      withLines((l) => [...l.slice(0, 3), "", ...l.slice(3)]),
      /blank/,
    );
    await expectCorrupted(`${joinLines(logLines({ rows: ROWS }))}\n`, /blank/);
    await expectCorrupted(`${joinLines(logLines({ rows: ROWS }), "\r\n")}\r\n`, /blank/);
    // A line of spaces is no base64 either.
    await expectCorrupted(
      withLines((l) => [...l.slice(0, 3), "   ", ...l.slice(3)]),
      /base64/,
    );
  });

  it("a bare CR is not a line ending: corrupted", async () => {
    const [first, ...records] = logLines({ rows: ROWS });
    await expectCorrupted(`${first}\n${records.join("\r")}\n`, /base64/);
    // With every line ending a bare CR, line 1 runs to the end of the file.
    expect((await faultOf(`${[first, ...records].join("\r")}\r`)).outcome).toBe("invalidFile");
  });

  const badRow = (row: string, at = 2) => {
    const rows = [...ROWS];
    rows[at] = row;
    return joinLines(logLines({ rows }));
  };

  it.each([
    ["an unclosed quote", '3,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1,C_N:2'],
    ["a quote inside a bare field", '3,CY"CLE,INFO,2025-03-01 09:00:10,"TS_REF:1"'],
    ["text after a closing quote", '3,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1"x'],
    [
      "an unquoted Value with commas (7 fields)",
      "3,CYCLE,INFO,2025-03-01 09:00:10,TS_REF:1,C_N:2,E_V:1",
    ],
    ["four fields", "3,CYCLE,INFO,2025-03-01 09:00:10"],
    ["an empty row", ""],
    [
      "two rows in one record",
      '3,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1"\n4,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1"',
    ],
    ["a trailing line break", '3,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1"\n'],
  ])("a row that is not one valid CSV row (%s): corrupted", async (_, row) => {
    await expectCorrupted(badRow(row), /record 3/);
  });

  it("an unclosed quote closed by the next record is still caught", async () => {
    const rows = [...ROWS];
    rows[2] = '3,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1,C_N:2';
    rows[3] = '"';
    await expectCorrupted(joinLines(logLines({ rows })), /record 3/);
  });

  it.each([
    ["Event ID 0", '0,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1"', 0, /Event ID/],
    ["a negative Event ID", '-3,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1"', 2, /Event ID/],
    ["a leading zero", '03,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1"', 2, /Event ID/],
    ["a decimal Event ID", '3.5,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1"', 2, /Event ID/],
    ["an unknown Event Type", '3,DEBUG,INFO,2025-03-01 09:00:10,"TS_REF:1"', 2, /Event Type/],
    ["a lower-case Event Type", '3,cycle,INFO,2025-03-01 09:00:10,"TS_REF:1"', 2, /Event Type/],
    ["an unknown Log Type", '3,CYCLE,DEBUG,2025-03-01 09:00:10,"TS_REF:1"', 2, /Log Type/],
    ["an ISO time stamp", '3,CYCLE,INFO,2025-03-01T09:00:10,"TS_REF:1"', 2, /Time Stamp/],
    ["a time stamp without seconds", '3,CYCLE,INFO,2025-03-01 09:00,"TS_REF:1"', 2, /Time Stamp/],
    ["a Value without pairs", '3,CYCLE,INFO,2025-03-01 09:00:10,"just text"', 2, /Value/],
  ])("%s: corrupted", async (_, row, at, reason) => {
    await expectCorrupted(badRow(row, at), reason);
  });

  it("an Event ID that does not increase: corrupted, records out of order", async () => {
    await expectCorrupted(
      badRow('1,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1"'),
      /records out of order/,
    );
    await expectCorrupted(
      badRow('2,CYCLE,INFO,2025-03-01 09:00:10,"TS_REF:1"'),
      /records out of order/,
    );
  });

  it("reports the first fault in the file", async () => {
    const rows = [...ROWS];
    rows[1] = "2,CYCLE,INFO";
    const text = withLines((l) => {
      const raw = Buffer.from(l[5], "base64");
      raw[15] ^= 1;
      return [...l.slice(0, 5), raw.toString("base64"), ...l.slice(6)];
    }, rows);
    expect((await faultOf(text)).reason).toMatch(/record 2 is not one CSV row/);
  });

  it("plaintext that is not UTF-8: corrupted", async () => {
    const text = withLines((l) => {
      const nonce = Buffer.alloc(12, 3);
      const cipher = createCipheriv("aes-256-gcm", DEMO_KEY, nonce);
      cipher.setAAD(Buffer.from("demo:1"));
      const body = Buffer.concat([cipher.update(Buffer.from([0xff, 0xfe, 0x31])), cipher.final()]);
      const line = Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64");
      return [l[0], l[1], line, ...l.slice(3)];
    });
    await expectCorrupted(text, /UTF-8/);
  });
});

describe("decryptToRows", () => {
  it("is for cough logs only", async () => {
    await expect(
      decryptToRows(chunked(joinLines(logLines({ rows: [] }))), {
        ...options,
        deviceType: "clear",
      }),
    ).rejects.toThrow(/cough/);
  });

  it("returns the model of a sound log", async () => {
    const model = await decryptToRows(chunked(joinLines(logLines({ rows: ROWS }))), options);
    expect(model).toMatchObject({ keyId: "demo", deviceId: "12345", rows: 5 });
    expect(model.therapies.eventId.length).toBe(1);
    expect(model.cycles.eventId.length).toBe(2);
    expect(model.alarms).toEqual([
      {
        eventId: 7,
        timeStamp: "2025-03-01 09:11:00",
        logType: "WARNING",
        CODE: "E12",
        MSG: "Low battery, connect charger",
      },
    ]);
  });
});
