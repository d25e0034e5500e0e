// Cells a spreadsheet would run as formulas (OWASP "CSV Injection"): one per dangerous first
// character, = + - @ tab and carriage return. Every export's test writes them and reads them back.
import { parse } from "csv-parse/sync";

export const FORMULA_CELLS = [
  '=HYPERLINK("http://evil.test","x")',
  "+1+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "\t=1+1",
  "\r=1+1",
] as const;

/** What the writer must put in the cell instead: the text behind a single quote. */
export const disarmed = (cell: string) => `'${cell}`;

/** The CSV's records (a BOM is dropped). */
export function csvRecords(text: string): string[][] {
  return parse(text.replace(/^\ufeff/, ""), { relax_column_count: true }) as string[][];
}

/** Every cell of the records that a spreadsheet would run as a formula. */
export function armedCells(records: string[][]) {
  return records
    .flat()
    .filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^[+-]?\d+(\.\d+)?$/.test(cell));
}
