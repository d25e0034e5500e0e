-- DropIndex
DROP INDEX "DeviceStat_createdAt_idx";

-- DropIndex
DROP INDEX "DeviceStat_core_createdAt_idx";

-- CreateIndex
CREATE INDEX "DeviceStat_createdAt_core_memoryUsage_cpuUsage_temperature_idx" ON "DeviceStat"("createdAt", "core", "memoryUsage", "cpuUsage", "temperature");

