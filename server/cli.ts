// The portal's command line: `arc-connect <command>` in the release binary, `node build/server.js
// <command>` in a checkout. The environment (and the optional config file) is read before any app
// module loads, so every module below is imported when its command runs.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { APP_VERSION } from "../app/lib/version.server";
import type { AppFiles } from "./http";

const DEFAULT_CONFIG = "/etc/arc-connect/arc-connect.env";

export const USAGE = `ARC Connect ${APP_VERSION}

Usage: arc-connect [--config <file>] [command] [arguments]

Commands:
  serve                       start the portal (the default): applies pending migrations, then
                              serves HTTP on HOST:PORT with the scheduled jobs
  migrate                     apply pending database migrations and exit
  backup <file>               write a consistent copy of the database to <file>, also while the
                              portal is serving (SQLite's online backup)
  restore <file>              replace the database with a backup (refused while a server runs);
                              the replaced database is kept beside it
  superadmin-add --username <name> --email <address> --phone <+digits> --first-name <name>
                 --last-name <name>
                              create a Super admin (the first account of a new installation);
                              prints a generated password once
  seed-demo [--if-empty]      load the demo world (empties the database first, unless --if-empty)
  device-add --serial <serial> --type <cough|vest>
                              provision a device; prints its token once, on the last line
  device-list                 list the devices
  device-rotate --serial <serial>
                              give a device a new token
  job <name> [--date YYYY-MM-DD] [--force]
                              run a scheduled job now (see arc-connect job --help for the names)
  --version                   print the version
  --help                      print this help

Settings come from the environment (docs/operations.md lists them). --config <file>, or
ARC_CONFIG, names a file of NAME=value lines read first; without either, ${DEFAULT_CONFIG}
is read when it exists. Variables already in the environment win over the file.
`;

/** Reads the config file into process.env (existing variables win). */
function loadConfig(explicit: string | undefined) {
  const file = explicit ?? process.env.ARC_CONFIG;
  if (file) {
    if (!fs.existsSync(file)) throw new CliError(`Config file not found: ${file}`);
    process.loadEnvFile(file);
  } else if (fs.existsSync(DEFAULT_CONFIG)) {
    process.loadEnvFile(DEFAULT_CONFIG);
  }
}

class CliError extends Error {}

function oneFile(args: string[], command: string) {
  if (args.length !== 1 || args[0].startsWith("-"))
    throw new CliError(`Usage: arc-connect ${command} <file>`);
  return args[0];
}

async function migrate() {
  const { env } = await import("../app/lib/env.server");
  const { applyMigrations, migrationsDir, readMigrations } =
    await import("../app/lib/migrate.server");
  const migrations = readMigrations(migrationsDir());
  const applied = applyMigrations(env.databaseFile, migrations);
  return { databaseFile: env.databaseFile, applied, names: migrations.map((m) => m.name) };
}

async function serveCommand(files: AppFiles) {
  const { missingProductionSecrets } = await import("../app/lib/env.server");
  const missing = missingProductionSecrets();
  if (missing.length) {
    throw new CliError(
      `Refusing to start in production without ${missing.join(" and ")}. ` +
        "Set them in the environment or the config file (docs/operations.md).",
    );
  }
  const { logger } = await import("../app/lib/logger.server");
  const { applied, names } = await migrate();
  if (applied.length) logger.info("applied migrations", { migrations: applied });
  const { env } = await import("../app/lib/env.server");
  const { markServing } = await import("./backup");
  markServing(env.dataDir);
  const { serve } = await import("./http");
  await serve(files, names);
}

async function superadminAdd(args: string[]) {
  const field = { type: "string" } as const;
  const { values } = parseArgs({
    args,
    options: {
      username: field,
      email: field,
      phone: field,
      "first-name": field,
      "last-name": field,
    },
    strict: true,
  });
  const missing = ["username", "email", "phone", "first-name", "last-name"].filter(
    (name) => !values[name as keyof typeof values],
  );
  if (missing.length) throw new CliError(`superadmin-add needs --${missing.join(", --")}`);
  await migrate();
  const { createSuperadmin } = await import("../app/domain/accounts/user.server");
  const result = await createSuperadmin({
    username: values.username!,
    email: values.email!,
    phone: values.phone!,
    firstName: values["first-name"]!,
    lastName: values["last-name"]!,
  });
  if (!result.ok) throw new CliError(`Not created:\n  ${result.errors.join("\n  ")}`);
  console.log(`Super admin ${values.username} created. Their password follows on the next line,`);
  console.log(
    "shown only this once: hand it over safely; they change it on Password and Security.",
  );
  console.log(result.password);
  return 0;
}

/** Runs one command line; resolves to an exit code, or to null while `serve` keeps running. */
export async function runCli(argv: string[], files: AppFiles): Promise<number | null> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        config: { type: "string" },
        version: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: false, // the command's own options follow it
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command = "serve", ...rest] = parsed.positionals;
  const commandArgs = argv.slice(argv.indexOf(command) + 1);
  if (parsed.values.version) {
    console.log(APP_VERSION);
    return 0;
  }
  if (parsed.values.help && !parsed.positionals.length) {
    console.log(USAGE);
    return 0;
  }
  try {
    loadConfig(parsed.values.config as string | undefined);
    switch (command) {
      case "serve":
        await serveCommand(files);
        return null;
      case "migrate": {
        const { databaseFile, applied } = await migrate();
        console.log(
          applied.length
            ? `Applied to ${databaseFile}: ${applied.join(", ")}`
            : `${databaseFile} is up to date: no pending migrations.`,
        );
        return 0;
      }
      case "backup": {
        const { env } = await import("../app/lib/env.server");
        const { backupDatabase } = await import("./backup");
        const result = await backupDatabase(env.databaseFile, oneFile(rest, "backup"));
        console.log(
          `Backup of ${env.databaseFile} written to ${result.file} (${result.bytes} bytes, checked).`,
        );
        return 0;
      }
      case "restore": {
        const { env } = await import("../app/lib/env.server");
        const { restoreDatabase } = await import("./backup");
        const result = await restoreDatabase(env.dataDir, oneFile(rest, "restore"));
        console.log(
          `Restored ${result.databaseFile} from ${result.source}.` +
            (result.previous ? ` The database it replaced is kept as ${result.previous}.` : "") +
            " Pending migrations are applied when the portal starts.",
        );
        return 0;
      }
      case "superadmin-add":
        return await superadminAdd(commandArgs);
      case "seed-demo": {
        const { seedCommand } = await import("../prisma/seed");
        await seedCommand(commandArgs);
        return 0;
      }
      case "device-add":
      case "device-list":
      case "device-rotate": {
        const { deviceCommand } = await import("../scripts/device");
        return await deviceCommand([command.slice("device-".length), ...commandArgs]);
      }
      case "job": {
        const { jobCommand } = await import("../scripts/job");
        return await jobCommand(commandArgs);
      }
      default:
        console.error(`Unknown command: ${command}\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    console.error(errorLine(error));
    return 1;
  }
}

/**
 * What the command line prints for an error: one line for the failures a person can act on (a
 * usage or a refusal, a damaged database, a full disk), the error with its stack for anything else.
 */
function errorLine(error: unknown) {
  const name = (error as Error)?.name;
  if (error instanceof CliError || name === "BackupError" || name === "MigrationRefused") {
    return (error as Error).message;
  }
  const code = String((error as { code?: unknown })?.code ?? "");
  const message = (error as Error)?.message;
  const file = process.env.DATA_DIR ? `${process.env.DATA_DIR}/arc.db` : "the database";
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
    return (
      `The database ${file} is damaged or not an SQLite database (${message}); nothing was ` +
      "started. Restore the last backup (arc-connect restore <file>, docs/operations.md)."
    );
  }
  if (code.startsWith("SQLITE_")) return `Database error at ${file}: ${message} (${code}).`;
  return error;
}

/** Runs this process's command line, then exits with its code (unless `serve` keeps running). */
export function main(files: AppFiles) {
  runCli(process.argv.slice(2), files).then(
    (code) => {
      if (code !== null) process.exit(code);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
