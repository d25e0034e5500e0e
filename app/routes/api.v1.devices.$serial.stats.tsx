// POST /api/v1/devices/{serial}/stats: a device's performance records (DEVICE-API.md,
// docs/device-api.md). A resource route: POST only; anything else is 405. The server answers the
// exact path itself, before Remix (domain/devices/deviceApi.server.ts), through the same endpoint.
import type { ActionFunctionArgs } from "@remix-run/node";
import { statsEndpoint } from "~/domain/devices/endpoints.server";
import { handleDeviceRequest } from "~/domain/devices/request.server";
import { answerResponse, jsonRequest, methodNotAllowed } from "~/lib/jsonBody.server";

export function loader() {
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  return answerResponse(
    await handleDeviceRequest(statsEndpoint, params.serial, jsonRequest(request)),
  );
}
