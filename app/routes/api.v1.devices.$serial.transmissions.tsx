// POST /api/v1/devices/{serial}/transmissions: a device's therapy data (DEVICE-API.md,
// docs/device-api.md). A resource route: POST only; anything else is 405.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleDeviceRequest } from "~/domain/devices/request.server";
import { methodNotAllowed, readJsonBody } from "~/lib/jsonBody.server";
import { ingestTransmission } from "~/domain/devices/ingest.server";
import { parseTransmission } from "~/domain/devices/schema";

export function loader() {
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const authorization = request.headers.get("Authorization");
  const readBody = () => readJsonBody(request);
  const input = { serial: params.serial, authorization, readBody };
  return handleDeviceRequest(input, parseTransmission, async (device, body) => {
    const result = await ingestTransmission(device, body);
    return {
      transmissionId: result.transmissionId,
      therapiesAccepted: result.therapiesAccepted,
      therapiesDuplicate: result.therapiesDuplicate,
    };
  });
}
