import { TextField } from "~/ui/forms";

/** First and last name side by side (registration, Edit user profile). */
export function NameFields() {
  return (
    <>
      <div className="col-md-6">
        <TextField name="firstName" label="First name" autoComplete="given-name" />
      </div>
      <div className="col-md-6">
        <TextField name="lastName" label="Last name" autoComplete="family-name" />
      </div>
    </>
  );
}
