-- CreateTable
CREATE TABLE "StandingVersion" (
    "careSiteId" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL DEFAULT 0
);


-- Raised by hand-written triggers (Prisma's schema has no triggers; SQLite syntax, kept to this
-- file): every write of a site's PatientStanding rows, and every pairing of one of its patients
-- that starts or ends (the "never transmitted" card asks for a current pairing). An UPDATE raises
-- it even when no value changed: the adherence worker rewrites the rows of every patient ingest
-- queued, so a transmission reaches the version with the standing it changes. A site's first
-- version is random, not 1: a site whose row was deleted (a restore, a test's reset) does not
-- start again at a number a running server may have kept cards for.
CREATE TRIGGER "StandingVersion_standing_insert" AFTER INSERT ON "PatientStanding"
BEGIN
    INSERT INTO "StandingVersion" ("careSiteId", "version") VALUES (NEW."careSiteId", abs(random() % 1000000000))
    ON CONFLICT ("careSiteId") DO UPDATE SET "version" = "version" + 1;
END;

CREATE TRIGGER "StandingVersion_standing_update" AFTER UPDATE ON "PatientStanding"
BEGIN
    INSERT INTO "StandingVersion" ("careSiteId", "version") VALUES (NEW."careSiteId", abs(random() % 1000000000))
    ON CONFLICT ("careSiteId") DO UPDATE SET "version" = "version" + 1;
    INSERT INTO "StandingVersion" ("careSiteId", "version") VALUES (OLD."careSiteId", abs(random() % 1000000000))
    ON CONFLICT ("careSiteId") DO UPDATE SET "version" = "version" + 1;
END;

CREATE TRIGGER "StandingVersion_standing_delete" AFTER DELETE ON "PatientStanding"
BEGIN
    INSERT INTO "StandingVersion" ("careSiteId", "version") VALUES (OLD."careSiteId", abs(random() % 1000000000))
    ON CONFLICT ("careSiteId") DO UPDATE SET "version" = "version" + 1;
END;

CREATE TRIGGER "StandingVersion_pairing_insert" AFTER INSERT ON "Pairing"
BEGIN
    INSERT INTO "StandingVersion" ("careSiteId", "version")
    SELECT s."careSiteId", abs(random() % 1000000000) FROM "PatientStanding" s WHERE s."patientId" = NEW."patientId"
    ON CONFLICT ("careSiteId") DO UPDATE SET "version" = "version" + 1;
END;

CREATE TRIGGER "StandingVersion_pairing_update" AFTER UPDATE OF "patientId", "unpairedAt" ON "Pairing"
BEGIN
    INSERT INTO "StandingVersion" ("careSiteId", "version")
    SELECT s."careSiteId", abs(random() % 1000000000) FROM "PatientStanding" s WHERE s."patientId" IN (NEW."patientId", OLD."patientId")
    ON CONFLICT ("careSiteId") DO UPDATE SET "version" = "version" + 1;
END;

CREATE TRIGGER "StandingVersion_pairing_delete" AFTER DELETE ON "Pairing"
BEGIN
    INSERT INTO "StandingVersion" ("careSiteId", "version")
    SELECT s."careSiteId", abs(random() % 1000000000) FROM "PatientStanding" s WHERE s."patientId" = OLD."patientId"
    ON CONFLICT ("careSiteId") DO UPDATE SET "version" = "version" + 1;
END;

-- Every care site that has standing rows already gets its version now (a site without one is
-- counted on each view until its first standing write).
INSERT INTO "StandingVersion" ("careSiteId", "version")
SELECT "careSiteId", abs(random() % 1000000000) FROM "PatientStanding" GROUP BY "careSiteId";
