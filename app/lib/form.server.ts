// The one way an action validates its form (issue 19). Every action reads its body with readForm
// (415/413/400 for what is not a form) and checks it against the area's zod schema here:
//
//   const form = await parseForm(request, goalSchema);
//   if (!form.ok) return form.reply;      // 400: { fieldErrors, repopulateFields, formId }
//   await setTherapyGoal(actor, form.data);
//
// The reply has the shape remix-validated-form's ValidatedForm reads (so a hydrated form shows the
// same messages the server sent) and the shape every non-hydrated page reads back: one message per
// field, the first failing rule's (lib/validation.ts builds schemas that stop at the first
// failure), and the submitted values to put back into the fields, never a password.
//
// A form refused after it validated (a wrong code, an unknown address, an email already taken)
// answers the same shape through formReply, with its message as `formError`, so the page puts
// the values back the same way (issue 20: such answers used to carry the message only, and the
// fields came back empty):
//
//   if (!outcome.ok) return formReply({}, form.values, { formError: outcome.message });
import { data } from "@remix-run/node";
import { withZod } from "@remix-validated-form/with-zod";
import type { Validator } from "remix-validated-form";
import type { z } from "zod";
import { readForm } from "./formBody.server";

/** Field messages by field name ("" when the form as a whole failed). */
export type FieldErrors = Record<string, string>;

/** What an action returns for a form that failed validation. */
export type FormReplyData = {
  fieldErrors: FieldErrors;
  /** The submitted values (passwords removed), for the fields to show again. */
  repopulateFields: Record<string, unknown>;
  formId?: string;
  subaction?: string;
  /** The message of the form as a whole (a refusal after validation), shown above the fields. */
  formError?: string;
};

export type ParsedForm<T> =
  | {
      ok: true;
      data: T;
      /** The values as submitted (passwords removed), for a refusal to show them again. */
      values: Record<string, unknown>;
      form: FormData;
    }
  | {
      ok: false;
      fieldErrors: FieldErrors;
      values: Record<string, unknown>;
      form: FormData;
      reply: ReturnType<typeof formReply>;
    };

/** A field whose value is never sent back into the page: any name that says password. */
export const isSecretField = (name: string) => /password/i.test(name);

/** The submitted values without the secret fields (also inside nested objects). */
export function withoutSecrets(values: unknown): Record<string, unknown> {
  if (values === null || typeof values !== "object" || Array.isArray(values)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (isSecretField(key)) continue;
    out[key] =
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      !(value instanceof File)
        ? withoutSecrets(value)
        : value;
  }
  return out;
}

/**
 * The 400 reply for a form that failed: its field messages and the values to show again.
 * Actions that find a field error of their own after validation (a username taken, a code that
 * does not match) answer with this too, so every form reads one shape.
 */
export function formReply(
  fieldErrors: FieldErrors,
  values: Record<string, unknown> = {},
  extra: { formId?: string; subaction?: string; formError?: string; status?: number } = {},
) {
  const { status = 400, ...rest } = extra;
  const body: FormReplyData = { fieldErrors, repopulateFields: withoutSecrets(values), ...rest };
  return data(body, { status });
}

/**
 * The values of the fields a schema read, as typed (strings, no secrets, not the intent or ids
 * the schema ignores): what a form is filled with when the user comes back to it later.
 */
export function typedFields(parsed: {
  data: object;
  values: Record<string, unknown>;
}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(parsed.data)) {
    const value = parsed.values[key];
    if (typeof value === "string" && !isSecretField(key)) out[key] = value;
  }
  return out;
}

// A key naming an object's prototype (`__proto__`, `constructor[prototype]`, `a.__proto__.b`) is
// never a field of ours. The nested-key parser refuses it by throwing, which would be a 500, so
// such fields are dropped before parsing: the form is judged on the fields it really has.
const PROTOTYPE_KEY = /(^|[.[\]])(__proto__|constructor|prototype)([.[\]]|$)/;

function withoutPrototypeKeys(form: FormData): FormData {
  const keys = [...form.keys()];
  if (!keys.some((key) => PROTOTYPE_KEY.test(key))) return form;
  const clean = new FormData();
  for (const [key, value] of form) if (!PROTOTYPE_KEY.test(key)) clean.append(key, value);
  return clean;
}

const validators = new WeakMap<z.ZodTypeAny, Validator<unknown>>();

function validatorOf<S extends z.ZodTypeAny>(schema: S): Validator<z.output<S>> {
  let validator = validators.get(schema);
  if (!validator) {
    validator = withZod(schema) as Validator<unknown>;
    validators.set(schema, validator);
  }
  return validator as Validator<z.output<S>>;
}

/**
 * Reads the request's form (or takes one already read) and validates it against `schema`, the
 * same schema the form's ValidatedForm uses on the client. Keys such as `a.b` and `a[0]` become
 * nested values, as on the client.
 */
export async function parseForm<S extends z.ZodTypeAny>(
  source: Request | FormData,
  schema: S,
): Promise<ParsedForm<z.output<S>>> {
  const form = source instanceof FormData ? source : await readForm(source);
  const result = await validatorOf(schema).validate(withoutPrototypeKeys(form));
  if (result.error) {
    const fieldErrors = result.error.fieldErrors as FieldErrors;
    const values = (result.submittedData ?? {}) as Record<string, unknown>;
    return {
      ok: false,
      fieldErrors,
      values: withoutSecrets(values),
      form,
      reply: formReply(fieldErrors, values, {
        formId: result.error.formId,
        subaction: result.error.subaction,
      }),
    };
  }
  const values = withoutSecrets((result.submittedData ?? {}) as Record<string, unknown>);
  return { ok: true, data: result.data, values, form };
}
