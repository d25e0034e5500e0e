// A care site of its own with a clinician and a patient whose device sent the last 7 days of
// therapies through the real device API of the test server (the simulator's client over HTTP),
// so the server's own ingest and adherence worker make the data the pages show.
import crypto from "node:crypto";
import { TZDate } from "@date-fns/tz";
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

export async function careSiteWithTherapyPatient(options: { days?: number } = {}) {
  const days = options.days ?? 7;
  const now = Date.now();
  const siteId = id("cs_");
  const serial = id("E2E").toUpperCase();
  await withPrisma((client) =>
    factories.createCareSite(client, {
      id: siteId,
      accountNumber: id("ACC"),
      name: `E2E Therapy ${siteId}`,
      zip: "73301",
      timeZone: ZONE,
    }),
  );
  const clinician = await createUser("clinician", { careSiteIds: [siteId] });
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

  // One completed therapy at 10:00 each of the last `days` days, sent that evening.
  const client = new DeviceClient(`http://127.0.0.1:${E2E_PORT}`, serial, token);
  const prescription = STANDARD_PRESCRIPTION;
  for (let ago = days; ago >= 1; ago--) {
    const [y, m, d] = chicagoDay(ago);
    const therapy: TherapyRecord = {
      eventId: `${serial}-${ago}`,
      startedAt: new TZDate(y, m - 1, d, 10, 0, ZONE).toISOString(),
      mode: "Auto",
      delivered: { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 },
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
  return { siteId, serial, clinician, patient };
}
