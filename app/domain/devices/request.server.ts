// The common path of every device API request (DEVICE-API.md): authenticate, read the body with
// its size limit, validate, then hand the data over; each failure has its documented answer.
import { authenticateDevice, type AuthenticatedDevice } from "~/domain/devices/device.server";
import { IngestBusyError } from "~/domain/devices/ingest.server";
import type { ProblemError } from "../../lib/jsonBody.server";
import { StorageFullError, STORAGE_FULL_RETRY_AFTER_S } from "../../lib/storage.server";
import {
  accepted,
  jsonBodyProblem,
  methodNotAllowed,
  problem,
  readJsonBody,
  unauthorized,
  validationProblem,
} from "../../lib/jsonBody.server";

type Parsed<T> = { ok: true; data: T } | { ok: false; errors: ProblemError[] };

export async function handleDeviceRequest<T>(
  request: Request,
  serial: string | undefined,
  parse: (body: unknown) => Parsed<T>,
  handle: (device: AuthenticatedDevice, data: T) => Promise<unknown>,
) {
  if (request.method !== "POST") return methodNotAllowed();
  const device = authenticateDevice(serial, request.headers.get("Authorization"));
  if (!device) return unauthorized();
  const body = await readJsonBody(request);
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
