// A second (third ...) process running the daily summary against the same database, for the
// "two instances at once" test: waits until the given wall-clock instant so the processes start
// together, runs, prints the result as JSON.
//   tsx tests/support/dailySummaryProcess.ts <now ISO> <start at, epoch ms>
import { configureDatabase, disconnectDatabase } from "~/lib/db.server";
import { runDailySummary } from "~/domain/notifications/dailySummary.server";

async function main() {
  const [now, startAt] = process.argv.slice(2);
  await configureDatabase();
  const wait = Number(startAt) - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const result = await runDailySummary(new Date(now));
  console.log(JSON.stringify(result));
}

main()
  .then(() => disconnectDatabase())
  .catch(async (error: unknown) => {
    console.error(error);
    await disconnectDatabase().catch(() => {});
    process.exitCode = 1;
  });
