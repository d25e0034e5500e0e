// The one place that reads process.env: parsed once (on first use), validated by zod, imported
// everywhere else.
// Every variable is documented in .env.example and README.md.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DEMO_KEY_ID, parseLogKeys, resolveLogKeys } from "~/lib/logKeys";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

/** An unset variable and an empty one (`SESSION_SECRET=` in an environment file) mean the same. */
const unsetIfEmpty = (v: unknown) => (v === "" ? undefined : v);

/** A link the portal shows: an http(s) URL, or a path of the portal itself ("/app/help"). */
export function isLinkTarget(value: string) {
  if (/^\/(?![/\\])/.test(value)) return !/[\s\\]/.test(value);
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * An announcement card's link (spec 2 §1): unset gives the default, set but empty hides the card
 * (null), anything else must be an http(s) URL or an in-app path, or the server refuses to start.
 */
const announcementLink = (fallback: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === "" || isLinkTarget(v), "must be an http(s) URL or a path starting with /")
    .optional()
    .transform((v) => (v === undefined ? fallback : v === "" ? null : v));

/** The announcement cards' defaults: the vendor's site, which the portal already links to. */
export const ANNOUNCEMENT_DEFAULTS = {
  survey: "https://www.abmrc.com/contact-us/",
  tutorials: "https://www.abmrc.com/",
  news: "https://www.abmrc.com/",
} as const;

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("data"),
  /** 1: a local demo (`npm start`): production build, generated session secret, demo log key. */
  DEMO_MODE: flag,
  SESSION_SECRET: z.preprocess(unsetIfEmpty, z.string().min(32).optional()),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().default(12),
  COOKIE_SECURE: z.enum(["0", "1", "auto"]).default("auto"),
  TRUST_PROXY: flag,
  EXPOSE_OUTBOX: flag,
  LOG_REQUESTS: z.enum(["0", "1"]).default("1"),
  PUBLIC_URL: z.string().url().optional(),
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default("ARC Connect <no-reply@arcconnect.example>"),
  SMS_PROVIDER_URL: z.string().url().optional(),
  SMS_PROVIDER_TOKEN: z.string().optional(),
  DEVICE_LOG_KEYS: z.preprocess(unsetIfEmpty, z.string().optional()),
  DEVICE_LOG_MAX_MB: z.coerce.number().positive().default(256),
  DEVICE_STATS_PASSWORD: z.string().min(8).optional(),
  DEVICE_STATS_RETENTION_DAYS: z.coerce.number().int().positive().default(90),
  CUSTOMER_SERVICE_EMAIL: z.string().email().optional(),
  ANNOUNCE_SURVEY_URL: announcementLink(ANNOUNCEMENT_DEFAULTS.survey),
  ANNOUNCE_TUTORIALS_URL: announcementLink(ANNOUNCEMENT_DEFAULTS.tutorials),
  ANNOUNCE_NEWS_URL: announcementLink(ANNOUNCEMENT_DEFAULTS.news),
});

/** /deviceStats' password outside production when DEVICE_STATS_PASSWORD is not set. */
export const DEMO_DEVICE_STATS_PASSWORD = "device-stats-demo";

/** Where Help Center messages go when CUSTOMER_SERVICE_EMAIL is not set. */
export const DEFAULT_CUSTOMER_SERVICE_EMAIL = "customerservice@arcconnect.example";

function parse() {
  const result = envSchema.safeParse(process.env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const raw = result.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });
  const isProduction = raw.NODE_ENV === "production";
  // A real deployment: production, and not the local demo that `npm start` runs.
  const deployed = isProduction && !raw.DEMO_MODE;
  // Malformed keys throw here, in every mode: a typo is not the same as no key.
  const configuredKeys = parseLogKeys(raw.DEVICE_LOG_KEYS ?? "");
  const missingSecrets: string[] = [];
  if (deployed && !raw.SESSION_SECRET) missingSecrets.push("SESSION_SECRET");
  // The demo key is published with the source: it does not count as a key of one's own.
  if (deployed && [...configuredKeys.keys()].every((id) => id === DEMO_KEY_ID)) {
    missingSecrets.push("DEVICE_LOG_KEYS");
  }
  const sessionSecret = raw.SESSION_SECRET ?? (deployed ? null : persistedSecret(dataDir));
  return {
    nodeEnv: raw.NODE_ENV,
    isProduction,
    /** DEMO_MODE=1: a local demo of the production build (console messages, generated secret). */
    demoMode: raw.DEMO_MODE,
    /** Production without DEMO_MODE: the secrets must be configured, messages are not printed. */
    deployed,
    /** What a deployment lacks (see missingProductionSecrets); empty elsewhere. */
    missingSecrets,
    port: raw.PORT,
    host: raw.HOST,
    dataDir,
    databaseFile: path.join(dataDir, "arc.db"),
    /**
     * Signs cookies and one-time codes. Throws when a deployment has no SESSION_SECRET (the server
     * refuses to start before that; commands that never sign anything do not need it).
     */
    get sessionSecret(): string {
      if (sessionSecret === null) {
        throw new Error(
          "SESSION_SECRET is not set: production needs one of 32+ characters (DEMO_MODE=1 generates one for a local demo)",
        );
      }
      return sessionSecret;
    },
    sessionIdleMs: raw.SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: raw.SESSION_ABSOLUTE_HOURS * 3_600_000,
    cookieSecure:
      raw.COOKIE_SECURE === "auto" ? raw.NODE_ENV === "production" : raw.COOKIE_SECURE === "1",
    trustProxy: raw.TRUST_PROXY,
    outboxPageEnabled: raw.NODE_ENV !== "production" || raw.EXPOSE_OUTBOX,
    exposeOutboxInProduction: raw.NODE_ENV === "production" && raw.EXPOSE_OUTBOX,
    logRequests: raw.LOG_REQUESTS === "1",
    /** Multiplies every per-client request limit (the browser tests all come from 127.0.0.1). */
    rateLimitScale: raw.RATE_LIMIT_SCALE,
    /** Where the portal is reached from outside, for links in emails. */
    publicUrl: (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, ""),
    smtpUrl: raw.SMTP_URL ?? null,
    mailFrom: raw.MAIL_FROM,
    smsProviderUrl: raw.SMS_PROVIDER_URL ?? null,
    smsProviderToken: raw.SMS_PROVIDER_TOKEN ?? null,
    /**
     * Device log keys by key id (DEVICE-LOG-FORMAT.md); the demo key is added outside production
     * and in DEMO_MODE.
     */
    deviceLogKeys: resolveLogKeys(raw.DEVICE_LOG_KEYS, deployed ? "production" : "development"),
    /** The largest device log upload accepted (spec: at least 200 MB). */
    deviceLogMaxBytes: Math.floor(raw.DEVICE_LOG_MAX_MB * 1024 * 1024),
    /**
     * The internal password of /deviceStats. Outside production a documented demo password
     * stands in; production has none, and the page stays shut until one is set.
     */
    deviceStatsPassword:
      raw.DEVICE_STATS_PASSWORD ??
      (raw.NODE_ENV === "production" ? null : DEMO_DEVICE_STATS_PASSWORD),
    /** Device performance records older than this many days are deleted (daily job). */
    deviceStatsRetentionDays: raw.DEVICE_STATS_RETENTION_DAYS,
    /** The Help Center's address (spec 3 §2.11): every help request is emailed there. */
    customerServiceEmail: raw.CUSTOMER_SERVICE_EMAIL ?? DEFAULT_CUSTOMER_SERVICE_EMAIL,
    /** Production sends help requests to the example address (the server warns at start). */
    defaultCustomerServiceEmailInProduction:
      raw.NODE_ENV === "production" && !raw.CUSTOMER_SERVICE_EMAIL,
    /**
     * The links of the staff dashboards' announcement cards (spec 2 §1): feedback survey,
     * tutorials (under Resources), news on social media; null hides a card.
     */
    announcements: announcementLinksOf(raw),
    /** The demo key configured beside real keys in a deployment (the server warns at start). */
    demoLogKeyInProduction: deployed && configuredKeys.has(DEMO_KEY_ID),
  };
}

export type AnnouncementLinks = {
  survey: string | null;
  tutorials: string | null;
  news: string | null;
};

/** The announcement cards' links from the parsed variables. */
export function announcementLinksOf(raw: z.output<typeof envSchema>): AnnouncementLinks {
  return {
    survey: raw.ANNOUNCE_SURVEY_URL,
    tutorials: raw.ANNOUNCE_TUTORIALS_URL,
    news: raw.ANNOUNCE_NEWS_URL,
  };
}

// Outside production and in DEMO_MODE, without SESSION_SECRET the portal makes one on first start
// and keeps it in DATA_DIR, so a newcomer needs no configuration and a restart does not sign
// everyone out. A deployment must set its own (missingProductionSecrets).
function persistedSecret(dataDir: string) {
  const file = path.join(dataDir, "session-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    const secret = crypto.randomBytes(32).toString("hex");
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}

export type Env = ReturnType<typeof parse>;

const globalForEnv = globalThis as unknown as { __arcEnv?: Env };
const parsed = () => (globalForEnv.__arcEnv ??= parse());

/**
 * The parsed environment. Parsed on first use, not on import: server.ts may import this module
 * (for missingProductionSecrets) before it settles NODE_ENV, and the one parse, shared through
 * globalThis with the Remix build, must see the settled value.
 */
export const env: Env = new Proxy({} as Env, {
  get: (_target, key) => Reflect.get(parsed(), key),
  // Tests change a value for a while (env.deviceLogMaxBytes = ...): it changes the parsed object.
  set: (_target, key, value) => Reflect.set(parsed(), key, value),
  defineProperty: (_target, key, descriptor) => Reflect.defineProperty(parsed(), key, descriptor),
  deleteProperty: (_target, key) => Reflect.deleteProperty(parsed(), key),
  has: (_target, key) => Reflect.has(parsed(), key),
  ownKeys: () => Reflect.ownKeys(parsed()),
  getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(parsed(), key),
});

/**
 * The secrets a deployment (NODE_ENV=production without DEMO_MODE) lacks, by variable name:
 * SESSION_SECRET when unset, DEVICE_LOG_KEYS when it holds no key but the demo key. Empty when
 * nothing is missing, and always outside production or in DEMO_MODE. The server refuses to start
 * while it is not empty; commands (device:add ...) work regardless.
 */
export function missingProductionSecrets(): string[] {
  return [...env.missingSecrets];
}
