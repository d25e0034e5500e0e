// The device API's two endpoints (DEVICE-API.md): what each validates and stores, and what its 202
// says. The Remix routes (app/routes/api.v1.devices.$serial.*.tsx) and the server's own handler
// (deviceApi.server.ts) both answer through these.
import type { AuthenticatedDevice } from "~/domain/devices/device.server";
import { ingestTransmission } from "~/domain/devices/ingest.server";
import type { DeviceEndpoint } from "~/domain/devices/request.server";
import {
  parseDeviceStats,
  parseTransmission,
  type DeviceStatBody,
  type TransmissionBody,
} from "~/domain/devices/schema";
import { ingestDeviceStats } from "~/domain/devices/statsIngest.server";

/** POST /api/v1/devices/{serial}/transmissions: the device hears which transmission holds its
 * therapies, and how many. */
export const transmissionsEndpoint: DeviceEndpoint<TransmissionBody> = {
  parse: parseTransmission,
  async handle(device: AuthenticatedDevice, body: TransmissionBody) {
    const result = await ingestTransmission(device, body);
    return {
      transmissionId: result.transmissionId,
      therapiesAccepted: result.therapiesAccepted,
      therapiesDuplicate: result.therapiesDuplicate,
    };
  },
};

/** POST /api/v1/devices/{serial}/stats: the device hears how many records were stored. */
export const statsEndpoint: DeviceEndpoint<DeviceStatBody[]> = {
  parse: parseDeviceStats,
  async handle(device: AuthenticatedDevice, rows: DeviceStatBody[]) {
    return { accepted: await ingestDeviceStats(device, rows) };
  },
};
