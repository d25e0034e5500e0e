// A test-only encrypter written from DEVICE-LOG-FORMAT.md "Container", so the tests build real
// encrypted logs (and break them on purpose) without the generator script.
import { createCipheriv, randomBytes } from "node:crypto";

export const HEADER = "Event ID,Event Type,Log Type,Time Stamp,Value";
export const DEMO_KEY = Buffer.from(
  "abb91ebdce2a968d0da34512fa6b1704f9bc3e0f562636826ea2d51ee87e2618",
  "hex",
);

/** One record line: base64(nonce || ciphertext || tag), AAD `<keyId>:<index>`. */
export function encryptRecord(key: Buffer, keyId: string, index: number, text: string) {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: 16 });
  cipher.setAAD(Buffer.from(`${keyId}:${index}`, "ascii"));
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64");
}

export type LogLinesOptions = {
  rows: string[];
  keyId?: string;
  key?: Buffer;
  deviceId?: string;
  /** Replaces the header record's text. */
  header?: string;
  /** Replaces the #END record's text; null leaves it out. */
  end?: string | null;
};

/** Line 1 and every record line, in order, without line endings. */
export function logLines(options: LogLinesOptions) {
  const { rows, keyId = "demo", key = DEMO_KEY, deviceId = "12345" } = options;
  const texts = [options.header ?? HEADER, ...rows];
  const end = options.end === undefined ? `#END;records=${rows.length}` : options.end;
  if (end !== null) texts.push(end);
  return [
    `BWZLOG/1;key=${keyId};device=${deviceId}`,
    ...texts.map((text, index) => encryptRecord(key, keyId, index, text)),
  ];
}

/** The file's text: lines joined by LF (or CRLF), with a final newline unless told otherwise. */
export function joinLines(lines: string[], eol: "\n" | "\r\n" = "\n", finalNewline = true) {
  return lines.join(eol) + (finalNewline ? eol : "");
}

export const encryptedLog = (options: LogLinesOptions) => joinLines(logLines(options));

/** The text as a stream of chunks of `size` bytes, to cross line boundaries anywhere. */
export async function* chunked(text: string | Buffer, size = 7) {
  const buf = typeof text === "string" ? Buffer.from(text) : text;
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}
