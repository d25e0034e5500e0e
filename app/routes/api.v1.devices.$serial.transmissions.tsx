// POST /api/v1/devices/{serial}/transmissions: a device's therapy data (DEVICE-API.md,
// docs/device-api.md). A resource route: POST only; anything else is 405.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleDeviceRequest } from "~/domain/devices/request.server";
import { methodNotAllowed } from "~/lib/jsonBody.server";
import { ingestTransmission } from "~/domain/devices/ingest.server";
import { parseTransmission } from "~/domain/devices/schema";

export function loader() {
  return methodNotAllowed();
}

export function action({ request, params }: ActionFunctionArgs) {
  return handleDeviceRequest(request, params.serial, parseTransmission, async (device, body) => {
    const result = await ingestTransmission(device, body);
    return {
      transmissionId: result.transmissionId,
      therapiesAccepted: result.therapiesAccepted,
      therapiesDuplicate: result.therapiesDuplicate,
    };
  });
}
