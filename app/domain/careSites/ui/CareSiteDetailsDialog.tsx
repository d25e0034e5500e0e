// The Care site details dialog of the care site screen (spec 2 "Care site management view", §5
// "Care site edit"): the picture (1:1) and the details form for a care site admin; the same
// details read-only for a clinician. Both forms post to the page's action.
import { CareSitePicture, CareSiteReadOnlyFields, type CareSiteView } from "./CareSiteDetails";
import { CareSitePictureForm } from "./CareSitePictureForm";
import { CareSiteForm } from "./CareSiteProfileForm";
import { Dialog } from "~/ui/Dialog";
import { careSiteDetailsValidator } from "../schema";

export function CareSiteDetailsDialog({
  site,
  canEdit,
  closeHref,
  actionData,
}: {
  site: CareSiteView & { id: string };
  canEdit: boolean;
  closeHref: string;
  actionData?: { fieldErrors?: unknown; formInfo?: string; photoError?: string };
}) {
  return (
    <Dialog title="Care site details" closeHref={closeHref} size="lg">
      <div className="d-flex flex-wrap gap-3 align-items-end mb-3">
        <CareSitePicture site={site} size={128} />
        {canEdit ? (
          <CareSitePictureForm
            careSiteId={site.id}
            error={actionData?.photoError}
            className="flex-grow-1"
          />
        ) : null}
      </div>
      {canEdit ? (
        <CareSiteForm
          validator={careSiteDetailsValidator}
          site={site}
          hidden={{ intent: "details", careSiteId: site.id }}
          accountNumber={{ readOnly: site.accountNumber }}
          reply={actionData}
        />
      ) : (
        <CareSiteReadOnlyFields site={site} />
      )}
    </Dialog>
  );
}
