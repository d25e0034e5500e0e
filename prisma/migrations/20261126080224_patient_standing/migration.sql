-- CreateTable
CREATE TABLE "PatientStanding" (
    "careSiteId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "day1" TEXT,
    "score1" REAL,
    "missed1" BOOLEAN NOT NULL DEFAULT false,
    "day2" TEXT,
    "score2" REAL,
    "missed2" BOOLEAN NOT NULL DEFAULT false,
    "day3" TEXT,
    "score3" REAL,
    "missed3" BOOLEAN NOT NULL DEFAULT false,
    "transmitted" BOOLEAN NOT NULL DEFAULT false,
    "lastSentAt" DATETIME,
    "lastSentBeforeAt" DATETIME,
    "lastDeviatingAt" DATETIME,
    "lastDeviatingBeforeAt" DATETIME,

    PRIMARY KEY ("careSiteId", "patientId")
);

-- AlterTable (a column with a constant default: no table rebuild over millions of rows)
ALTER TABLE "DailyAdherence" ADD COLUMN "missedStreak" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "PatientStanding_cards_idx" ON "PatientStanding"("careSiteId", "day1", "score1", "missed1", "day2", "score2", "missed2", "day3", "score3", "missed3", "transmitted", "lastSentAt", "lastSentBeforeAt", "lastDeviatingAt", "lastDeviatingBeforeAt", "patientId");

-- CreateIndex
CREATE INDEX "PatientStanding_lastName_idx" ON "PatientStanding"("careSiteId", "lastName", "patientId");

-- CreateIndex
CREATE INDEX "PatientStanding_firstName_idx" ON "PatientStanding"("careSiteId", "firstName", "lastName", "patientId");

-- CreateIndex
CREATE INDEX "PatientStanding_patientId_idx" ON "PatientStanding"("patientId");

-- CreateIndex
CREATE INDEX "TherapyGoal_createdAt_patientId_idx" ON "TherapyGoal"("createdAt", "patientId");


-- The rows follow the accepted patient memberships and the patients' names (written by hand:
-- Prisma's schema has no triggers; SQLite syntax, kept to this file). A new row copies the
-- patient's values from another care site's row when there is one; otherwise, if the patient
-- already has adherence rows, the patient is queued for the adherence worker (AdherenceQueue,
-- from now: today's row and the standing are rewritten), which fills the row in.
CREATE TRIGGER "PatientStanding_membership_insert" AFTER INSERT ON "Membership"
WHEN NEW."role" = 'patient' AND NEW."status" = 'accepted'
BEGIN
    INSERT INTO "PatientStanding" ("careSiteId", "patientId", "firstName", "lastName")
    SELECT NEW."careSiteId", u."id", u."firstName", u."lastName" FROM "User" u WHERE u."id" = NEW."userId"
    ON CONFLICT ("careSiteId", "patientId") DO NOTHING;
    UPDATE "PatientStanding" SET
        ("day1", "score1", "missed1", "day2", "score2", "missed2", "day3", "score3", "missed3",
         "transmitted", "lastSentAt", "lastSentBeforeAt", "lastDeviatingAt", "lastDeviatingBeforeAt") = (
        SELECT o."day1", o."score1", o."missed1", o."day2", o."score2", o."missed2", o."day3", o."score3", o."missed3",
            o."transmitted", o."lastSentAt", o."lastSentBeforeAt", o."lastDeviatingAt", o."lastDeviatingBeforeAt"
        FROM "PatientStanding" o WHERE o."patientId" = NEW."userId" AND o."careSiteId" <> NEW."careSiteId" LIMIT 1)
    WHERE "careSiteId" = NEW."careSiteId" AND "patientId" = NEW."userId"
        AND EXISTS (SELECT 1 FROM "PatientStanding" o WHERE o."patientId" = NEW."userId" AND o."careSiteId" <> NEW."careSiteId");
    INSERT INTO "AdherenceQueue" ("patientId", "fromAt")
    SELECT NEW."userId", CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    WHERE NOT EXISTS (SELECT 1 FROM "PatientStanding" o WHERE o."patientId" = NEW."userId" AND o."careSiteId" <> NEW."careSiteId")
        AND EXISTS (SELECT 1 FROM "DailyAdherence" d WHERE d."patientId" = NEW."userId")
    ON CONFLICT ("patientId") DO UPDATE SET "seq" = "seq" + 1;
END;

CREATE TRIGGER "PatientStanding_membership_leave" AFTER UPDATE OF "careSiteId", "userId", "role", "status" ON "Membership"
WHEN OLD."role" = 'patient' AND OLD."status" = 'accepted'
BEGIN
    DELETE FROM "PatientStanding" WHERE "careSiteId" = OLD."careSiteId" AND "patientId" = OLD."userId";
END;

CREATE TRIGGER "PatientStanding_membership_join" AFTER UPDATE OF "careSiteId", "userId", "role", "status" ON "Membership"
WHEN NEW."role" = 'patient' AND NEW."status" = 'accepted'
BEGIN
    INSERT INTO "PatientStanding" ("careSiteId", "patientId", "firstName", "lastName")
    SELECT NEW."careSiteId", u."id", u."firstName", u."lastName" FROM "User" u WHERE u."id" = NEW."userId"
    ON CONFLICT ("careSiteId", "patientId") DO NOTHING;
    UPDATE "PatientStanding" SET
        ("day1", "score1", "missed1", "day2", "score2", "missed2", "day3", "score3", "missed3",
         "transmitted", "lastSentAt", "lastSentBeforeAt", "lastDeviatingAt", "lastDeviatingBeforeAt") = (
        SELECT o."day1", o."score1", o."missed1", o."day2", o."score2", o."missed2", o."day3", o."score3", o."missed3",
            o."transmitted", o."lastSentAt", o."lastSentBeforeAt", o."lastDeviatingAt", o."lastDeviatingBeforeAt"
        FROM "PatientStanding" o WHERE o."patientId" = NEW."userId" AND o."careSiteId" <> NEW."careSiteId" LIMIT 1)
    WHERE "careSiteId" = NEW."careSiteId" AND "patientId" = NEW."userId"
        AND EXISTS (SELECT 1 FROM "PatientStanding" o WHERE o."patientId" = NEW."userId" AND o."careSiteId" <> NEW."careSiteId");
    INSERT INTO "AdherenceQueue" ("patientId", "fromAt")
    SELECT NEW."userId", CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    WHERE NOT EXISTS (SELECT 1 FROM "PatientStanding" o WHERE o."patientId" = NEW."userId" AND o."careSiteId" <> NEW."careSiteId")
        AND EXISTS (SELECT 1 FROM "DailyAdherence" d WHERE d."patientId" = NEW."userId")
    ON CONFLICT ("patientId") DO UPDATE SET "seq" = "seq" + 1;
END;

CREATE TRIGGER "PatientStanding_membership_delete" AFTER DELETE ON "Membership"
WHEN OLD."role" = 'patient' AND OLD."status" = 'accepted'
BEGIN
    DELETE FROM "PatientStanding" WHERE "careSiteId" = OLD."careSiteId" AND "patientId" = OLD."userId";
END;

CREATE TRIGGER "PatientStanding_names" AFTER UPDATE OF "firstName", "lastName" ON "User"
BEGIN
    UPDATE "PatientStanding" SET "firstName" = NEW."firstName", "lastName" = NEW."lastName"
    WHERE "patientId" = NEW."id";
END;

-- Existing data: a row per accepted patient membership, and every patient with adherence rows
-- queued from the first pairing, so that the worker writes missedStreak and the standing.
INSERT INTO "PatientStanding" ("careSiteId", "patientId", "firstName", "lastName")
SELECT m."careSiteId", m."userId", u."firstName", u."lastName"
FROM "Membership" m JOIN "User" u ON u."id" = m."userId"
WHERE m."role" = 'patient' AND m."status" = 'accepted';

INSERT INTO "AdherenceQueue" ("patientId", "fromAt")
SELECT p."patientId", MIN(p."pairedAt") FROM "Pairing" p
WHERE EXISTS (SELECT 1 FROM "DailyAdherence" d WHERE d."patientId" = p."patientId")
GROUP BY p."patientId"
ON CONFLICT ("patientId") DO UPDATE SET "fromAt" = min("fromAt", excluded."fromAt"), "seq" = "seq" + 1;
