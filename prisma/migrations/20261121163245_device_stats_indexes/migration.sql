-- DropIndex
DROP INDEX "DeviceStat_core_createdAt_idx";

-- CreateIndex
CREATE INDEX "DeviceStat_core_createdAt_memoryUsage_cpuUsage_temperature_idx" ON "DeviceStat"("core", "createdAt", "memoryUsage", "cpuUsage", "temperature");

-- CreateIndex
CREATE INDEX "DeviceStat_serial_createdAt_idx" ON "DeviceStat"("serial", "createdAt");

