// The common path of every device API request (DEVICE-API.md): authenticate, read the body with
// its size limit, validate, then hand the data over; each failure has its documented answer. The
// route gives the request as plain values (lib/jsonBody.server.ts jsonRequest); the body is read
// only once the device is known, so an unauthenticated sender costs no body read.
import { authenticateDevice, type AuthenticatedDevice } from "~/domain/devices/device.server";
import { IngestBusyError } from "~/domain/devices/ingestDb.server";
import {
  accepted,
  jsonBodyProblem,
  methodNotAllowed,
  problem,
  unauthorized,
  validationProblem,
  type JsonRequest,
  type ProblemError,
} from "~/lib/jsonBody.server";
import { StorageFullError, STORAGE_FULL_RETRY_AFTER_S } from "~/lib/storage.server";

type Parsed<T> = { ok: true; data: T } | { ok: false; errors: ProblemError[] };

export async function handleDeviceRequest<T>(
  serial: string | undefined,
  request: JsonRequest,
  parse: (body: unknown) => Parsed<T>,
  handle: (device: AuthenticatedDevice, data: T) => Promise<unknown>,
) {
  if (request.method !== "POST") return methodNotAllowed();
  const device = authenticateDevice(serial, request.authorization);
  if (!device) return unauthorized();
  const body = await request.readBody();
  if (!body.ok) return jsonBodyProblem(body.reason);
  const parsed = parse(body.value);
  if (!parsed.ok) return validationProblem(parsed.errors);
  try {
    return accepted(await handle(device, parsed.data));
  } catch (error) {
    if (error instanceof StorageFullError) {
      return problem(
        503,
        "storage-full",
        "The portal's storage is full; nothing was stored. Send it again later.",
        {},
        { "Retry-After": String(STORAGE_FULL_RETRY_AFTER_S) },
      );
    }
    if (!(error instanceof IngestBusyError)) throw error;
    return problem(503, "busy", "The portal is busy; send it again.", {}, { "Retry-After": "1" });
  }
}
