// A second (third ...) process running the daily summary against the same database, for the
// "two instances at once" test: once its database is set up it prints "ready" and waits for a line
// on stdin (the test sends it to every process at once), runs, prints the result as JSON.
//   tsx tests/support/dailySummaryProcess.ts <now ISO>
import { configureDatabase, disconnectDatabase } from "~/lib/db.server";
import { runDailySummary } from "~/domain/notifications/dailySummary.server";

async function main() {
  const [now] = process.argv.slice(2);
  await configureDatabase();
  const go = new Promise((resolve) => process.stdin.once("data", resolve));
  console.log("ready");
  await go;
  process.stdin.pause();
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
