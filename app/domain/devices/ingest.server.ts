// Device API ingest (DEVICE-API.md, DESIGN.md §5): one transmission in one transaction, therapies
// idempotent by (device, eventId), deviation judged against the prescription the device reported
// (deviation.ts). It writes through the device API's own connection (ingestDb.server.ts runWrite:
// prepared statements, group commit), the ingest hot path.
import { notifyAdherenceQueued } from "~/domain/adherence/adherence.server";
import type { TransmissionBody } from "~/domain/devices/schema";
import { samePrescription, therapyDeviates } from "~/domain/devices/deviation";
import { runWrite } from "~/domain/devices/ingestDb.server";
import { uuidV7 } from "~/lib/ids";

const bit = (value: boolean) => (value ? 1 : 0);

export type IngestResult = {
  transmissionId: string;
  therapiesAccepted: number;
  therapiesDuplicate: number;
  /** false: every therapy was already stored and the prescription is unchanged; nothing written. */
  recorded: boolean;
  patientId: string | null;
  pairingId: string | null;
  therapyAdjustment: boolean;
  deviatingTherapies: number;
  /**
   * The instants the transmission brought data for: the distinct start instants of the therapies
   * accepted now and its sentAt (its HMR reading), earliest first; the earliest is queued for the
   * adherence engine. Empty when nothing was recorded.
   */
  days: Date[];
};

/**
 * Stores a validated transmission of a device (DEVICE-API.md): attributes it to the patient the
 * device is paired with now (or nobody), reuses the device's latest prescription when every setting
 * is equal (else records a new one: a therapy adjustment when there was an earlier one), skips
 * therapies already stored by (device, eventId), and judges each new therapy against the reported
 * prescription. A resend of stored therapies with an unchanged prescription records nothing and
 * answers with the transmission that first brought them. A recorded transmission of a paired device
 * queues its patient for the adherence engine in the same transaction (AdherenceQueue); the
 * adherence worker recomputes shortly after, off the request path.
 */
export async function ingestTransmission(
  device: { id: string },
  body: TransmissionBody,
  options: { receivedAt?: Date } = {},
): Promise<IngestResult> {
  const rx = body.prescription;
  // Everything that does not depend on the database is worked out before the lock is taken.
  const therapies = body.therapies.map((t) => {
    const cyclesDelivered = t.cycles.length;
    return {
      body: t,
      startedAt: Date.parse(t.startedAt),
      cyclesDelivered,
      completed: cyclesDelivered >= rx.cycles,
      deviates: therapyDeviates(rx, { delivered: t.delivered, cyclesDelivered }),
    };
  });
  const sentAt = Date.parse(body.sentAt);

  const result = await runWrite(({ s, deviceState, forgetDevice }): IngestResult => {
    const now = options.receivedAt?.getTime() ?? Date.now();
    // The device's open pairing and latest prescription (kept between batches: ingestDb.server.ts).
    const { pairing, latest } = deviceState(device.id);
    const unchanged = latest !== null && samePrescription(latest, rx);

    const seen = new Set<string>();
    let earliest: { transmissionId: string; receivedAt: number } | null = null;
    const accepted: typeof therapies = [];
    for (const t of therapies) {
      if (seen.has(t.body.eventId)) continue;
      seen.add(t.body.eventId);
      const stored = s.existingTherapy.get(device.id, t.body.eventId);
      if (!stored) accepted.push(t);
      else if (!earliest || stored.receivedAt < earliest.receivedAt) earliest = stored;
    }
    const duplicates = therapies.length - accepted.length;

    if (accepted.length === 0 && unchanged && earliest) {
      // "Sending it again changes nothing" (only the device was seen).
      s.touchDevice.run(now, device.id);
      return {
        transmissionId: earliest.transmissionId,
        therapiesAccepted: 0,
        therapiesDuplicate: duplicates,
        recorded: false,
        patientId: pairing?.patientId ?? null,
        pairingId: pairing?.id ?? null,
        therapyAdjustment: false,
        deviatingTherapies: 0,
        days: [],
      };
    }

    let prescriptionId: string;
    if (unchanged) {
      prescriptionId = latest.id;
    } else {
      prescriptionId = uuidV7();
      s.insertPrescription.run(
        prescriptionId,
        device.id,
        rx.mode,
        rx.cycles,
        rx.P_P,
        rx.P_T,
        rx.I_P,
        rx.I_T,
        rx.E_P,
        rx.E_T,
        rx.O_F,
        now,
        bit(latest !== null),
      );
      // Read again next time: which prescription is the latest is the database's to say (by
      // firstSeenAt, which a backdated receivedAt may put before the stored one).
      forgetDevice(device.id);
    }
    const therapyAdjustment = !unchanged && latest !== null;
    const deviating = accepted.filter((t) => t.deviates).length;
    const transmissionId = uuidV7();
    const pairingId = pairing?.id ?? null;
    const patientId = pairing?.patientId ?? null;
    s.insertTransmission.run(
      transmissionId,
      device.id,
      pairingId,
      patientId,
      prescriptionId,
      sentAt,
      now,
      body.hmr,
      accepted.length,
      duplicates,
      deviating,
      bit(therapyAdjustment),
    );
    for (const t of accepted) {
      const therapyId = uuidV7();
      const d = t.body.delivered;
      s.insertTherapy.run(
        therapyId,
        device.id,
        t.body.eventId,
        transmissionId,
        prescriptionId,
        pairingId,
        patientId,
        t.startedAt,
        t.body.mode,
        rx.cycles,
        t.cyclesDelivered,
        bit(t.completed),
        bit(t.deviates),
        d.P_P,
        d.P_T,
        d.I_P,
        d.I_T,
        d.E_P,
        d.E_T,
        d.O_F,
      );
      for (const c of t.body.cycles) {
        s.insertCycle.run(uuidV7(), therapyId, c.n, c.P_IP, c.E_V, c.P_F, c.SPO2, c.O_F);
      }
    }
    s.touchDevice.run(now, device.id);
    const days = [...new Set([...accepted.map((t) => t.startedAt), sentAt])].sort((a, b) => a - b);
    // The adherence engine's work, committed with the data it is for (processAdherenceQueue).
    if (patientId) s.queueAdherence.run(patientId, days[0]);
    return {
      transmissionId,
      therapiesAccepted: accepted.length,
      therapiesDuplicate: duplicates,
      recorded: true,
      patientId,
      pairingId,
      therapyAdjustment,
      deviatingTherapies: deviating,
      days: days.map((ms) => new Date(ms)),
    };
  });

  if (result.patientId && result.recorded) notifyAdherenceQueued();
  return result;
}
