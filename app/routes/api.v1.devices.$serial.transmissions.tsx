// POST /api/v1/devices/{serial}/transmissions: a device's therapy data (DEVICE-API.md,
// docs/device-api.md). A resource route: POST only; anything else is 405.
import type { ActionFunctionArgs } from "@remix-run/node";
import type { AuthenticatedDevice } from "~/domain/devices/device.server";
import { handleDeviceRequest } from "~/domain/devices/request.server";
import { jsonRequest, methodNotAllowed } from "~/lib/jsonBody.server";
import { ingestTransmission } from "~/domain/devices/ingest.server";
import { parseTransmission, type TransmissionBody } from "~/domain/devices/schema";

export function loader() {
  return methodNotAllowed();
}

export function action({ request, params }: ActionFunctionArgs) {
  return handleDeviceRequest(params.serial, jsonRequest(request), parseTransmission, store);
}

/** Stores the transmission; the device hears which one holds its therapies, and how many. */
async function store(device: AuthenticatedDevice, body: TransmissionBody) {
  const result = await ingestTransmission(device, body);
  return {
    transmissionId: result.transmissionId,
    therapiesAccepted: result.therapiesAccepted,
    therapiesDuplicate: result.therapiesDuplicate,
  };
}
