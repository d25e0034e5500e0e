import crypto from "node:crypto";

/** A unique name for test data: rows made by parallel tests never collide. */
export function uid(prefix = "t") {
  return `${prefix}${crypto.randomBytes(5).toString("hex")}`;
}

export const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
export const pad = (n: number, width: number) => String(n).padStart(width, "0");
