// POST /api/v1/devices/{serial}/stats: a device's performance records (DEVICE-API.md,
// docs/device-api.md). A resource route: POST only; anything else is 405.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleDeviceRequest } from "~/domain/devices/request.server";
import { methodNotAllowed, readJsonBody } from "~/lib/jsonBody.server";
import { ingestDeviceStats } from "~/domain/devices/statsIngest.server";
import { parseDeviceStats } from "~/domain/devices/schema";

export function loader() {
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const authorization = request.headers.get("Authorization");
  const readBody = () => readJsonBody(request);
  const input = { serial: params.serial, authorization, readBody };
  return handleDeviceRequest(input, parseDeviceStats, async (device, rows) => ({
    accepted: await ingestDeviceStats(device, rows),
  }));
}
