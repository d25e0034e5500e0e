// The decrypt dialog's upload and CSV download (spec 3 §2.8; DEVICE-LOG-FORMAT.md) over a real
// HTTP server on 127.0.0.1: real multipart bodies, cut off, oversized and endless; what lands in
// DATA_DIR/devicelogs and the LogFile table; and the 24-hour purge.
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import {
  findLogFile,
  LOG_FILE_FIELD,
  LOG_FILE_LIFETIME_MS,
  loadDecryptDialog,
  purgeExpiredLogFiles,
  uploadFailureMessage,
} from "~/domain/deviceLogs/deviceLog.server";
import { startDecryptServer } from "../support/decryptServer";
import { createUser } from "../support/factories";
import { signedInBrowser } from "../support/session";
import {
  DEMO_KEY,
  encryptRecord,
  encryptedLog,
  HEADER,
  joinLines,
  logLines,
} from "../support/deviceLogFixture";
import { writeDeviceLog, type DeviceLogOptions } from "../../scripts/make-device-log";

const CORRUPTED =
  "Error occurred! The encrypted file is corrupted. Please re-download it from the device and try again";
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HOUR = 3_600_000;

const logRoot = path.join(env.dataDir, "devicelogs");
const incoming = path.join(logRoot, ".incoming");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "arc-devicelog-upload-"));

let server: Awaited<ReturnType<typeof startDecryptServer>>;
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
  server.failures.length = 0;
});

// ---- A cough log of known content (device 12345) ----

// The Value is quoted when it holds commas (DEVICE-LOG-FORMAT.md "Container" 4).
const DEVICE_ROWS = [
  `1,SYSTEM,INFO,2026-03-01 23:59:00,EVENT:POWER_ON`,
  `2,THERAPY,INFO,2026-03-02 08:00:00,"MODE:Auto,R_C:2,N_C:2,P_P:0,I_P:40,E_P:-40,P_T:10,I_T:20,E_T:15,O_F:1"`,
  `3,CYCLE,INFO,2026-03-02 08:00:05,"TS_REF:2,C_N:1,P_IP:38,E_V:1200,P_F:250,SPO2:96,O_F:1"`,
  `4,CYCLE,INFO,2026-03-02 08:00:10,"TS_REF:2,C_N:2,P_IP:39,E_V:1300,P_F:240,SPO2:false,O_F:1"`,
  `5,SYSTEM,INFO,2026-03-02 21:00:00,"EVENT:HMR,HMR:100.50"`,
  `6,SYSTEM,INFO,2026-03-03 07:00:00,EVENT:POWER_ON`,
  `7,ALARM,WARNING,2026-03-03 07:10:00,"CODE:A15,MSG:Therapy stopped by ""Stop"" key"`,
  `8,SETTINGS,INFO,2026-03-04 08:00:00,"MODE:Manual,R_C:3,P_P:0,I_P:45,E_P:-45,P_T:10,I_T:20,E_T:15,O_F:0"`,
  `9,THERAPY,INFO,2026-03-04 08:10:00,"MODE:Manual,R_C:3,N_C:1,P_P:0,I_P:45,E_P:-45,P_T:10,I_T:20,E_T:15,O_F:0"`,
  `10,CYCLE,INFO,2026-03-04 08:10:05,"TS_REF:9,C_N:1,P_IP:44,E_V:1100,P_F:230,SPO2:95,O_F:0"`,
  `11,SYSTEM,INFO,2026-03-04 22:00:00,"EVENT:HMR,HMR:101.25"`,
  `12,SYSTEM,INFO,2026-03-05 00:00:10,EVENT:POWER_OFF`,
];
const KNOWN_NAME = "C12345_05032026_183000_system.csv";
const knownLog = () => encryptedLog({ rows: DEVICE_ROWS, deviceId: "12345" });

const generated = async (name: string, options: Partial<DeviceLogOptions> = {}) => {
  const written = await writeDeviceLog({
    dir: path.join(work, name),
    type: "cough",
    deviceId: "2301A0042",
    from: "2026-02-01",
    to: "2026-02-14",
    seed: 11,
    ...options,
  });
  return { ...written, content: await fsp.readFile(written.path) };
};

// ---- Requests ----

type Upload = { status: number; location: string };

/** The form as a browser posts it: the file in `uploaded-csv`. */
async function upload(
  fileName: string,
  content: string | Buffer,
  back?: string,
  cookie?: string,
): Promise<Upload> {
  const form = new FormData();
  const bytes = typeof content === "string" ? content : new Uint8Array(content);
  form.append(LOG_FILE_FIELD, new Blob([bytes]), fileName);
  const query = back === undefined ? "" : `?${new URLSearchParams({ back })}`;
  const response = await fetch(`${server.url}/decrypt/upload${query}`, {
    method: "POST",
    body: form,
    headers: cookie ? { cookie } : {},
    redirect: "manual",
  });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get("location") ?? "" };
}

/**
 * The upload's uuid from a redirect to the dialog's result view: `<origin>?dialog=decrypt&<key>=
 * <uuid v4>` and nothing else, which the dialog opens on that upload.
 */
async function resultOf(answer: Upload, origin = "/") {
  expect(answer.status).toBe(302);
  const target = new URL(answer.location, "http://127.0.0.1");
  expect(target.pathname).toBe(origin);
  const entries = [...target.searchParams];
  expect(entries).toHaveLength(2);
  expect(entries[0]).toEqual(["dialog", "decrypt"]);
  const uuid = entries[1][1];
  expect(uuid).toMatch(UUID_V4);
  const dialog = await loadDecryptDialog(target.searchParams);
  expect(dialog?.step).toBe("result");
  expect(dialog?.step === "result" && dialog.file.uuid).toBe(uuid);
  return uuid;
}

const uploadedId = async (fileName: string, content: string | Buffer) =>
  resultOf(await upload(fileName, content));

async function getCsv(query: string) {
  const response = await fetch(`${server.url}/decrypt/csv?${query}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A multipart body by hand, for requests written byte by byte. */
function multipart(fileName: string, content: Buffer) {
  const boundary = `----arc${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${LOG_FILE_FIELD}"; ` +
      `filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { boundary, head, body: Buffer.concat([head, content, tail]) };
}

/** A raw connection that has sent the request's head and `body`, and then waits. */
async function openUpload(boundary: string, contentLength: number, body: Buffer, query = "") {
  const socket = net.connect(server.port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write(
    `POST /decrypt/upload${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${contentLength}\r\n\r\n`,
  );
  socket.write(body);
  return { socket, closed, received: () => Buffer.concat(received).toString("latin1") };
}

/** What is kept: rows, files in devicelogs/ and in devicelogs/.incoming. */
async function kept() {
  const list = async (dir: string) =>
    (await fsp.readdir(dir, { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
  return {
    rows: await prisma.logFile.count(),
    files: await list(logRoot),
    incoming: await list(incoming),
  };
}
const NOTHING = { rows: 0, files: [], incoming: [] };

/** Asks `probe` until `ok` holds (or `ms` have passed) and returns its last answer. */
async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, ms = 5_000) {
  let value = await probe();
  await vi
    .waitFor(
      async () => {
        if (!ok(value)) value = await probe();
        if (!ok(value)) throw new Error("not yet");
      },
      { timeout: ms, interval: 25 },
    )
    .catch(() => {}); // the caller's expect shows the last answer
  return value;
}

// ---- Tests ----

describe("POST /decrypt/upload: a valid log", () => {
  it("is kept under a random uuid, byte for byte, with its dates and a 24-hour life", async () => {
    const content = knownLog();
    const before = Date.now();
    const uuid = await uploadedId(KNOWN_NAME, content);
    const after = Date.now();

    const row = await prisma.logFile.findUniqueOrThrow({ where: { id: uuid } });
    expect(row).toMatchObject({
      fileName: KNOWN_NAME,
      deviceSerial: "12345",
      deviceType: "cough",
      sizeBytes: Buffer.byteLength(content),
      rowCount: 12,
      storagePath: `devicelogs/${uuid}.log`,
      firstTherapyAt: "02-03-2026",
      lastTherapyAt: "04-03-2026",
      logsFrom: "2026-03-01 23:59:00",
      logsTo: "2026-03-05 00:00:10",
      uploadedById: null,
    });
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(row.createdAt.getTime()).toBeLessThanOrEqual(after);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(24 * HOUR);

    const stored = await fsp.readFile(path.join(logRoot, `${uuid}.log`));
    expect(stored.equals(Buffer.from(content))).toBe(true);
    expect(await kept()).toEqual({ rows: 1, files: [`${uuid}.log`], incoming: [] });
    expect(server.failures).toEqual([]);
  });

  it("redirects to the page it came from: /app/Reports, else the landing page", async () => {
    await resultOf(await upload(KNOWN_NAME, knownLog(), "/app/Reports"), "/app/Reports");
    await resultOf(await upload(KNOWN_NAME, knownLog(), "https://evil.example/"), "/");
    await resultOf(await upload(KNOWN_NAME, knownLog(), "//evil.example"), "/");
  });

  it("gives two uploads of the same file two uuids and two files", async () => {
    const content = knownLog();
    const first = await uploadedId(KNOWN_NAME, content);
    const second = await uploadedId(KNOWN_NAME, content);
    expect(first).not.toBe(second);
    expect(await kept()).toEqual({
      rows: 2,
      files: [`${first}.log`, `${second}.log`].sort(),
      incoming: [],
    });
  });

  it("records who uploaded it when the sender is signed in", async () => {
    const user = await createUser();
    const { cookie } = await signedInBrowser(user.id);
    const uuid = await resultOf(
      await upload(KNOWN_NAME, knownLog(), "/app/Reports", cookie),
      "/app/Reports",
    );
    const row = await prisma.logFile.findUniqueOrThrow({ where: { id: uuid } });
    expect(row.uploadedById).toBe(user.id);
  });

  it("takes a log without data rows, with no dates", async () => {
    const content = encryptedLog({ rows: [], deviceId: "12345" });
    const uuid = await uploadedId(KNOWN_NAME, content);
    const row = await prisma.logFile.findUniqueOrThrow({ where: { id: uuid } });
    expect(row).toMatchObject({
      rowCount: 0,
      firstTherapyAt: null,
      lastTherapyAt: null,
      logsFrom: null,
      logsTo: null,
    });
    expect((await getCsv(`uuid=${uuid}`)).text).toBe(HEADER);
  });

  it("takes a generated log with CRLF line ends, byte for byte, and counts its rows", async () => {
    const log = await generated("crlf", { crlf: true });
    const uuid = await uploadedId(log.fileName, log.content);
    const row = await prisma.logFile.findUniqueOrThrow({ where: { id: uuid } });
    expect(row).toMatchObject({
      fileName: "C2301A0042_14022026_183000_system.csv",
      rowCount: log.rows,
      sizeBytes: log.bytes,
      firstTherapyAt: "01-02-2026",
      lastTherapyAt: "14-02-2026",
    });
    expect(row.logsFrom?.slice(0, 10)).toBe("2026-02-01");
    expect(row.logsTo?.slice(0, 10)).toBe("2026-02-14");
    expect((await fsp.readFile(path.join(logRoot, `${uuid}.log`))).equals(log.content)).toBe(true);
  });
});

describe("GET /decrypt/csv", () => {
  const fields = (text: string) => parse(text) as string[][];

  it("streams the decrypted rows under the log's header, as the device wrote them", async () => {
    const uuid = await uploadedId(KNOWN_NAME, knownLog());
    const csv = await getCsv(`uuid=${uuid}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(
      `attachment; filename="C12345_05032026_183000_system_decrypted.csv"`,
    );
    expect(csv.text).toBe([HEADER, ...DEVICE_ROWS].join("\n"));
  });

  it("keeps only the rows of From..To, by their own date", async () => {
    const uuid = await uploadedId(KNOWN_NAME, knownLog());
    const csv = await getCsv(`uuid=${uuid}&from=2026-03-02&to=2026-03-03`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toBe(
      `attachment; filename="C12345_05032026_183000_system_decrypted_2026-03-02_2026-03-03.csv"`,
    );
    expect(csv.text).toBe([HEADER, ...DEVICE_ROWS.slice(1, 7)].join("\n"));
    const sameDay = await getCsv(`uuid=${uuid}&from=2026-03-03&to=2026-03-03`);
    expect(sameDay.text).toBe([HEADER, ...DEVICE_ROWS.slice(5, 7)].join("\n"));
    const fromOnly = await getCsv(`uuid=${uuid}&from=2026-03-04`);
    expect(fromOnly.text).toBe([HEADER, ...DEVICE_ROWS.slice(7)].join("\n"));
    const toOnly = await getCsv(`uuid=${uuid}&to=2026-03-01`);
    expect(toOnly.text).toBe([HEADER, DEVICE_ROWS[0]].join("\n"));
    const none = await getCsv(`uuid=${uuid}&from=2027-01-01&to=2027-01-31`);
    expect(none.text).toBe(HEADER);
  });

  it("answers 400 to a From after To, 404 to an unknown or malformed uuid", async () => {
    const uuid = await uploadedId(KNOWN_NAME, knownLog());
    const swapped = await getCsv(`uuid=${uuid}&from=2026-03-04&to=2026-03-02`);
    expect(swapped.status).toBe(400);
    expect(swapped.text).not.toContain("MODE:");
    for (const other of [
      `uuid=${randomUUID()}`,
      "uuid=not-a-uuid",
      `uuid=${uuid.toUpperCase()}`,
      `uuid=${uuid}x`,
      `uuid=%20${uuid}`,
      "uuid=",
      "",
      `uuid=..%2F..%2Farc.db`,
    ]) {
      const answer = await getCsv(other);
      expect(answer.status, other).toBe(404);
      expect(answer.text, other).not.toContain("MODE:");
    }
  });

  it("gives the generator's cough log back field for field", async () => {
    const log = await generated("cough-csv");
    const plain = await generated("cough-plain", { decrypted: true });
    const uuid = await uploadedId(log.fileName, log.content);
    const csv = await getCsv(`uuid=${uuid}`);
    expect(csv.status).toBe(200);
    expect(fields(csv.text)).toEqual(fields(plain.content.toString("utf8")));
    expect(fields(csv.text)).toHaveLength(log.rows + 1);
  });

  it("decrypts a clear (K) log too", async () => {
    const log = await generated("clear", { type: "clear", deviceId: "K77" });
    const plain = await generated("clear-plain", {
      type: "clear",
      deviceId: "K77",
      decrypted: true,
    });
    expect(log.fileName).toBe("KK77_14022026_183000_system.csv");
    const uuid = await uploadedId(log.fileName, log.content);
    const row = await prisma.logFile.findUniqueOrThrow({ where: { id: uuid } });
    expect(row).toMatchObject({
      deviceType: "clear",
      deviceSerial: "K77",
      rowCount: log.rows,
      firstTherapyAt: "01-02-2026",
      lastTherapyAt: "14-02-2026",
    });
    const csv = await getCsv(`uuid=${uuid}`);
    expect(csv.status).toBe(200);
    expect(fields(csv.text)).toEqual(fields(plain.content.toString("utf8")));
    expect(fields(csv.text)).toHaveLength(log.rows + 1);
    const days = await getCsv(`uuid=${uuid}&from=2026-02-03&to=2026-02-04`);
    const inRange = fields(plain.content.toString("utf8"))
      .slice(1)
      .filter((r) => r[3] >= "2026-02-03" && r[3] < "2026-02-05");
    expect(inRange.length).toBeGreaterThan(0);
    expect(fields(days.text)).toEqual([HEADER.split(","), ...inRange]);
  });
});

describe("POST /decrypt/upload: a refused file leaves nothing behind", () => {
  const fromGenerator = (name: string, options: Partial<DeviceLogOptions>) => async () => {
    const log = await generated(name, options);
    return { name: log.fileName, content: log.content };
  };
  const cases: [string, string, () => Promise<{ name: string; content: Buffer | string }>][] = [
    [
      "a name with a date that does not exist",
      "fileName",
      async () => ({ name: "C12345_31042026_120000_system.csv", content: knownLog() }),
    ],
    [
      "a name that is not a log's",
      "fileName",
      async () => ({ name: "report.csv", content: knownLog() }),
    ],
    [
      "an already decrypted file",
      "alreadyDecrypted",
      fromGenerator("decrypted", { decrypted: true }),
    ],
    [
      "a file whose line 1 is not BWZLOG",
      "invalidFile",
      async () => ({
        name: KNOWN_NAME,
        content: joinLines([
          "BWZLOG/2;key=demo;device=12345",
          ...logLines({ rows: DEVICE_ROWS }).slice(1),
        ]),
      }),
    ],
    ["a corrupt record", "corrupted", fromGenerator("corrupt", { corruptRecord: 40 })],
    ["a truncated file (no #END)", "corrupted", fromGenerator("truncated", { truncate: true })],
    ["a file cut inside a line", "corrupted", fromGenerator("cut", { truncate: "cut" })],
    ["a wrong key", "corrupted", fromGenerator("wrong-key", { wrongKey: true })],
    [
      "a key that is not configured",
      "corrupted",
      fromGenerator("unknown-key", { unknownKey: true }),
    ],
    [
      "a log of another device",
      "corrupted",
      async () => ({ name: "C99999_05032026_183000_system.csv", content: knownLog() }),
    ],
  ];

  it.each(cases)("%s: error=%s", async (_, error, make) => {
    const { name, content } = await make();
    const answer = await upload(name, content, "/app/Reports");
    expect(answer).toEqual({
      status: 302,
      location: `/app/Reports?dialog=decrypt&error=${error}`,
    });
    expect(await kept()).toEqual(NOTHING);
    expect(server.failures).toEqual([]);
  });

  it("no file chosen: error=missing", async () => {
    // What a browser sends for an empty file input: the part with filename="" and no bytes.
    const { boundary, body } = multipart("", Buffer.alloc(0));
    const empty = await fetch(`${server.url}/decrypt/upload`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
      redirect: "manual",
    });
    expect(empty.status).toBe(302);
    expect(empty.headers.get("location")).toBe("/?dialog=decrypt&error=missing");
    // No file field at all.
    const form = new FormData();
    form.append("fileName", KNOWN_NAME);
    const none = await fetch(`${server.url}/decrypt/upload`, {
      method: "POST",
      body: form,
      redirect: "manual",
    });
    expect(none.status).toBe(302);
    expect(none.headers.get("location")).toBe("/?dialog=decrypt&error=missing");
    expect(await kept()).toEqual(NOTHING);
  });

  it("a body that is not a whole multipart form: error=failed, and nothing kept", async () => {
    const log = await generated("malformed", { sizeMb: 1 });
    const { boundary, body } = multipart(log.fileName, log.content);
    const post = async (contentType: string, bytes: Buffer) => {
      const response = await fetch(`${server.url}/decrypt/upload`, {
        method: "POST",
        headers: { "content-type": contentType },
        body: new Uint8Array(bytes),
        redirect: "manual",
      });
      await response.arrayBuffer();
      return { status: response.status, location: response.headers.get("location") };
    };
    const failed = { status: 302, location: "/?dialog=decrypt&error=failed" };
    const form = `multipart/form-data; boundary=${boundary}`;
    // The whole log, but the closing delimiter never comes.
    expect(await post(form, body.subarray(0, body.length - 8))).toEqual(failed);
    // Part headers without Content-Disposition.
    const noDisposition = Buffer.from(body.toString("latin1").replace("Content-Disposition", "X-Other"), "latin1"); // prettier-ignore
    expect(await post(form, noDisposition)).toEqual(failed);
    // Not multipart at all, or without its boundary.
    expect(await post("text/csv", log.content)).toEqual(failed);
    expect(await post("multipart/form-data", body)).toEqual(failed);
    expect(await kept()).toEqual(NOTHING);
    await server.idle();
    expect(await until(kept, (k) => k.incoming.length === 0)).toEqual(NOTHING);
    expect(server.failures).toEqual([]);
  });

  it("a file over the size limit: error=tooLarge, the reading stops, nothing kept", async () => {
    const defaultLimit = env.deviceLogMaxBytes;
    env.deviceLogMaxBytes = 1048576;
    try {
      const log = await generated("over-limit", { sizeMb: 2 });
      expect(log.content.length).toBeGreaterThan(env.deviceLogMaxBytes + 64 * 1024);
      const answer = await upload(log.fileName, log.content);
      expect(answer).toEqual({ status: 302, location: "/?dialog=decrypt&error=tooLarge" });
    } finally {
      env.deviceLogMaxBytes = defaultLimit;
    }
    expect(await until(kept, (k) => k.incoming.length === 0)).toEqual(NOTHING);
    expect(server.failures).toEqual([]);
  });

  it("the dialog shows the format document's message for each error code", async () => {
    const dialog = (error: string) =>
      loadDecryptDialog(new URLSearchParams(`dialog=decrypt&error=${error}`));
    expect(await dialog("corrupted")).toEqual({
      step: "choose",
      maxBytes: env.deviceLogMaxBytes,
      error: CORRUPTED,
    });
    expect((await dialog("alreadyDecrypted"))?.error).toBe(
      "Looks like you have uploaded already decrypted file",
    );
    expect((await dialog("invalidFile"))?.error).toBe(
      "Invalid File uploaded. Please upload BiWaze System encrypted log file.",
    );
    expect((await dialog("fileName"))?.error).toBe(
      "Invalid File uploaded please upload BiWaze System encrypted log file",
    );
    expect((await dialog("tooLarge"))?.error).toBe(
      `The file is too large. Log files up to ${env.deviceLogMaxBytes / 1048576} MB are accepted.`,
    );
    expect((await dialog("<script>"))?.error).toBeNull();
  });
});

describe("POST /decrypt/upload: bodies that do not arrive whole", () => {
  it("a connection dropped half way keeps nothing, and the next upload works", async () => {
    const log = await generated("dropped", { sizeMb: 2 });
    const { boundary, body } = multipart(log.fileName, log.content);
    const { socket } = await openUpload(boundary, body.length, body.subarray(0, body.length >> 1));
    // The server has started on the file before the connection goes.
    expect((await until(kept, (k) => k.incoming.length === 1)).incoming).toHaveLength(1);
    socket.destroy();

    expect(await until(kept, (k) => k.incoming.length === 0)).toEqual(NOTHING);
    // Its handler has returned: nothing of it is written later.
    await server.idle();
    expect(await kept()).toEqual(NOTHING);

    const uuid = await uploadedId(log.fileName, log.content);
    expect(await kept()).toEqual({ rows: 1, files: [`${uuid}.log`], incoming: [] });
    expect(server.failures).toEqual([]);
  });

  it("stalled uploads hold the three upload slots only until their connections go", async () => {
    const log = await generated("stalled", { sizeMb: 1 });
    const stalled = [];
    for (let i = 0; i < 3; i++) {
      const { boundary, body } = multipart(log.fileName, log.content);
      stalled.push(await openUpload(boundary, body.length, body.subarray(0, 100_000)));
    }
    expect((await until(kept, (k) => k.incoming.length === 3)).incoming).toHaveLength(3);
    // A fourth upload meanwhile is turned away, not queued (MAX_CONCURRENT_UPLOADS).
    expect(await upload(KNOWN_NAME, knownLog())).toEqual({
      status: 302,
      location: "/?dialog=decrypt&error=failed",
    });
    for (const { socket } of stalled) socket.destroy();
    expect(await until(kept, (k) => k.incoming.length === 0)).toEqual(NOTHING);

    const uuid = await uploadedId(KNOWN_NAME, knownLog());
    expect(await kept()).toEqual({ rows: 1, files: [`${uuid}.log`], incoming: [] });
  });

  it("limits uploads per client address: the 31st within the hour is refused unread", async () => {
    const from = `203.0.113.${Math.floor(Math.random() * 200) + 20}`;
    const send = async () => {
      const form = new FormData();
      form.append(LOG_FILE_FIELD, new Blob([knownLog()]), "not-a-log-name.csv");
      const response = await fetch(`${server.url}/decrypt/upload`, {
        method: "POST",
        body: form,
        headers: { "x-arc-client-ip": from },
        redirect: "manual",
      });
      await response.arrayBuffer();
      return {
        location: response.headers.get("location"),
        connection: response.headers.get("connection"),
      };
    };
    for (let i = 1; i <= 30; i++) {
      expect((await send()).location).toBe("/?dialog=decrypt&error=fileName");
    }
    expect(await send()).toEqual({ location: "/?dialog=decrypt&error=busy", connection: "close" });
    expect(uploadFailureMessage("busy")).toBe(
      "Too many requests. Please wait a few minutes and try again.",
    );
    // Another address is not affected.
    expect(await upload(KNOWN_NAME, knownLog())).toMatchObject({ status: 302 });
    expect(server.failures).toEqual([]);
  });

  it("a declared 2 GB body is refused before it is read, on a closed connection", async () => {
    const { boundary, head } = multipart(KNOWN_NAME, Buffer.alloc(0));
    // Only the start of the body is ever sent: the answer must not wait for the rest.
    const start = Buffer.concat([head, Buffer.from("BWZLOG/1;key=demo;device=12345\n")]);
    const request = await openUpload(boundary, 2 ** 31, start, "?back=%2Fapp%2FReports");
    const timeout = setTimeout(() => request.socket.destroy(), 5_000);
    await request.closed;
    clearTimeout(timeout);
    const response = request.received();
    expect(response).toMatch(/^HTTP\/1\.1 302 Found\r\n/);
    expect(response).toMatch(/\r\nlocation: \/app\/Reports\?dialog=decrypt&error=tooLarge\r\n/i);
    expect(response).toMatch(/\r\nconnection: close\r\n/i);
    expect(await kept()).toEqual(NOTHING);
    expect(server.failures).toEqual([]);
  });

  describe("an endless chunked body", () => {
    // The limit is read per request. The default 256 MiB takes about 11 s to stream through the
    // decrypter here, so the flood runs against 16 MiB: the same code path, a test well under 20 s.
    const defaultLimit = env.deviceLogMaxBytes;
    beforeAll(() => {
      env.deviceLogMaxBytes = 16 * 1048576;
    });
    afterAll(() => {
      env.deviceLogMaxBytes = defaultLimit;
    });

    it("stops at the size limit, keeps nothing, and the server goes on", async () => {
      const limit = env.deviceLogMaxBytes;
      const { boundary, head } = multipart("KFLOOD1_05032026_183000_system.csv", Buffer.alloc(0));
      const request = http.request(`${server.url}/decrypt/upload`, {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      });
      let sent = 0;
      let stop = false;
      const outcome = new Promise<{ status?: number; location?: string; error?: string }>(
        (resolve) => {
          request.on("response", (response) => {
            stop = true;
            response.resume();
            resolve({ status: response.statusCode, location: response.headers.location });
          });
          request.on("error", (error: NodeJS.ErrnoException) => {
            stop = true;
            resolve({ error: error.code ?? error.message });
          });
        },
      );
      const write = (data: string | Buffer) =>
        new Promise<void>((resolve) => {
          sent += Buffer.byteLength(data);
          if (request.write(data) || stop) return resolve();
          const go = () => {
            request.off("drain", go);
            request.off("close", go);
            resolve();
          };
          request.on("drain", go);
          request.on("close", go);
        });

      // Valid records of a clear log, each authenticated under its own index, made as they are
      // sent: alarms with long messages, one minute apart.
      expect(request.getHeader("content-length")).toBeUndefined();
      await write(head);
      await write("BWZLOG/1;key=demo;device=FLOOD1\n");
      await write(`${encryptRecord(DEMO_KEY, "demo", 0, HEADER)}\n`);
      const message = "x".repeat(6000);
      for (let index = 1; !stop && sent < limit * 4;) {
        const batch: string[] = [];
        for (const end = index + 32; index < end; index++) {
          const minute = index % 1440;
          const clock = `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
          const row = `${index},ALARM,WARNING,2026-03-01 ${clock}:00,"CODE:A02,MSG:${message}"`;
          batch.push(`${encryptRecord(DEMO_KEY, "demo", index, row)}\n`);
        }
        await write(batch.join(""));
      }
      const result = await outcome;
      request.destroy();

      if (result.error === undefined) {
        expect(result).toEqual({ status: 302, location: "/?dialog=decrypt&error=tooLarge" });
      } else {
        expect(["ECONNRESET", "EPIPE"]).toContain(result.error);
      }
      // The server read up to its limit, then stopped: the stream did not run to its end.
      expect(sent).toBeGreaterThan(limit);
      expect(sent).toBeLessThan(limit * 2);
      expect(await until(kept, (k) => k.incoming.length === 0)).toEqual(NOTHING);

      const uuid = await uploadedId(KNOWN_NAME, knownLog());
      expect(await kept()).toEqual({ rows: 1, files: [`${uuid}.log`], incoming: [] });
      expect(server.failures).toEqual([]);
    });
  });
});

describe("purgeExpiredLogFiles", () => {
  it("removes an upload 24 h + 1 s after it arrived, strays and stale parts; keeps a fresh upload", async () => {
    const old = await uploadedId(KNOWN_NAME, knownLog());
    // The old upload arrived more than a second before the fresh one, so at `now` (a second after
    // the old one expired) the fresh one still has time left.
    const arrived = (await prisma.logFile.findUniqueOrThrow({ where: { id: old } })).createdAt;
    const earlier = new Date(arrived.getTime() - 1_100);
    const oldRow = await prisma.logFile.update({
      where: { id: old },
      data: { createdAt: earlier, expiresAt: new Date(earlier.getTime() + LOG_FILE_LIFETIME_MS) },
    });
    const fresh = await uploadedId(KNOWN_NAME, knownLog());
    const now = new Date(oldRow.createdAt.getTime() + LOG_FILE_LIFETIME_MS + 1_000);
    const justBefore = new Date(now.getTime() - 2_000);
    expect(await purgeExpiredLogFiles(justBefore)).toEqual({ expired: 0, strays: 0 });
    expect(await prisma.logFile.count()).toBe(2);

    // A file without a row from over an hour before `now`, a part-written upload as old, and a
    // stray renamed into place a minute before `now` (its row may be about to commit).
    await fsp.mkdir(incoming, { recursive: true });
    const stray = path.join(logRoot, `${randomUUID()}.log`);
    const part = path.join(incoming, `${randomUUID()}.part`);
    const recent = path.join(logRoot, `${randomUUID()}.log`);
    const recentPart = path.join(incoming, `${randomUUID()}.part`);
    for (const file of [stray, part, recent, recentPart]) await fsp.writeFile(file, "x");
    const longAgo = new Date(now.getTime() - HOUR - 1_000);
    const moment = new Date(now.getTime() - 60_000);
    for (const file of [stray, part]) await fsp.utimes(file, longAgo, longAgo);
    for (const file of [recent, recentPart]) await fsp.utimes(file, moment, moment);
    // An upload's own file is never a stray, however old.
    await fsp.utimes(path.join(logRoot, `${fresh}.log`), longAgo, longAgo);

    expect(await purgeExpiredLogFiles(now)).toEqual({ expired: 1, strays: 2 });
    expect(await kept()).toEqual({
      rows: 1,
      files: [`${fresh}.log`, path.basename(recent)].sort(),
      incoming: [path.basename(recentPart)],
    });
    expect(await prisma.logFile.findUnique({ where: { id: old } })).toBeNull();
    expect((await getCsv(`uuid=${old}`)).status).toBe(404);
    expect((await getCsv(`uuid=${fresh}`)).status).toBe(200);
  });
});

describe("findLogFile", () => {
  it("finds an upload by its uuid until it expires, and nothing for any other string", async () => {
    const uuid = await uploadedId(KNOWN_NAME, knownLog());
    const row = await prisma.logFile.findUniqueOrThrow({ where: { id: uuid } });
    expect((await findLogFile(uuid))?.id).toBe(uuid);
    expect((await findLogFile(uuid, new Date(row.expiresAt.getTime() - 1)))?.id).toBe(uuid);
    expect(await findLogFile(uuid, row.expiresAt)).toBeNull();
    expect(await findLogFile(uuid, new Date(row.expiresAt.getTime() + 1))).toBeNull();
    for (const other of [
      null,
      "",
      uuid.toUpperCase(),
      ` ${uuid}`,
      `${uuid}\n`,
      uuid.replace(/-/g, ""),
      "%",
      "*",
      "00000000-0000-0000-0000-000000000000",
      randomUUID(),
    ]) {
      expect(await findLogFile(other), JSON.stringify(other)).toBeNull();
    }
    // An expired row that the purge has not reached yet.
    await prisma.logFile.update({
      where: { id: uuid },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expect(await findLogFile(uuid)).toBeNull();
    // A row whose id is not a uuid is never reached, though it exists and has not expired.
    const { id: _, ...rest } = row;
    await prisma.logFile.create({ data: { ...rest, id: "devicelogs" } });
    expect(await findLogFile("devicelogs")).toBeNull();
  });
});
