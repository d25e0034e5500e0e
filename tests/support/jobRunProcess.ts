// A process that dies in the middle of a daily-summary run, for the "kill -9 mid-run" tests:
// runs the job for the slot of <now> through runJob (as the scheduler does, with a run lease of
// <lease ms>), and once the first care site is done (its log line) prints that line and blocks
// its thread for good, so the test can SIGKILL it there: one site done, the others not.
//   tsx tests/support/jobRunProcess.ts <now ISO> <lease ms>
import { configureDatabase } from "~/lib/db.server";
import { dailySummaryJob } from "~/jobs/dailySummary.server";
import { runJob } from "~/jobs/scheduler.server";

const print = console.log.bind(console);
console.log = (...args: unknown[]) => {
  print(...args); // a pipe: written before the next line runs
  if (String(args[0]).includes("daily summary: care site done")) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
};

async function main() {
  const [now, leaseMs] = process.argv.slice(2);
  await configureDatabase();
  const ttlMs = Number(leaseMs);
  await runJob(dailySummaryJob, new Date(now), {
    lease: { ttlMs, renewMs: Math.max(50, Math.floor(ttlMs / 3)) },
  });
  print("finished"); // never reached when there is more than one care site
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
