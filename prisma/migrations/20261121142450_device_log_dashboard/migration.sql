-- CreateTable
CREATE TABLE "LogAnnotation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "logFileId" TEXT NOT NULL,
    "cycleEventId" INTEGER NOT NULL,
    "y" REAL NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LogAnnotation_logFileId_fkey" FOREIGN KEY ("logFileId") REFERENCES "LogFile" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LogReportItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "logFileId" TEXT NOT NULL,
    "caption" TEXT NOT NULL,
    "fromDay" TEXT NOT NULL,
    "toDay" TEXT NOT NULL,
    "eventIds" TEXT NOT NULL,
    "page" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LogReportItem_logFileId_fkey" FOREIGN KEY ("logFileId") REFERENCES "LogFile" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_LogFile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "fileName" TEXT NOT NULL,
    "deviceSerial" TEXT NOT NULL,
    "deviceType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "storagePath" TEXT NOT NULL,
    "firstTherapyAt" TEXT,
    "lastTherapyAt" TEXT,
    "logsFrom" TEXT,
    "logsTo" TEXT,
    "selection" TEXT NOT NULL DEFAULT '[]',
    "uploadedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "LogFile_uploadedById_fkey" FOREIGN KEY ("uploadedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_LogFile" ("createdAt", "deviceSerial", "deviceType", "expiresAt", "fileName", "firstTherapyAt", "id", "lastTherapyAt", "rowCount", "sizeBytes", "storagePath", "uploadedById") SELECT "createdAt", "deviceSerial", "deviceType", "expiresAt", "fileName", "firstTherapyAt", "id", "lastTherapyAt", "rowCount", "sizeBytes", "storagePath", "uploadedById" FROM "LogFile";
DROP TABLE "LogFile";
ALTER TABLE "new_LogFile" RENAME TO "LogFile";
CREATE INDEX "LogFile_expiresAt_idx" ON "LogFile"("expiresAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "LogAnnotation_logFileId_cycleEventId_idx" ON "LogAnnotation"("logFileId", "cycleEventId");

-- CreateIndex
CREATE INDEX "LogReportItem_logFileId_createdAt_idx" ON "LogReportItem"("logFileId", "createdAt");

