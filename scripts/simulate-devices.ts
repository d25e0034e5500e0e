// The device simulator: a real HTTP client of the device API (DEVICE-API.md). It provisions devices
// for patients of a care site (directly in the database, as `npm run device:add` does, and pairs
// them), then sends D days of realistic transmissions through HTTP: per-patient habits (adherent,
// declining, erratic, never transmitting), occasional deviations and protocol changes, SpO2
// sometimes missing. Deterministic for a seed.
//
//   npx tsx scripts/simulate-devices.ts --url http://localhost:3000 --care-site "Hill Country" \
//     --devices 20 --days 30 --concurrency 8 [--seed 42] [--rate 50] [--sync-days 1] \
//     [--data-dir ./data]
//
// --rate caps transmissions per second overall (0 = as fast as the server answers).
// --sync-days N: a device's data reaches the portal every N days (a relay or phone that connects
// now and then): one transmission carries those days' therapies, sent the evening of the last of
// them; a prescription change is sent at once (its therapies are judged against it).
import crypto from "node:crypto";
import path from "node:path";
import { TZDate } from "@date-fns/tz";
import { addDays, format } from "date-fns";
import Database from "better-sqlite3";
import { prng } from "./sim/prng";
import {
  DeviceClient,
  STANDARD_PRESCRIPTION,
  type Prescription,
  type TherapyRecord,
  type Transmission,
} from "./sim/client";

export type Habit = "adherent" | "declining" | "erratic" | "never";

export type SimOptions = {
  url: string;
  databaseFile: string;
  careSite?: string; // id or name (substring); default: the first active care site by name
  devices: number;
  days: number;
  seed: number;
  concurrency: number;
  rate: number;
  /** Days a transmission gathers (1: one transmission each day the device was used). */
  syncDays?: number;
  /** The last simulated day (YYYY-MM-DD, care site zone); default yesterday. */
  lastDay?: string;
  log?: (line: string) => void;
};

type Patient = { id: string; firstName: string; lastName: string };
type Provisioned = {
  patient: Patient;
  serial: string;
  token: string;
  habit: Habit;
  timesPerDay: number;
};

const HABITS: Habit[] = ["adherent", "adherent", "declining", "erratic", "never"];

/** Devices for the first N patients of the care site without an open pairing: created and paired. */
export function provision(options: SimOptions) {
  const db = new Database(options.databaseFile);
  db.pragma("busy_timeout = 5000");
  try {
    const sites = db
      .prepare(`SELECT id, name, timeZone FROM "CareSite" WHERE status = 'active' ORDER BY name`)
      .all() as { id: string; name: string; timeZone: string }[];
    const site = options.careSite
      ? sites.find((s) => s.id === options.careSite || s.name.includes(options.careSite!))
      : sites[0];
    if (!site) throw new Error(`No active care site matches ${options.careSite ?? "(any)"}`);
    const patients = db
      .prepare(
        `SELECT u.id, u.firstName, u.lastName FROM "User" u
         JOIN "Membership" m ON m.userId = u.id AND m.careSiteId = ? AND m.role = 'patient' AND m.status = 'accepted'
         WHERE NOT EXISTS (SELECT 1 FROM "Pairing" p WHERE p.patientId = u.id AND p.unpairedAt IS NULL)
         ORDER BY u.lastName, u.id LIMIT ?`,
      )
      .all(site.id, options.devices) as Patient[];
    const rng = prng(options.seed);
    const now = Date.now();
    const firstDay = Date.now() - (options.days + 1) * 86_400_000;
    const provisioned: Provisioned[] = [];
    db.transaction(() => {
      for (const patient of patients) {
        const serial = `SIM${options.seed}${crypto.randomBytes(6).toString("hex").toUpperCase()}`;
        const token = crypto.randomBytes(32).toString("base64url");
        const deviceId = crypto.randomUUID();
        db.prepare(
          `INSERT INTO "Device" (id, serial, type, tokenHash, createdAt) VALUES (?, ?, 'cough', ?, ?)`,
        ).run(deviceId, serial, crypto.createHash("sha256").update(token).digest("hex"), now);
        db.prepare(
          `INSERT INTO "Pairing" (id, deviceId, patientId, careSiteId, pairedAt) VALUES (?, ?, ?, ?, ?)`,
        ).run(crypto.randomUUID(), deviceId, patient.id, site.id, firstDay);
        const timesPerDay = rng.int(1, 3);
        const hasGoal = db
          .prepare(`SELECT 1 FROM "TherapyGoal" WHERE patientId = ?`)
          .get(patient.id);
        if (!hasGoal) {
          db.prepare(
            `INSERT INTO "TherapyGoal" (id, patientId, timesPerDay, days, createdAt) VALUES (?, ?, ?, 'mon,tue,wed,thu,fri,sat,sun', ?)`,
          ).run(crypto.randomUUID(), patient.id, timesPerDay, firstDay);
        }
        provisioned.push({ patient, serial, token, habit: rng.pick(HABITS), timesPerDay });
      }
    })();
    return { site, provisioned };
  } finally {
    db.close();
  }
}

const BASE = STANDARD_PRESCRIPTION;

/**
 * The transmissions one device sends, in order: with syncDays 1 one per day it was used, in the
 * evening; else one per syncDays days (or sooner, when the prescription changes).
 */
export function plan(
  device: Provisioned,
  timeZone: string,
  lastDay: string,
  days: number,
  seed: number,
  syncDays = 1,
) {
  const rng = prng(
    seed ^ parseInt(crypto.createHash("md5").update(device.serial).digest("hex").slice(0, 8), 16),
  );
  let prescription: Prescription = { ...BASE };
  let hmr = rng.int(50, 900) + 0.5;
  let event = 0;
  const transmissions: Transmission[] = [];
  let pending: TherapyRecord[] = [];
  const send = (day: Date) => {
    if (pending.length === 0) return;
    const sentAt = new TZDate(
      day.getUTCFullYear(),
      day.getUTCMonth(),
      day.getUTCDate(),
      21,
      rng.int(0, 59),
      timeZone,
    );
    transmissions.push({
      sentAt: sentAt.toISOString(),
      hmr: Math.round(hmr * 10) / 10,
      prescription: { ...prescription },
      therapies: pending,
    });
    pending = [];
  };
  const [y, m, d] = lastDay.split("-").map(Number);
  const last = new Date(Date.UTC(y, m - 1, d));
  for (let i = days - 1; i >= 0; i--) {
    if (device.habit === "never") break;
    const day = addDays(last, -i);
    const progress = (days - 1 - i) / Math.max(1, days - 1);
    const usage =
      device.habit === "adherent"
        ? 0.92
        : device.habit === "declining"
          ? 0.95 - 0.85 * progress
          : rng.next();
    if (rng.chance(0.03)) {
      send(addDays(day, -1)); // the old prescription's therapies go first
      prescription = { ...prescription, I_P: prescription.I_P === 40 ? 45 : 40 }; // protocol change
    }
    const therapies = pending;
    for (let t = 0; t < device.timesPerDay + 1; t++) {
      if (t >= device.timesPerDay && !rng.chance(0.1)) continue; // now and then an extra one
      if (!rng.chance(usage)) continue;
      const hour = 8 + Math.floor((12 / device.timesPerDay) * t) + rng.int(0, 1);
      const started = new TZDate(
        day.getUTCFullYear(),
        day.getUTCMonth(),
        day.getUTCDate(),
        hour,
        rng.int(0, 59),
        timeZone,
      );
      const deviates = rng.chance(0.08);
      const delivered = { ...prescription, I_P: prescription.I_P + (deviates ? 3 : 0) };
      const cycleCount = rng.chance(0.1)
        ? rng.int(1, prescription.cycles - 1)
        : prescription.cycles;
      therapies.push({
        eventId: `E-${device.serial}-${++event}`,
        startedAt: started.toISOString(),
        mode: prescription.mode,
        delivered: {
          P_P: delivered.P_P,
          P_T: delivered.P_T,
          I_P: delivered.I_P,
          I_T: delivered.I_T,
          E_P: delivered.E_P,
          E_T: delivered.E_T,
          O_F: delivered.O_F,
        },
        cycles: Array.from({ length: cycleCount }, (_, n) => ({
          n: n + 1,
          P_IP: delivered.I_P - rng.int(0, 3),
          E_V: rng.int(900, 1800),
          P_F: rng.int(180, 320),
          SPO2: rng.chance(0.2) ? null : rng.int(88, 99),
          O_F: delivered.O_F,
        })),
      });
      hmr += 0.25;
    }
    if (i % syncDays === 0) send(day);
  }
  return transmissions;
}

export async function simulate(options: SimOptions) {
  const log = options.log ?? console.log;
  const { site, provisioned } = provision(options);
  const lastDay =
    options.lastDay ?? format(addDays(new TZDate(Date.now(), site.timeZone), -1), "yyyy-MM-dd");
  log(
    `Care site ${site.name} (${site.timeZone}): ${provisioned.length} devices, ${options.days} days up to ${lastDay}.`,
  );
  const queue = provisioned.map((device) => ({
    device,
    client: new DeviceClient(options.url, device.serial, device.token),
    transmissions: plan(
      device,
      site.timeZone,
      lastDay,
      options.days,
      options.seed,
      options.syncDays,
    ),
  }));
  const totals = { transmissions: 0, therapiesAccepted: 0, therapiesDuplicate: 0, errors: 0 };
  const minGapMs = options.rate > 0 ? 1000 / options.rate : 0;
  let nextSlot = Date.now();
  const started = Date.now();
  // Each device sends its days in order; up to `concurrency` devices send at once.
  let index = 0;
  async function worker() {
    while (index < queue.length) {
      const item = queue[index++];
      for (const transmission of item.transmissions) {
        if (minGapMs) {
          const wait = nextSlot - Date.now();
          nextSlot = Math.max(nextSlot, Date.now()) + minGapMs;
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        try {
          const answer = await item.client.sendTransmission(transmission);
          totals.transmissions++;
          totals.therapiesAccepted += answer.therapiesAccepted;
          totals.therapiesDuplicate += answer.therapiesDuplicate;
        } catch (error) {
          totals.errors++;
          log(`${item.device.serial}: ${(error as Error).message}`);
        }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  const seconds = (Date.now() - started) / 1000;
  log(
    `Sent ${totals.transmissions} transmissions, ${totals.therapiesAccepted} therapies accepted, ` +
      `${totals.therapiesDuplicate} duplicates, ${totals.errors} errors in ${seconds.toFixed(1)} s ` +
      `(${Math.round(totals.therapiesAccepted / Math.max(seconds, 0.001))} therapies/s).`,
  );
  return { ...totals, seconds, site, devices: provisioned };
}

function argValue(name: string, fallback?: string) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

if (process.argv[1] && /simulate-devices(\.ts)?$/.test(process.argv[1])) {
  const dataDir = path.resolve(argValue("data-dir", process.env.DATA_DIR ?? "data")!);
  simulate({
    url: argValue("url", "http://localhost:3000")!,
    databaseFile: path.join(dataDir, "arc.db"),
    careSite: argValue("care-site"),
    devices: Number(argValue("devices", "20")),
    days: Number(argValue("days", "30")),
    seed: Number(argValue("seed", "42")),
    concurrency: Number(argValue("concurrency", "8")),
    rate: Number(argValue("rate", "0")),
    syncDays: Number(argValue("sync-days", "1")),
  })
    .then((result) => process.exit(result.errors ? 1 : 0))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
