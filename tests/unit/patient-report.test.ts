import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import {
  buildPatientReportPdf,
  patientReportFileName,
  type PatientReportData,
  type ReportDay,
} from "~/domain/reports/patientReport";
import { pdfInfo, pdfText } from "../support/pdfText";

const DAY_MS = 86_400_000;
const EMPTY_NOTE = "No data in this window";

/** `count` days ending on `toDay`; the values vary by index so each row is recognisable. */
function windowDays(toDay: string, count: number, fill = true): ReportDay[] {
  const end = Date.parse(`${toDay}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    if (!fill) {
      return {
        day,
        isGoalDay: false,
        timesPerDay: null,
        therapies: 0,
        completed: 0,
        dayAdherence: null,
        score: null,
        maxHmr: null,
        peakFlow: null,
        expVolume: null,
        peakInspP: null,
      };
    }
    const completed = i % 4;
    return {
      day,
      isGoalDay: true,
      timesPerDay: 3,
      therapies: 3,
      completed,
      dayAdherence: completed / 3,
      score: i < 2 ? null : 0.5 + (i % 5) / 10,
      maxHmr: 1200 + i,
      peakFlow: 250 + (i % 7),
      expVolume: 1500 + (i % 3) * 10,
      peakInspP: 38 + (i % 2),
    };
  });
}

function reportData(overrides: Partial<PatientReportData> = {}): PatientReportData {
  return {
    generatedAt: new Date("2026-11-21T15:30:00Z"),
    generatedBy: "Amy Lee (clinician)",
    timeZone: "America/Chicago",
    window: { fromDay: "2026-11-01", toDay: "2026-11-20" },
    adherenceRule:
      "A goal day is adhered to when the patient completes the goal's number of therapies.",
    patient: {
      firstName: "Jane",
      lastName: "Doe",
      patientTag: "P-0042",
      dateOfBirth: "1961-02-14",
      email: "jane.doe@example.com",
      phone: "(312) 555-0147",
      careSiteName: "Lakeside Respiratory",
      deviceSerial: "BW-000123",
      status: "ACTIVE",
      height: "5 ft 6 in",
      weight: "150 lbs",
    },
    goals: [
      {
        timesPerDay: 3,
        days: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
        createdAt: new Date("2026-11-01T16:00:00Z"),
        createdBy: "Amy Lee",
        active: true,
      },
      {
        timesPerDay: 2,
        days: ["fri", "mon", "wed"],
        // 23:30 in Chicago on 14 Oct, already 15 Oct in UTC.
        createdAt: new Date("2026-10-15T04:30:00Z"),
        createdBy: null,
        active: false,
      },
    ],
    currentScore: 0.8333,
    days: windowDays("2026-11-20", 20),
    summary: {
      therapies: 60,
      completed: 29,
      deviating: 7,
      daysWithTherapy: 20,
      daysWithoutTherapy: 0,
      averageCyclesPerTherapy: 4.75,
      transmissions: 12,
    },
    ...overrides,
  };
}

const count = (text: string, part: string) => text.split(part).length - 1;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "2026-11-14" as the PDF writes it: "14-Nov-2026". */
const formatDayLabel = (day: string) =>
  `${day.slice(8)}-${MONTHS[Number(day.slice(5, 7)) - 1]}-${day.slice(0, 4)}`;

describe("patient report file name (spec 3 §2.2)", () => {
  it("prefixes the product name with the patient's name", () => {
    expect(patientReportFileName({ firstName: "Jane", lastName: "Doe" })).toBe(
      "Doe_Jane_ARC Connect.pdf",
    );
    expect(patientReportFileName({ firstName: "Mary Ann", lastName: "O'Brien-Smith" })).toBe(
      "O_Brien-Smith_Mary_Ann_ARC Connect.pdf",
    );
    expect(patientReportFileName({ firstName: "José", lastName: "Núñez / Ruiz" })).toBe(
      "Nunez_Ruiz_Jose_ARC Connect.pdf",
    );
  });
  it("is the bare product name without a name", () => {
    expect(patientReportFileName({ firstName: "", lastName: "" })).toBe("ARC Connect.pdf");
    expect(patientReportFileName({ firstName: " ", lastName: "" })).toBe("ARC Connect.pdf");
  });
});

describe("patient report PDF", () => {
  it("states the window, who generated it, the rule and the patient's identity", async () => {
    const pdf = await buildPatientReportPdf(reportData());
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const { pages, text } = await pdfText(pdf);
    const lines = text.split(/[\n\f]/);

    expect(lines[0]).toBe("ARC Connect — Patient Report");
    expect(lines).toContain("Data from 01-Nov-2026 to 20-Nov-2026");
    // 15:30 UTC is 09:30 in Chicago (CST, UTC-6, in November).
    expect(lines).toContain("Generated on 21-Nov-2026 09:30 CST by Amy Lee (clinician)");
    expect(lines).toContain(
      "A goal day is adhered to when the patient completes the goal's number of therapies.",
    );
    for (const row of [
      "Name Jane Doe",
      "Patient Id P-0042",
      "Date of birth 14-Feb-1961",
      "Email jane.doe@example.com",
      "Phone (312) 555-0147",
      "Care site Lakeside Respiratory",
      "Device serial BW-000123",
      "Status ACTIVE",
      "Height 5 ft 6 in",
      "Weight 150 lbs",
    ]) {
      expect(lines).toContain(row);
    }
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(text.split("\f")).toHaveLength(pages);
  });

  it("lists the active goal and the goal history in the care site's zone", async () => {
    const { text } = await pdfText(await buildPatientReportPdf(reportData()));
    const lines = text.split(/[\n\f]/);
    expect(lines).toContain(
      "Active goal: 3 therapies per day, every day (set on 01-Nov-2026 by Amy Lee)",
    );
    expect(lines).toContain("Set on Therapies per day Days Set by Status");
    expect(lines).toContain("01-Nov-2026 3 Every day Amy Lee Active");
    expect(lines).toContain("14-Oct-2026 2 Mon, Wed, Fri - Inactive");
    expect(text).not.toContain("No therapy goal set");
  });

  it("words a goal of one therapy in the singular (issue 22 item 14)", async () => {
    const [first, ...rest] = reportData().goals;
    const goals = [{ ...first, timesPerDay: 1 }, ...rest];
    const { text } = await pdfText(await buildPatientReportPdf(reportData({ goals })));
    expect(text.split(/[\n\f]/)).toContain(
      "Active goal: 1 therapy per day, every day (set on 01-Nov-2026 by Amy Lee)",
    );
  });

  it("says so when no goal was ever set", async () => {
    const { text } = await pdfText(await buildPatientReportPdf(reportData({ goals: [] })));
    expect(text.split(/[\n\f]/)).toContain("No therapy goal set");
    expect(text).not.toContain("Active goal");
  });

  it("shows the current score as a whole percent and a row per day", async () => {
    const { text } = await pdfText(await buildPatientReportPdf(reportData()));
    const lines = text.split(/[\n\f]/);
    expect(lines).toContain("Current adherence score (as of 20-Nov-2026): 83%");
    expect(lines).toContain("Day Weekday Goal Therapies Completed Day adherence Score");
    // Day 0 has no score yet; day 2 completed 2 of 3 with a score of 0.7; day 4 completed 0.
    expect(lines).toContain("01-Nov-2026 Sun 3 3 0 0% -");
    expect(lines).toContain("03-Nov-2026 Tue 3 3 2 67% 70%");
    expect(lines).toContain("05-Nov-2026 Thu 3 3 0 0% 90%");
    expect(lines).toContain("20-Nov-2026 Fri 3 3 3 100% 90%");
    expect(lines.filter((l) => /^\d{2}-Nov-2026 [A-Z][a-z]{2} /.test(l))).toHaveLength(20);
  });

  it("shows '-' for a missing score", async () => {
    const { text } = await pdfText(await buildPatientReportPdf(reportData({ currentScore: null })));
    expect(text.split(/[\n\f]/)).toContain("Current adherence score (as of 20-Nov-2026): -");
  });

  it("sums up the therapies and draws every chart with its data", async () => {
    const { text } = await pdfText(await buildPatientReportPdf(reportData()));
    const lines = text.split(/[\n\f]/);
    for (const row of [
      "Therapies 60",
      "Completed therapies 29",
      "Deviating therapies 7",
      "Days with therapy 20",
      "Days without therapy 0",
      "Average cycles per therapy 4.8",
      "Transmissions 12",
    ]) {
      expect(lines).toContain(row);
    }
    expect(lines).toContain("Completed therapies vs goal (per day) Goal Completed");
    for (const title of [
      "Adherence score history (%)",
      "Peak expiratory flow (PEF) per day (L/min)",
      "Expiratory volume (Ex Vol) per day (ml)",
      "Peak inspiratory pressure (PIP) per day (cmH2O)",
      "Hour meter reading (HMR) per day (hours)",
    ]) {
      expect(lines).toContain(title);
    }
    expect(text).not.toContain(EMPTY_NOTE);
  });

  /** The lines of one chart: from its title to the line of day labels under it. */
  function chartLines(text: string, title: string) {
    const lines = text.split(/[\n\f]/);
    const start = lines.indexOf(title);
    expect(start, `chart "${title}"`).toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((l, i) => i > start && /\d{2}-[A-Z][a-z]{2}-\d{4}/.test(l));
    return { ticks: lines.slice(start + 1, end), days: lines[end].split(" ") };
  }
  const numbers = (ticks: string[]) => ticks.map((t) => Number(t.replace(/,/g, "")));

  const CHART_TITLES = [
    "Completed therapies vs goal (per day) Goal Completed",
    "Adherence score history (%)",
    "Peak expiratory flow (PEF) per day (L/min)",
    "Expiratory volume (Ex Vol) per day (ml)",
    "Peak inspiratory pressure (PIP) per day (cmH2O)",
    "Hour meter reading (HMR) per day (hours)",
  ];

  it("labels every day of a week under every chart, the trends titled as on the page", async () => {
    const week = windowDays("2026-11-20", 7);
    const data = reportData({ window: { fromDay: "2026-11-14", toDay: "2026-11-20" }, days: week });
    const { text } = await pdfText(await buildPatientReportPdf(data));
    const all = week.map((d) => formatDayLabel(d.day));
    for (const title of CHART_TITLES) expect(chartLines(text, title).days).toEqual(all);
  });

  it("labels a month with evenly spaced, distinct days from the first", async () => {
    const month = windowDays("2026-11-20", 31);
    const data = reportData({
      window: { fromDay: month[0].day, toDay: "2026-11-20" },
      days: month,
    });
    const { text } = await pdfText(await buildPatientReportPdf(data));
    for (const title of CHART_TITLES) {
      const { days } = chartLines(text, title);
      expect(days[0]).toBe("21-Oct-2026");
      expect(days.length).toBeGreaterThanOrEqual(6);
      expect(new Set(days).size).toBe(days.length);
    }
  });

  it("reads a flat HMR on whole hours around it, and a varying one on whole hours", async () => {
    const flat = windowDays("2026-11-20", 7).map((d) => ({ ...d, maxHmr: 775.15 }));
    const { text } = await pdfText(
      await buildPatientReportPdf(
        reportData({ window: { fromDay: "2026-11-14", toDay: "2026-11-20" }, days: flat }),
      ),
    );
    const flatTicks = numbers(chartLines(text, "Hour meter reading (HMR) per day (hours)").ticks);
    expect(flatTicks.every(Number.isInteger)).toBe(true);
    expect(flatTicks.length).toBeGreaterThanOrEqual(2);
    expect(flatTicks.length).toBeLessThanOrEqual(8);
    expect(Math.min(...flatTicks)).toBeLessThan(775.15);
    expect(Math.max(...flatTicks)).toBeGreaterThan(775.15);

    // The seed's kind of reading: a few minutes of use a day.
    const varying = windowDays("2026-11-20", 7).map((d, i) => ({ ...d, maxHmr: 775.1 + i / 60 }));
    const second = await pdfText(
      await buildPatientReportPdf(
        reportData({ window: { fromDay: "2026-11-14", toDay: "2026-11-20" }, days: varying }),
      ),
    );
    const ticks = numbers(
      chartLines(second.text, "Hour meter reading (HMR) per day (hours)").ticks,
    );
    expect(ticks.every(Number.isInteger)).toBe(true);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.length).toBeLessThanOrEqual(8);
    expect(Math.min(...ticks)).toBeLessThanOrEqual(775.1);
    expect(Math.max(...ticks)).toBeGreaterThanOrEqual(775.2);
  });

  it("notes the empty charts of a window without data", async () => {
    const data = reportData({
      goals: [],
      currentScore: null,
      days: windowDays("2026-11-20", 20, false),
      summary: {
        therapies: 0,
        completed: 0,
        deviating: 0,
        daysWithTherapy: 0,
        daysWithoutTherapy: 20,
        averageCyclesPerTherapy: null,
        transmissions: 0,
      },
    });
    const { text } = await pdfText(await buildPatientReportPdf(data));
    // Bars, score, three trends and HMR.
    expect(count(text, EMPTY_NOTE)).toBe(6);
    expect(text.split(/[\n\f]/)).toContain("Average cycles per therapy -");
    expect(text.split(/[\n\f]/)).toContain("01-Nov-2026 Sun - 0 0 - -");
  });

  it("pages a year of days with a footer on every page", async () => {
    const days = windowDays("2026-11-20", 366);
    const data = reportData({ window: { fromDay: days[0].day, toDay: "2026-11-20" }, days });
    const { pages, text } = await pdfText(await buildPatientReportPdf(data));
    const pageTexts = text.split("\f");

    expect(pages).toBeGreaterThanOrEqual(7);
    expect(pageTexts).toHaveLength(pages);
    pageTexts.forEach((page, i) => {
      // The footer's two texts share a baseline, so they come out as one line.
      expect(page.split("\n")).toContain(
        `Confidential Report Generated on 21-Nov-2026 Page ${i + 1} of ${pages}`,
      );
    });
    expect(text.split("\n")).toContain("Data from 20-Nov-2025 to 20-Nov-2026");
    const rows = text
      .split(/[\n\f]/)
      .filter((l) => /^\d{2}-[A-Z][a-z]{2}-\d{4} [A-Z][a-z]{2} /.test(l));
    expect(rows).toHaveLength(366);
    expect(rows[0]).toMatch(/^20-Nov-2025 Thu /);
    expect(rows[365]).toMatch(/^20-Nov-2026 Fri /);
    // The header repeats on each page the table continues on.
    expect(count(text, "Day Weekday Goal Therapies Completed Day adherence Score")).toBeGreaterThan(
      4,
    );
  });

  it("sets the document information", async () => {
    const info = await pdfInfo(await buildPatientReportPdf(reportData()));
    expect(info.Title).toBe("ARC Connect — Patient Report: Jane Doe");
    expect(info.Author).toBe("Amy Lee (clinician)");
    expect(info.CreationDate).toBe("D:20261121153000Z");
  });

  it("draws its charts as vectors, with no embedded image", async () => {
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

    const days = windowDays("2026-11-20", 366);
    const pdf = await buildPatientReportPdf(
      reportData({ window: { fromDay: days[0].day, toDay: "2026-11-20" }, days }),
    );
    expect(hasImage(pdf)).toBe(false);
  });
});
