import { inflateSync } from "node:zlib";
import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import {
  buildComplianceReportPdf,
  complianceReportFileName,
  type ComplianceGraph,
  type ComplianceReportData,
} from "~/domain/reports/complianceReport";
import { pdfText } from "../support/pdfText";

const SELECTED = "Therapies 01-Nov-2026 to 07-Nov-2026 (Selected Therapies)";

/** `count` cycles numbered from `first`; oscillation on in blocks of ten, one flow gap. */
function graph(
  first: number,
  count: number,
  caption: string,
  notes: string[] = [],
): ComplianceGraph {
  const xs = Array.from({ length: count }, (_, i) => first + i);
  const o = (i: number) => Math.floor(i / 10) % 2;
  return {
    caption,
    series: {
      P_P: xs.map((x, i) => ({ x, y: 5, o: o(i) })),
      I_P: xs.map((x, i) => ({ x, y: 40, o: o(i) })),
      E_P: xs.map((x, i) => ({ x, y: -40, o: o(i) })),
      P_F: xs.map((x, i) => ({ x, y: i === 5 ? null : 250 + (i % 30) })),
      P_IP: xs.map((x, i) => ({ x, y: 36 + (i % 4) })),
      E_V: xs.map((x, i) => ({ x, y: 1500 + 15 * (i % 10) })),
    },
    annotations: notes.map((text, i) => ({ x: first + 3 + 5 * i, y: 40, text })),
  };
}

function reportData(overrides: Partial<ComplianceReportData> = {}): ComplianceReportData {
  return {
    productName: "ARC Connect",
    serial: "C1001",
    window: { from: "2026-11-01", to: "2026-11-07" },
    // 03:30 UTC on 21 Nov is still 20 Nov in Chicago.
    generatedAt: new Date("2026-11-21T03:30:00Z"),
    timeZone: "America/Chicago",
    summary: {
      totalTherapies: 21,
      firstTherapyAt: "01-11-2026",
      lastTherapyAt: "07-11-2026",
      average_NC: 16 / 3,
      average_EV: 1523.456,
      sdExpVol: 80.104,
      average_PF: 265.2,
      sdExpFlow: 12.3456,
      average_Therapy: 3,
      sdTherapiesPerDay: 0.8165,
      noDaysWithoutTherapy: 1,
      HMR: null,
      usageHMR: null,
    },
    graphs: [
      graph(1, 40, SELECTED, ["Weak cough", "Patient tired"]),
      graph(1, 300, "Therapies 01-Nov-2026 to 07-Nov-2026", ["Oscillation off"]),
      graph(301, 120, `Therapies 05-Nov-2026 to 06-Nov-2026 (Selected Therapies)`),
    ],
    ...overrides,
  };
}

const lines = (page: string) => page.split("\n");

/** Rectangles ("re" operators) over every Flate content stream of the PDF. */
function rectangles(pdf: Buffer) {
  const text = pdf.toString("latin1");
  const marker = /stream\r?\n/g;
  let count = 0;
  for (let m = marker.exec(text); m; m = marker.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf("endstream", start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString("latin1");
    } catch {
      continue; // not a Flate stream (embedded font data)
    }
    count += content.match(/ re\n/g)?.length ?? 0;
  }
  return count;
}

describe("compliance report file name (spec 3 §9)", () => {
  it("is product-name_Cough_{serial}_TherapyReport_{start}_{end}.pdf with spaces as _", () => {
    expect(complianceReportFileName(reportData())).toBe(
      "ARC_Connect_Cough_C1001_TherapyReport_2026-11-01_2026-11-07.pdf",
    );
    expect(
      complianceReportFileName({
        productName: "BiWaze  Cough/Pro",
        serial: "C77X",
        window: { from: "2025-01-31", to: "2025-02-01" },
      }),
    ).toBe("BiWaze_Cough_Pro_Cough_C77X_TherapyReport_2025-01-31_2025-02-01.pdf");
  });
});

describe("compliance report PDF", () => {
  it("opens with the title, the device and the window", async () => {
    const pdf = await buildComplianceReportPdf(reportData());
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const { text } = await pdfText(pdf);
    const first = lines(text.split("\f")[0]);
    expect(first[0]).toBe("Therapy Compliance Report");
    expect(first[1]).toBe("ARC Connect Cough device serial: C1001");
    expect(first[2]).toBe("Report window: 01-Nov-2026 to 07-Nov-2026");
    expect(first[3]).toBe("Therapy Summary");
  });

  it("shows the summary as 6 rows of two label/value pairs: whole counts, two decimals, N/A", async () => {
    const { text } = await pdfText(await buildComplianceReportPdf(reportData()));
    const first = lines(text.split("\f")[0]);
    expect(first.slice(4, 10)).toEqual([
      "Total Therapies 21 Therapy Period 01-11-2026 to 07-11-2026",
      "Average Cycles per Therapy 5.33 Days Without Therapy 1",
      "Average Therapies per Day 3.00 SD Therapies per Day 0.82",
      "Average Expiratory Volume (ml) 1523.46 SD Expiratory Volume (ml) 80.10",
      "Average Peak Exp. Flow (L/min) 265.20 SD Peak Exp. Flow (L/min) 12.35",
      "HMR (hours) N/A Usage HMR (hours) N/A",
    ]);
  });

  it("shows N/A for every missing value of an empty summary", async () => {
    const data = reportData({
      summary: {
        totalTherapies: 0,
        firstTherapyAt: null,
        lastTherapyAt: null,
        average_NC: null,
        average_EV: null,
        sdExpVol: null,
        average_PF: null,
        sdExpFlow: null,
        average_Therapy: null,
        sdTherapiesPerDay: null,
        noDaysWithoutTherapy: null,
        HMR: 1234.567,
        usageHMR: 0,
      },
    });
    const { text } = await pdfText(await buildComplianceReportPdf(data));
    expect(lines(text.split("\f")[0]).slice(4, 10)).toEqual([
      "Total Therapies 0 Therapy Period N/A",
      "Average Cycles per Therapy N/A Days Without Therapy N/A",
      "Average Therapies per Day N/A SD Therapies per Day N/A",
      "Average Expiratory Volume (ml) N/A SD Expiratory Volume (ml) N/A",
      "Average Peak Exp. Flow (L/min) N/A SD Peak Exp. Flow (L/min) N/A",
      "HMR (hours) 1234.57 Usage HMR (hours) 0.00",
    ]);
  });

  it("puts the first graph on page 1 and each further graph on its own page", async () => {
    const { pages, text } = await pdfText(await buildComplianceReportPdf(reportData()));
    const pageTexts = text.split("\f");
    expect(pages).toBe(3);
    expect(pageTexts).toHaveLength(3);
    const captions = [
      SELECTED,
      "Therapies 01-Nov-2026 to 07-Nov-2026",
      "Therapies 05-Nov-2026 to 06-Nov-2026 (Selected Therapies)",
    ];
    pageTexts.forEach((page, i) => {
      const pageLines = lines(page);
      expect(pageLines).toContain(captions[i]);
      expect(pageLines.filter((l) => l.startsWith("Therapies "))).toEqual([captions[i]]);
      // Legend and axes are drawn on every chart.
      expect(page).toContain("Set Inspiratory Pressure");
      expect(page).toContain("Oscillations Enabled");
      expect(page).toContain("Oscillations Disabled");
      expect(pageLines).toContain("cm H2O L/min ml");
      expect(page).not.toContain("No data in this window");
    });
    // The summary is on page 1 only.
    expect(pageTexts[1]).not.toContain("Total Therapies");
    expect(pageTexts[1]).not.toContain("Therapy Compliance Report");
    // The x axis numbers the points: the third graph continues at 301.
    expect(pageTexts[2]).toMatch(/\b320\b/);
    expect(pageTexts[2]).not.toMatch(/\b4[5-9]\d\b/);
  });

  it("writes each graph's annotations on its page", async () => {
    const { text } = await pdfText(await buildComplianceReportPdf(reportData()));
    const [first, second, third] = text.split("\f");
    expect(first).toContain("Weak cough");
    expect(first).toContain("Patient tired");
    expect(first).not.toContain("Oscillation off");
    expect(second).toContain("Oscillation off");
    expect(second).not.toContain("Weak cough");
    expect(third).not.toMatch(/Weak cough|Patient tired|Oscillation off/);
  });

  it("has the footer with the generation day in the zone and 'Page N of M' on every page", async () => {
    const { pages, text } = await pdfText(await buildComplianceReportPdf(reportData()));
    const pageTexts = text.split("\f");
    expect(pages).toBe(3);
    pageTexts.forEach((page, i) => {
      const pageLines = lines(page);
      expect(pageLines[pageLines.length - 1]).toBe(
        `Confidential Report Generated on 20-Nov-2026 Page ${i + 1} of 3`,
      );
    });
  });

  it("has as many pages as graphs", async () => {
    for (const count of [1, 2, 5]) {
      const graphs = Array.from({ length: count }, (_, i) =>
        graph(1 + 50 * i, 50, `Graph ${i + 1} (Selected Therapies)`),
      );
      const { pages, text } = await pdfText(await buildComplianceReportPdf(reportData({ graphs })));
      expect(pages).toBe(count);
      expect(text).toContain(`Page 1 of ${count}`);
      expect(text).toContain(`Page ${count} of ${count}`);
      expect(text).not.toContain(`Page ${count + 1} of`);
    }
  });

  it("refuses a report without a graph", async () => {
    await expect(buildComplianceReportPdf(reportData({ graphs: [] }))).rejects.toThrow(
      "at least one graph",
    );
  });

  it("notes a graph without points", async () => {
    const empty: ComplianceGraph = {
      caption: "Therapies 01-Nov-2026 to 07-Nov-2026",
      series: { P_P: [], I_P: [], E_P: [], P_F: [], P_IP: [], E_V: [] },
      annotations: [],
    };
    const { text } = await pdfText(await buildComplianceReportPdf(reportData({ graphs: [empty] })));
    expect(text).toContain("No data in this window");
    expect(text).toContain("Therapies 01-Nov-2026 to 07-Nov-2026");
  });

  it("draws the charts as vectors, with no embedded image", async () => {
    const hasImage = (pdf: Buffer) => pdf.includes("/Subtype /Image");
    // The check itself: a PDF with a 1×1 PNG in it.
    const withImage = new PDFDocument();
    const chunks: Buffer[] = [];
    withImage.on("data", (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => withImage.on("end", resolve));
    withImage.image(
      Buffer.from(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
        "base64",
      ),
      10,
      10,
    );
    withImage.end();
    await ended;
    expect(hasImage(Buffer.concat(chunks))).toBe(true);

    const data = reportData();
    const pdf = await buildComplianceReportPdf(data);
    expect(hasImage(pdf)).toBe(false);

    // Each set pressure bar is a rectangle path: dropping the inspiratory ones removes one
    // rectangle per point (40 + 300 + 120).
    const graphs = data.graphs.map((g) => ({
      ...g,
      series: { ...g.series, I_P: g.series.I_P.map((p) => ({ ...p, y: null })) },
    }));
    const without = await buildComplianceReportPdf(reportData({ graphs }));
    expect(rectangles(pdf) - rectangles(without)).toBe(460);
    expect(rectangles(pdf)).toBeGreaterThan(3 * 460);
  });

  it("builds 10 graphs of 300 points, one page each", async () => {
    const graphs = Array.from({ length: 10 }, (_, i) =>
      graph(1 + 300 * i, 300, `${SELECTED} ${i + 1}`, [`Note ${i + 1}`]),
    );
    const pdf = await buildComplianceReportPdf(reportData({ graphs }));
    const { pages, text } = await pdfText(pdf);
    expect(pages).toBe(10);
    expect(text).toContain("Page 10 of 10");
    expect(text).toContain(`${SELECTED} 10`);
    expect(text).toContain("Note 10");
  });
});
