// Reads a JSON request body with a size cap (the device API: 1 MiB). A declared Content-Length over
// the cap is refused without reading; otherwise the stream is read until the cap plus one byte, so
// a chunked body without a length cannot make us buffer more than that.

/** 1 MiB. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

export type JsonBodyResult =
  { ok: true; value: unknown } | { ok: false; reason: "tooLarge" | "brokenJson" };

export async function readJsonBody(
  request: Request,
  limit = MAX_JSON_BODY_BYTES,
): Promise<JsonBodyResult> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) {
    return { ok: false, reason: "tooLarge" };
  }
  const bytes = await readCapped(request, limit);
  if (bytes === null) return { ok: false, reason: "tooLarge" };
  try {
    // Strict UTF-8: a body that is not text is broken JSON, not mojibake.
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "brokenJson" };
  }
}

/** A JSON API request as plain values, for code that does not take a Request (the domain). */
export type JsonRequest = {
  method: string;
  /** The Authorization header. */
  authorization: string | null;
  /** Reads the body with its size cap (readJsonBody), when the caller is ready for it. */
  readBody: () => Promise<JsonBodyResult>;
};

export function jsonRequest(request: Request, limit = MAX_JSON_BODY_BYTES): JsonRequest {
  return {
    method: request.method,
    authorization: request.headers.get("Authorization"),
    readBody: () => readJsonBody(request, limit),
  };
}

/** The body's bytes, or null when it has more than `limit` of them (reading stops there). */
export async function readCapped(
  request: Request,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) return null;
      chunks.push(value);
    }
  } finally {
    // Stop reading; whatever the client still sends is left to the HTTP server to discard.
    reader.releaseLock();
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Answers of the JSON APIs: problem details (RFC 9457) and the bare statuses
// ---------------------------------------------------------------------------------------------

export type ProblemError = { path: string; message: string };

const PROBLEM_BASE = "https://arc-connect.example/problems/";

export function problem(
  status: number,
  slug: string,
  title: string,
  extra: { detail?: string; errors?: ProblemError[] } = {},
  headers: Record<string, string> = {},
) {
  return new Response(JSON.stringify({ type: `${PROBLEM_BASE}${slug}`, title, status, ...extra }), {
    status,
    headers: {
      "Content-Type": "application/problem+json",
      "Cache-Control": "no-store",
      ...headers,
    },
  });
}

/** 400: the body breaks the contract; `errors` lists every field at fault. */
export function validationProblem(errors: ProblemError[]) {
  return problem(400, "invalid-body", "The request body is invalid.", { errors });
}

// An answer given before the body was read to its end. The rest of the body still sits on the
// connection, so it cannot carry another request: Node's HTTP server closes it after this response
// when told so, and a keep-alive client will not reuse it.
const UNREAD_BODY = { Connection: "close" };

/** 413 for an oversized body, 400 for one that is not JSON. */
export function jsonBodyProblem(reason: "tooLarge" | "brokenJson", limit = MAX_JSON_BODY_BYTES) {
  if (reason === "tooLarge") {
    return problem(
      413,
      "too-large",
      "The request body is too large.",
      { detail: `At most ${limit} bytes.` },
      UNREAD_BODY,
    );
  }
  return problem(400, "broken-json", "The request body is not valid JSON.", {
    errors: [{ path: "", message: "The body is not valid JSON." }],
  });
}

/** 401 with no detail: which part was wrong (token, serial) is not revealed. */
export function unauthorized() {
  return new Response(null, {
    status: 401,
    headers: { "WWW-Authenticate": "Bearer", "Cache-Control": "no-store", ...UNREAD_BODY },
  });
}

export function methodNotAllowed(allow = "POST") {
  return new Response(null, { status: 405, headers: { Allow: allow, ...UNREAD_BODY } });
}

/** 202 with a JSON body. */
export function accepted(body: unknown) {
  return new Response(JSON.stringify(body), {
    status: 202,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
