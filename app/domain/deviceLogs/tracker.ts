// What is learnt from a log's rows while they stream through the decrypter: counts, first and
// last dates, and a cough log's model (model.ts). Runs in the decrypt worker (decryptWorker.ts).
import { formatDayDmy, formatStampIso, stampDay } from "./calendar";
import type { DeviceType } from "./fileName";
import { buildCoughLog } from "./model";
import type { DeviceLogHeader, DeviceLogRow } from "./rows";
import { summarize } from "./summary";

/** What is learnt from the rows while they stream in. */
export function rowTracker(deviceType: DeviceType) {
  const builder = deviceType === "cough" ? buildCoughLog() : null;
  let rows = 0;
  let first = Infinity;
  let last = -Infinity;
  let firstTherapyDay = Infinity;
  let lastTherapyDay = -Infinity;
  return {
    emit(row: DeviceLogRow) {
      rows += 1;
      if (row.stamp < first) first = row.stamp;
      if (row.stamp > last) last = row.stamp;
      if (row.eventType === "THERAPY") {
        const day = stampDay(row.stamp);
        if (day < firstTherapyDay) firstTherapyDay = day;
        if (day > lastTherapyDay) lastTherapyDay = day;
      }
      builder?.add(row);
    },
    finish(header: DeviceLogHeader) {
      const model = builder?.finish(header) ?? null;
      // A cough log's therapy dates are the summary's (real calendar days only).
      const summary = model ? summarize(model) : null;
      return {
        model,
        rows,
        logsFrom: rows > 0 ? formatStampIso(first) : null,
        logsTo: rows > 0 ? formatStampIso(last) : null,
        firstTherapyAt: summary
          ? summary.firstTherapyAt
          : Number.isFinite(firstTherapyDay)
            ? formatDayDmy(firstTherapyDay)
            : null,
        lastTherapyAt: summary
          ? summary.lastTherapyAt
          : Number.isFinite(lastTherapyDay)
            ? formatDayDmy(lastTherapyDay)
            : null,
      };
    },
  };
}

export type LogDetails = Omit<ReturnType<ReturnType<typeof rowTracker>["finish"]>, "model">;
