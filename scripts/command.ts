// What the database commands (device.ts, job.ts; `arc-connect device-* | job`) share: their
// errors and how each becomes an exit code.
import { disconnectDatabase } from "~/lib/db.server";

/** A wrong command line: its message and the usage are printed, exit code 2. */
export class UsageError extends Error {}
/** A refusal (bad value, no such record): its message alone is printed, exit code 1. */
export class CommandError extends Error {}

/**
 * Runs a command's body and resolves to the process exit code: the body's own (0 when it returns
 * nothing), 2 for a usage error, 1 for a refusal or a failure. The database is closed either way.
 */
export async function exitCodeOf(body: () => Promise<number | void>, usage: string) {
  try {
    const code = (await body()) ?? 0;
    await disconnectDatabase();
    return code;
  } catch (error) {
    await disconnectDatabase().catch(() => {});
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      console.error(`${(error as Error).message}\n\n${usage}`);
      return 2;
    }
    console.error(error instanceof CommandError ? error.message : error);
    return 1;
  }
}
