// POST /api/v1/devices/{serial}/stats: a device's performance records (DEVICE-API.md,
// docs/device-api.md). A resource route: POST only; anything else is 405.
import type { ActionFunctionArgs } from "@remix-run/node";
import {
  accepted,
  jsonBodyProblem,
  methodNotAllowed,
  problem,
  readJsonBody,
  unauthorized,
  validationProblem,
} from "~/lib/jsonBody.server";
import { authenticateDevice } from "~/models/device.server";
import { IngestBusyError, ingestDeviceStats } from "~/models/ingest.server";
import { parseDeviceStats } from "~/validation/deviceApi";

export function loader() {
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const device = await authenticateDevice(params.serial, request.headers.get("Authorization"));
  if (!device) return unauthorized();
  const body = await readJsonBody(request);
  if (!body.ok) return jsonBodyProblem(body.reason);
  const parsed = parseDeviceStats(body.value);
  if (!parsed.ok) return validationProblem(parsed.errors);
  try {
    return accepted({ accepted: await ingestDeviceStats(device, parsed.data) });
  } catch (error) {
    if (!(error instanceof IngestBusyError)) throw error;
    return problem(503, "busy", "The portal is busy; send it again.", {}, { "Retry-After": "1" });
  }
}
