// A small structured logger: one line per event, JSON in production, readable in development.
import { env } from "./env.server";

type Fields = Record<string, unknown>;

function serialize(fields: Fields) {
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) {
    out[k] = v instanceof Error ? { message: v.message, stack: v.stack } : v;
  }
  return out;
}

export type Level = "info" | "warn" | "error";

/** One log event as the JSON line production writes: time, level, message, then the fields. */
export function jsonLine(level: Level, message: string, fields: Fields = {}) {
  return JSON.stringify({ time: new Date().toISOString(), level, message, ...serialize(fields) });
}

function write(level: Level, message: string, fields: Fields = {}) {
  const stream = level === "error" ? console.error : level === "warn" ? console.warn : console.log;
  if (env.isProduction) {
    stream(jsonLine(level, message, fields));
  } else {
    const extra = Object.keys(fields).length ? ` ${JSON.stringify(serialize(fields))}` : "";
    stream(`[${level}] ${message}${extra}`);
  }
}

export const logger = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
