// A multipart/form-data body read as it streams (RFC 7578), for the decrypt worker: the device log
// upload's body reaches the worker raw, and this finds its parts. Delimiters are found with
// Buffer.indexOf (native), so a 200 MB part costs a few memory scans, not a byte-by-byte search in
// JavaScript. Part headers are read as @remix-run's parser reads them (Content-Disposition's
// name and filename, quoted or not, the file name cut to its last path segment).

/** A part's headers: its field name, and its file name when it is a file. */
export type PartHead = { name: string; filename?: string };

export type PartHandler = {
  /** A part begins: "take" to receive its bytes through data(), "skip" to pass them by. */
  part(head: PartHead): "take" | "skip";
  /** Bytes of the part taken; the buffer is not reused afterwards. */
  data(bytes: Buffer): void;
  /** The part taken has ended. */
  partEnd(): void;
};

/** The body is not the multipart form its Content-Type says. */
export class MalformedMultipart extends Error {
  constructor(reason: string) {
    super(`malformed multipart body: ${reason}`);
    this.name = "MalformedMultipart";
  }
}

/** Part headers longer than this are refused (no browser sends more than a few hundred bytes). */
const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from("\r\n", "latin1");
const HEADERS_END = Buffer.from("\r\n\r\n", "latin1");

/** The boundary of a multipart/form-data Content-Type, or null (as @remix-run reads it). */
export function multipartBoundary(contentType: string | null) {
  const [type, boundary] = (contentType ?? "").split(/\s*;\s*boundary=/);
  if (type.trim().toLowerCase() !== "multipart/form-data" || !boundary) return null;
  const unquoted = boundary.replace(/^"(.*)"$/, "$1").split(";")[0].trim();
  return unquoted.length > 0 && unquoted.length <= 200 ? unquoted : null;
}

function readContentDisposition(value: string): PartHead {
  const parts = value.split(";").map((part) => part.trim());
  if (parts.shift()?.toLowerCase() !== "form-data")
    throw new MalformedMultipart("not a form-data part");
  const out: Record<string, string> = {};
  for (const part of parts) {
    const equals = part.indexOf("=");
    if (equals === -1) throw new MalformedMultipart("a parameter without a value");
    const key = part.slice(0, equals).trim().toLowerCase();
    const raw = part.slice(equals + 1).trim();
    const quoted = raw.startsWith('"');
    if (quoted !== (raw.length > 1 && raw.endsWith('"')))
      throw new MalformedMultipart("mismatched quotes");
    out[key] = quoted ? raw.slice(1, -1).replace(/\\"/g, '"') : raw;
  }
  if (!out.name) throw new MalformedMultipart("a part without a name");
  const head: PartHead = { name: out.name };
  // Only the base name, as the multipart/form-data spec recommends (RFC 7578 §4.2).
  if (out.filename !== undefined) head.filename = out.filename.split(/[/\\]/).pop()!;
  return head;
}

function readHeaders(block: Buffer): PartHead {
  let head: PartHead | null = null;
  for (const line of block.toString("utf8").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon === -1) throw new MalformedMultipart("a header line without a colon");
    if (line.slice(0, colon).trim().toLowerCase() === "content-disposition")
      head = readContentDisposition(line.slice(colon + 1).trim());
  }
  if (!head) throw new MalformedMultipart("a part without Content-Disposition");
  return head;
}

/**
 * Reads a body given in pieces (write), calling the handler for each part; end() checks that the
 * closing delimiter came. Throws MalformedMultipart on anything that is not a form.
 */
export class MultipartReader {
  private readonly delimiter: Buffer;
  // The body is read as if it began with CRLF, so its first delimiter is found like the others.
  private carry: Buffer = CRLF;
  private state: "preamble" | "afterDelimiter" | "headers" | "body" | "done" = "preamble";
  private taking = false;

  constructor(
    boundary: string,
    private readonly handler: PartHandler,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, "latin1");
  }

  write(chunk: Buffer) {
    if (this.state === "done") return; // the epilogue: ignored
    const buffer = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = EMPTY;
    let at = 0;
    for (;;) {
      switch (this.state) {
        case "preamble": {
          const found = buffer.indexOf(this.delimiter, at);
          if (found === -1) return this.keep(buffer, buffer.length - this.delimiter.length + 1);
          at = found + this.delimiter.length;
          this.state = "afterDelimiter";
          break;
        }
        case "afterDelimiter": {
          if (buffer.length - at < 2) return this.keep(buffer, at);
          const next = buffer.toString("latin1", at, at + 2);
          if (next === "--") {
            this.state = "done";
            return;
          }
          if (next !== "\r\n") throw new MalformedMultipart("no line end after a delimiter");
          at += 2;
          this.state = "headers";
          break;
        }
        case "headers": {
          const end = buffer.indexOf(HEADERS_END, at);
          if (end === -1) {
            if (buffer.length - at > MAX_HEADER_BYTES)
              throw new MalformedMultipart("part headers too long");
            return this.keep(buffer, at);
          }
          const head = readHeaders(buffer.subarray(at, end));
          this.taking = this.handler.part(head) === "take";
          at = end + HEADERS_END.length;
          this.state = "body";
          break;
        }
        case "body": {
          const found = buffer.indexOf(this.delimiter, at);
          if (found === -1) {
            // What cannot be the start of a delimiter goes out now; the rest waits for more.
            const safe = Math.max(at, buffer.length - this.delimiter.length + 1);
            if (this.taking && safe > at) this.handler.data(buffer.subarray(at, safe));
            return this.keep(buffer, safe);
          }
          if (this.taking) {
            if (found > at) this.handler.data(buffer.subarray(at, found));
            this.handler.partEnd();
          }
          this.taking = false;
          at = found + this.delimiter.length;
          this.state = "afterDelimiter";
          break;
        }
      }
    }
  }

  /** The body is over: throws when it ended before its closing delimiter. */
  end() {
    if (this.state !== "done") throw new MalformedMultipart("the body ends before its last part");
  }

  private keep(buffer: Buffer, from: number) {
    this.carry = from < buffer.length ? Buffer.from(buffer.subarray(Math.max(0, from))) : EMPTY;
  }
}

const EMPTY = Buffer.alloc(0);
