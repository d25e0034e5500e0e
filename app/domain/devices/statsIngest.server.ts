// A device's performance records (DEVICE-API.md "stats"): stored as sent, in one transaction of the
// device API's own connection (ingestDb.server.ts runWrite), for the device stats page.
import type { DeviceStatBody } from "~/domain/devices/schema";
import { runWrite } from "~/domain/devices/ingestDb.server";

const time = (value: string | null | undefined) => (value ? Date.parse(value) : null);
const orNull = <T>(value: T | null | undefined) => (value === undefined ? null : value);

/** Stores a device's performance records in one transaction; returns how many. */
export async function ingestDeviceStats(
  device: { id: string; serial: string },
  rows: DeviceStatBody[],
  options: { receivedAt?: Date } = {},
) {
  if (rows.length === 0) return 0;
  return runWrite(({ s }) => {
    const now = options.receivedAt?.getTime() ?? Date.now();
    for (const r of rows) {
      s.insertStat.run(
        device.id,
        device.serial,
        orNull(r.device_type),
        orNull(r.core),
        orNull(r.memory_usage_percentage),
        orNull(r.cpu_usage_percentage),
        orNull(r.temperature),
        orNull(r.test),
        time(r.created_at),
        now,
        time(r.theraphy_start_time),
        time(r.theraphy_end_time),
        r.profile == null ? null : JSON.stringify(r.profile),
        orNull(r.test_type),
        orNull(r.usr),
        orNull(r.sys),
        orNull(r.nic),
        orNull(r.idle),
        orNull(r.io),
        orNull(r.irq),
        orNull(r.sirq),
        orNull(r.mode),
        orNull(r.oscillation),
        orNull(r.frequency),
        orNull(r.amplitude),
        orNull(r.cycle),
        orNull(r.flow),
        orNull(r.pause_pressure),
        orNull(r.insp_pressure),
        orNull(r.exp_pressure),
        orNull(r.duration),
        orNull(r.test_dec),
      );
    }
    return rows.length;
  });
}
