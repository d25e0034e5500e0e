// The therapy dashboard (spec 3 §2.7): the therapy table and the graph's series, read from the
// compact model of a cough log.
import {
  formatStampIso,
  formatStampTable,
  stampDay,
  isRealDay,
  formatDayDmy,
  type DayRange,
} from "./calendar";
import { flagValue, numberOrNull, therapyLogType, therapyMode, type CoughLogModel } from "./model";
import type { LogType } from "./rows";
import { therapiesInRange } from "./summary";

/** Plot pages of 300 points (spec 3 §9). */
export const GRAPH_PAGE_POINTS = 300;
/** The therapy list's page size (spec 3 §9). */
export const THERAPY_PAGE_SIZE = 10;

export type SetPressureSeries = { x: number[]; y: (number | null)[]; o: (0 | 1 | null)[] };
export type MeasurementSeries = { x: number[]; y: (number | null)[] };

export type MergedData = {
  Cycle_P_P: SetPressureSeries;
  Cycle_I_P: SetPressureSeries;
  Cycle_E_P: SetPressureSeries;
  P_F: MeasurementSeries;
  P_IP: MeasurementSeries;
  E_V: MeasurementSeries;
};

export type GraphPage = {
  page: number;
  pages: number;
  /** Points (cycles) over all pages. */
  points: number;
  merged_data: MergedData;
  /** Each point's Time Stamp as written, for labels and tooltips. */
  timeStamps: string[];
  /** Each point's CYCLE Event ID (annotations are anchored to cycles). */
  cycleEventIds?: number[];
};

export type GraphQuery = DayRange & {
  /** Therapy Event IDs; none or empty means every therapy in the range (no selection). */
  eventIds?: readonly number[];
  /** 1-based; clamped to the pages there are. */
  page?: number;
};

/**
 * One point per cycle of the selected therapies in the range, in log order. x is the point's
 * number over the whole selection (page 2 starts at 301); the set pressures are the therapy's,
 * with the cycle's oscillation flag (the therapy's when the cycle has none).
 */
export function graphPage(model: CoughLogModel, query: GraphQuery = {}): GraphPage {
  const selected = therapiesInRange(model, query);
  if (query.eventIds && query.eventIds.length > 0) {
    const wanted = new Set(query.eventIds);
    for (let i = 0; i < selected.length; i++)
      if (selected[i] && !wanted.has(model.therapies.eventId.get(i))) selected[i] = 0;
  }
  const c = model.cycles;
  let points = 0;
  for (let i = 0; i < c.therapy.length; i++) if (selected[c.therapy.get(i)]) points += 1;
  const pages = Math.ceil(points / GRAPH_PAGE_POINTS);
  const page = Math.min(Math.max(1, Math.floor(query.page ?? 1)), Math.max(1, pages));
  const first = (page - 1) * GRAPH_PAGE_POINTS;
  const last = Math.min(points, first + GRAPH_PAGE_POINTS);

  const setSeries = (): SetPressureSeries => ({ x: [], y: [], o: [] });
  const series = (): MeasurementSeries => ({ x: [], y: [] });
  const data: MergedData = {
    Cycle_P_P: setSeries(),
    Cycle_I_P: setSeries(),
    Cycle_E_P: setSeries(),
    P_F: series(),
    P_IP: series(),
    E_V: series(),
  };
  const timeStamps: string[] = [];
  const cycleEventIds: number[] = [];
  const t = model.therapies;
  let point = 0;
  for (let i = 0; i < c.therapy.length && point < last; i++) {
    const therapy = c.therapy.get(i);
    if (!selected[therapy]) continue;
    point += 1;
    if (point <= first) continue;
    const oscillation = (flagValue(c.O_F.get(i)) ?? flagValue(t.O_F.get(therapy))) as 0 | 1 | null;
    const set = (s: SetPressureSeries, value: number) => {
      s.x.push(point);
      s.y.push(numberOrNull(value));
      s.o.push(oscillation);
    };
    set(data.Cycle_P_P, t.P_P.get(therapy));
    set(data.Cycle_I_P, t.I_P.get(therapy));
    set(data.Cycle_E_P, t.E_P.get(therapy));
    const measured = (s: MeasurementSeries, value: number) => {
      s.x.push(point);
      s.y.push(numberOrNull(value));
    };
    measured(data.P_F, c.P_F.get(i));
    measured(data.P_IP, c.P_IP.get(i));
    measured(data.E_V, c.E_V.get(i));
    timeStamps.push(formatStampIso(c.stamp.get(i)));
    cycleEventIds.push(c.eventId.get(i));
  }
  return { page, pages, points, merged_data: data, timeStamps, cycleEventIds };
}

/** The spec's therapy event row (spec 3 §3), with the table's display forms. */
export type TherapyEventRow = {
  "Event ID": number;
  "Event Type": "THERAPY";
  "Log Type": LogType;
  /** MMM-DD-YYYY HH:mm:ss, or 'Invalid Date'. */
  "Time Stamp": string;
  N_C: number | null;
  MODE: string | null;
  P_P: number | null;
  I_P: number | null;
  E_P: number | null;
  /** Durations in seconds: tenths divided by 10, one decimal. */
  P_T: string | null;
  I_T: string | null;
  E_T: string | null;
  /** The Value's other pairs (R_C, O_F and any others), for the expanded row. */
  other: { key: string; value: string }[];
};

export type TherapyTablePage = {
  rows: TherapyEventRow[];
  page: number;
  pages: number;
  total: number;
  /** DD-MM-YYYY, over the range before the search; null without therapies. */
  firstTherapyAt: string | null;
  lastTherapyAt: string | null;
};

const tenths = (n: number) => (Number.isNaN(n) ? null : (n / 10).toFixed(1));

function therapyRow(model: CoughLogModel, i: number): TherapyEventRow {
  const t = model.therapies;
  const other: { key: string; value: string }[] = [];
  const rC = t.R_C.get(i);
  if (!Number.isNaN(rC)) other.push({ key: "R_C", value: String(rC) });
  const oF = flagValue(t.O_F.get(i));
  if (oF !== null) other.push({ key: "O_F", value: String(oF) });
  for (const [key, value] of model.therapyExtras.get(i) ?? []) other.push({ key, value });
  return {
    "Event ID": t.eventId.get(i),
    "Event Type": "THERAPY",
    "Log Type": therapyLogType(model, i),
    "Time Stamp": formatStampTable(t.stamp.get(i)),
    N_C: numberOrNull(t.N_C.get(i)),
    MODE: therapyMode(model, i),
    P_P: numberOrNull(t.P_P.get(i)),
    I_P: numberOrNull(t.I_P.get(i)),
    E_P: numberOrNull(t.E_P.get(i)),
    P_T: tenths(t.P_T.get(i)),
    I_T: tenths(t.I_T.get(i)),
    E_T: tenths(t.E_T.get(i)),
    other,
  };
}

/**
 * The therapy list: THERAPY rows in the range, in log order, searched (case-insensitive
 * substring) over Event ID, Event Type and Log Type, in pages of 10.
 */
export function therapyTableRows(
  model: CoughLogModel,
  query: DayRange & { q?: string; page?: number } = {},
): TherapyTablePage {
  const selected = therapiesInRange(model, query);
  const q = (query.q ?? "").trim().toLowerCase();
  const matches: number[] = [];
  let firstDay = Infinity;
  let lastDay = -Infinity;
  for (let i = 0; i < selected.length; i++) {
    if (!selected[i]) continue;
    const day = stampDay(model.therapies.stamp.get(i));
    if (isRealDay(day)) {
      firstDay = Math.min(firstDay, day);
      lastDay = Math.max(lastDay, day);
    }
    if (
      q === "" ||
      String(model.therapies.eventId.get(i)).includes(q) ||
      "therapy".includes(q) ||
      therapyLogType(model, i).toLowerCase().includes(q)
    )
      matches.push(i);
  }
  const pages = Math.ceil(matches.length / THERAPY_PAGE_SIZE);
  const page = Math.min(Math.max(1, Math.floor(query.page ?? 1)), Math.max(1, pages));
  const start = (page - 1) * THERAPY_PAGE_SIZE;
  return {
    rows: matches.slice(start, start + THERAPY_PAGE_SIZE).map((i) => therapyRow(model, i)),
    page,
    pages,
    total: matches.length,
    firstTherapyAt: Number.isFinite(firstDay) ? formatDayDmy(firstDay) : null,
    lastTherapyAt: Number.isFinite(lastDay) ? formatDayDmy(lastDay) : null,
  };
}
