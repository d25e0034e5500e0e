// The bodies of the device API (DEVICE-API.md, docs/device-api.md): exactly the contract's fields,
// unknown keys rejected, times ISO 8601 with a zone. Errors become `{ path, message }` pairs whose
// path reads like the body ("therapies[3].cycles[0].P_IP").
import { z, type ZodError, type ZodIssue } from "zod";

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

export function parseTransmission(body: unknown): ParseResult<TransmissionBody> {
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
