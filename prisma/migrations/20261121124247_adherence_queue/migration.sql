-- CreateTable
CREATE TABLE "AdherenceQueue" (
    "patientId" TEXT NOT NULL PRIMARY KEY,
    "fromAt" DATETIME NOT NULL,
    "seq" INTEGER NOT NULL DEFAULT 1,
    CONSTRAINT "AdherenceQueue_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

