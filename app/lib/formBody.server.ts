// The one way a page action reads its form (issue 18 item 7). A body that is not an HTML form, is
// too large, or cannot be parsed is the sender's fault: it becomes a thrown 415, 413 or 400
// Response with a plain message (the page's error boundary shows it), never an uncaught exception
// and a 500. File uploads read their multipart bodies with their own limits (uploads.server.ts,
// domain/deviceLogs/deviceLog.server.ts); every other form goes through readForm.
import { readCapped } from "./jsonBody.server";

/** 1 MiB: far more than any form of the portal without a file (a chat or help message is < 10 KB). */
export const MAX_FORM_BYTES = 1024 * 1024;

export const FORM_MESSAGES = {
  wrongType:
    "The form was not sent as a web form (application/x-www-form-urlencoded or multipart/form-data). Please reload the page and try again.",
  tooLarge: "The form is too large to be sent.",
  unreadable: "The form could not be read. Please reload the page and try again.",
} as const;

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** The body's media type, lower case without parameters ("" when none was sent). */
export function mediaTypeOf(request: Request) {
  return (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
}

function refuse(
  status: 400 | 413 | 415,
  message: string,
  headers: Record<string, string> = {},
): never {
  const statusText = {
    400: "Bad Request",
    413: "Content Too Large",
    415: "Unsupported Media Type",
  }[status];
  throw new Response(message, {
    status,
    statusText,
    headers: { "Content-Type": "text/plain; charset=utf-8", ...headers },
  });
}

/**
 * The request's form. Throws a Response: 415 when the body is not urlencoded or multipart (JSON,
 * text/plain, none), 413 when it is over `maxBytes`, 400 when it cannot be parsed (a broken or
 * missing multipart boundary, a cut-off body).
 */
export async function readForm(
  request: Request,
  { maxBytes = MAX_FORM_BYTES }: { maxBytes?: number } = {},
): Promise<FormData> {
  const type = mediaTypeOf(request);
  if (!FORM_TYPES.has(type)) refuse(415, FORM_MESSAGES.wrongType);
  // The rest of a body refused unread stays on the connection: it is closed after the answer
  // (lib/connection.server.ts).
  const declared = request.headers.get("Content-Length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) {
    refuse(413, FORM_MESSAGES.tooLarge);
  }
  let bytes: Uint8Array<ArrayBuffer> | null;
  try {
    bytes = await readCapped(request, maxBytes);
  } catch {
    // The client went away or the body was already read.
    refuse(400, FORM_MESSAGES.unreadable);
  }
  if (bytes === null) refuse(413, FORM_MESSAGES.tooLarge);
  try {
    // The platform's parser on the bytes read: the same FormData request.formData() gives.
    return await new Response(bytes, {
      headers: { "Content-Type": request.headers.get("Content-Type")! },
    }).formData();
  } catch {
    refuse(400, FORM_MESSAGES.unreadable);
  }
}
