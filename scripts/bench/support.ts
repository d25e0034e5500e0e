// What every benchmark script shares: percentiles, Markdown tables, and writing its own section of
// docs/performance.md (between `<!-- name:start -->` and `<!-- name:end -->`; the rest is kept).
import fs from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");
export const DOC_FILE = path.join(ROOT, "docs", "performance.md");

/** The q-quantile (0..1) of an ascending list; NaN when empty. */
export function quantile(sorted: number[], q: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** A Markdown table's lines; `right` marks the right-aligned columns. */
export function markdownTable(header: string[], rows: string[][], right: boolean[]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (right[i] ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line(header), rule, ...rows.map(line)];
}

export function sectionMarkers(name: string) {
  return { start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` };
}

/** Replaces (or appends) the section `name` of docs/performance.md with `section` (markers included). */
export function writeSection(name: string, section: string) {
  const { start: startMarker, end: endMarker } = sectionMarkers(name);
  const doc = fs.readFileSync(DOC_FILE, "utf8");
  const start = doc.indexOf(startMarker);
  const end = doc.indexOf(endMarker);
  const next =
    start >= 0 && end > start
      ? doc.slice(0, start) + section + doc.slice(end + endMarker.length)
      : `${doc.replace(/\n*$/, "\n\n")}${section}\n`;
  fs.writeFileSync(DOC_FILE, next);
  console.log(`\nWrote the ${name} section of ${path.relative(ROOT, DOC_FILE)}.`);
}
