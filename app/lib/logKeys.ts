// Log keys (DEVICE-LOG-FORMAT.md "Keys"): DEVICE_LOG_KEYS=<keyId>:<64 hex>[,<keyId>:<hex>...].
// Errors name the entry's position and key id, never the key material.

/** The demo key's id: demo data and tests only, never in production configuration. */
export const DEMO_KEY_ID = "demo";
export const DEMO_KEY_HEX = "abb91ebdce2a968d0da34512fa6b1704f9bc3e0f562636826ea2d51ee87e2618";

const KEY_ID = /^[A-Za-z0-9-]{1,32}$/;
const KEY_HEX = /^[0-9a-fA-F]{64}$/;

/**
 * Parses the variable's value (a leading `DEVICE_LOG_KEYS=` is tolerated). Empty text gives no
 * keys; a malformed or repeated entry throws.
 */
export function parseLogKeys(text: string): Map<string, Buffer> {
  const value = text.trim().replace(/^DEVICE_LOG_KEYS=/, "");
  const keys = new Map<string, Buffer>();
  if (value.trim() === "") return keys;
  value.split(",").forEach((raw, i) => {
    const entry = raw.trim();
    const colon = entry.indexOf(":");
    const keyId = colon === -1 ? entry : entry.slice(0, colon);
    const hex = colon === -1 ? "" : entry.slice(colon + 1);
    if (!KEY_ID.test(keyId))
      throw new Error(
        `DEVICE_LOG_KEYS entry ${i + 1}: the key id must be 1 to 32 of A-Za-z0-9- before a colon`,
      );
    if (!KEY_HEX.test(hex))
      throw new Error(`DEVICE_LOG_KEYS entry ${i + 1} (${keyId}): the key must be 64 hex digits`);
    if (keys.has(keyId)) throw new Error(`DEVICE_LOG_KEYS: key id ${keyId} appears twice`);
    keys.set(keyId, Buffer.from(hex, "hex"));
  });
  return keys;
}

/**
 * The keys a process uses: DEVICE_LOG_KEYS, plus the demo key outside production (development,
 * tests, the command line) unless the variable names a key "demo" itself.
 */
export function resolveLogKeys(raw: string | undefined, nodeEnv: string | undefined) {
  const keys = parseLogKeys(raw ?? "");
  if (nodeEnv !== "production" && !keys.has(DEMO_KEY_ID)) {
    keys.set(DEMO_KEY_ID, Buffer.from(DEMO_KEY_HEX, "hex"));
  }
  return keys;
}
