-- CreateTable
CREATE TABLE "DeviceStatHour" (
    "core" TEXT NOT NULL,
    "hour" DATETIME NOT NULL,
    "memoryCount" INTEGER NOT NULL DEFAULT 0,
    "memorySum" REAL NOT NULL DEFAULT 0,
    "cpuCount" INTEGER NOT NULL DEFAULT 0,
    "cpuSum" REAL NOT NULL DEFAULT 0,
    "temperatureCount" INTEGER NOT NULL DEFAULT 0,
    "temperatureSum" REAL NOT NULL DEFAULT 0,

    PRIMARY KEY ("core", "hour")
);


-- The sums follow the records (written by hand: Prisma's schema has no triggers). DateTime
-- columns hold integer milliseconds, so a record's hour is createdAt - createdAt % 3600000.
CREATE TRIGGER "DeviceStat_hour_insert" AFTER INSERT ON "DeviceStat"
WHEN NEW."core" IN ('Single', 'Dual')
BEGIN
    INSERT INTO "DeviceStatHour" ("core", "hour", "memoryCount", "memorySum", "cpuCount", "cpuSum", "temperatureCount", "temperatureSum")
    VALUES (
        NEW."core", NEW."createdAt" - NEW."createdAt" % 3600000,
        NEW."memoryUsage" IS NOT NULL, coalesce(NEW."memoryUsage", 0),
        NEW."cpuUsage" IS NOT NULL, coalesce(NEW."cpuUsage", 0),
        NEW."temperature" IS NOT NULL, coalesce(NEW."temperature", 0)
    )
    ON CONFLICT ("core", "hour") DO UPDATE SET
        "memoryCount" = "memoryCount" + excluded."memoryCount",
        "memorySum" = "memorySum" + excluded."memorySum",
        "cpuCount" = "cpuCount" + excluded."cpuCount",
        "cpuSum" = "cpuSum" + excluded."cpuSum",
        "temperatureCount" = "temperatureCount" + excluded."temperatureCount",
        "temperatureSum" = "temperatureSum" + excluded."temperatureSum";
END;

CREATE TRIGGER "DeviceStat_hour_delete" AFTER DELETE ON "DeviceStat"
WHEN OLD."core" IN ('Single', 'Dual')
BEGIN
    UPDATE "DeviceStatHour" SET
        "memoryCount" = "memoryCount" - (OLD."memoryUsage" IS NOT NULL),
        "memorySum" = "memorySum" - coalesce(OLD."memoryUsage", 0),
        "cpuCount" = "cpuCount" - (OLD."cpuUsage" IS NOT NULL),
        "cpuSum" = "cpuSum" - coalesce(OLD."cpuUsage", 0),
        "temperatureCount" = "temperatureCount" - (OLD."temperature" IS NOT NULL),
        "temperatureSum" = "temperatureSum" - coalesce(OLD."temperature", 0)
    WHERE "core" = OLD."core" AND "hour" = OLD."createdAt" - OLD."createdAt" % 3600000;
END;

-- Records are never changed once stored; should one be, its old values leave and its new ones
-- join, as a delete and an insert would.
CREATE TRIGGER "DeviceStat_hour_update" AFTER UPDATE OF "core", "createdAt", "memoryUsage", "cpuUsage", "temperature" ON "DeviceStat"
BEGIN
    UPDATE "DeviceStatHour" SET
        "memoryCount" = "memoryCount" - (OLD."memoryUsage" IS NOT NULL),
        "memorySum" = "memorySum" - coalesce(OLD."memoryUsage", 0),
        "cpuCount" = "cpuCount" - (OLD."cpuUsage" IS NOT NULL),
        "cpuSum" = "cpuSum" - coalesce(OLD."cpuUsage", 0),
        "temperatureCount" = "temperatureCount" - (OLD."temperature" IS NOT NULL),
        "temperatureSum" = "temperatureSum" - coalesce(OLD."temperature", 0)
    WHERE OLD."core" IN ('Single', 'Dual')
      AND "core" = OLD."core" AND "hour" = OLD."createdAt" - OLD."createdAt" % 3600000;
    INSERT INTO "DeviceStatHour" ("core", "hour", "memoryCount", "memorySum", "cpuCount", "cpuSum", "temperatureCount", "temperatureSum")
    SELECT NEW."core", NEW."createdAt" - NEW."createdAt" % 3600000,
        NEW."memoryUsage" IS NOT NULL, coalesce(NEW."memoryUsage", 0),
        NEW."cpuUsage" IS NOT NULL, coalesce(NEW."cpuUsage", 0),
        NEW."temperature" IS NOT NULL, coalesce(NEW."temperature", 0)
    WHERE NEW."core" IN ('Single', 'Dual')
    ON CONFLICT ("core", "hour") DO UPDATE SET
        "memoryCount" = "memoryCount" + excluded."memoryCount",
        "memorySum" = "memorySum" + excluded."memorySum",
        "cpuCount" = "cpuCount" + excluded."cpuCount",
        "cpuSum" = "cpuSum" + excluded."cpuSum",
        "temperatureCount" = "temperatureCount" + excluded."temperatureCount",
        "temperatureSum" = "temperatureSum" + excluded."temperatureSum";
END;

-- The records stored before this migration.
INSERT INTO "DeviceStatHour" ("core", "hour", "memoryCount", "memorySum", "cpuCount", "cpuSum", "temperatureCount", "temperatureSum")
SELECT "core", "createdAt" - "createdAt" % 3600000,
    count("memoryUsage"), coalesce(sum("memoryUsage"), 0),
    count("cpuUsage"), coalesce(sum("cpuUsage"), 0),
    count("temperature"), coalesce(sum("temperature"), 0)
FROM "DeviceStat"
WHERE "core" IN ('Single', 'Dual')
GROUP BY 1, 2;
