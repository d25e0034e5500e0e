// POST /api/v1/devices/{serial}/stats: a device's performance records (DEVICE-API.md,
// docs/device-api.md). A resource route: POST only; anything else is 405.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleDeviceRequest } from "~/domain/devices/request.server";
import { methodNotAllowed } from "~/lib/jsonBody.server";
import { ingestDeviceStats } from "~/domain/devices/ingest.server";
import { parseDeviceStats } from "~/domain/devices/schema";

export function loader() {
  return methodNotAllowed();
}

export function action({ request, params }: ActionFunctionArgs) {
  return handleDeviceRequest(request, params.serial, parseDeviceStats, async (device, rows) => ({
    accepted: await ingestDeviceStats(device, rows),
  }));
}
