// The Add Care Site dialog (spec 2 §2, §5): a URL-addressed dialog (`?dialog=addCareSite`) whose
// form posts intent `addCareSite` to the page's action. Works without JavaScript: the server
// validates and re-renders the dialog with the messages and the values typed.
import { Link, useActionData } from "@remix-run/react";
import { ValidatedForm, useField, useFormContext } from "remix-validated-form";
import { US_STATES } from "~/lib/validation";
import {
  ADD_CARE_SITE_FORM_ID,
  addCareSiteDefaults,
  addCareSiteValidator,
  careSiteMessages,
} from "~/domain/careSites/schema";
import { Dialog } from "../../../ui/Dialog";
import { AddressLineFields, CityAndZipFields, WebsiteField } from "./CareSiteProfileForm";
import { CountryOptions, FormError, SubmitButton, TextField } from "~/ui/forms";

type ActionData =
  { formId?: string; formError?: string; fieldErrors?: Record<string, string> } | undefined;

export function AddCareSiteDialog({
  formToken,
  closeHref,
}: {
  /** A fresh random id per rendering of the form: a second post of the same form is recognised. */
  formToken: string;
  closeHref: string;
}) {
  const actionData = useActionData() as ActionData;
  return (
    <Dialog title="Add Care Site" closeHref={closeHref} size="lg">
      <ValidatedForm
        id={ADD_CARE_SITE_FORM_ID}
        validator={addCareSiteValidator}
        method="post"
        noValidate
        defaultValues={addCareSiteDefaults}
      >
        <FormMessages
          formError={
            actionData?.formId === ADD_CARE_SITE_FORM_ID ? actionData.formError : undefined
          }
        />
        <input type="hidden" name="intent" value="addCareSite" />
        <input type="hidden" name="formToken" value={formToken} />
        <div className="row">
          <div className="col-md-6">
            <TextField name="accountNumber" label="Account Number" maxLength={20} />
          </div>
          <div className="col-md-6">
            <TextField name="name" label="Care Site Name*" autoComplete="organization" />
          </div>
          <AddressLineFields />
          <CountryField />
          <StateField />
          <CityAndZipFields mark="*" />
          <div className="col-4 col-md-2">
            <TextField name="phoneCountry" label="Code" inputMode="numeric" maxLength={3} />
          </div>
          <div className="col-8 col-md-4">
            <TextField name="phone" label="Phone" type="tel" inputMode="tel" />
          </div>
          <WebsiteField />
        </div>
        <div className="d-flex justify-content-end gap-2">
          <Link to={closeHref} className="btn btn-outline-secondary" preventScrollReset>
            Cancel
          </Link>
          <SubmitButton>Add Care Site</SubmitButton>
        </div>
      </ValidatedForm>
    </Dialog>
  );
}

/**
 * "Please fix the inputs with errors" whenever a field has a message (from the server, or from
 * the same validator in the browser), and the server's form-level alert (the duplicate).
 */
function FormMessages({ formError }: { formError?: string }) {
  const { fieldErrors } = useFormContext();
  const hasFieldErrors = Object.values(fieldErrors).some(Boolean);
  return (
    <>
      <FormError message={hasFieldErrors ? careSiteMessages.formErrorInputs : null} />
      <FormError message={formError} />
    </>
  );
}

// Country and State as in domain/accounts/ui/ProfileFields.tsx (a select of country.json, a text box
// with the US states as a datalist, so no JavaScript is needed), with the dialog's required marks.
function CountryField() {
  const { error, getInputProps } = useField("country");
  return (
    <div className="col-md-6 mb-3">
      <label htmlFor="field-country" className="form-label">
        Country*
      </label>
      <select
        id="field-country"
        className={`form-select ${error ? "is-invalid" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "field-country-error" : undefined}
        {...getInputProps()}
      >
        <CountryOptions />
      </select>
      {error ? (
        <div id="field-country-error" className="invalid-feedback">
          {error}
        </div>
      ) : null}
    </div>
  );
}

function StateField() {
  const { error, getInputProps } = useField("state");
  return (
    <div className="col-md-6 mb-3">
      <label htmlFor="field-state" className="form-label">
        State*
      </label>
      <input
        id="field-state"
        list="care-site-us-states"
        autoComplete="address-level1"
        className={`form-control ${error ? "is-invalid" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "field-state-error" : undefined}
        {...getInputProps()}
      />
      <datalist id="care-site-us-states">
        {US_STATES.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      {error ? (
        <div id="field-state-error" className="invalid-feedback">
          {error}
        </div>
      ) : null}
      <div className="form-text">For the United States, pick a state from the list.</div>
    </div>
  );
}
