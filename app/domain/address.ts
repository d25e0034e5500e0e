// The postal address columns a user and a care site share (spec 1 §5.7 lists the same fields for
// both), selected together wherever a page shows an address.
export const ADDRESS_SELECT = {
  addressLine1: true,
  addressLine2: true,
  city: true,
  state: true,
  zip: true,
  country: true,
} as const;
