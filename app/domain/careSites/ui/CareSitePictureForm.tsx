import { Form } from "@remix-run/react";
import { ImageUploadFields } from "~/ui/forms";

/** The care site picture upload (spec 1 §2.9 details card): one form, cropped 1:1 by the user. */
export function CareSitePictureForm({
  careSiteId,
  error,
  className,
}: {
  /** Posted where the page serves several care sites (the care site settings dialog). */
  careSiteId?: string;
  error?: string;
  className?: string;
}) {
  return (
    <Form method="post" encType="multipart/form-data" className={className}>
      <input type="hidden" name="intent" value="picture" />
      {careSiteId ? <input type="hidden" name="careSiteId" value={careSiteId} /> : null}
      <ImageUploadFields
        id="care-site-picture"
        name="picture"
        label="Picture"
        error={error}
        button="Upload picture"
      />
    </Form>
  );
}
