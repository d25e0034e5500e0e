// Archives a care site's daily notification summary as today's 07:00 run would (its current
// settings, yesterday in its zone or the day given, the emails queued), whatever weekdays it selects; nothing when
// that day is archived already. Run by summary.ts in a process of its own on the test server's
// database (DATA_DIR), so the app's own code writes the archive. Prints {"day", "created"}.
import { configureDatabase, prisma } from "~/lib/db.server";
import { yesterdayInZone } from "~/lib/time";
import {
  summarizeCareSite,
  summaryDayOf,
  summaryRunAt,
} from "~/domain/notifications/dailySummary.server";
import { readNotificationSettings } from "~/domain/notifications/settings.server";

async function main(careSiteId: string, asked?: string) {
  await configureDatabase();
  const site = await prisma.careSite.findUniqueOrThrow({
    where: { id: careSiteId },
    select: { id: true, name: true, timeZone: true },
  });
  const day = asked ?? yesterdayInZone(summaryRunAt(summaryDayOf(new Date())), site.timeZone);
  const settings = await readNotificationSettings(site.id);
  const outcome = await summarizeCareSite(site, day, settings);
  process.stdout.write(`\n${JSON.stringify({ day, created: outcome.created })}\n`);
}

main(process.argv[2], process.argv[3])
  .finally(() => prisma.$disconnect())
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
