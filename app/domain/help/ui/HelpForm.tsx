// The Help Center form (spec 3 §2.11): a plain post that works without JavaScript. With it, the
// description shows a live counter and Submit is disabled while the message is being sent.
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FormError } from "~/ui/forms";
import { HELP_DESCRIPTION_MAX, HELP_SUBJECT_MAX, type HelpFormValues } from "~/domain/help/schema";

type HelpFormErrors = Partial<Record<keyof HelpFormValues | "", string>>;

export function HelpForm({
  values,
  errors = {},
  formError,
}: {
  values: HelpFormValues;
  errors?: HelpFormErrors;
  formError?: string;
}) {
  const navigation = useNavigation();
  // Submitting, and then loading the page the action redirects to.
  const sending = navigation.state !== "idle" && navigation.formMethod != null;
  const description = useRef<HTMLTextAreaElement>(null);
  const [count, setCount] = useState<number | null>(null);
  // Set once hydrated: the counter replaces the static limit, from what is in the box by then.
  useEffect(() => setCount(description.current?.value.length ?? 0), []);
  return (
    <Form method="post" noValidate aria-busy={sending} style={{ maxWidth: "40rem" }}>
      <FormError message={formError} />
      <div className="mb-3">
        <label htmlFor="help-subject" className="form-label">
          Subject
        </label>
        <input
          id="help-subject"
          name="subject"
          type="text"
          required
          maxLength={HELP_SUBJECT_MAX}
          defaultValue={values.subject}
          className={`form-control ${errors.subject ? "is-invalid" : ""}`}
          aria-invalid={errors.subject ? true : undefined}
          aria-describedby={errors.subject ? "help-subject-error" : undefined}
        />
        {errors.subject ? (
          <div id="help-subject-error" className="invalid-feedback">
            {errors.subject}
          </div>
        ) : null}
      </div>
      <div className="mb-3">
        <label htmlFor="help-description" className="form-label">
          Description
        </label>
        <textarea
          ref={description}
          id="help-description"
          name="description"
          rows={6}
          required
          maxLength={HELP_DESCRIPTION_MAX}
          defaultValue={values.description}
          onChange={(event) => setCount(event.currentTarget.value.length)}
          className={`form-control ${errors.description ? "is-invalid" : ""}`}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={`help-description-limit${errors.description ? " help-description-error" : ""}`}
        />
        {errors.description ? (
          <div id="help-description-error" className="invalid-feedback">
            {errors.description}
          </div>
        ) : null}
        <div id="help-description-limit" className="form-text text-end">
          {count === null
            ? `at most ${HELP_DESCRIPTION_MAX} characters`
            : `${count}/${HELP_DESCRIPTION_MAX}`}
        </div>
      </div>
      <button type="submit" className="btn btn-primary" disabled={sending}>
        {sending ? <span className="spinner-border spinner-border-sm me-2" aria-hidden /> : null}
        Submit
      </button>
    </Form>
  );
}
