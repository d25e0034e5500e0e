// What the device API tests send: a transmission body and a fresh device with its token.
import { createDevice } from "~/domain/devices/device.server";
import { STANDARD_PRESCRIPTION } from "../../scripts/sim/client";
import { uid } from "./factories";

/** A daily-size transmission body holding one therapy (3 cycles) per event id. */
export function transmissionBody(eventIds: string[]) {
  return JSON.stringify({
    sentAt: "2026-11-20T23:10:00Z",
    hmr: 12.5,
    prescription: STANDARD_PRESCRIPTION,
    therapies: eventIds.map((eventId) => ({
      eventId,
      startedAt: "2026-11-20T14:00:00Z",
      mode: "Auto",
      delivered: { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 },
      cycles: [1, 2, 3].map((n) => ({ n, P_IP: 38, E_V: 1200, P_F: 250, SPO2: 96, O_F: 1 })),
    })),
  });
}

/** A new cough device (serial `<prefix>…`) and its token. */
export async function newDevice(prefix: string) {
  const result = await createDevice({
    serial: uid(prefix).replace(/[^A-Za-z0-9]/g, ""),
    type: "cough",
  });
  if (!result.ok) throw new Error(result.error);
  return { id: result.device.id, serial: result.device.serial, token: result.token };
}
