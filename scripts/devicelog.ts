// The device log tool for support staff and scripts (DEVICE-LOG-FORMAT.md):
//
//   npm run --silent devicelog -- decrypt <file> [--from YYYY-MM-DD] [--to YYYY-MM-DD]
//       the decrypted log as CSV on stdout (clear and cough logs)
//   npm run --silent devicelog -- summary <file> [--from YYYY-MM-DD] [--to YYYY-MM-DD]
//       the summary of a cough log as JSON on stdout (the format's field names, unrounded, null
//       where a value is missing)
//
// Keys come from DEVICE_LOG_KEYS (<keyId>:<64 hex>[,...]); outside production the demo key is
// added. A rejected file prints the format document's message on stderr and exits with 2; nothing
// of a rejected file reaches stdout (the CSV is written to a temporary file first).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { StreamParser } from "@json2csv/plainjs";
import { DEVICE_LOG_CSV_FIELDS, deviceLogCsvRows } from "../app/domain/deviceLogs/csv";
import { parseLogFileName } from "../app/domain/deviceLogs/fileName";
import { resolveLogKeys } from "../app/domain/deviceLogs/keys";
import { DeviceLogError } from "../app/domain/deviceLogs/messages";
import { decryptToRows } from "../app/domain/deviceLogs/reader";
import { summarize } from "../app/domain/deviceLogs/summary";
import { rangeMessages } from "../app/lib/dateRange";

const USAGE =
  "usage: npm run --silent devicelog -- decrypt|summary <file> [--from YYYY-MM-DD] [--to YYYY-MM-DD]";

class Rejected extends Error {}

function argValue(args: string[], name: string) {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new Rejected(`--${name} needs YYYY-MM-DD`);
  return value;
}

async function main(args: string[]) {
  const [command, file] = args;
  if ((command !== "decrypt" && command !== "summary") || !file) throw new Rejected(USAGE);
  const range = { from: argValue(args, "from"), to: argValue(args, "to") };
  if (range.from && range.to && range.from > range.to)
    throw new Rejected(rangeMessages.fromAfterTo);
  const name = parseLogFileName(path.basename(file));
  if (!name.ok) throw new Rejected(name.message);
  if (!fs.existsSync(file)) throw new Rejected(`No such file: ${file}`);
  const options = {
    keys: resolveLogKeys(process.env.DEVICE_LOG_KEYS, process.env.NODE_ENV),
    expectedDeviceId: name.meta.deviceId,
    deviceType: name.meta.deviceType,
  };

  if (command === "summary") {
    if (name.meta.deviceType !== "cough") throw new Rejected("Clear logs have no summary.");
    const model = await decryptToRows(fs.createReadStream(file), options);
    process.stdout.write(`${JSON.stringify(summarize(model, range), null, 2)}\n`);
    return;
  }

  // The CSV goes to a temporary file and reaches stdout only once the whole log has been read.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-devicelog-"));
  const temporary = path.join(dir, "log.csv");
  try {
    const out = fs.createWriteStream(temporary);
    const parser = new StreamParser({ fields: [...DEVICE_LOG_CSV_FIELDS] });
    parser.onData = (chunk) => out.write(chunk);
    for await (const row of deviceLogCsvRows(fs.createReadStream(file), { ...options, ...range })) {
      parser.pushLine(row);
    }
    parser.end();
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    await pipeline(fs.createReadStream(temporary), process.stdout, { end: false });
    process.stdout.write("\n");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof DeviceLogError || error instanceof Rejected) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
