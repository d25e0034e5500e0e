/** A patient list's Deviation cell (spec 2: yes or no), red for yes. */
export function DeviationBadge({ value }: { value?: "yes" | "no" }) {
  return (
    <span
      className={`badge rounded-pill ${value === "yes" ? "text-bg-danger" : "text-bg-success"}`}
    >
      {value}
    </span>
  );
}
