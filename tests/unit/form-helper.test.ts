// app/lib/form.server.ts, the one form-validation helper: a failed form answers 400 with one
// message per field and the values typed (never a password); keys that name a prototype are
// dropped, never a 500 (the fuzz test found `__proto__` and `constructor[prototype]` keys).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formReply, parseForm, typedFields } from "~/lib/form.server";

const schema = z.object({
  name: z.string().min(1, "Required"),
  password: z.string().min(8, "Too short"),
});

function formOf(entries: [string, string][]) {
  const form = new FormData();
  for (const [key, value] of entries) form.append(key, value);
  return form;
}

describe("parseForm", () => {
  it("answers 400 with the field messages and the values, never the password", async () => {
    const parsed = await parseForm(
      formOf([
        ["name", ""],
        ["password", "secret"],
      ]),
      schema,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.fieldErrors).toEqual({ name: "Required", password: "Too short" });
    expect(parsed.values).toEqual({ name: "" });
    const reply = parsed.reply as unknown as { init: { status: number }; data: unknown };
    expect(reply.init.status).toBe(400);
    expect(JSON.stringify(reply.data)).not.toContain("secret");
  });

  it.each(["__proto__", "__proto__[x]", "constructor[prototype]", "a.__proto__.b", "x.prototype"])(
    "drops a %s key instead of failing",
    async (key) => {
      const parsed = await parseForm(
        formOf([
          [key, "1"],
          ["name", "Ann"],
          ["password", "long-enough"],
        ]),
        schema,
      );
      expect(parsed.ok).toBe(true);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    },
  );

  it("gives the values of a valid form too, never the password (issue 20)", async () => {
    const parsed = await parseForm(
      formOf([
        ["name", " Ann "],
        ["password", "long-enough"],
        ["intent", "next"],
      ]),
      schema,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.values).toEqual({ name: " Ann ", intent: "next" });
    expect(typedFields(parsed)).toEqual({ name: " Ann " });
  });
});

describe("formReply", () => {
  it("answers a refusal after validation with its message and the values, never a password", () => {
    const reply = formReply(
      {},
      { email: "a@b.com", password: "secret", nested: { newPassword: "x", city: "Austin" } },
      { formError: "Incorrect email.", status: 429 },
    ) as unknown as { init: { status: number }; data: unknown };
    expect(reply.init.status).toBe(429);
    expect(reply.data).toEqual({
      fieldErrors: {},
      repopulateFields: { email: "a@b.com", nested: { city: "Austin" } },
      formError: "Incorrect email.",
    });
  });
});
