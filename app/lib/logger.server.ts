// The process's logger: pino, one JSON line per event (time, level, message, then the fields).
// Production and the demo write JSON lines: info to stdout, warnings and errors to stderr. In
// development the same lines are printed for a person, `[level] message {fields}`, through the
// console (cheaper than pino-pretty and what tests that watch the console expect).
import pino, { type DestinationStream, type Logger } from "pino";
import { env } from "./env.server";

type Fields = Record<string, unknown>;

export type Level = "info" | "warn" | "error";

/** The one pino configuration: ISO time, level by name, `message`, no pid or hostname. */
export function createJsonLogger(destination: DestinationStream): Logger<never, boolean> {
  return pino(
    {
      base: null,
      messageKey: "message",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

// Errors anywhere among the fields keep their message and stack (JSON would make them `{}`).
function serialize(fields: Fields) {
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) {
    out[k] = v instanceof Error ? { message: v.message, stack: v.stack } : v;
  }
  return out;
}

/** A JSON line turned back into what a person reads: `[level] message {fields}`. */
const readable: DestinationStream = {
  write(line: string) {
    const { level, time: _time, message, ...fields } = JSON.parse(line) as Fields;
    const print = level === "error" ? console.error : level === "warn" ? console.warn : console.log;
    const extra = Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : "";
    print(`[${String(level)}] ${String(message)}${extra}`);
  },
};

let base: Logger<never, boolean> | undefined;
// Chosen on first use, not at import: env parses on first use.
function instance() {
  base ??= env.isProduction
    ? createJsonLogger(
        pino.multistream(
          [
            { level: "info", stream: process.stdout },
            { level: "warn", stream: process.stderr },
          ],
          { dedupe: true },
        ),
      )
    : createJsonLogger(readable);
  return base;
}

function write(level: Level, message: string, fields: Fields = {}) {
  instance()[level](serialize(fields), message);
}

export const logger = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
