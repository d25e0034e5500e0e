// The multipart reader of the decrypt worker (app/domain/deviceLogs/multipart.ts): parts found
// whatever the chunking, the file part's bytes exactly, and bodies that are not a form refused.
import { describe, expect, it } from "vitest";
import {
  MalformedMultipart,
  multipartBoundary,
  MultipartReader,
  type PartHead,
} from "~/domain/deviceLogs/multipart";

const BOUNDARY = "----arcBoundary7MA4YWxkTrZu0gW";

function body(parts: { head: string; content: Buffer }[], close = true) {
  const pieces: Buffer[] = [Buffer.from("preamble to ignore\r\n")];
  for (const part of parts)
    pieces.push(
      Buffer.from(`--${BOUNDARY}\r\n${part.head}\r\n\r\n`),
      part.content,
      Buffer.from("\r\n"),
    );
  if (close) pieces.push(Buffer.from(`--${BOUNDARY}--\r\nepilogue`));
  return Buffer.concat(pieces);
}

/** Reads `bytes` in pieces of `size`, taking every part with a file name. */
function read(bytes: Buffer, size: number) {
  const heads: PartHead[] = [];
  const files: Buffer[] = [];
  let current: Buffer[] = [];
  const reader = new MultipartReader(BOUNDARY, {
    part(head) {
      heads.push(head);
      current = [];
      return head.filename === undefined ? "skip" : "take";
    },
    data: (chunk) => current.push(Buffer.from(chunk)),
    partEnd: () => files.push(Buffer.concat(current)),
  });
  for (let at = 0; at < bytes.length; at += size) reader.write(bytes.subarray(at, at + size));
  reader.end();
  return { heads, files };
}

describe("MultipartReader", () => {
  // Content that holds near-delimiters: CRLF, dashes, the boundary without its dashes.
  const content = Buffer.concat([
    Buffer.from(`line 1\r\n--${BOUNDARY.slice(0, 10)}\r\n-- ${BOUNDARY}\r\n`),
    Buffer.alloc(70_000, 0x41),
    Buffer.from("\r\n-"),
  ]);
  const form = body([
    { head: `Content-Disposition: form-data; name="note"`, content: Buffer.from("hello") },
    {
      head: `Content-Disposition: form-data; name="uploaded-csv"; filename="C:\\logs\\C1_01012026_120000_system.csv"\r\nContent-Type: text/csv`,
      content,
    },
  ]);

  it.each([1, 7, 64, 4096, form.length])(
    "finds the parts and the file's bytes, read %i bytes at a time",
    (size) => {
      const { heads, files } = read(form, size);
      expect(heads).toEqual([
        { name: "note" },
        { name: "uploaded-csv", filename: "C1_01012026_120000_system.csv" },
      ]);
      expect(files).toHaveLength(1);
      expect(files[0].equals(content)).toBe(true);
    },
  );

  it("reads an empty file part (no file chosen) and quoted names", () => {
    const { heads, files } = read(
      body([
        {
          head: `content-disposition: form-data; name="uploaded-csv"; filename=""`,
          content: Buffer.alloc(0),
        },
      ]),
      3,
    );
    expect(heads).toEqual([{ name: "uploaded-csv", filename: "" }]);
    expect(files).toEqual([Buffer.alloc(0)]);
  });

  it("refuses a body cut before its closing delimiter, and part headers that are not a form's", () => {
    const cut = body(
      [{ head: `Content-Disposition: form-data; name="a"; filename="x.csv"`, content }],
      false,
    );
    expect(() => read(cut, 1000)).toThrow(MalformedMultipart);
    const noBoundary = Buffer.from("just some bytes, no parts at all");
    expect(() => read(noBoundary, 5)).toThrow(MalformedMultipart);
    const noDisposition = body([{ head: "Content-Type: text/plain", content: Buffer.from("x") }]);
    expect(() => read(noDisposition, 8)).toThrow(MalformedMultipart);
    const badQuotes = body([
      { head: `Content-Disposition: form-data; name="a`, content: Buffer.from("x") },
    ]);
    expect(() => read(badQuotes, 8)).toThrow(MalformedMultipart);
    const endless = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nX-Long: `),
      Buffer.alloc(20_000, 0x61),
    ]);
    expect(() => read(endless, 1024)).toThrow(MalformedMultipart);
  });
});

describe("multipartBoundary", () => {
  it("reads the boundary of a multipart/form-data Content-Type, and nothing else", () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(multipartBoundary(`multipart/form-data; boundary="${BOUNDARY}"`)).toBe(BOUNDARY);
    expect(multipartBoundary("multipart/form-data")).toBeNull();
    expect(multipartBoundary("application/x-www-form-urlencoded")).toBeNull();
    expect(multipartBoundary(`text/plain; boundary=${BOUNDARY}`)).toBeNull();
    expect(multipartBoundary(null)).toBeNull();
  });
});
