-- DropIndex
DROP INDEX "Membership_careSiteId_role_status_idx";

-- DropIndex
DROP INDEX "Therapy_patientId_startedAt_idx";

-- CreateIndex
CREATE INDEX "Membership_careSiteId_role_status_userId_idx" ON "Membership"("careSiteId", "role", "status", "userId");

-- CreateIndex
CREATE INDEX "Therapy_patientId_startedAt_transmissionId_deviates_idx" ON "Therapy"("patientId", "startedAt", "transmissionId", "deviates");

