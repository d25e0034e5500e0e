// Device provisioning (docs/device-api.md "Provisioning"):
//   npm run device:add -- --serial 2301A0042 --type cough   prints the new token, once, last line
//   npm run device:list                                     serial, type, created, last seen, patient
//   npm run device:rotate -- --serial 2301A0042             prints a new token; the old one stops
// Uses the app's database (DATA_DIR, like the server) and applies pending migrations first.
import { parseArgs } from "node:util";
import { configureDatabase } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { applyMigrations, migrationsDir, readMigrations } from "~/lib/migrate.server";
import {
  createDevice,
  DEVICE_TYPES,
  listDevices,
  rotateDeviceToken,
  type DeviceListRow,
} from "~/domain/devices/device.server";
import { CommandError, exitCodeOf, UsageError } from "./command";

const USAGE = `Usage (release binary: arc-connect device-add|device-list|device-rotate ...):
  npm run device:add -- --serial <serial> --type <${DEVICE_TYPES.join("|")}>
  npm run device:list
  npm run device:rotate -- --serial <serial>
A serial is 1 to 32 letters and digits.`;

function options(args: string[], allowed: ("serial" | "type")[]) {
  const { values, positionals } = parseArgs({
    args,
    options: { serial: { type: "string" }, type: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
  for (const key of Object.keys(values)) {
    if (!allowed.includes(key as "serial" | "type"))
      throw new UsageError(`Unknown option --${key}`);
  }
  return values;
}

async function add(args: string[]) {
  const { serial, type } = options(args, ["serial", "type"]);
  if (!serial) throw new UsageError("--serial is required.");
  if (!type) throw new UsageError("--type is required.");
  const result = await createDevice({ serial, type });
  if (!result.ok) {
    switch (result.error) {
      case "invalidSerial":
        throw new CommandError(`Invalid serial "${serial}": use 1 to 32 letters and digits.`);
      case "invalidType":
        throw new CommandError(`Invalid type "${type}": use ${DEVICE_TYPES.join(" or ")}.`);
      case "duplicate":
        throw new CommandError(
          result.existingSerial === serial
            ? `A device with serial ${serial} already exists.`
            : `A device with serial ${result.existingSerial} already exists (serials differing only in letter case are not allowed).`,
        );
    }
  }
  console.log(`Device ${result.device.serial} (${result.device.type}) provisioned.`);
  console.log("Its token follows on the next line. It is shown only this once: store it now.");
  console.log(result.token);
}

async function rotate(args: string[]) {
  const { serial } = options(args, ["serial"]);
  if (!serial) throw new UsageError("--serial is required.");
  const token = await rotateDeviceToken(serial);
  if (!token) throw new CommandError(`No device with serial ${serial}.`);
  console.log(`New token for device ${serial}; the previous token no longer works.`);
  console.log("It is shown only this once: store it now.");
  console.log(token);
}

function table(rows: DeviceListRow[]) {
  const header = ["serial", "type", "created", "last seen", "paired patient"];
  const cells = rows.map((r) => [
    r.serial,
    r.type,
    r.createdAt.toISOString(),
    r.lastSeenAt ? r.lastSeenAt.toISOString() : "never",
    r.patient ? `${r.patient.firstName} ${r.patient.lastName} (${r.patient.id})` : "-",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(header), ...cells.map(line)].join("\n");
}

async function list(args: string[]) {
  options(args, []);
  const rows = await listDevices();
  console.log(rows.length ? table(rows) : "No devices.");
}

async function run([command, ...args]: string[]) {
  const commands: Record<string, (args: string[]) => Promise<void>> = { add, list, rotate };
  const handler = command ? commands[command] : undefined;
  if (!handler) throw new UsageError(command ? `Unknown command: ${command}` : "No command given.");
  applyMigrations(env.databaseFile, readMigrations(migrationsDir()));
  await configureDatabase();
  await handler(args);
}

/** Runs `add|list|rotate ...`; resolves to the process exit code (2: usage, 1: refused). */
export function deviceCommand(args: string[]) {
  return exitCodeOf(() => run(args), USAGE);
}

if (/[\\/]scripts[\\/]device(\.ts)?$/.test(process.argv[1] ?? "")) {
  void deviceCommand(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
