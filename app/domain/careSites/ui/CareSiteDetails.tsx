// A care site's details as the care site screens show them (spec 1 §2.9 details card, spec 2
// "Care site management view" footer card and details dialog). Presentational only.
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { addressRows, ReadOnlyFields } from "~/ui/forms";

export type CareSiteView = {
  name: string;
  accountNumber: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone: string | null;
  website: string | null;
  pictureUrl: string;
};

/** The phone as stored (digits with the country code), shown with a plus prefix. */
export function formatCareSitePhone(phone: string | null) {
  return phone ? `+${phone}` : "";
}

/** A website link: typed without a scheme, it opens as https. */
export function websiteHref(website: string) {
  return /^https?:\/\//i.test(website) ? website : `https://${website}`;
}

export function CareSiteAddress({ site }: { site: CareSiteView }) {
  const lines = [
    site.addressLine1,
    site.addressLine2,
    [site.city, [site.state, site.zip].filter(Boolean).join(" ")].filter(Boolean).join(", "),
    site.country,
  ].filter((line): line is string => Boolean(line));
  return (
    <address className="mb-2">
      {lines.map((line, i) => (
        <span key={i} className="d-block">
          {line}
        </span>
      ))}
    </address>
  );
}

export function CareSitePicture({ site, size = 96 }: { site: CareSiteView; size?: number }) {
  return (
    // The spec calls it the care site picture; the alt says whose it is.
    // eslint-disable-next-line jsx-a11y/img-redundant-alt
    <img
      src={site.pictureUrl}
      alt={`${site.name} picture`}
      width={size}
      height={size}
      className="rounded border bg-white"
    />
  );
}

/**
 * Name, address, phone and website (the Website line is left out when there is none), with the
 * picture and a link or other actions below.
 */
export function CareSiteDetailsCard({
  site,
  title = "Care site details",
  showPicture = false,
  children,
}: {
  site: CareSiteView;
  title?: string;
  showPicture?: boolean;
  children?: ReactNode;
}) {
  return (
    <section className="card" aria-label={title}>
      <div className="card-body d-flex flex-wrap gap-3">
        {showPicture ? <CareSitePicture site={site} /> : null}
        <div className="flex-grow-1 min-w-0">
          <h2 className="h5">{site.name}</h2>
          <CareSiteAddress site={site} />
          {site.phone ? (
            <p className="mb-1">
              <span className="text-muted">Phone: </span>
              {formatCareSitePhone(site.phone)}
            </p>
          ) : null}
          {site.website ? (
            <p className="mb-1">
              <span className="text-muted">Website: </span>
              {/* A long address breaks anywhere rather than widen the page (issue 20 item 11). */}
              <a
                href={websiteHref(site.website)}
                rel="noopener noreferrer"
                target="_blank"
                className="text-break"
              >
                {site.website}
              </a>
            </p>
          ) : null}
          {children ? <div className="mt-2">{children}</div> : null}
        </div>
      </div>
    </section>
  );
}

/** The care site's fields, read-only (the details dialog of a clinician). */
export function CareSiteReadOnlyFields({ site }: { site: CareSiteView }) {
  const fields: [string, string, string | null][] = [
    ["cs-accountNumber", "Account Number", site.accountNumber],
    ["cs-name", "Care Site Name", site.name],
    ...addressRows(site, "cs-"),
    ["cs-phone", "Phone", formatCareSitePhone(site.phone)],
    ["cs-website", "Website", site.website],
  ];
  return <ReadOnlyFields fields={fields} />;
}

/** A link styled as a button (the footer card's "Care site details"). */
export function CareSiteDetailsLink({ to }: { to: string }) {
  return (
    <Link to={to} className="btn btn-outline-primary btn-sm" preventScrollReset>
      Care site details
    </Link>
  );
}
