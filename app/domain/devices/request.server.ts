// The common path of every device API request (DEVICE-API.md): authenticate, read the body with
// its size limit, validate, then hand the data over; each failure has its documented answer. The
// request comes as plain values (lib/jsonBody.server.ts: jsonRequest from a Remix route's Request,
// jsonMessage from a plain node:http request) and the answer goes back as plain values
// (JsonAnswer), so the Remix routes and the server's own handler for the device API
// (deviceApi.server.ts) are one implementation. The body is read only once the device is known,
// so an unauthenticated sender costs no body read.
import { authenticateDevice, type AuthenticatedDevice } from "~/domain/devices/device.server";
import { IngestBusyError } from "~/domain/devices/ingestDb.server";
import {
  accepted,
  jsonBodyProblem,
  methodNotAllowedAnswer,
  problemAnswer,
  unauthorized,
  validationProblem,
  type JsonAnswer,
  type JsonRequest,
  type ProblemError,
} from "~/lib/jsonBody.server";
import { StorageFullError, STORAGE_FULL_RETRY_AFTER_S } from "~/lib/storage.server";

type Parsed<T> = { ok: true; data: T } | { ok: false; errors: ProblemError[] };

/** One endpoint of the device API: how its body is validated and what is done with it. */
export type DeviceEndpoint<T> = {
  parse: (body: unknown) => Parsed<T>;
  /** Stores the data; resolves to the 202's body. */
  handle: (device: AuthenticatedDevice, data: T) => Promise<unknown>;
};

export async function handleDeviceRequest<T>(
  endpoint: DeviceEndpoint<T>,
  serial: string | undefined,
  request: JsonRequest,
): Promise<JsonAnswer> {
  if (request.method !== "POST") return methodNotAllowedAnswer();
  const device = authenticateDevice(serial, request.authorization);
  if (!device) return unauthorized();
  const body = await request.readBody();
  if (!body.ok) return jsonBodyProblem(body.reason);
  const parsed = endpoint.parse(body.value);
  if (!parsed.ok) return validationProblem(parsed.errors);
  try {
    return accepted(await endpoint.handle(device, parsed.data));
  } catch (error) {
    if (error instanceof StorageFullError) {
      return problemAnswer(
        503,
        "storage-full",
        "The portal's storage is full; nothing was stored. Send it again later.",
        {},
        { "Retry-After": String(STORAGE_FULL_RETRY_AFTER_S) },
      );
    }
    if (!(error instanceof IngestBusyError)) throw error;
    return problemAnswer(
      503,
      "busy",
      "The portal is busy; send it again.",
      {},
      { "Retry-After": "1" },
    );
  }
}
