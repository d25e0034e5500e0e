-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "username" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "speciality" TEXT,
    "measuringUnit" TEXT NOT NULL DEFAULT 'Imperial',
    "photoId" TEXT,
    "addressLine1" TEXT,
    "addressLine2" TEXT,
    "city" TEXT,
    "state" TEXT,
    "zip" TEXT,
    "country" TEXT DEFAULT 'United States',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "User_photoId_fkey" FOREIGN KEY ("photoId") REFERENCES "Upload" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PatientProfile" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "patientTag" TEXT,
    "dateOfBirth" TEXT,
    "gender" TEXT,
    "bloodType" TEXT,
    "heightIn" REAL,
    "weightLb" REAL,
    "existingCondition1" TEXT,
    "existingCondition2" TEXT,
    "existingCondition3" TEXT,
    "allergy1" TEXT,
    "allergy2" TEXT,
    "allergy3" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PatientProfile_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT,
    "data" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "authenticatedAt" DATETIME,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "revokedAt" DATETIME,
    "ip" TEXT,
    "userAgent" TEXT,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OneTimeCode" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT,
    "purpose" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "payload" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "sends" INTEGER NOT NULL DEFAULT 1,
    "expiresAt" DATETIME NOT NULL,
    "consumedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OneTimeCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AuthThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "windowStartsAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" DATETIME
);

-- CreateTable
CREATE TABLE "CareSite" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountNumber" TEXT,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "phone" TEXT,
    "website" TEXT,
    "addressLine1" TEXT,
    "addressLine2" TEXT,
    "city" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "zip" TEXT NOT NULL,
    "country" TEXT NOT NULL DEFAULT 'United States',
    "status" TEXT NOT NULL DEFAULT 'active',
    "timeZone" TEXT NOT NULL DEFAULT 'America/Chicago',
    "photoId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CareSite_photoId_fkey" FOREIGN KEY ("photoId") REFERENCES "Upload" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Membership" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "careSiteId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "acceptedAt" DATETIME,
    CONSTRAINT "Membership_careSiteId_fkey" FOREIGN KEY ("careSiteId") REFERENCES "CareSite" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "careSiteId" TEXT,
    "invitedById" TEXT NOT NULL,
    "membershipId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "tokenHash" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Invitation_careSiteId_fkey" FOREIGN KEY ("careSiteId") REFERENCES "CareSite" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Invitation_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Invitation_membershipId_fkey" FOREIGN KEY ("membershipId") REFERENCES "Membership" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Device" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "serial" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME
);

-- CreateTable
CREATE TABLE "Pairing" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "deviceId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "careSiteId" TEXT,
    "pairedById" TEXT,
    "pairedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "unpairedAt" DATETIME,
    CONSTRAINT "Pairing_deviceId_fkey" FOREIGN KEY ("deviceId") REFERENCES "Device" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Pairing_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Pairing_careSiteId_fkey" FOREIGN KEY ("careSiteId") REFERENCES "CareSite" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Pairing_pairedById_fkey" FOREIGN KEY ("pairedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Prescription" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "deviceId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "cycles" INTEGER NOT NULL,
    "pauseP" REAL NOT NULL,
    "pauseT" REAL NOT NULL,
    "inspP" REAL NOT NULL,
    "inspT" REAL NOT NULL,
    "expP" REAL NOT NULL,
    "expT" REAL NOT NULL,
    "oscillation" BOOLEAN NOT NULL,
    "firstSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "isAdjustment" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Prescription_deviceId_fkey" FOREIGN KEY ("deviceId") REFERENCES "Device" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Transmission" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "deviceId" TEXT NOT NULL,
    "pairingId" TEXT,
    "patientId" TEXT,
    "prescriptionId" TEXT NOT NULL,
    "sentAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hmr" REAL,
    "therapiesAccepted" INTEGER NOT NULL DEFAULT 0,
    "therapiesDuplicate" INTEGER NOT NULL DEFAULT 0,
    "deviatingTherapies" INTEGER NOT NULL DEFAULT 0,
    "therapyAdjustment" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Transmission_deviceId_fkey" FOREIGN KEY ("deviceId") REFERENCES "Device" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Transmission_pairingId_fkey" FOREIGN KEY ("pairingId") REFERENCES "Pairing" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Transmission_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Transmission_prescriptionId_fkey" FOREIGN KEY ("prescriptionId") REFERENCES "Prescription" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Therapy" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "deviceId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "transmissionId" TEXT NOT NULL,
    "prescriptionId" TEXT NOT NULL,
    "pairingId" TEXT,
    "patientId" TEXT,
    "startedAt" DATETIME NOT NULL,
    "mode" TEXT NOT NULL,
    "prescribedCycles" INTEGER NOT NULL,
    "cyclesDelivered" INTEGER NOT NULL,
    "completed" BOOLEAN NOT NULL,
    "deviates" BOOLEAN NOT NULL,
    "pauseP" REAL NOT NULL,
    "pauseT" REAL NOT NULL,
    "inspP" REAL NOT NULL,
    "inspT" REAL NOT NULL,
    "expP" REAL NOT NULL,
    "expT" REAL NOT NULL,
    "oscillation" BOOLEAN NOT NULL,
    CONSTRAINT "Therapy_deviceId_fkey" FOREIGN KEY ("deviceId") REFERENCES "Device" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Therapy_transmissionId_fkey" FOREIGN KEY ("transmissionId") REFERENCES "Transmission" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Therapy_prescriptionId_fkey" FOREIGN KEY ("prescriptionId") REFERENCES "Prescription" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Therapy_pairingId_fkey" FOREIGN KEY ("pairingId") REFERENCES "Pairing" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Therapy_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Cycle" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "therapyId" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "peakInspP" REAL,
    "expVolume" REAL,
    "peakFlow" REAL,
    "spo2" REAL,
    "oscillation" BOOLEAN NOT NULL,
    CONSTRAINT "Cycle_therapyId_fkey" FOREIGN KEY ("therapyId") REFERENCES "Therapy" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TherapyGoal" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "patientId" TEXT NOT NULL,
    "pairingId" TEXT,
    "timesPerDay" INTEGER NOT NULL,
    "days" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TherapyGoal_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TherapyGoal_pairingId_fkey" FOREIGN KEY ("pairingId") REFERENCES "Pairing" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "TherapyGoal_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DailyAdherence" (
    "patientId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "isGoalDay" BOOLEAN NOT NULL,
    "timesPerDay" INTEGER,
    "therapies" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0,
    "dayAdherence" REAL,
    "score" REAL,
    "maxHmr" REAL,

    PRIMARY KEY ("patientId", "day"),
    CONSTRAINT "DailyAdherence_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PatientNote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "patientId" TEXT NOT NULL,
    "careSiteId" TEXT,
    "authorId" TEXT,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PatientNote_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PatientNote_careSiteId_fkey" FOREIGN KEY ("careSiteId") REFERENCES "CareSite" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "PatientNote_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "NotificationSetting" (
    "careSiteId" TEXT NOT NULL PRIMARY KEY,
    "days" TEXT NOT NULL DEFAULT '',
    "recipients" TEXT NOT NULL DEFAULT '',
    "adherenceThreshold" INTEGER NOT NULL DEFAULT 70,
    "spo2Threshold" INTEGER NOT NULL DEFAULT 90,
    "therapyAdjustment" BOOLEAN NOT NULL DEFAULT false,
    "updatedById" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "NotificationSetting_careSiteId_fkey" FOREIGN KEY ("careSiteId") REFERENCES "CareSite" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "NotificationSetting_updatedById_fkey" FOREIGN KEY ("updatedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "NotificationSummary" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "careSiteId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "csv" TEXT NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "emailedAt" DATETIME,
    CONSTRAINT "NotificationSummary_careSiteId_fkey" FOREIGN KEY ("careSiteId") REFERENCES "CareSite" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChatDialog" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" INTEGER NOT NULL,
    "name" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastMessageAt" DATETIME
);

-- CreateTable
CREATE TABLE "ChatParticipant" (
    "dialogId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "joinedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastDeliveredAt" DATETIME,
    "lastReadAt" DATETIME,

    PRIMARY KEY ("dialogId", "userId"),
    CONSTRAINT "ChatParticipant_dialogId_fkey" FOREIGN KEY ("dialogId") REFERENCES "ChatDialog" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ChatParticipant_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChatMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "dialogId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ChatMessage_dialogId_fkey" FOREIGN KEY ("dialogId") REFERENCES "ChatDialog" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ChatMessage_senderId_fkey" FOREIGN KEY ("senderId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChatAttachment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "messageId" TEXT NOT NULL,
    "uploadId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    CONSTRAINT "ChatAttachment_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "ChatMessage" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ChatAttachment_uploadId_fkey" FOREIGN KEY ("uploadId") REFERENCES "Upload" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HelpMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "HelpMessage_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DeviceStat" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "deviceId" TEXT,
    "serial" TEXT NOT NULL,
    "deviceType" TEXT,
    "core" TEXT,
    "memoryUsage" REAL,
    "cpuUsage" REAL,
    "temperature" REAL,
    "test" TEXT,
    "createdAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "therapyStartTime" DATETIME,
    "therapyEndTime" DATETIME,
    "profile" TEXT,
    "testType" TEXT,
    "usr" REAL,
    "sys" REAL,
    "nic" REAL,
    "idle" REAL,
    "io" REAL,
    "irq" REAL,
    "sirq" REAL,
    "mode" TEXT,
    "oscillation" TEXT,
    "frequency" REAL,
    "amplitude" REAL,
    "cycle" REAL,
    "flow" REAL,
    "pausePressure" REAL,
    "inspPressure" REAL,
    "expPressure" REAL,
    "duration" REAL,
    "testDec" TEXT,
    CONSTRAINT "DeviceStat_deviceId_fkey" FOREIGN KEY ("deviceId") REFERENCES "Device" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LogFile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "fileName" TEXT NOT NULL,
    "deviceSerial" TEXT NOT NULL,
    "deviceType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "storagePath" TEXT NOT NULL,
    "firstTherapyAt" TEXT,
    "lastTherapyAt" TEXT,
    "uploadedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "LogFile_uploadedById_fkey" FOREIGN KEY ("uploadedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Upload" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT,
    "kind" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "storagePath" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Upload_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "careSiteId" TEXT,
    "ip" TEXT,
    "detail" TEXT,
    CONSTRAINT "AuditEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AuditEvent_careSiteId_fkey" FOREIGN KEY ("careSiteId") REFERENCES "CareSite" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OutboxMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "channel" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT,
    "body" TEXT NOT NULL,
    "html" TEXT,
    "attachments" TEXT,
    "dedupeKey" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" DATETIME
);

-- CreateTable
CREATE TABLE "JobRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "job" TEXT NOT NULL,
    "runKey" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    "detail" TEXT
);

-- CreateIndex
CREATE UNIQUE INDEX "User_username_key" ON "User"("username");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "User_role_status_idx" ON "User"("role", "status");

-- CreateIndex
CREATE INDEX "User_lastName_firstName_idx" ON "User"("lastName", "firstName");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");

-- CreateIndex
CREATE INDEX "OneTimeCode_userId_purpose_idx" ON "OneTimeCode"("userId", "purpose");

-- CreateIndex
CREATE INDEX "OneTimeCode_expiresAt_idx" ON "OneTimeCode"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "CareSite_accountNumber_key" ON "CareSite"("accountNumber");

-- CreateIndex
CREATE INDEX "CareSite_status_name_idx" ON "CareSite"("status", "name");

-- CreateIndex
CREATE INDEX "Membership_userId_status_idx" ON "Membership"("userId", "status");

-- CreateIndex
CREATE INDEX "Membership_careSiteId_role_status_idx" ON "Membership"("careSiteId", "role", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Membership_careSiteId_userId_key" ON "Membership"("careSiteId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");

-- CreateIndex
CREATE INDEX "Invitation_invitedById_status_idx" ON "Invitation"("invitedById", "status");

-- CreateIndex
CREATE INDEX "Invitation_email_status_idx" ON "Invitation"("email", "status");

-- CreateIndex
CREATE INDEX "Invitation_careSiteId_status_idx" ON "Invitation"("careSiteId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Device_serial_key" ON "Device"("serial");

-- CreateIndex
CREATE INDEX "Pairing_patientId_unpairedAt_idx" ON "Pairing"("patientId", "unpairedAt");

-- CreateIndex
CREATE INDEX "Pairing_deviceId_unpairedAt_idx" ON "Pairing"("deviceId", "unpairedAt");

-- CreateIndex
CREATE INDEX "Prescription_deviceId_firstSeenAt_idx" ON "Prescription"("deviceId", "firstSeenAt");

-- CreateIndex
CREATE INDEX "Transmission_patientId_receivedAt_idx" ON "Transmission"("patientId", "receivedAt");

-- CreateIndex
CREATE INDEX "Transmission_deviceId_receivedAt_idx" ON "Transmission"("deviceId", "receivedAt");

-- CreateIndex
CREATE INDEX "Therapy_patientId_startedAt_idx" ON "Therapy"("patientId", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Therapy_deviceId_eventId_key" ON "Therapy"("deviceId", "eventId");

-- CreateIndex
CREATE UNIQUE INDEX "Cycle_therapyId_n_key" ON "Cycle"("therapyId", "n");

-- CreateIndex
CREATE INDEX "TherapyGoal_patientId_createdAt_idx" ON "TherapyGoal"("patientId", "createdAt");

-- CreateIndex
CREATE INDEX "DailyAdherence_day_score_idx" ON "DailyAdherence"("day", "score");

-- CreateIndex
CREATE INDEX "PatientNote_patientId_createdAt_idx" ON "PatientNote"("patientId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationSummary_careSiteId_day_key" ON "NotificationSummary"("careSiteId", "day");

-- CreateIndex
CREATE INDEX "ChatDialog_lastMessageAt_idx" ON "ChatDialog"("lastMessageAt");

-- CreateIndex
CREATE INDEX "ChatParticipant_userId_idx" ON "ChatParticipant"("userId");

-- CreateIndex
CREATE INDEX "ChatMessage_dialogId_createdAt_idx" ON "ChatMessage"("dialogId", "createdAt");

-- CreateIndex
CREATE INDEX "DeviceStat_createdAt_idx" ON "DeviceStat"("createdAt");

-- CreateIndex
CREATE INDEX "DeviceStat_core_createdAt_idx" ON "DeviceStat"("core", "createdAt");

-- CreateIndex
CREATE INDEX "LogFile_expiresAt_idx" ON "LogFile"("expiresAt");

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");

-- CreateIndex
CREATE INDEX "AuditEvent_actorId_at_idx" ON "AuditEvent"("actorId", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_targetType_targetId_idx" ON "AuditEvent"("targetType", "targetId");

-- CreateIndex
CREATE UNIQUE INDEX "OutboxMessage_dedupeKey_key" ON "OutboxMessage"("dedupeKey");

-- CreateIndex
CREATE INDEX "OutboxMessage_status_createdAt_idx" ON "OutboxMessage"("status", "createdAt");

-- CreateIndex
CREATE INDEX "OutboxMessage_createdAt_idx" ON "OutboxMessage"("createdAt");

-- CreateIndex
CREATE INDEX "JobRun_job_startedAt_idx" ON "JobRun"("job", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "JobRun_job_runKey_key" ON "JobRun"("job", "runKey");

