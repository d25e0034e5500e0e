// The bodies of the device API (DEVICE-API.md, docs/device-api.md): exactly the contract's fields,
// unknown keys rejected, times ISO 8601 with a zone. Errors become `{ path, message }` pairs whose
// path reads like the body ("therapies[3].cycles[0].P_IP").
import { datetimeRegex, z, type ZodError, type ZodIssue } from "zod";

export const MAX_THERAPIES = 500;
export const MAX_CYCLES = 50;
export const MAX_STAT_ROWS = 1000;
export const MAX_EVENT_ID_LENGTH = 64;

/**
 * The earliest instant a device can report (docs/decisions.md "Device API dates"): no ARC device
 * ran before 2015, so an earlier time is a device with a reset clock (1970) or a forged body.
 */
export const EARLIEST_DEVICE_TIME = "2015-01-01T00:00:00Z";
/** How far ahead of the server's clock a device's time may be (a device clock running fast). */
export const MAX_FUTURE_MS = 24 * 60 * 60_000;

/** A device serial: letters and digits, 1 to 32 of them. */
export const SERIAL_PATTERN = /^[A-Za-z0-9]{1,32}$/;

export const deviceApiMessages = {
  number: "Must be a number.",
  integer: "Must be a whole number.",
  nonNegative: "Must not be negative.",
  time: "Must be an ISO 8601 date and time with a zone, e.g. 2026-11-20T14:00:00Z.",
  timeTooEarly: `Must not be before ${EARLIEST_DEVICE_TIME}.`,
  timeTooLate: "Must not be more than a day in the future.",
  flag: "Must be 1 or 0.",
  spo2: "Must be a percentage from 0 to 100, or null.",
  mode: 'Must be "Auto" or "Manual".',
  prescribedCycles: `Must be a whole number from 1 to ${MAX_CYCLES}.`,
  cycleNumber: "Must be a whole number from 1.",
  duplicateCycle: "Cycle numbers must be unique within a therapy.",
  eventId: `Must be a non-empty string of at most ${MAX_EVENT_ID_LENGTH} characters.`,
  tooManyTherapies: `At most ${MAX_THERAPIES} therapies per transmission.`,
  tooManyCycles: `At most ${MAX_CYCLES} cycles per therapy.`,
  tooManyStats: `At most ${MAX_STAT_ROWS} records per request.`,
  core: 'Must be "Single" or "Dual".',
  unknownField: "Unknown field.",
  required: "Required.",
  brokenJson: "The body is not valid JSON.",
} as const;

// zod's own wording for a missing key or a wrong type, replaced by ours.
const errorMap: z.ZodErrorMap = (issue, ctx) => {
  if (issue.code === "invalid_type") {
    if (issue.received === "undefined") return { message: deviceApiMessages.required };
    const expected: Record<string, string> = {
      number: deviceApiMessages.number,
      string: "Must be a string.",
      object: "Must be an object.",
      array: "Must be an array.",
    };
    return { message: expected[issue.expected] ?? `Must be of type ${issue.expected}.` };
  }
  return { message: ctx.defaultError };
};

/** For enums, literals and unions: "Required." when missing, else one message of ours. */
const only =
  (message: string): z.ZodErrorMap =>
  (_issue, ctx) =>
    ctx.data === undefined ? { message: deviceApiMessages.required } : { message };

const object = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { errorMap }).strict(deviceApiMessages.unknownField);

const number = () => z.number({ errorMap }).finite(deviceApiMessages.number);
const nonNegative = () => number().nonnegative(deviceApiMessages.nonNegative);
const isoTime = () =>
  z
    .string({ errorMap })
    .datetime({ offset: true, message: deviceApiMessages.time })
    .refine((value) => !Number.isNaN(Date.parse(value)), deviceApiMessages.time)
    .superRefine((value, ctx) => {
      const at = Date.parse(value);
      if (at < Date.parse(EARLIEST_DEVICE_TIME)) {
        ctx.addIssue({ code: "custom", message: deviceApiMessages.timeTooEarly });
      } else if (at > Date.now() + MAX_FUTURE_MS) {
        ctx.addIssue({ code: "custom", message: deviceApiMessages.timeTooLate });
      }
    });
// A number checked for 0 or 1 rather than a union of two literals: a union builds an issue for
// every option that fails (a 1 fails the literal 0 first), a cost paid on every cycle of every
// transmission. The same answers: "Required." when missing, else "Must be 1 or 0.".
const flag = () =>
  z
    .number({ errorMap: only(deviceApiMessages.flag) })
    .refine((value): value is 0 | 1 => value === 0 || value === 1, deviceApiMessages.flag);
const mode = () => z.enum(["Auto", "Manual"], { errorMap: only(deviceApiMessages.mode) });

/** The settings both a prescription and a therapy's delivered values carry. */
const settingsShape = {
  P_P: number(), // pause pressure, cmH2O
  P_T: nonNegative(), // pause time, tenths of a second
  I_P: number(), // inspiratory pressure
  I_T: nonNegative(),
  E_P: number(), // expiratory pressure (negative)
  E_T: nonNegative(),
  O_F: flag(), // oscillation
};

export const prescriptionSchema = object({
  mode: mode(),
  cycles: z
    .number({ errorMap })
    .int(deviceApiMessages.prescribedCycles)
    .min(1, deviceApiMessages.prescribedCycles)
    .max(MAX_CYCLES, deviceApiMessages.prescribedCycles),
  ...settingsShape,
});

export const deliveredSchema = object(settingsShape);

export const cycleSchema = object({
  n: z
    .number({ errorMap })
    .int(deviceApiMessages.cycleNumber)
    .min(1, deviceApiMessages.cycleNumber),
  P_IP: number(), // peak inspiratory pressure, cmH2O
  E_V: nonNegative(), // expiratory volume, ml
  P_F: number(), // peak expiratory flow, L/min
  SPO2: z.union(
    [z.number().min(0, deviceApiMessages.spo2).max(100, deviceApiMessages.spo2), z.null()],
    { errorMap: only(deviceApiMessages.spo2) },
  ),
  O_F: flag(),
});

export const therapySchema = object({
  eventId: z
    .string({ errorMap })
    .min(1, deviceApiMessages.eventId)
    .max(MAX_EVENT_ID_LENGTH, deviceApiMessages.eventId),
  startedAt: isoTime(),
  mode: mode(),
  delivered: deliveredSchema,
  cycles: z.array(cycleSchema, { errorMap }).max(MAX_CYCLES, deviceApiMessages.tooManyCycles),
}).superRefine((therapy, ctx) => {
  const seen = new Set<number>();
  therapy.cycles.forEach((cycle, i) => {
    if (seen.has(cycle.n)) {
      ctx.addIssue({
        code: "custom",
        path: ["cycles", i, "n"],
        message: deviceApiMessages.duplicateCycle,
      });
    }
    seen.add(cycle.n);
  });
});

export const transmissionSchema = object({
  sentAt: isoTime(),
  hmr: nonNegative(), // hours of use
  prescription: prescriptionSchema,
  therapies: z
    .array(therapySchema, { errorMap })
    .max(MAX_THERAPIES, deviceApiMessages.tooManyTherapies),
});

export type TransmissionBody = z.infer<typeof transmissionSchema>;
export type PrescriptionBody = z.infer<typeof prescriptionSchema>;
export type TherapyBody = z.infer<typeof therapySchema>;
export type CycleBody = z.infer<typeof cycleSchema>;
export type Settings = z.infer<typeof deliveredSchema>;

// ---------------------------------------------------------------------------------------------
// Device stat rows (spec 3 §3 "Device stat row"; id and device_id come from the URL and the server)
// ---------------------------------------------------------------------------------------------

const optional = <T extends z.ZodTypeAny>(schema: T) => schema.nullable().optional();
const text = () => z.string({ errorMap }).max(1000);

export const deviceStatSchema = object({
  device_type: optional(text()),
  core: optional(z.enum(["Single", "Dual"], { errorMap: only(deviceApiMessages.core) })),
  memory_usage_percentage: optional(number()),
  cpu_usage_percentage: optional(number()),
  temperature: optional(number()),
  test: optional(text()),
  created_at: isoTime(),
  theraphy_start_time: optional(isoTime()),
  theraphy_end_time: optional(isoTime()),
  profile: optional(z.array(z.record(z.unknown()), { errorMap })),
  test_type: optional(text()),
  usr: optional(number()),
  sys: optional(number()),
  nic: optional(number()),
  idle: optional(number()),
  io: optional(number()),
  irq: optional(number()),
  sirq: optional(number()),
  mode: optional(text()),
  oscillation: optional(text()),
  frequency: optional(number()),
  amplitude: optional(number()),
  cycle: optional(number()),
  flow: optional(number()),
  pause_pressure: optional(number()),
  insp_pressure: optional(number()),
  exp_pressure: optional(number()),
  duration: optional(number()),
  test_dec: optional(text()),
});

export const deviceStatsSchema = z
  .array(deviceStatSchema, { errorMap })
  .max(MAX_STAT_ROWS, deviceApiMessages.tooManyStats);

export type DeviceStatBody = z.infer<typeof deviceStatSchema>;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

export type FieldError = { path: string; message: string };

/** ["therapies", 3, "cycles", 0, "P_IP"] -> "therapies[3].cycles[0].P_IP"; the root is "". */
export function formatPath(path: (string | number)[]) {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${part}` : part;
  }
  return out;
}

function issueErrors(issue: ZodIssue): FieldError[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({
      path: formatPath([...issue.path, key]),
      message: deviceApiMessages.unknownField,
    }));
  }
  return [{ path: formatPath(issue.path), message: issue.message }];
}

/** One entry per problem, in body order; at most `limit` (a 10,000-item body has 10,000). */
export function fieldErrors(error: ZodError, limit = 100): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const issue of error.issues) {
    for (const e of issueErrors(issue)) {
      const key = `${e.path}\u0000${e.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(e);
      if (out.length >= limit) return out;
    }
  }
  return out;
}

export type ParseResult<T> = { ok: true; data: T } | { ok: false; errors: FieldError[] };

// ---------------------------------------------------------------------------------------------
// The fast path of a transmission: the exact shape checked by hand
// ---------------------------------------------------------------------------------------------
//
// zod walks a schema generically: for a daily transmission (2 therapies of 5 cycles) it builds a
// context, a path and a copy of every object, about a tenth of the device API's CPU per request
// (docs/performance.md "Where the time goes"). A body that is accepted is checked here instead, by
// hand, against the same rules; only what this check does not accept goes through zod, which then
// decides and words the errors. So this check may only accept what the schema above accepts (the
// same field set, types, ranges, time format and bounds, unique cycle numbers); anything it is
// unsure of it leaves to zod (tests/integration/ingest-validation.test.ts compares the two). The
// accepted body is returned as it is: JSON.parse made it, it holds exactly the schema's fields.

/** zod's own pattern for `.datetime({ offset: true })`, so both accept the same strings. */
const ISO_TIME = datetimeRegex({ precision: null, offset: true, local: false });
const EARLIEST_DEVICE_MS = Date.parse(EARLIEST_DEVICE_TIME);

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` holds exactly `size` own keys (JSON.parse gives no inherited ones). */
function hasKeys(value: Plain, size: number) {
  let n = 0;
  for (const _ in value) n++;
  return n === size;
}

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isNonNegative = (v: unknown) => isNumber(v) && v >= 0;
const isFlag = (v: unknown) => v === 0 || v === 1;
const isMode = (v: unknown) => v === "Auto" || v === "Manual";

function isTime(value: unknown, latest: number) {
  if (typeof value !== "string" || !ISO_TIME.test(value)) return false;
  const at = Date.parse(value);
  return at >= EARLIEST_DEVICE_MS && at <= latest; // NaN fails both
}

function isSettings(s: Plain) {
  return (
    isNumber(s.P_P) &&
    isNonNegative(s.P_T) &&
    isNumber(s.I_P) &&
    isNonNegative(s.I_T) &&
    isNumber(s.E_P) &&
    isNonNegative(s.E_T) &&
    isFlag(s.O_F)
  );
}

function isCycle(c: unknown): c is Plain & { n: number } {
  if (!isPlain(c) || !hasKeys(c, 6)) return false;
  const { n, SPO2 } = c;
  return (
    typeof n === "number" &&
    Number.isInteger(n) &&
    n >= 1 &&
    isNumber(c.P_IP) &&
    isNonNegative(c.E_V) &&
    isNumber(c.P_F) &&
    (SPO2 === null || (typeof SPO2 === "number" && SPO2 >= 0 && SPO2 <= 100)) &&
    isFlag(c.O_F)
  );
}

function isTherapy(t: unknown, latest: number) {
  if (!isPlain(t) || !hasKeys(t, 5)) return false;
  const { eventId, delivered, cycles } = t;
  if (typeof eventId !== "string" || eventId.length < 1 || eventId.length > MAX_EVENT_ID_LENGTH)
    return false;
  if (!isTime(t.startedAt, latest) || !isMode(t.mode)) return false;
  if (!isPlain(delivered) || !hasKeys(delivered, 7) || !isSettings(delivered)) return false;
  if (!Array.isArray(cycles) || cycles.length > MAX_CYCLES) return false;
  let seen = 0; // cycle numbers 1..31 as bits; a larger one goes through a Set
  let more: Set<number> | null = null;
  for (const c of cycles) {
    if (!isCycle(c)) return false;
    if (c.n <= 31) {
      const bit = 1 << (c.n - 1);
      if (seen & bit) return false;
      seen |= bit;
    } else {
      more ??= new Set();
      if (more.has(c.n)) return false;
      more.add(c.n);
    }
  }
  return true;
}

/** The body when it is a valid transmission by the fast check, else null (zod decides). */
export function fastTransmission(body: unknown): TransmissionBody | null {
  if (!isPlain(body) || !hasKeys(body, 4)) return null;
  const latest = Date.now() + MAX_FUTURE_MS;
  const { prescription: rx, therapies } = body;
  if (!isTime(body.sentAt, latest) || !isNonNegative(body.hmr)) return null;
  if (!isPlain(rx) || !hasKeys(rx, 9) || !isMode(rx.mode) || !isSettings(rx)) return null;
  const cycles = rx.cycles;
  if (typeof cycles !== "number" || !Number.isInteger(cycles) || cycles < 1 || cycles > MAX_CYCLES)
    return null;
  if (!Array.isArray(therapies) || therapies.length > MAX_THERAPIES) return null;
  for (const t of therapies) if (!isTherapy(t, latest)) return null;
  return body as TransmissionBody;
}

export function parseTransmission(body: unknown): ParseResult<TransmissionBody> {
  const fast = fastTransmission(body);
  if (fast) return { ok: true, data: fast };
  const result = transmissionSchema.safeParse(body);
  return result.success
    ? { ok: true, data: result.data }
    : { ok: false, errors: fieldErrors(result.error) };
}

export function parseDeviceStats(body: unknown): ParseResult<DeviceStatBody[]> {
  const result = deviceStatsSchema.safeParse(body);
  return result.success
    ? { ok: true, data: result.data }
    : { ok: false, errors: fieldErrors(result.error) };
}
