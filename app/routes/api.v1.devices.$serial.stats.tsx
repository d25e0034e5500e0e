// POST /api/v1/devices/{serial}/stats: a device's performance records (DEVICE-API.md,
// docs/device-api.md). A resource route: POST only; anything else is 405.
import type { ActionFunctionArgs } from "@remix-run/node";
import type { AuthenticatedDevice } from "~/domain/devices/device.server";
import { handleDeviceRequest } from "~/domain/devices/request.server";
import { jsonRequest, methodNotAllowed } from "~/lib/jsonBody.server";
import { ingestDeviceStats } from "~/domain/devices/statsIngest.server";
import { parseDeviceStats, type DeviceStatBody } from "~/domain/devices/schema";

export function loader() {
  return methodNotAllowed();
}

export function action({ request, params }: ActionFunctionArgs) {
  return handleDeviceRequest(params.serial, jsonRequest(request), parseDeviceStats, store);
}

/** Stores the records; the device hears how many. */
async function store(device: AuthenticatedDevice, rows: DeviceStatBody[]) {
  return { accepted: await ingestDeviceStats(device, rows) };
}
