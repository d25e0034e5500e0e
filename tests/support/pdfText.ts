// The text of a PDF as a reader sees it, for unit tests and Playwright tests (plain Node, no
// worker thread, no fonts). Table cells that share a baseline come out as one line, joined by
// single spaces, so tests can assert whole rows ("Patient Id P-0042").
//
// pdfjs-dist 5 supports Node 20.16 but may call Promise.withResolvers (Node 22), which we add
// before loading it (hence the dynamic import).

type TextItem = { str: string; transform: number[]; width: number; height: number };

function polyfillPromiseWithResolvers() {
  const P = Promise as unknown as { withResolvers?: () => unknown };
  if (P.withResolvers) return;
  P.withResolvers = () => {
    let resolve: (value: unknown) => void = () => {};
    let reject: (reason?: unknown) => void = () => {};
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

/** Items on one page in reading order: lines top to bottom, items left to right. */
function pageLines(items: TextItem[]): string[] {
  const sorted = items
    .filter((item) => item.str.trim() !== "")
    .sort((a, b) => b.transform[5] - a.transform[5] || a.transform[4] - b.transform[4]);
  const lines: TextItem[][] = [];
  for (const item of sorted) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line[0].transform[5] - item.transform[5]) <= 2) line.push(item);
    else lines.push([item]);
  }
  return lines.map((line) => {
    line.sort((a, b) => a.transform[4] - b.transform[4]);
    let text = "";
    let end = -Infinity;
    for (const item of line) {
      const x = item.transform[4];
      // Pieces of one run of text (kerning splits) touch; separate cells leave a gap.
      if (text && x - end > Math.max(item.height, 1) * 0.2) text += " ";
      text += item.str;
      end = x + item.width;
    }
    return text.replace(/\s+/g, " ").trim();
  });
}

async function load(pdf: Buffer | Uint8Array) {
  polyfillPromiseWithResolvers();
  const { getDocument, VerbosityLevel } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  // A copy: pdfjs may transfer (detach) the buffer it is given.
  return getDocument({
    data: new Uint8Array(pdf),
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: VerbosityLevel.ERRORS,
  });
}

/** Page count and text; pages are separated by "\f" (form feed), as pdftotext does. */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<{ pages: number; text: string }> {
  const task = await load(pdf);
  try {
    const doc = await task.promise;
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const items = content.items.filter((item) => "str" in item) as TextItem[];
      pages.push(pageLines(items).join("\n"));
    }
    return { pages: doc.numPages, text: pages.join("\f") };
  } finally {
    await task.destroy();
  }
}

/** The document information dictionary (Title, Author, CreationDate as "D:YYYYMMDDHHmmSSZ" ...). */
export async function pdfInfo(pdf: Buffer | Uint8Array): Promise<Record<string, unknown>> {
  const task = await load(pdf);
  try {
    const { info } = await (await task.promise).getMetadata();
    return info as Record<string, unknown>;
  } finally {
    await task.destroy();
  }
}
