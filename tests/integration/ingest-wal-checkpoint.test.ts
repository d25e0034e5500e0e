// The device API's connection leaves the write-ahead log to grow to INGEST_WAL_AUTOCHECKPOINT_PAGES
// (app/domain/devices/ingestDb.server.ts) before its COMMIT checkpoints it: at SQLite's default
// (1,000 pages) every ~90 daily transmissions paid, inside a request's commit on the main thread,
// a copy of the log into the database and two fsyncs. Real SQLite, real files: a burst that writes
// well over 1,000 pages of log is committed without a checkpoint (the log is not restarted), and
// every transmission is stored and acknowledged.
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { env } from "~/lib/env.server";
import { prisma } from "~/lib/db.server";
import { ingestTransmission } from "~/domain/devices/ingest.server";
import {
  closeIngestDatabase,
  INGEST_WAL_AUTOCHECKPOINT_PAGES,
} from "~/domain/devices/ingestDb.server";
import { parseTransmission } from "~/domain/devices/schema";
import { newDevice } from "../support/deviceApiBodies";

afterAll(() => {
  closeIngestDatabase();
});

const PAGE = 4096;
/** A WAL frame: the page and its 24-byte header. */
const FRAME = PAGE + 24;

function body(tag: string, k: number) {
  const parsed = parseTransmission({
    sentAt: "2026-11-20T23:10:00Z",
    hmr: 12.5,
    prescription: { mode: "Auto", cycles: 5, P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 }, // prettier-ignore
    therapies: Array.from({ length: 20 }, (_, i) => ({
      eventId: `${tag}-${k}-${i}`,
      startedAt: "2026-11-20T14:00:00Z",
      mode: "Auto",
      delivered: { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 },
      cycles: [1, 2, 3, 4, 5].map((n) => ({ n, P_IP: 38, E_V: 1200, P_F: 250, SPO2: 96, O_F: 1 })),
    })),
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.data;
}

describe("the device API's write-ahead log checkpoint", () => {
  it("is not run by a commit before the log holds INGEST_WAL_AUTOCHECKPOINT_PAGES pages", async () => {
    const walFile = `${env.databaseFile}-wal`;
    const walPages = () => (fs.existsSync(walFile) ? fs.statSync(walFile).size / FRAME : 0);
    const devices = await Promise.all(Array.from({ length: 8 }, () => newDevice("CK")));
    // Start from an empty log: whatever the fixtures wrote is checkpointed and the log truncated.
    await prisma.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
    expect(walPages()).toBe(0);

    // Bursts of 8 transmissions (one commit each) until the log holds 2.5× SQLite's default
    // threshold: at that default the log would have been checkpointed and restarted from its
    // start, its file staying near 1,000 pages.
    let sent = 0;
    for (let round = 0; walPages() < 2_500; round++) {
      expect(round).toBeLessThan(200);
      const answers = await Promise.all(
        devices.map((d, k) => ingestTransmission(d, body(`R${round}`, k))),
      );
      expect(answers.every((a) => a.recorded && a.therapiesAccepted === 20)).toBe(true);
      sent += answers.length;
    }
    expect(walPages()).toBeGreaterThanOrEqual(2_500);
    expect(walPages()).toBeLessThan(INGEST_WAL_AUTOCHECKPOINT_PAGES);
    // Every therapy acknowledged is there for the other connections.
    const [{ stored }] = await prisma.$queryRawUnsafe<{ stored: bigint | number }[]>(
      `SELECT COUNT(*) AS "stored" FROM "Therapy" WHERE "deviceId" IN (${devices.map(() => "?").join(", ")})`,
      ...devices.map((d) => d.id),
    );
    expect(Number(stored)).toBe(sent * 20);
  });
});
