import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";

// Messages are the spec's texts (spec 1 §5.1, §5.7).
export const credentialsSchema = z.object({
  usernameOrEmail: z.string({ required_error: "Required" }).trim().min(1, "Required"),
  password: z
    .string({ required_error: "Required" })
    .min(1, "Required")
    .min(6, "Must be at least 6 characters"),
});
export const credentialsValidator = withZod(credentialsSchema);

export const codeSchema = z.object({
  code: z
    .string({ required_error: "Incorrect code! Please try again." })
    .trim()
    .regex(/^\d{4}$/, "Incorrect code! Please try again."),
});
export const codeValidator = withZod(codeSchema);
