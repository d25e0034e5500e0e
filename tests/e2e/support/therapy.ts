// A care site of its own with a clinician and a patient whose device sent the last 7 days of
// therapies through the real device API of the test server (the simulator's client over HTTP),
// so the server's own ingest and adherence worker make the data the pages show.
import crypto from "node:crypto";
import { TZDate } from "@date-fns/tz";
import { expect } from "@playwright/test";
import {
  DeviceClient,
  STANDARD_PRESCRIPTION,
  type TherapyRecord,
} from "../../../scripts/sim/client";
import * as factories from "../../../prisma/factories";
import { createUser, withPrisma } from "./db";
import { E2E_PORT } from "./env";

const ZONE = "America/Chicago";
const DAY_MS = 86_400_000;

function id(prefix: string) {
  return `${prefix}${crypto.randomBytes(6).toString("hex")}`;
}

/** YYYY-MM-DD in Chicago, `daysAgo` days before now. */
function chicagoDay(daysAgo: number) {
  const d = new TZDate(Date.now() - daysAgo * DAY_MS, ZONE);
  return [d.getFullYear(), d.getMonth() + 1, d.getDate()] as const;
}

/** YYYY-MM-DD in Chicago (the test care sites' zone), `daysAgo` days before now. */
export function chicagoDayText(daysAgo: number) {
  return chicagoDay(daysAgo)
    .map((n) => String(n).padStart(2, "0"))
    .join("-");
}

async function therapySite() {
  const siteId = id("cs_");
  await withPrisma((client) =>
    factories.createCareSite(client, {
      id: siteId,
      accountNumber: id("ACC"),
      name: `E2E Therapy ${siteId}`,
      zip: "73301",
      timeZone: ZONE,
    }),
  );
  return siteId;
}

/**
 * A patient of the care site, paired `days` + 1 days ago, whose device sent one therapy at 10:00
 * each of the last `days` days, that evening; `deviates(ago)` makes that day's therapy deviate
 * (an inspiratory pressure 3 cmH2O over the prescription's).
 */
async function therapyPatient(
  siteId: string,
  options: { days: number; deviates?: (ago: number) => boolean },
) {
  const { days, deviates = () => false } = options;
  const now = Date.now();
  const serial = id("E2E").toUpperCase();
  const patient = await createUser("patient", { careSiteIds: [siteId] });
  const { token } = await withPrisma(async (client) => {
    const made = await factories.createDevice(client, { id: id("d_"), serial });
    await factories.createPairing(client, {
      id: id("p_"),
      deviceId: made.device.id,
      patientId: patient.id,
      careSiteId: siteId,
      pairedAt: now - (days + 1) * DAY_MS,
    });
    return made;
  });

  const client = new DeviceClient(`http://127.0.0.1:${E2E_PORT}`, serial, token);
  const prescription = STANDARD_PRESCRIPTION;
  for (let ago = days; ago >= 1; ago--) {
    const [y, m, d] = chicagoDay(ago);
    const therapy: TherapyRecord = {
      eventId: `${serial}-${ago}`,
      startedAt: new TZDate(y, m - 1, d, 10, 0, ZONE).toISOString(),
      mode: "Auto",
      delivered: {
        P_P: 0,
        P_T: 10,
        I_P: deviates(ago) ? 43 : 40,
        I_T: 20,
        E_P: -40,
        E_T: 15,
        O_F: 1,
      },
      cycles: Array.from({ length: 5 }, (_, i) => ({
        n: i + 1,
        P_IP: 38 + i,
        E_V: 1200 + 10 * i,
        P_F: 250 + i,
        SPO2: i === 0 ? null : 96,
        O_F: 1 as const,
      })),
    };
    await client.sendTransmission({
      sentAt: new TZDate(y, m - 1, d, 21, 0, ZONE).toISOString(),
      hmr: 200 - ago,
      prescription,
      therapies: [therapy],
    });
  }
  // The server's adherence worker writes the dashboard's standing after a pause in transmissions
  // (at most 2 s later): the world is ready when the patient has left its queue.
  await expect
    .poll(() => withPrisma((client) => client.adherenceQueue.count({ where: { patientId: patient.id } })), { timeout: 20_000 }) // prettier-ignore
    .toBe(0);
  return { patient, serial };
}

export async function careSiteWithTherapyPatient(options: { days?: number } = {}) {
  const siteId = await therapySite();
  const clinician = await createUser("clinician", { careSiteIds: [siteId] });
  const { patient, serial } = await therapyPatient(siteId, { days: options.days ?? 7 });
  return { siteId, serial, clinician, patient };
}

/**
 * A care site of its own with a clinician and three patients who transmitted on each of the last
 * 3 days: `clean` never deviated, `mixed` deviated on one day, `deviating` on every day.
 */
export async function careSiteWithDeviations() {
  const siteId = await therapySite();
  const clinician = await createUser("clinician", { careSiteIds: [siteId] });
  const days = 3;
  const clean = await therapyPatient(siteId, { days });
  const mixed = await therapyPatient(siteId, { days, deviates: (ago) => ago === 2 });
  const deviating = await therapyPatient(siteId, { days, deviates: () => true });
  return {
    siteId,
    clinician,
    patients: { clean: clean.patient, mixed: mixed.patient, deviating: deviating.patient },
  };
}
