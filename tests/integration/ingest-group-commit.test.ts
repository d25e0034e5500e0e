// Group commit of the device API over real HTTP (app/domain/devices/ingestDb.server.ts): the
// requests that arrive while a batch is written or synced share the next transaction; each is
// acknowledged only once its commit is on disk (the write-ahead log fsynced, off the main thread);
// all land exactly once; and one that fails in a batch is undone alone. The fsync is held in the
// test (fs.fsync wrapped) so that batches form deterministically: no timing.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server";
import { handleDeviceApi } from "~/domain/devices/deviceApi.server";
import { queuedWrites } from "~/domain/devices/ingestDb.server";
import { createApp } from "../../server/http";
import { newDevice, transmissionBody } from "../support/deviceApiBodies";

const ROOT = path.resolve(__dirname, "..", "..");
const notRemix: express.RequestHandler = (_req, res) => {
  res.status(404).type("text/plain").send("Not Found");
};

let port = 0;
let server: http.Server;
beforeAll(async () => {
  const app = createApp({
    root: ROOT,
    mode: "production",
    handler: notRemix,
    deviceApi: handleDeviceApi,
    readiness: async () => ({ ready: true }),
    trustProxy: false,
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
afterEach(() => {
  vi.restoreAllMocks();
});

type Answer = { status: number; body: Record<string, unknown> };

function post(serial: string, token: string, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: `/api/v1/devices/${serial}/transmissions`,
        agent: false,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": String(Buffer.byteLength(body)),
          Authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          let parsed: Record<string, unknown> = {};
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = { text };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const transmission = transmissionBody;
const device = () => newDevice("GC");

/**
 * Holds every fsync of the device API's write-ahead log until `release()`: the batches it ends
 * wait unacknowledged, and the requests arriving meanwhile queue for the next batch.
 */
function holdFsyncs() {
  const real = fs.fsync;
  const held: (() => void)[] = [];
  let calls = 0;
  vi.spyOn(fs, "fsync").mockImplementation(((fd: number, callback: fs.NoParamCallback) => {
    calls++;
    held.push(() => real(fd, callback));
  }) as typeof fs.fsync);
  return {
    calls: () => calls,
    held: () => held.length,
    /** Lets the fsyncs held so far run (their batches are then acknowledged). */
    release: () => held.splice(0).forEach((run) => run()),
  };
}

async function storedOf(deviceId: string) {
  const transmissions = await prisma.transmission.findMany({
    where: { deviceId },
    select: { id: true, therapies: { select: { eventId: true, _count: { select: { cycles: true } } } } }, // prettier-ignore
  });
  return transmissions.map((t) => ({
    id: t.id,
    eventIds: t.therapies.map((x) => x.eventId).sort(),
    cycles: t.therapies.map((x) => x._count.cycles),
  }));
}

describe("device API group commit, over HTTP", () => {
  it("acknowledges a transmission only once its commit is fsynced; concurrent ones share a commit and all land exactly once", async () => {
    const devices = await Promise.all(Array.from({ length: 8 }, () => device()));
    const fsyncs = holdFsyncs();
    const answers = new Map<string, Answer>();
    const sent = devices.map((d, k) =>
      post(d.serial, d.token, transmission([`G${k}-a`, `G${k}-b`])).then((a) => {
        answers.set(d.id, a);
        return a;
      }),
    );

    // The first batch is committed (another connection sees it) but its fsync is held: none of
    // its requests is answered yet.
    await expect.poll(fsyncs.held).toBe(1);
    const firstBatch = (await Promise.all(devices.map((d) => storedOf(d.id)))).filter(
      (rows) => rows.length > 0,
    ).length;
    expect(firstBatch).toBeGreaterThanOrEqual(1);
    await expect.poll(queuedWrites).toBe(devices.length - firstBatch);
    expect(answers.size).toBe(0);

    // The rest, queued meanwhile, go in one more transaction once the disk has answered.
    fsyncs.release();
    await expect.poll(fsyncs.held).toBe(1);
    fsyncs.release();
    const all = await Promise.all(sent);
    expect(all.map((a) => a.status)).toEqual(devices.map(() => 202));
    expect(fsyncs.calls()).toBe(2); // 8 transmissions, 2 commits

    // Exactly once: each device has one transmission with both its therapies and their cycles.
    for (const [k, d] of devices.entries()) {
      const rows = await storedOf(d.id);
      expect(rows).toEqual([
        { id: answers.get(d.id)!.body.transmissionId, eventIds: [`G${k}-a`, `G${k}-b`], cycles: [3, 3] }, // prettier-ignore
      ]);
      expect(answers.get(d.id)!.body).toMatchObject({
        therapiesAccepted: 2,
        therapiesDuplicate: 0,
      });
    }

    // Sent again, together: every therapy is a duplicate, the first transmission is named, and
    // nothing more is stored.
    vi.restoreAllMocks();
    const again = await Promise.all(
      devices.map((d, k) => post(d.serial, d.token, transmission([`G${k}-a`, `G${k}-b`]))),
    );
    for (const [k, d] of devices.entries()) {
      expect(again[k]).toEqual({
        status: 202,
        body: {
          transmissionId: answers.get(d.id)!.body.transmissionId,
          therapiesAccepted: 0,
          therapiesDuplicate: 2,
        },
      });
      expect(await storedOf(d.id)).toHaveLength(1);
    }
  });

  it("a transmission that fails inside a batch is undone alone; the others of its batch are kept", async () => {
    const [first, a, b, doomed] = await Promise.all(Array.from({ length: 4 }, () => device()));
    const fsyncs = holdFsyncs();
    const firstSent = post(first.serial, first.token, transmission(["F1"]));
    await expect.poll(fsyncs.held).toBe(1);

    // Three more queue behind the held batch; then the device of one of them is deleted, so its
    // rows break a foreign key when the batch writes them.
    const sent = [a, b, doomed].map((d, k) => post(d.serial, d.token, transmission([`F${k}-x`])));
    await expect.poll(queuedWrites).toBe(3);
    await prisma.device.delete({ where: { id: doomed.id } });
    fsyncs.release();
    await expect.poll(fsyncs.held).toBe(1);
    fsyncs.release();

    const [answerA, answerB, answerDoomed] = await Promise.all(sent);
    expect((await firstSent).status).toBe(202);
    expect(answerA.status).toBe(202);
    expect(answerB.status).toBe(202);
    expect(answerDoomed.status).toBe(500);
    expect(fsyncs.calls()).toBe(2); // the failed one did not cost the others their batch
    expect(await storedOf(a.id)).toEqual([{ id: answerA.body.transmissionId, eventIds: ["F0-x"], cycles: [3] }]); // prettier-ignore
    expect(await storedOf(b.id)).toEqual([{ id: answerB.body.transmissionId, eventIds: ["F1-x"], cycles: [3] }]); // prettier-ignore
    expect(await prisma.transmission.count({ where: { deviceId: doomed.id } })).toBe(0);
    expect(await prisma.prescription.count({ where: { deviceId: doomed.id } })).toBe(0);
  });
});
