// The deviation rule (DESIGN.md §5) and when a reported prescription is a new one: pure, shared by
// the ingest (ingest.server.ts) and its unit tests.
import type { PrescriptionBody, Settings } from "~/domain/devices/schema";

/** cmH2O a delivered pressure may differ from the prescribed one without deviating. */
export const PRESSURE_TOLERANCE = 2;
/** Tenths of a second a delivered time may differ (0.5 s). */
export const TIME_TOLERANCE = 5;
// Decimal inputs such as 40.1 - 38.1 are not exact in binary; this keeps "exactly 2" at 2.
const EPSILON = 1e-9;

/**
 * A therapy deviates when it completed fewer cycles than prescribed, or a delivered pressure
 * (P_P, I_P, E_P) differs from the prescribed one by more than 2 cmH2O, or a delivered time
 * (P_T, I_T, E_T) by more than 5 tenths of a second, or oscillation (O_F) differs.
 */
export function therapyDeviates(
  prescription: Pick<PrescriptionBody, keyof Settings | "cycles">,
  therapy: { delivered: Settings; cyclesDelivered: number },
) {
  const d = therapy.delivered;
  const p = prescription;
  const off = (a: number, b: number, tolerance: number) => Math.abs(a - b) > tolerance + EPSILON;
  return (
    therapy.cyclesDelivered < p.cycles ||
    off(d.P_P, p.P_P, PRESSURE_TOLERANCE) ||
    off(d.I_P, p.I_P, PRESSURE_TOLERANCE) ||
    off(d.E_P, p.E_P, PRESSURE_TOLERANCE) ||
    off(d.P_T, p.P_T, TIME_TOLERANCE) ||
    off(d.I_T, p.I_T, TIME_TOLERANCE) ||
    off(d.E_T, p.E_T, TIME_TOLERANCE) ||
    d.O_F !== p.O_F
  );
}

export type PrescriptionRow = {
  id: string;
  mode: string;
  cycles: number;
  pauseP: number;
  pauseT: number;
  inspP: number;
  inspT: number;
  expP: number;
  expT: number;
  oscillation: number;
};

/** Whether a stored prescription has exactly the reported settings (else: a therapy adjustment). */
export function samePrescription(row: Omit<PrescriptionRow, "id">, reported: PrescriptionBody) {
  return (
    row.mode === reported.mode &&
    row.cycles === reported.cycles &&
    row.pauseP === reported.P_P &&
    row.pauseT === reported.P_T &&
    row.inspP === reported.I_P &&
    row.inspT === reported.I_T &&
    row.expP === reported.E_P &&
    row.expT === reported.E_T &&
    Boolean(row.oscillation) === (reported.O_F === 1)
  );
}
