// The PDF reports' page layout on pdfkit: the document with its title and footers, and text placed
// in boxes (cells, headings, paragraphs, paged tables). Text is placed with lineBreak: false at
// computed positions, which skips pdfkit's line wrapper: that keeps a 730-row table fast and stops
// pdfkit from adding pages on its own.
import PDFDocument from "pdfkit";
import { formatTick } from "~/ui/charts/scale";

export type Doc = PDFKit.PDFDocument;

export const FONT = "Helvetica";
export const FONT_BOLD = "Helvetica-Bold";
export const NO_DATA = "No data in this window";

export const COLOR = {
  text: "#212529",
  muted: "#6c757d",
  rule: "#adb5bd",
  grid: "#e9ecef",
  headerFill: "#e9ecef",
  zebra: "#f8f9fa",
  goal: "#ced4da",
  completed: "#198754",
  line: "#0d6efd",
};

/** The lowest y that content may reach on the current page. */
export function bottomLimit(doc: Doc) {
  return doc.page.height - doc.page.margins.bottom;
}

export function contentWidth(doc: Doc) {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

/** Starts a new page unless `height` points still fit below doc.y. */
export function ensureSpace(doc: Doc, height: number) {
  if (doc.y + height > bottomLimit(doc)) doc.addPage();
}

type Align = "left" | "right" | "center";

/** One line of text in a box, shortened with an ellipsis when it does not fit. */
export function cell(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  width: number,
  align: Align = "left",
) {
  let shown = text;
  let w = doc.widthOfString(shown);
  if (w > width) {
    while (shown.length > 1 && doc.widthOfString(`${shown}…`) > width) shown = shown.slice(0, -1);
    shown = `${shown}…`;
    w = doc.widthOfString(shown);
  }
  const left = align === "right" ? x + width - w : align === "center" ? x + (width - w) / 2 : x;
  doc.text(shown, left, y, { lineBreak: false });
}

/** A section title, moved to the next page with what follows when less than `keepWith` fits. */
export function heading(doc: Doc, text: string, keepWith = 40) {
  ensureSpace(doc, 28 + keepWith);
  const y = doc.y + 10;
  doc.font(FONT_BOLD).fontSize(12).fillColor(COLOR.text);
  doc.text(text, doc.page.margins.left, y, { lineBreak: false });
  doc.y = y + 18;
}

/** A paragraph that wraps within the content width. */
export function paragraph(doc: Doc, text: string, options: { bold?: boolean; size?: number } = {}) {
  doc
    .font(options.bold ? FONT_BOLD : FONT)
    .fontSize(options.size ?? 10)
    .fillColor(COLOR.text);
  doc.text(text, doc.page.margins.left, doc.y, { width: contentWidth(doc) });
  doc.moveDown(0.3);
}

export type Column = { header: string; width: number; align?: Align };

/**
 * A table of single-line cells. Rows that do not fit go to the next page, under a repeated header.
 * `boldFirstColumn` suits label/value tables (`boldColumns` names several label columns);
 * `header: false` leaves the header out.
 */
export function table(
  doc: Doc,
  columns: Column[],
  rows: string[][],
  options: {
    header?: boolean;
    boldFirstColumn?: boolean;
    boldColumns?: number[];
    fontSize?: number;
    rowHeight?: number;
  } = {},
) {
  const fontSize = options.fontSize ?? 9;
  const rowHeight = options.rowHeight ?? fontSize + 6;
  const left = doc.page.margins.left;
  const width = columns.reduce((sum, c) => sum + c.width, 0);
  const padding = 4;
  const textOffset = (rowHeight - fontSize) / 2 + 1;
  let y = doc.y;

  const drawRow = (values: string[], bold: (i: number) => boolean) => {
    let x = left;
    columns.forEach((column, i) => {
      doc.font(bold(i) ? FONT_BOLD : FONT);
      cell(
        doc,
        values[i] ?? "",
        x + padding,
        y + textOffset,
        column.width - 2 * padding,
        column.align,
      );
      x += column.width;
    });
    y += rowHeight;
  };
  const drawHeader = () => {
    if (options.header === false) return;
    doc.rect(left, y, width, rowHeight).fill(COLOR.headerFill);
    doc.fontSize(fontSize).fillColor(COLOR.text);
    drawRow(
      columns.map((c) => c.header),
      () => true,
    );
  };

  drawHeader();
  rows.forEach((row, index) => {
    if (y + rowHeight > bottomLimit(doc)) {
      doc.addPage();
      y = doc.page.margins.top;
      drawHeader();
    }
    if (index % 2 === 1) doc.rect(left, y, width, rowHeight).fill(COLOR.zebra);
    doc.fontSize(fontSize).fillColor(COLOR.text);
    drawRow(
      row,
      (i) => (options.boldFirstColumn === true && i === 0) || !!options.boldColumns?.includes(i),
    );
  });
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(0.5)
    .stroke(COLOR.rule);
  doc.x = left;
  doc.y = y + 8;
}

export type Box = { x: number; y: number; width: number; height: number };
/** Axis tick labels: at most two decimals, as on the page (ui/charts/scale formatTick). */
export const tickNumber = { format: formatTick };

/** The reports' page margins, in points. */
export const MARGIN = { top: 40, bottom: 50, left: 40, right: 40 };

/**
 * An A4 portrait report with buffered pages (footers are drawn at the end), its title already
 * drawn at the top of page 1, and the promise of its bytes once `doc.end()` is called.
 */
export function openReport(title: string, info: PDFKit.DocumentInfo) {
  const doc = new PDFDocument({
    size: "A4",
    layout: "portrait",
    margins: MARGIN,
    bufferPages: true,
    info,
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font(FONT_BOLD).fontSize(18).fillColor("#212529");
  doc.text(title, MARGIN.left, MARGIN.top, { lineBreak: false });
  doc.y = MARGIN.top + 28;
  return { doc, finished };
}

/** Footer text and "Page N of M" on every buffered page; the bottom margin is lifted meanwhile. */
export function pageFooters(doc: Doc, text: string) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const { left, right, bottom } = doc.page.margins;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - 30;
    doc.font(FONT).fontSize(8).fillColor(COLOR.muted);
    doc.text(text, left, y, { lineBreak: false });
    const page = `Page ${i + 1} of ${range.count}`;
    doc.text(page, doc.page.width - right - doc.widthOfString(page), y, { lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.flushPages();
}
