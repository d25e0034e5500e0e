// The one CSV writer of every export (issue 18 item 5). json2csv does the quoting; every string
// cell passes through `disarmCell` first, so no cell a spreadsheet opens starts a formula (OWASP
// "CSV Injection"). Headers are our own labels and are written as they are.
import { stringQuoteOnlyIfNecessary, string as stringQuoteAlways } from "@json2csv/formatters";
import { Parser, StreamParser } from "@json2csv/plainjs";

/** A cell starting with one of these runs as a formula (or DDE command) in Excel, Calc and Sheets. */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A plain decimal number ("-1.5", "+3", "2e-4"): a spreadsheet reads it as that number and no
 * formula can be built from digits, so it stays as it is (a negative reading must stay a number).
 */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The text a cell holds, with a single quote in front when it would otherwise start a formula. */
export function disarmCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

export type CsvField<T> = string | { label: string; value: string | ((row: T) => unknown) };

export type CsvOptions<T> = {
  /** Columns in order; without them, the keys of the first row. */
  fields?: CsvField<T>[];
  /** false: no header row. */
  header?: boolean;
  withBOM?: boolean;
  /** "always" (json2csv's default) quotes every string cell; "needed" only those that must be. */
  quote?: "always" | "needed";
};

function parserOptions<T extends object>(options: CsvOptions<T>) {
  const format = options.quote === "needed" ? stringQuoteOnlyIfNecessary() : stringQuoteAlways();
  return {
    ...(options.fields ? { fields: options.fields as never } : {}),
    header: options.header ?? true,
    withBOM: options.withBOM ?? false,
    formatters: { header: format, string: (value: string) => format(disarmCell(value)) },
  };
}

/** Rows to CSV text in one go (small exports). */
export function toCsv<T extends object>(rows: readonly T[], options: CsvOptions<T> = {}): string {
  return new Parser<T, T>(parserOptions(options)).parse(rows as T[]);
}

/** Rows to CSV text as they come (large exports): yields a chunk every `linesPerChunk` rows. */
export async function* csvChunks<T extends object>(
  rows: AsyncIterable<T> | Iterable<T>,
  options: CsvOptions<T> = {},
  linesPerChunk = 256,
): AsyncGenerator<string, void, undefined> {
  const parts: string[] = [];
  const parser = new StreamParser<T, T>(parserOptions(options), { objectMode: true });
  parser.onData = (chunk) => parts.push(chunk);
  parser.onError = (error) => {
    throw error;
  };
  for await (const row of rows) {
    parser.pushLine(row);
    if (parts.length >= linesPerChunk) yield parts.splice(0).join("");
  }
  parser.end();
  if (parts.length > 0) yield parts.splice(0).join("");
}
