// The device API (DEVICE-API.md) through its real route actions on a real SQLite file, and once over
// a real HTTP server on 127.0.0.1: counts, idempotency, prescriptions, attribution, 401/405/413/400,
// and that a refused request stores nothing.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadActor } from "~/domain/access.server";
import { prisma } from "~/lib/db.server";
import { MAX_JSON_BODY_BYTES } from "~/lib/jsonBody.server";
import {
  createDevice,
  getCurrentDevice,
  pairDevice,
  rotateDeviceToken,
  unpairDevice,
} from "~/domain/devices/device.server";
import { AdherenceWorker } from "~/jobs/adherenceQueue.server";
import { processAdherenceQueue } from "~/domain/adherence/adherence.server";
import { ingestTransmission } from "~/domain/devices/ingest.server";
import {
  action as statsAction,
  loader as statsLoader,
} from "~/routes/api.v1.devices.$serial.stats";
import {
  action as transmissionsAction,
  loader as transmissionsLoader,
} from "~/routes/api.v1.devices.$serial.transmissions";
import { deviceApiMessages, parseTransmission } from "~/domain/devices/schema";
import { startDeviceApiServer } from "../support/deviceApiServer";
import { createCareSite, createUser, uid } from "../support/factories";
import { STANDARD_PRESCRIPTION } from "../../scripts/sim/client";

type Action = typeof transmissionsAction;

const PRESCRIPTION = STANDARD_PRESCRIPTION;
const DELIVERED = { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 };

function therapy(eventId: string, options: { cycles?: number; startedAt?: string } = {}) {
  return {
    eventId,
    startedAt: options.startedAt ?? "2026-11-20T14:00:00Z",
    mode: "Auto",
    delivered: { ...DELIVERED },
    cycles: Array.from({ length: options.cycles ?? 5 }, (_, i) => ({
      n: i + 1,
      P_IP: 38,
      E_V: 1200,
      P_F: 250,
      SPO2: i === 0 ? null : 96,
      O_F: 1,
    })),
  };
}

function transmission<T>(therapies: T[], prescription: Record<string, unknown> = PRESCRIPTION) {
  return { sentAt: "2026-11-20T23:10:00Z", hmr: 1234.5, prescription, therapies };
}

async function device(type = "cough") {
  const result = await createDevice({ serial: uid("SN").replace(/[^A-Za-z0-9]/g, ""), type });
  if (!result.ok) throw new Error(result.error);
  return { id: result.device.id, serial: result.device.serial, token: result.token };
}

type Device = Awaited<ReturnType<typeof device>>;

function request(
  serial: string,
  body: string | ReadableStream<Uint8Array> | null,
  options: { token?: string | null; method?: string; headers?: Record<string, string> } = {},
  path = "transmissions",
) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  return new Request(`http://localhost/api/v1/devices/${serial}/${path}`, {
    method: options.method ?? "POST",
    headers: { ...headers, ...options.headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

async function call(fn: Action, req: Request, serial: string) {
  try {
    return (await fn({ request: req, params: { serial }, context: {} })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function post(d: Device, body: unknown, token: string | null = d.token) {
  return call(
    transmissionsAction,
    request(d.serial, typeof body === "string" ? body : JSON.stringify(body), { token }),
    d.serial,
  );
}

async function accepted(d: Device, body: unknown) {
  const response = await post(d, body);
  expect(response.status).toBe(202);
  expect(response.headers.get("Content-Type")).toBe("application/json");
  return (await response.json()) as {
    transmissionId: string;
    therapiesAccepted: number;
    therapiesDuplicate: number;
  };
}

/** Rows in every table the API writes, and the device's last-seen time. */
async function snapshot(d?: Device) {
  const [transmissions, therapies, cycles, prescriptions, stats, queued, dev] = await Promise.all([
    prisma.transmission.count(),
    prisma.therapy.count(),
    prisma.cycle.count(),
    prisma.prescription.count(),
    prisma.deviceStat.count(),
    prisma.adherenceQueue.findMany({ orderBy: { patientId: "asc" } }),
    d ? prisma.device.findUnique({ where: { id: d.id }, select: { lastSeenAt: true } }) : null,
  ]);
  return {
    transmissions,
    therapies,
    cycles,
    prescriptions,
    stats,
    queued,
    lastSeenAt: dev?.lastSeenAt,
  };
}

async function patientPairedWith(d: Device) {
  const site = await createCareSite();
  const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
  const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
  const paired = await pairDevice({
    actor: await loadActor(clinician),
    patientId: patient.id,
    careSiteId: site.id,
    serial: d.serial,
  });
  if (paired.status !== "paired") throw new Error("not paired");
  return { patient, clinician, site, pairingId: paired.pairingId };
}

async function problemOf(response: Response) {
  expect(response.headers.get("Content-Type")).toBe("application/problem+json");
  return (await response.json()) as {
    type: string;
    title: string;
    status: number;
    errors?: { path: string; message: string }[];
  };
}

describe("POST /api/v1/devices/{serial}/transmissions", () => {
  it("stores a transmission of a paired device: 202 with the counts, rows as sent", async () => {
    const d = await device();
    const { patient, pairingId } = await patientPairedWith(d);
    const short = therapy("T-2", { cycles: 3, startedAt: "2026-11-20T20:30:00-06:00" });
    const off = therapy("T-3", { startedAt: "2026-11-21T03:00:00Z" });
    off.delivered.I_P = 43; // 3 cmH2O off
    const before = Date.now();
    const body = await accepted(d, transmission([therapy("T-1"), short, off]));
    expect(body).toEqual({
      transmissionId: expect.any(String),
      therapiesAccepted: 3,
      therapiesDuplicate: 0,
    });

    const tx = await prisma.transmission.findUniqueOrThrow({
      where: { id: body.transmissionId },
      include: { prescription: true, therapies: { include: { cycles: true } } },
    });
    expect(tx).toMatchObject({
      deviceId: d.id,
      patientId: patient.id,
      pairingId,
      hmr: 1234.5,
      therapiesAccepted: 3,
      therapiesDuplicate: 0,
      deviatingTherapies: 2,
      therapyAdjustment: false,
    });
    expect(tx.sentAt.toISOString()).toBe("2026-11-20T23:10:00.000Z");
    expect(tx.receivedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(tx.prescription).toMatchObject({
      mode: "Auto",
      cycles: 5,
      pauseP: 0,
      pauseT: 10,
      inspP: 40,
      inspT: 20,
      expP: -40,
      expT: 15,
      oscillation: true,
      isAdjustment: false,
    });
    const byEvent = Object.fromEntries(tx.therapies.map((t) => [t.eventId, t]));
    expect(byEvent["T-1"]).toMatchObject({
      patientId: patient.id,
      pairingId,
      prescriptionId: tx.prescriptionId,
      prescribedCycles: 5,
      cyclesDelivered: 5,
      completed: true,
      deviates: false,
      inspP: 40,
      oscillation: true,
    });
    expect(byEvent["T-2"]).toMatchObject({ cyclesDelivered: 3, completed: false, deviates: true });
    expect(byEvent["T-2"].startedAt.toISOString()).toBe("2026-11-21T02:30:00.000Z");
    expect(byEvent["T-3"]).toMatchObject({ completed: true, deviates: true, inspP: 43 });
    const cycles = byEvent["T-1"].cycles.sort((a, b) => a.n - b.n);
    expect(cycles).toHaveLength(5);
    expect(cycles[0]).toMatchObject({ n: 1, peakInspP: 38, expVolume: 1200, peakFlow: 250 });
    expect(cycles[0].spo2).toBeNull();
    expect(cycles[1].spo2).toBe(96);

    const dev = await prisma.device.findUniqueOrThrow({ where: { id: d.id } });
    expect(dev.lastSeenAt!.getTime()).toBe(tx.receivedAt.getTime());
  });

  it("is idempotent: a resend is all duplicates and records nothing; an overlap stores only the new", async () => {
    const d = await device();
    const first = await accepted(d, transmission([therapy("A"), therapy("B")]));
    const before = await snapshot();

    const again = await accepted(d, transmission([therapy("A"), therapy("B")]));
    expect(again).toEqual({
      transmissionId: first.transmissionId,
      therapiesAccepted: 0,
      therapiesDuplicate: 2,
    });
    const after = await snapshot();
    expect({ ...after, lastSeenAt: undefined }).toEqual({ ...before, lastSeenAt: undefined });

    const overlap = await accepted(d, transmission([therapy("B"), therapy("C"), therapy("C")]));
    expect(overlap).toMatchObject({ therapiesAccepted: 1, therapiesDuplicate: 2 });
    expect(overlap.transmissionId).not.toBe(first.transmissionId);
    const events = await prisma.therapy.findMany({
      where: { deviceId: d.id },
      select: { eventId: true, transmissionId: true },
      orderBy: { eventId: "asc" },
    });
    expect(events).toEqual([
      { eventId: "A", transmissionId: first.transmissionId },
      { eventId: "B", transmissionId: first.transmissionId },
      { eventId: "C", transmissionId: overlap.transmissionId },
    ]);
    const row = await prisma.transmission.findUniqueOrThrow({
      where: { id: overlap.transmissionId },
    });
    expect(row).toMatchObject({ therapiesAccepted: 1, therapiesDuplicate: 2 });
  });

  it("identifies therapies per device: another device may reuse an eventId", async () => {
    const d1 = await device();
    const d2 = await device();
    await accepted(d1, transmission([therapy("SAME")]));
    expect(await accepted(d2, transmission([therapy("SAME")]))).toMatchObject({
      therapiesAccepted: 1,
      therapiesDuplicate: 0,
    });
  });

  it("a changed prescription is a new Prescription and a therapy adjustment; an equal one is reused", async () => {
    const d = await device();
    const t1 = await accepted(d, transmission([therapy("P1")]));
    const t2 = await accepted(d, transmission([therapy("P2")]));
    const changed = { ...PRESCRIPTION, I_P: 45 };
    const t3 = await accepted(d, transmission([therapy("P3")], changed));
    // A resend of known therapies with yet another prescription still records the adjustment.
    const t4 = await accepted(d, transmission([therapy("P3")], { ...changed, O_F: 0 }));
    expect(t4).toMatchObject({ therapiesAccepted: 0, therapiesDuplicate: 1 });

    const rows = await prisma.transmission.findMany({
      where: { id: { in: [t1, t2, t3, t4].map((t) => t.transmissionId) } },
      select: { id: true, therapyAdjustment: true, prescriptionId: true },
    });
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[t1.transmissionId].therapyAdjustment).toBe(false);
    expect(byId[t2.transmissionId].therapyAdjustment).toBe(false);
    expect(byId[t2.transmissionId].prescriptionId).toBe(byId[t1.transmissionId].prescriptionId);
    expect(byId[t3.transmissionId].therapyAdjustment).toBe(true);
    expect(byId[t4.transmissionId].therapyAdjustment).toBe(true);

    const prescriptions = await prisma.prescription.findMany({
      where: { deviceId: d.id },
      orderBy: [{ firstSeenAt: "asc" }],
      select: { id: true, inspP: true, oscillation: true, isAdjustment: true },
    });
    expect(prescriptions.map((p) => [p.inspP, p.oscillation, p.isAdjustment])).toEqual([
      [40, true, false],
      [45, true, true],
      [45, false, true],
    ]);
    const p3 = await prisma.therapy.findFirstOrThrow({ where: { deviceId: d.id, eventId: "P3" } });
    expect(p3.prescriptionId).toBe(byId[t3.transmissionId].prescriptionId);

    // Back to a setting seen before is a change from the latest one: another adjustment.
    const t5 = await accepted(d, transmission([therapy("P5")]));
    const row5 = await prisma.transmission.findUniqueOrThrow({ where: { id: t5.transmissionId } });
    expect(row5.therapyAdjustment).toBe(true);
  });

  it("keeps data of an unpaired device, attributed to nobody; pairing and unpairing move attribution", async () => {
    const d = await device();
    const t1 = await accepted(d, transmission([therapy("U1")]));
    const { patient, clinician, site } = await patientPairedWith(d);
    const t2 = await accepted(d, transmission([therapy("U2")]));
    await unpairDevice({
      actor: await loadActor(clinician),
      patientId: patient.id,
      careSiteId: site.id,
      confirm: (await getCurrentDevice(patient.id))?.pairingId ?? null,
    });
    const t3 = await accepted(d, transmission([therapy("U3")]));
    const owners = await prisma.therapy.findMany({
      where: { deviceId: d.id },
      orderBy: { eventId: "asc" },
      select: { eventId: true, patientId: true, pairingId: true, transmissionId: true },
    });
    expect(owners.map((o) => [o.eventId, o.patientId])).toEqual([
      ["U1", null],
      ["U2", patient.id],
      ["U3", null],
    ]);
    expect(owners[0].pairingId).toBeNull();
    expect(owners.map((o) => o.transmissionId)).toEqual([
      t1.transmissionId,
      t2.transmissionId,
      t3.transmissionId,
    ]);
    const tx1 = await prisma.transmission.findUniqueOrThrow({ where: { id: t1.transmissionId } });
    expect(tx1.patientId).toBeNull();
  });

  it("records a transmission with no therapies (the device reported in)", async () => {
    const d = await device();
    const body = await accepted(d, transmission([]));
    expect(body).toMatchObject({ therapiesAccepted: 0, therapiesDuplicate: 0 });
    const row = await prisma.transmission.findUniqueOrThrow({ where: { id: body.transmissionId } });
    expect(row.hmr).toBe(1234.5);
  });

  it("8 concurrent posts with overlapping therapies store each therapy once", async () => {
    const d = await device();
    const events = Array.from({ length: 40 }, (_, i) => `C${i}`);
    const bodies = Array.from({ length: 8 }, (_, k) =>
      transmission(events.slice(k * 4, k * 4 + 12).map((e) => therapy(e, { cycles: 2 }))),
    );
    const answers = await Promise.all(bodies.map((b) => accepted(d, b)));
    const total = answers.reduce((sum, a) => sum + a.therapiesAccepted, 0);
    const stored = await prisma.therapy.count({ where: { deviceId: d.id } });
    expect(stored).toBe(new Set(bodies.flatMap((b) => b.therapies.map((t) => t.eventId))).size);
    expect(total).toBe(stored);
    expect(await prisma.cycle.count({ where: { therapy: { deviceId: d.id } } })).toBe(stored * 2);
  });

  it("ingestTransmission reports the patient and the instants for the adherence engine", async () => {
    const d = await device();
    const { patient } = await patientPairedWith(d);
    const parsed = parseTransmission(
      transmission([
        therapy("D1", { startedAt: "2026-11-20T14:00:00Z" }),
        therapy("D2", { startedAt: "2026-11-19T14:00:00Z" }),
        therapy("D3", { startedAt: "2026-11-20T14:00:00Z" }),
      ]),
    );
    if (!parsed.ok) throw new Error("invalid");
    const result = await ingestTransmission(d, parsed.data);
    expect(result).toMatchObject({
      patientId: patient.id,
      recorded: true,
      therapiesAccepted: 3,
      therapyAdjustment: false,
    });
    expect(result.days.map((day) => day.toISOString())).toEqual([
      "2026-11-19T14:00:00.000Z",
      "2026-11-20T14:00:00.000Z",
      "2026-11-20T23:10:00.000Z", // sentAt: the day of the HMR reading
    ]);
  });
});

describe("hand-over to the adherence engine", () => {
  const therapiesCounted = async (patientId: string) =>
    (await prisma.dailyAdherence.findMany({ where: { patientId } })).reduce(
      (sum, r) => sum + r.therapies,
      0,
    );

  it("a transmission queues its patient from its earliest instant; a pass recomputes and empties the queue", async () => {
    const d = await device();
    const { patient, pairingId } = await patientPairedWith(d);
    const now = new Date();
    const earlier = new Date(now.getTime() - 2 * 86_400_000);
    await prisma.pairing.update({
      where: { id: pairingId },
      data: { pairedAt: new Date(now.getTime() - 3 * 86_400_000) },
    });
    await accepted(d, {
      ...transmission([therapy("AD1", { startedAt: now.toISOString() })]),
      sentAt: now.toISOString(),
    });
    await accepted(d, {
      ...transmission([therapy("AD2", { startedAt: earlier.toISOString() })]),
      sentAt: now.toISOString(),
    });
    const queued = await prisma.adherenceQueue.findUnique({ where: { patientId: patient.id } });
    expect(queued).toMatchObject({ fromAt: earlier, seq: 2 });
    expect(await therapiesCounted(patient.id)).toBe(0); // not on the request path

    expect((await processAdherenceQueue()).patients).toBeGreaterThanOrEqual(1);
    expect(await therapiesCounted(patient.id)).toBe(2);
    expect(await prisma.adherenceQueue.findUnique({ where: { patientId: patient.id } })).toBeNull();
  });

  it("the adherence worker drains what a stopped server left and wakes on new transmissions", async () => {
    const d = await device();
    const { patient } = await patientPairedWith(d);
    const now = new Date();
    await accepted(d, {
      ...transmission([therapy("AW1", { startedAt: now.toISOString() })]),
      sentAt: now.toISOString(),
    });
    const worker = new AdherenceWorker();
    worker.start();
    try {
      await expect.poll(() => therapiesCounted(patient.id), { timeout: 5000 }).toBe(1);
      await accepted(d, {
        ...transmission([therapy("AW2", { startedAt: now.toISOString() })]),
        sentAt: now.toISOString(),
      });
      await expect.poll(() => therapiesCounted(patient.id), { timeout: 5000 }).toBe(2);
      await expect
        .poll(() => prisma.adherenceQueue.count({ where: { patientId: patient.id } }))
        .toBe(0);
    } finally {
      await worker.stop();
    }
  });
});

describe("refused transmissions store nothing", () => {
  let d: Device;
  let other: Device;
  beforeAll(async () => {
    d = await device();
    other = await device();
  });

  async function expectNothingStored(send: () => Promise<Response>, status: number) {
    const before = await snapshot(d);
    const response = await send();
    expect(response.status).toBe(status);
    expect(await snapshot(d)).toEqual(before);
    return response;
  }

  it("401 with no detail: missing, wrong, other serial's, unknown serial, other schemes", async () => {
    const body = JSON.stringify(transmission([therapy("X1")]));
    const cases: [string, Record<string, string>][] = [
      [d.serial, {}],
      [d.serial, { Authorization: "Bearer wrong-token" }],
      [d.serial, { Authorization: `Bearer ${other.token}` }],
      [d.serial, { Authorization: `Basic ${d.token}` }],
      [d.serial, { Authorization: `Bearer ${d.token}x` }],
      [d.serial, { Authorization: `Bearer` }],
      ["NOSUCHDEVICE1", { Authorization: `Bearer ${d.token}` }],
      ["bad-serial!", { Authorization: `Bearer ${d.token}` }],
    ];
    for (const [serial, headers] of cases) {
      const response = await expectNothingStored(
        () => call(transmissionsAction, request(serial, body, { headers }), serial),
        401,
      );
      expect(await response.text()).toBe("");
      expect(response.headers.get("WWW-Authenticate")).toBe("Bearer");
    }
  });

  it("a rotated token replaces the old one", async () => {
    const d2 = await device();
    const fresh = await rotateDeviceToken(d2.serial);
    expect(fresh).toBeTruthy();
    expect((await post(d2, transmission([therapy("R1")]))).status).toBe(401);
    expect((await post({ ...d2, token: fresh! }, transmission([therapy("R1")]))).status).toBe(202);
  });

  it("413 for a declared Content-Length over 1 MiB, without reading the body", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const response = await expectNothingStored(
      () =>
        call(
          transmissionsAction,
          request(d.serial, stream, {
            token: d.token,
            headers: { "Content-Length": String(MAX_JSON_BODY_BYTES + 1) },
          }),
          d.serial,
        ),
      413,
    );
    expect((await problemOf(response)).status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1); // the stream's own first pull, if any
  });

  it("413 for a chunked body over 1 MiB: reading stops just past the limit", async () => {
    const chunk = 64 * 1024;
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20 * 1024 * 1024) return controller.close();
        sent += chunk;
        controller.enqueue(new Uint8Array(chunk).fill(0x20));
      },
    });
    await expectNothingStored(
      () => call(transmissionsAction, request(d.serial, stream, { token: d.token }), d.serial),
      413,
    );
    expect(sent).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES + 3 * chunk);
  });

  it("a 10,000-therapy transmission is over 1 MiB: 413", async () => {
    const body = JSON.stringify(
      transmission(Array.from({ length: 10_000 }, (_, i) => therapy(`BIG${i}`, { cycles: 1 }))),
    );
    expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_JSON_BODY_BYTES);
    await expectNothingStored(() => post(d, body), 413);
  });

  it("400 problem+json for broken JSON and an empty body", async () => {
    for (const body of ['{"sentAt": ', "", "not json", "\u00ff\u00fe"]) {
      const response = await expectNothingStored(() => post(d, body), 400);
      const problem = await problemOf(response);
      expect(problem).toMatchObject({
        type: expect.stringMatching(/broken-json$/),
        status: 400,
        errors: [{ path: "", message: deviceApiMessages.brokenJson }],
      });
    }
  });

  it("400 problem+json for wrong types, unknown keys and 501 therapies, listing the fields", async () => {
    const wrong = transmission([therapy("W1"), therapy("W2")]) as Record<string, any>;
    wrong.therapies[1].cycles[0].P_IP = "38";
    wrong.hmr = null;
    let problem = await problemOf(await expectNothingStored(() => post(d, wrong), 400));
    expect(problem).toMatchObject({
      type: expect.stringMatching(/invalid-body$/),
      title: "The request body is invalid.",
      status: 400,
    });
    expect(problem.errors).toEqual([
      { path: "hmr", message: deviceApiMessages.number },
      { path: "therapies[1].cycles[0].P_IP", message: deviceApiMessages.number },
    ]);

    const unknown = transmission([{ ...therapy("K1"), extra: true }]);
    problem = await problemOf(await expectNothingStored(() => post(d, unknown), 400));
    expect(problem.errors).toEqual([
      { path: "therapies[0].extra", message: deviceApiMessages.unknownField },
    ]);

    const many = transmission(
      Array.from({ length: 501 }, (_, i) => therapy(`M${i}`, { cycles: 1 })),
    );
    problem = await problemOf(await expectNothingStored(() => post(d, many), 400));
    expect(problem.errors).toEqual([
      { path: "therapies", message: deviceApiMessages.tooManyTherapies },
    ]);

    // One bad therapy among good ones: none of them is stored.
    const mixed = transmission([therapy("G1"), { ...therapy("G2"), startedAt: "yesterday" }]);
    await expectNothingStored(() => post(d, mixed), 400);
    expect(await prisma.therapy.count({ where: { deviceId: d.id, eventId: "G1" } })).toBe(0);
  });

  it("405 for GET and other methods", async () => {
    const get = await transmissionsLoader();
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
    const put = await expectNothingStored(
      () =>
        call(
          transmissionsAction,
          request(d.serial, "{}", { token: d.token, method: "PUT" }),
          d.serial,
        ),
      405,
    );
    expect(put.headers.get("Allow")).toBe("POST");
    expect((await statsLoader()).status).toBe(405);
  });
});

describe("POST /api/v1/devices/{serial}/stats", () => {
  const row = {
    device_type: "cough",
    core: "Dual",
    memory_usage_percentage: 41.5,
    cpu_usage_percentage: 12.25,
    temperature: 48.2,
    test: "burn-in",
    created_at: "2026-11-20T23:10:00Z",
    theraphy_start_time: "2026-11-20T22:00:00-06:00",
    theraphy_end_time: null,
    profile: [{ step: 1, pressure: 40 }],
    test_type: "cycle",
    usr: 3.5,
    sys: 1.25,
    idle: 95,
    mode: "Auto",
    oscillation: "On",
    frequency: 12,
    pause_pressure: 0,
    insp_pressure: 40,
    exp_pressure: -40,
    duration: 300,
    test_dec: "nightly run",
  };

  const postStats = (d: Device, body: unknown, token: string | null = d.token) =>
    call(statsAction, request(d.serial, JSON.stringify(body), { token }, "stats"), d.serial);

  it("stores the rows in one go: 202 { accepted }", async () => {
    const d = await device();
    const response = await postStats(d, [
      row,
      { created_at: "2026-11-21T00:00:00Z", core: "Single" },
    ]);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 2 });
    const stored = await prisma.deviceStat.findMany({
      where: { deviceId: d.id },
      orderBy: { createdAt: "asc" },
    });
    expect(stored).toHaveLength(2);
    expect(stored[0]).toMatchObject({
      serial: d.serial,
      deviceType: "cough",
      core: "Dual",
      memoryUsage: 41.5,
      cpuUsage: 12.25,
      temperature: 48.2,
      test: "burn-in",
      therapyEndTime: null,
      testType: "cycle",
      usr: 3.5,
      sys: 1.25,
      nic: null,
      idle: 95,
      mode: "Auto",
      oscillation: "On",
      frequency: 12,
      pausePressure: 0,
      inspPressure: 40,
      expPressure: -40,
      duration: 300,
      testDec: "nightly run",
    });
    expect(stored[0].createdAt.toISOString()).toBe("2026-11-20T23:10:00.000Z");
    expect(stored[0].therapyStartTime!.toISOString()).toBe("2026-11-21T04:00:00.000Z");
    expect(JSON.parse(stored[0].profile!)).toEqual([{ step: 1, pressure: 40 }]);
    expect(stored[1]).toMatchObject({ core: "Single", memoryUsage: null, profile: null });
  });

  it("refuses unknown keys, bad values, too many rows and bad tokens, storing nothing", async () => {
    const d = await device();
    const before = await snapshot(d);
    const unknown = await postStats(d, [row, { ...row, device_id: d.serial }]);
    expect(unknown.status).toBe(400);
    expect((await problemOf(unknown)).errors).toEqual([
      { path: "[1].device_id", message: deviceApiMessages.unknownField },
    ]);
    expect((await postStats(d, [{ ...row, temperature: "48" }])).status).toBe(400);
    expect(
      (
        await postStats(
          d,
          Array.from({ length: 1001 }, () => row),
        )
      ).status,
    ).toBe(400);
    expect((await postStats(d, row)).status).toBe(400);
    expect((await postStats(d, [row], "nope")).status).toBe(401);
    expect(await snapshot(d)).toEqual(before);
  });
});

describe("over real HTTP (node:http on 127.0.0.1)", () => {
  let server: Awaited<ReturnType<typeof startDeviceApiServer>>;
  let base: string;

  beforeAll(async () => {
    server = await startDeviceApiServer();
    base = server.url;
  });

  afterAll(() => server.close());

  /**
   * A raw request: `chunks` written one by one (chunked unless a Content-Length is given). The
   * server may answer and close before everything is written; the answer is what counts.
   */
  function raw(path: string, headers: Record<string, string>, chunks: Buffer[]) {
    return new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      let answered = false;
      const req = http.request(`${base}${path}`, { method: "POST", headers }, (res) => {
        answered = true;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        const done = () =>
          resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection });
        res.on("end", done);
        res.on("error", done);
      });
      req.on("error", (error) => {
        if (!answered) reject(error);
      });
      (async () => {
        for (const chunk of chunks) {
          if (req.destroyed) return;
          if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
        }
        req.end();
      })().catch(() => {});
    });
  }

  it("202, duplicates, 401, 405 and 400 as a device sees them", async () => {
    const d = await device();
    const url = `${base}/api/v1/devices/${d.serial}/transmissions`;
    const headers = { Authorization: `Bearer ${d.token}`, "Content-Type": "application/json" };
    const body = JSON.stringify(transmission([therapy("H1"), therapy("H2")]));

    const first = await fetch(url, { method: "POST", headers, body });
    expect(first.status).toBe(202);
    const firstBody = await first.json();
    expect(firstBody).toMatchObject({ therapiesAccepted: 2, therapiesDuplicate: 0 });

    const again = await fetch(url, { method: "POST", headers, body });
    expect(await again.json()).toEqual({
      ...firstBody,
      therapiesAccepted: 0,
      therapiesDuplicate: 2,
    });

    const noToken = await fetch(url, { method: "POST", body });
    expect(noToken.status).toBe(401);
    expect(await noToken.text()).toBe("");

    expect((await fetch(url)).status).toBe(405);

    const invalid = await fetch(url, { method: "POST", headers, body: "[]" });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("content-type")).toBe("application/problem+json");

    const stats = await fetch(`${base}/api/v1/devices/${d.serial}/stats`, {
      method: "POST",
      headers,
      body: JSON.stringify([{ created_at: "2026-11-20T23:10:00Z" }]),
    });
    expect(stats.status).toBe(202);
    expect(await stats.json()).toEqual({ accepted: 1 });
  });

  it("400 naming the field for a time before 2015 or more than a day ahead; nothing stored", async () => {
    const d = await device();
    const headers = { Authorization: `Bearer ${d.token}`, "Content-Type": "application/json" };
    const cases: [string, unknown, string, string][] = [
      [
        "transmissions",
        { ...transmission([]), sentAt: "1970-01-01T00:00:00Z" },
        "sentAt",
        deviceApiMessages.timeTooEarly,
      ],
      [
        "transmissions",
        { ...transmission([]), sentAt: "9999-12-31T23:59:59Z" },
        "sentAt",
        deviceApiMessages.timeTooLate,
      ],
      [
        "transmissions",
        transmission([therapy("D1", { startedAt: "1970-01-01T00:00:00Z" })]),
        "therapies[0].startedAt",
        deviceApiMessages.timeTooEarly,
      ],
      [
        "stats",
        [{ created_at: "9999-12-31T23:59:59Z" }],
        "[0].created_at",
        deviceApiMessages.timeTooLate,
      ],
      [
        "stats",
        [{ created_at: "2026-11-20T23:10:00Z", theraphy_start_time: "1970-01-01T00:00:00Z" }],
        "[0].theraphy_start_time",
        deviceApiMessages.timeTooEarly,
      ],
    ];
    for (const [path, body, field, message] of cases) {
      const response = await fetch(`${base}/api/v1/devices/${d.serial}/${path}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      expect(response.status, field).toBe(400);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      const problem = await response.json();
      expect(problem).toMatchObject({ status: 400, errors: [{ path: field, message }] });
      expect(problem.errors).toHaveLength(1);
    }
    expect(await prisma.transmission.count({ where: { deviceId: d.id } })).toBe(0);
    expect(await prisma.deviceStat.count({ where: { deviceId: d.id } })).toBe(0);
  });

  it("413 over HTTP, with a Content-Length and chunked without one; nothing stored", async () => {
    const d = await device();
    const before = await snapshot(d);
    const path = `/api/v1/devices/${d.serial}/transmissions`;
    const auth = { Authorization: `Bearer ${d.token}`, "Content-Type": "application/json" };
    const big = Buffer.alloc(2 * MAX_JSON_BODY_BYTES, 0x20);

    const declared = await raw(path, { ...auth, "Content-Length": String(big.length) }, [big]);
    expect(declared.status).toBe(413);
    expect(declared.connection).toBe("close"); // the unread rest cannot carry another request
    expect(JSON.parse(declared.body)).toMatchObject({ status: 413 });

    const chunks = Array.from({ length: 32 }, () => Buffer.alloc(64 * 1024, 0x20));
    const chunked = await raw(path, { ...auth, "Transfer-Encoding": "chunked" }, chunks);
    expect(chunked.status).toBe(413);

    // The next request (a new connection) is served as usual.
    const small = JSON.stringify(transmission([therapy("after-413")]));
    const ok = await raw(path, auth, [Buffer.from(small)]);
    expect(ok.status).toBe(202);
    before.transmissions++;
    before.therapies++;
    before.cycles += 5;
    before.prescriptions++;

    const after = await snapshot(d);
    expect({ ...after, lastSeenAt: null }).toEqual({ ...before, lastSeenAt: null });
  });
});
