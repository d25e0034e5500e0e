import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { maxLength, minLength, required, textField } from "../../lib/validation";

// Messages are the spec's texts (spec 1 §5.1, §5.7).
export const credentialsSchema = z.object({
  usernameOrEmail: textField([required(), maxLength(254)]),
  password: textField([required(), minLength(6), maxLength(128)]),
});
export const credentialsValidator = withZod(credentialsSchema);

export { verificationCodeValidator as codeValidator } from "./schema";
