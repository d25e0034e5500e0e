// The summary, therapy table and graph of a small cough log whose numbers are worked out by hand
// (DEVICE-LOG-FORMAT.md "Summary of a cough log", spec 3 §2.7, §3, §9).
import { describe, expect, it } from "vitest";
import { graphPage, therapyTableRows } from "~/domain/deviceLogs/graph";
import { DEMO_KEY_HEX, parseLogKeys } from "~/domain/deviceLogs/keys";
import { decryptToRows } from "~/domain/deviceLogs/reader";
import { formatSummaryField, formatSummaryValue, summarize } from "~/domain/deviceLogs/summary";
import { chunked, encryptedLog } from "../support/deviceLogFixture";

const keys = parseLogKeys(`demo:${DEMO_KEY_HEX}`);
const load = (rows: string[]) =>
  decryptToRows(chunked(encryptedLog({ rows }), 512), { keys, deviceType: "cough" });

const therapy = (id: number, at: string, value: string, logType = "INFO") =>
  `${id},THERAPY,${logType},${at},"${value}"`;
const cycle = (id: number, at: string, ref: number, n: number, ev: number, pf: number) =>
  `${id},CYCLE,INFO,${at},"TS_REF:${ref},C_N:${n},P_IP:${30 + n},E_V:${ev},P_F:${pf},SPO2:false,O_F:${n % 2}"`;
const hmr = (id: number, at: string, hours: number) =>
  `${id},SYSTEM,INFO,${at},"EVENT:HMR,HMR:${hours}"`;
const SET = "P_P:0,I_P:40,E_P:-40,P_T:10,I_T:15,E_T:20,O_F:1";

// Four therapies over 1..5 March 2025; therapy 6's second cycle falls on 2 March.
const LOG = [
  therapy(1, "2025-03-01 09:00:00", `MODE:Manual,R_C:5,N_C:3,${SET}`),
  cycle(2, "2025-03-01 09:00:05", 1, 1, 1000, 200),
  cycle(3, "2025-03-01 09:00:10", 1, 2, 1200, 220),
  cycle(4, "2025-03-01 09:00:15", 1, 3, 1400, 240),
  hmr(5, "2025-03-01 09:10:00", 100.5),
  therapy(6, "2025-03-01 23:59:50", `MODE:Manual,R_C:5,N_C:2,${SET}`),
  cycle(7, "2025-03-01 23:59:55", 6, 1, 900, 180),
  cycle(8, "2025-03-02 00:00:03", 6, 2, 1100, 200),
  '9,SETTINGS,INFO,2025-03-02 08:00:00,"MODE:Auto,R_C:4,P_P:5,I_P:35,E_P:-35,P_T:12,I_T:16,E_T:18,O_F:0"',
  therapy(
    10,
    "2025-03-03 10:00:00",
    "MODE:Auto,R_C:4,N_C:1,P_P:5,I_P:35,E_P:-35,P_T:12,I_T:16,E_T:18,O_F:0",
  ),
  cycle(11, "2025-03-03 10:00:05", 10, 1, 1500, 260),
  hmr(12, "2025-03-03 10:30:00", 101.25),
  '13,ALARM,ERROR,2025-03-04 07:00:00,"CODE:E12,MSG:Low battery, connect charger"',
  therapy(
    14,
    "2025-03-05 10:00:00",
    "MODE:Auto,R_C:4,N_C:0,P_P:5,I_P:35,E_P:-35,P_T:12,I_T:16,E_T:18,O_F:0,FW:2.1",
    "WARNING",
  ),
  hmr(15, "2025-03-05 11:00:00", 102),
  // A cycle of no therapy: not counted anywhere.
  cycle(16, "2025-03-05 11:01:00", 999, 1, 50_000, 900),
  '17,SYSTEM,INFO,2025-03-05 12:00:00,"EVENT:POWER_OFF"',
];

describe("the summary", () => {
  it("over the whole log", async () => {
    const model = await load(LOG);
    expect(model.orphanCycles).toBe(1);
    expect(model.systemEvents).toEqual({ HMR: 3, POWER_OFF: 1 });
    expect(model.settings).toHaveLength(1);
    const s = summarize(model);
    // Therapies 1, 6, 10, 14.
    expect(s.totalTherapies).toBe(4);
    expect(s.firstTherapyAt).toBe("01-03-2025");
    expect(s.lastTherapyAt).toBe("05-03-2025");
    // N_C 3 + 2 + 1 + 0 = 6; 6 / 4 = 1.5.
    expect(s.average_NC).toBe(1.5);
    // E_V of the six cycles: 1000 1200 1400 900 1100 1500, sum 7100, mean 7100/6 = 1183.333...
    // Sum of squares 8 670 000 - 7100²/6 (8 401 666.67) = 268 333.33; / 5 = 53 666.67;
    // sd = √53 666.67 = 231.6607...
    expect(s.average_EV).toBeCloseTo(7100 / 6, 9);
    expect(s.sdExpVol).toBeCloseTo(Math.sqrt(268_333.333_333 / 5), 6);
    expect(s.sdExpVol).toBeCloseTo(231.6607, 3);
    // P_F: 200 220 240 180 200 260, sum 1300, mean 216.667; Σx² 286 000 - 1300²/6 (281 666.67)
    // = 4333.33; / 5 = 866.67; sd = 29.4392.
    expect(s.average_PF).toBeCloseTo(1300 / 6, 9);
    expect(s.sdExpFlow).toBeCloseTo(29.4392, 3);
    // Days 1..5 March: 2, 0, 1, 0, 1 therapies (therapy 6 is on the 1st; its cycle on the 2nd
    // does not make the 2nd a therapy day). Mean 4/5 = 0.8; squared deviations 1.44 + 0.64 +
    // 0.04 + 0.64 + 0.04 = 2.8; / 4 = 0.7; sd = √0.7 = 0.83666.
    expect(s.average_Therapy).toBeCloseTo(0.8, 12);
    expect(s.sdTherapiesPerDay).toBeCloseTo(Math.sqrt(0.7), 12);
    expect(s.noDaysWithoutTherapy).toBe(2);
    // HMR readings 100.5, 101.25, 102: last 102, usage 102 - 100.5 = 1.5.
    expect(s.HMR).toBe(102);
    expect(s.usageHMR).toBe(1.5);
    expect(Object.keys(s).sort()).toEqual(
      [
        "totalTherapies",
        "firstTherapyAt",
        "lastTherapyAt",
        "average_NC",
        "average_EV",
        "sdExpVol",
        "average_PF",
        "sdExpFlow",
        "average_Therapy",
        "sdTherapiesPerDay",
        "noDaysWithoutTherapy",
        "HMR",
        "usageHMR",
      ].sort(),
    );
  });

  it("from 2 to 4 March: one therapy, its one cycle, one HMR reading", async () => {
    const s = summarize(await load(LOG), { from: "2025-03-02", to: "2025-03-04" });
    // Therapy 10 only (cycle 8 on the 2nd follows therapy 6, which is on the 1st).
    expect(s).toEqual({
      totalTherapies: 1,
      firstTherapyAt: "03-03-2025",
      lastTherapyAt: "03-03-2025",
      average_NC: 1,
      // One cycle: E_V 1500, P_F 260; sd 0 when n < 2.
      average_EV: 1500,
      sdExpVol: 0,
      average_PF: 260,
      sdExpFlow: 0,
      // One day with one therapy.
      average_Therapy: 1,
      sdTherapiesPerDay: 0,
      noDaysWithoutTherapy: 0,
      // The reading of the 3rd only: usage 101.25 - 101.25 = 0.
      HMR: 101.25,
      usageHMR: 0,
    });
  });

  it("from 1 to 3 March", async () => {
    const s = summarize(await load(LOG), { from: "2025-03-01", to: "2025-03-03" });
    // Therapies 1, 6, 10: N_C (3 + 2 + 1) / 3 = 2.
    expect(s.totalTherapies).toBe(3);
    expect(s.average_NC).toBe(2);
    // All six cycles again, cycle 8 included through therapy 6.
    expect(s.average_EV).toBeCloseTo(7100 / 6, 9);
    // Days 1..3: 2, 0, 1; mean 1; (1 + 1 + 0) / 2 = 1; sd 1; one day without.
    expect(s.average_Therapy).toBe(1);
    expect(s.sdTherapiesPerDay).toBe(1);
    expect(s.noDaysWithoutTherapy).toBe(1);
    // Readings of the 1st and the 3rd: 101.25 - 100.5 = 0.75.
    expect(s.HMR).toBe(101.25);
    expect(s.usageHMR).toBe(0.75);
    expect(s.lastTherapyAt).toBe("03-03-2025");
  });

  it("with only a From date: the therapy without cycles", async () => {
    const s = summarize(await load(LOG), { from: "2025-03-05" });
    expect(s).toMatchObject({
      totalTherapies: 1,
      average_NC: 0,
      average_EV: null,
      sdExpVol: null,
      average_PF: null,
      sdExpFlow: null,
      HMR: 102,
      usageHMR: 0,
    });
  });

  it("with no therapy in range: nulls, and N/A when shown", async () => {
    const s = summarize(await load(LOG), { from: "2025-03-02", to: "2025-03-02" });
    expect(s).toEqual({
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
      HMR: null,
      usageHMR: null,
    });
    expect(formatSummaryValue(s.HMR)).toBe("N/A");
    expect(formatSummaryValue(7100 / 6)).toBe("1183.33");
    expect(formatSummaryValue(0)).toBe("0.00");
    expect(formatSummaryValue("01-03-2025")).toBe("01-03-2025");
  });

  it("shows the counts as whole numbers, averages, deviations and hours with two decimals", async () => {
    const s = summarize(await load(LOG));
    expect(formatSummaryField(s, "totalTherapies")).toBe(String(s.totalTherapies));
    expect(formatSummaryField(s, "noDaysWithoutTherapy")).toBe(String(s.noDaysWithoutTherapy));
    expect(formatSummaryField({ ...s, totalTherapies: 33 }, "totalTherapies")).toBe("33");
    expect(formatSummaryField({ ...s, noDaysWithoutTherapy: 1 }, "noDaysWithoutTherapy")).toBe("1");
    expect(formatSummaryField({ ...s, average_Therapy: 2 }, "average_Therapy")).toBe("2.00");
    expect(formatSummaryField({ ...s, HMR: 102 }, "HMR")).toBe("102.00");
    expect(formatSummaryField({ ...s, noDaysWithoutTherapy: null }, "noDaysWithoutTherapy")).toBe(
      "N/A",
    );
  });

  it("refuses a range that is not YYYY-MM-DD", async () => {
    const model = await load(LOG);
    expect(() => summarize(model, { from: "01-03-2025" })).toThrow(RangeError);
    expect(() => summarize(model, { to: "2025-02-30" })).toThrow(RangeError);
  });

  it("counts a therapy stamped with an impossible date but places it on no day", async () => {
    const model = await load([
      therapy(1, "2025-03-01 09:00:00", "N_C:2"),
      therapy(2, "2025-02-30 09:00:00", "N_C:4"),
    ]);
    const s = summarize(model);
    expect(s).toMatchObject({
      totalTherapies: 2,
      average_NC: 3,
      firstTherapyAt: "01-03-2025",
      lastTherapyAt: "01-03-2025",
      average_Therapy: 1,
    });
    expect(therapyTableRows(model).rows[1]["Time Stamp"]).toBe("Invalid Date");
  });
});

describe("the therapy table", () => {
  it("lists therapies with the table's forms", async () => {
    const table = therapyTableRows(await load(LOG));
    expect(table).toMatchObject({
      page: 1,
      pages: 1,
      total: 4,
      firstTherapyAt: "01-03-2025",
      lastTherapyAt: "05-03-2025",
    });
    expect(table.rows.map((r) => r["Event ID"])).toEqual([1, 6, 10, 14]);
    expect(table.rows[0]).toEqual({
      "Event ID": 1,
      "Event Type": "THERAPY",
      "Log Type": "INFO",
      "Time Stamp": "Mar-01-2025 09:00:00",
      N_C: 3,
      MODE: "Manual",
      P_P: 0,
      I_P: 40,
      E_P: -40,
      P_T: "1.0",
      I_T: "1.5",
      E_T: "2.0",
      other: [
        { key: "R_C", value: "5" },
        { key: "O_F", value: "1" },
      ],
    });
    expect(table.rows[3]).toMatchObject({
      "Log Type": "WARNING",
      MODE: "Auto",
      P_T: "1.2",
      other: [
        { key: "R_C", value: "4" },
        { key: "O_F", value: "0" },
        { key: "FW", value: "2.1" },
      ],
    });
  });

  it("searches Event ID, Event Type and Log Type", async () => {
    const model = await load(LOG);
    const ids = (q: string) => therapyTableRows(model, { q }).rows.map((r) => r["Event ID"]);
    expect(ids("1")).toEqual([1, 10, 14]);
    expect(ids(" warn ")).toEqual([14]);
    expect(ids("Therapy")).toEqual([1, 6, 10, 14]);
    expect(ids("cycle")).toEqual([]);
    expect(therapyTableRows(model, { q: "x" })).toMatchObject({ total: 0, pages: 0, page: 1 });
  });

  it("pages by 10 within the range", async () => {
    const rows = Array.from({ length: 25 }, (_, i) =>
      therapy(i + 1, `2025-04-${String(i + 1).padStart(2, "0")} 08:00:00`, "N_C:1"),
    );
    const model = await load(rows);
    expect(therapyTableRows(model, { page: 3 })).toMatchObject({ page: 3, pages: 3, total: 25 });
    expect(therapyTableRows(model, { page: 3 }).rows.map((r) => r["Event ID"])).toEqual([
      21, 22, 23, 24, 25,
    ]);
    expect(therapyTableRows(model, { page: 9 }).page).toBe(3);
    const ranged = therapyTableRows(model, { from: "2025-04-05", to: "2025-04-06" });
    expect(ranged.rows.map((r) => r["Event ID"])).toEqual([5, 6]);
    expect(ranged.firstTherapyAt).toBe("05-04-2025");
  });
});

describe("the graph", () => {
  it("has one point per cycle of the selected therapies", async () => {
    const model = await load(LOG);
    const all = graphPage(model);
    expect(all).toMatchObject({ page: 1, pages: 1, points: 6 });
    expect(all.merged_data.Cycle_P_P).toEqual({
      x: [1, 2, 3, 4, 5, 6],
      y: [0, 0, 0, 0, 0, 5],
      // The cycle's own O_F: C_N % 2.
      o: [1, 0, 1, 1, 0, 1],
    });
    expect(all.merged_data.Cycle_E_P.y).toEqual([-40, -40, -40, -40, -40, -35]);
    expect(all.merged_data.E_V).toEqual({
      x: [1, 2, 3, 4, 5, 6],
      y: [1000, 1200, 1400, 900, 1100, 1500],
    });
    expect(all.merged_data.P_F.y).toEqual([200, 220, 240, 180, 200, 260]);
    expect(all.merged_data.P_IP.y).toEqual([31, 32, 33, 31, 32, 31]);
    expect(all.timeStamps[4]).toBe("2025-03-02 00:00:03");

    const six = graphPage(model, { eventIds: [6] });
    expect(six.merged_data.Cycle_I_P).toEqual({ x: [1, 2], y: [40, 40], o: [1, 0] });
    // A selection outside the range shows nothing.
    expect(graphPage(model, { eventIds: [6], from: "2025-03-03" }).points).toBe(0);
    expect(graphPage(model, { from: "2025-03-03" }).merged_data.E_V.y).toEqual([1500]);
  });

  it("pages by 300 points", async () => {
    const rows = [therapy(1, "2025-03-01 09:00:00", `N_C:650,${SET}`)];
    for (let n = 1; n <= 650; n++) rows.push(cycle(n + 1, "2025-03-01 09:10:00", 1, n, n, 2 * n));
    const model = await load(rows);
    const third = graphPage(model, { page: 3 });
    expect(third).toMatchObject({ page: 3, pages: 3, points: 650 });
    expect(third.merged_data.E_V.x).toHaveLength(50);
    expect(third.merged_data.E_V.x[0]).toBe(601);
    expect(third.merged_data.E_V.y[49]).toBe(650);
    expect(graphPage(model, { page: 2 }).merged_data.P_F.y[0]).toBe(602);
    expect(graphPage(model).merged_data.Cycle_P_P.x).toHaveLength(300);
  });
});
