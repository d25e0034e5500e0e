-- CreateIndex
CREATE INDEX "Transmission_patientId_sentAt_therapiesAccepted_deviatingTherapies_idx" ON "Transmission"("patientId", "sentAt", "therapiesAccepted", "deviatingTherapies");

