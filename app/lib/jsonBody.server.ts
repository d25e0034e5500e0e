// Reads a JSON request body with a size cap (the device API: 1 MiB). A declared Content-Length over
// the cap is refused without reading; otherwise the stream is read until the cap plus one byte, so
// a chunked body without a length cannot make us buffer more than that.
import type { IncomingMessage } from "node:http";

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
  return parseJsonBytes(bytes);
}

// Strict UTF-8: a body that is not text is broken JSON, not mojibake. One decoder for every body
// (decode() without a stream option keeps no state between calls).
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** A body's bytes as JSON, or "brokenJson" (not UTF-8, not JSON, empty). */
export function parseJsonBytes(bytes: Uint8Array): JsonBodyResult {
  try {
    return { ok: true, value: JSON.parse(UTF8.decode(bytes)) };
  } catch {
    return { ok: false, reason: "brokenJson" };
  }
}

/**
 * readJsonBody for a plain node:http request (the device API's handler, server/http.ts), with the
 * same cap and results: a declared Content-Length over the cap is refused unread; otherwise the
 * body is read until the cap plus one byte, then reading stops (the request is paused; its answer
 * closes the connection).
 */
export function readJsonMessage(
  req: IncomingMessage,
  limit = MAX_JSON_BODY_BYTES,
): Promise<JsonBodyResult> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared) > limit) {
    return Promise.resolve({ ok: false, reason: "tooLarge" });
  }
  return new Promise<JsonBodyResult>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.removeListener("data", onData);
      req.removeListener("end", onEnd);
      req.removeListener("error", onError);
      req.removeListener("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        stop();
        req.pause();
        resolve({ ok: false, reason: "tooLarge" });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(parseJsonBytes(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // The client went away before the body's end.
    const onClose = () => {
      if (req.complete) return;
      stop();
      reject(new Error("the request was aborted"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
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

/** jsonRequest for a plain node:http request. */
export function jsonMessage(req: IncomingMessage, limit = MAX_JSON_BODY_BYTES): JsonRequest {
  return {
    method: req.method ?? "GET",
    authorization: req.headers.authorization ?? null,
    readBody: () => readJsonMessage(req, limit),
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

// Each answer is made as plain values (JsonAnswer): a Remix route returns it as a Response
// (answerResponse), a plain node:http handler writes it as it is (the device API's, which skips
// the Fetch conversion). The same status, headers and body either way.

/** An answer as plain values. */
export type JsonAnswer = {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** null: no body */
  body: string | null;
};

/** The answer as a Fetch Response (what a route returns). */
export function answerResponse(answer: JsonAnswer) {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

export type ProblemError = { path: string; message: string };

const PROBLEM_BASE = "https://arc-connect.example/problems/";

export function problemAnswer(
  status: number,
  slug: string,
  title: string,
  extra: { detail?: string; errors?: ProblemError[] } = {},
  headers: Record<string, string> = {},
): JsonAnswer {
  return {
    status,
    headers: {
      "Content-Type": "application/problem+json",
      "Cache-Control": "no-store",
      ...headers,
    },
    body: JSON.stringify({ type: `${PROBLEM_BASE}${slug}`, title, status, ...extra }),
  };
}

export function problem(...args: Parameters<typeof problemAnswer>) {
  return answerResponse(problemAnswer(...args));
}

/** 400: the body breaks the contract; `errors` lists every field at fault. */
export function validationProblem(errors: ProblemError[]) {
  return problemAnswer(400, "invalid-body", "The request body is invalid.", { errors });
}

// An answer given before the body was read to its end. The rest of the body still sits on the
// connection, so it cannot carry another request: Node's HTTP server closes it after this response
// when told so, and a keep-alive client will not reuse it.
const UNREAD_BODY = { Connection: "close" };

/** 413 for an oversized body, 400 for one that is not JSON. */
export function jsonBodyProblem(reason: "tooLarge" | "brokenJson", limit = MAX_JSON_BODY_BYTES) {
  if (reason === "tooLarge") {
    return problemAnswer(
      413,
      "too-large",
      "The request body is too large.",
      { detail: `At most ${limit} bytes.` },
      UNREAD_BODY,
    );
  }
  return problemAnswer(400, "broken-json", "The request body is not valid JSON.", {
    errors: [{ path: "", message: "The body is not valid JSON." }],
  });
}

const UNAUTHORIZED: JsonAnswer = Object.freeze({
  status: 401,
  headers: Object.freeze({
    "WWW-Authenticate": "Bearer",
    "Cache-Control": "no-store",
    ...UNREAD_BODY,
  }),
  body: null,
});

/** 401 with no detail: which part was wrong (token, serial) is not revealed. */
export function unauthorized(): JsonAnswer {
  return UNAUTHORIZED;
}

export function methodNotAllowedAnswer(allow = "POST"): JsonAnswer {
  return { status: 405, headers: { Allow: allow, ...UNREAD_BODY }, body: null };
}

export function methodNotAllowed(allow = "POST") {
  return answerResponse(methodNotAllowedAnswer(allow));
}

const ACCEPTED_HEADERS = Object.freeze({
  "Content-Type": "application/json",
  "Cache-Control": "no-store",
});

/** 202 with a JSON body. */
export function accepted(body: unknown): JsonAnswer {
  return { status: 202, headers: ACCEPTED_HEADERS, body: JSON.stringify(body) };
}
