// The colours of the patient profile's charts (spec 3 §2.4), shared by their shapes and components.
export const CHART_COLORS = {
  green: "#2e7d32",
  red: "#c62828",
  grey: "#9e9e9e",
  blue: "#1565c0",
  /** Today's bar before the day ends (neither met nor missed yet). */
  inProgress: "#90a4ae",
} as const;
