-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_NotificationSummary" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "careSiteId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "csv" TEXT NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "rows" TEXT NOT NULL DEFAULT '[]',
    "settings" TEXT NOT NULL DEFAULT '{}',
    "emails" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "emailedAt" DATETIME,
    CONSTRAINT "NotificationSummary_careSiteId_fkey" FOREIGN KEY ("careSiteId") REFERENCES "CareSite" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_NotificationSummary" ("careSiteId", "createdAt", "csv", "day", "emailedAt", "id", "rowCount") SELECT "careSiteId", "createdAt", "csv", "day", "emailedAt", "id", "rowCount" FROM "NotificationSummary";
DROP TABLE "NotificationSummary";
ALTER TABLE "new_NotificationSummary" RENAME TO "NotificationSummary";
CREATE UNIQUE INDEX "NotificationSummary_careSiteId_day_key" ON "NotificationSummary"("careSiteId", "day");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

