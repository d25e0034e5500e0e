// The care site profile form (spec 1 §2.9, §5.6) of the Care Site Profile page (account number
// editable) and of the details dialog (account number read-only): its messages, its fields and
// its Submit, enabled once a field changed.
import { ValidatedForm, type Validator } from "remix-validated-form";
import { CountryAndState, FieldErrorsAlert, ReadOnlyField } from "~/ui/forms";
import { SubmitButton, TextField } from "~/ui/forms";
import { useDirtyForm } from "~/ui/useDirtyForm";
import { DEFAULT_COUNTRY } from "~/lib/validation";
import { careSiteMessages } from "../schema";
import { formatCareSitePhone, type CareSiteView } from "./CareSiteDetails";

/** What the page's action answered: field messages (a failed save) or "nothing to save". */
export type CareSiteFormReply = { fieldErrors?: unknown; formInfo?: string } | undefined;

export function CareSiteForm({
  validator,
  site,
  hidden,
  accountNumber,
  reply,
}: {
  /** The page's schema (withZod); its output type does not matter to the form. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  validator: Validator<any>;
  site: CareSiteView;
  /** The intent and ids the post carries. */
  hidden: Record<string, string>;
  accountNumber: "editable" | { readOnly: string | null };
  reply: CareSiteFormReply;
}) {
  const saved = careSiteFormDefaults(site);
  const dirty = useDirtyForm(saved);
  return (
    <>
      {reply?.formInfo ? (
        <div className="alert alert-info" role="status">
          {reply.formInfo}
        </div>
      ) : null}
      <ValidatedForm
        validator={validator}
        method="post"
        noValidate
        key={dirty.key}
        formRef={dirty.ref}
        onChange={dirty.onChange}
        defaultValues={saved}
      >
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <CareSiteFormFields accountNumber={accountNumber} />
        <SubmitButton disabled={dirty.disabled}>Submit</SubmitButton>
        {/* §8 "Care site save failure", once a Submit was refused (by the server or the browser). */}
        <FieldErrorsAlert message={careSiteMessages.notUpdated} />
      </ValidatedForm>
    </>
  );
}

/** The form's starting values: what is saved. */
export function careSiteFormDefaults(site: CareSiteView) {
  return {
    accountNumber: site.accountNumber ?? "",
    name: site.name,
    addressLine1: site.addressLine1 ?? "",
    addressLine2: site.addressLine2 ?? "",
    country: site.country || DEFAULT_COUNTRY,
    state: site.state,
    city: site.city,
    zip: site.zip,
    phone: formatCareSitePhone(site.phone),
    website: site.website ?? "",
  };
}

export function CareSiteFormFields({
  accountNumber,
}: {
  /** "editable", or the saved value shown read-only. */
  accountNumber: "editable" | { readOnly: string | null };
}) {
  return (
    <div className="row">
      <div className="col-md-6">
        {accountNumber === "editable" ? (
          <TextField
            name="accountNumber"
            label="Account Number"
            maxLength={64}
            hint="12 characters: capital letters, then digits (e.g. ARC000000001)."
          />
        ) : (
          <ReadOnlyField
            id="cs-accountNumber"
            label="Account Number"
            value={accountNumber.readOnly}
          />
        )}
      </div>
      <div className="col-md-6">
        <TextField name="name" label="Care Site Name" autoComplete="organization" />
      </div>
      <AddressLineFields />
      <CountryAndState />
      <CityAndZipFields />
      <div className="col-md-6">
        <TextField
          name="phone"
          label="Phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          hint="With the country code, e.g. +1 512 555 0100."
        />
      </div>
      <WebsiteField />
    </div>
  );
}

// Fields both care site forms share (this one and the Add Care Site dialog), in a Bootstrap row.

export function AddressLineFields() {
  return (
    <>
      <div className="col-md-6">
        <TextField name="addressLine1" label="Address line 1" autoComplete="address-line1" />
      </div>
      <div className="col-md-6">
        <TextField name="addressLine2" label="Address line 2" autoComplete="address-line2" />
      </div>
    </>
  );
}

/** City and Zip; `mark` follows the labels of required fields ("*" on the Add Care Site dialog). */
export function CityAndZipFields({ mark = "" }: { mark?: string }) {
  return (
    <>
      <div className="col-md-6">
        <TextField name="city" label={`City${mark}`} autoComplete="address-level2" />
      </div>
      <div className="col-md-6">
        <TextField name="zip" label={`Zip${mark}`} autoComplete="postal-code" />
      </div>
    </>
  );
}

export function WebsiteField() {
  return (
    <div className="col-md-6">
      <TextField name="website" label="Website" inputMode="text" autoComplete="url" />
    </div>
  );
}
