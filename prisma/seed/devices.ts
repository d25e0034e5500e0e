// Devices of the demo world, their prescriptions and pairings. A device's prescription becomes a
// row when a transmission first reports it (therapy.ts).
import type { Prisma } from "../../app/generated/prisma/client";
import { buildDevice, buildPairing, pad, type Settings } from "../factories";
import type { SiteDef } from "./content";
import { Rng, round1 } from "./random";
import type { Ctx, Person } from "./world";

/** The bearer token of a demo device (only its sha256 is stored): for the device simulator. */
export function demoDeviceToken(serial: string) {
  return `arc-demo-device-token-${serial}`;
}

export type Rx = Settings & {
  id: string;
  deviceId: string;
  mode: string;
  cycles: number;
  firstSeenAt: number;
  isAdjustment: boolean;
};
export type RxSettings = Omit<Rx, "id" | "deviceId" | "firstSeenAt" | "isAdjustment">;

export type DeviceState = {
  row: Prisma.DeviceCreateManyInput;
  rng: Rng;
  eventNo: number;
  hmr: number;
  rx: Rx | null; // the device's current prescription
  rxPending: boolean; // not yet reported in a transmission
};

export function addDevice(ctx: Ctx, createdAt: number): DeviceState {
  const id = `seed-device-${pad(++ctx.seq.device, 3)}`;
  const r = new Rng(`device:${id}`);
  let serial = "";
  do serial = `${r.int(21, 24)}${pad(r.int(1, 52), 2)}A${pad(r.int(1, 9999), 4)}`;
  while (ctx.serials.has(serial));
  ctx.serials.add(serial);
  const { row } = buildDevice({
    id,
    serial,
    type: "cough",
    token: demoDeviceToken(serial),
    createdAt,
    lastSeenAt: null,
  });
  ctx.w.Device.push(row);
  return {
    row,
    rng: r,
    eventNo: r.int(40, 3000),
    hmr: round1(r.float(20, 900)),
    rx: null,
    rxPending: false,
  };
}

export function newPrescription(
  ctx: Ctx,
  dev: DeviceState,
  settings: RxSettings,
  isAdjustment: boolean,
) {
  dev.rx = {
    id: `seed-rx-${pad(++ctx.seq.rx, 4)}`,
    deviceId: dev.row.id!,
    ...settings,
    firstSeenAt: 0,
    isAdjustment,
  };
  dev.rxPending = true;
}

export function randomSettings(r: Rng): RxSettings {
  return {
    mode: r.chance(0.7) ? "Auto" : "Manual",
    cycles: r.pick([3, 4, 4, 5, 5, 5, 6]),
    pauseP: 0,
    pauseT: r.pick([5, 10, 10, 15, 20]),
    inspP: r.pick([30, 35, 40, 40, 45, 50]),
    inspT: r.pick([10, 15, 20, 20, 25, 30]),
    expP: -r.pick([30, 35, 40, 40, 45, 50]),
    expT: r.pick([10, 15, 15, 20, 25]),
    oscillation: r.chance(0.3),
  };
}

/** The settings of a prescription, without what makes it that device's row. */
export function settingsOf(rx: Rx): RxSettings {
  const { mode, cycles, pauseP, pauseT, inspP, inspT, expP, expT, oscillation } = rx;
  return { mode, cycles, pauseP, pauseT, inspP, inspT, expP, expT, oscillation };
}

/** The clinic's adjustment: one setting changed by a step. */
export function adjustedSettings(r: Rng, old: Rx): RxSettings {
  const s = settingsOf(old);
  const change = r.pick(["cycles", "insp", "exp", "time", "osc"] as const);
  if (change === "cycles") s.cycles = old.cycles >= 6 ? old.cycles - 1 : old.cycles + 1;
  else if (change === "insp") s.inspP = old.inspP >= 50 ? old.inspP - 5 : old.inspP + 5;
  else if (change === "exp") s.expP = old.expP <= -50 ? old.expP + 5 : old.expP - 5;
  else if (change === "time") s.inspT = old.inspT >= 30 ? old.inspT - 5 : old.inspT + 5;
  else s.oscillation = !old.oscillation;
  return s;
}

export function addPairing(
  ctx: Ctx,
  dev: DeviceState,
  patientId: string,
  site: SiteDef,
  by: Person,
  pairedAt: number,
  unpairedAt: number | null = null,
) {
  const row = buildPairing({
    id: `seed-pair-${pad(++ctx.seq.pairing, 3)}`,
    deviceId: dev.row.id!,
    patientId,
    careSiteId: site.id,
    pairedById: by.id,
    pairedAt,
    unpairedAt,
  });
  ctx.w.Pairing.push(row);
  return row as typeof row & { id: string };
}

/** Spare devices in stock, never paired (for pairing by serial). */
export function addSpareDevices(ctx: Ctx) {
  for (let k = 0; k < 3; k++) addDevice(ctx, ctx.ago(60 - k * 7, 10 * 60));
}
