// What the care team sets and writes: therapy goals, patient notes, notification settings.
import type { Prisma } from "../../app/generated/prisma/client";
import { type Db, type Time, toDate } from "./client";

export const EVERY_DAY = "mon,tue,wed,thu,fri,sat,sun";

type GoalInput = Omit<Partial<Prisma.TherapyGoalCreateManyInput>, "createdAt"> & {
  patientId: string;
  createdAt?: Time;
};

/** A goal (two therapies every day unless told) governing the days after it was set. */
export function buildTherapyGoal(input: GoalInput): Prisma.TherapyGoalCreateManyInput {
  return {
    timesPerDay: 2,
    days: EVERY_DAY,
    ...input,
    createdAt: toDate(input.createdAt ?? Date.now()),
  };
}

export function createTherapyGoal(db: Db, input: GoalInput) {
  return db.therapyGoal.create({ data: buildTherapyGoal(input) });
}

type NoteInput = Omit<Prisma.PatientNoteCreateManyInput, "createdAt" | "updatedAt"> & {
  createdAt?: Time;
  updatedAt?: Time;
};

export function buildPatientNote(input: NoteInput): Prisma.PatientNoteCreateManyInput {
  const createdAt = toDate(input.createdAt ?? Date.now());
  return {
    ...input,
    createdAt,
    updatedAt: toDate(input.updatedAt ?? createdAt),
  };
}

type SettingInput = Omit<Prisma.NotificationSettingCreateManyInput, "updatedAt"> & {
  updatedAt?: Time;
};

export function buildNotificationSetting(
  input: SettingInput,
): Prisma.NotificationSettingCreateManyInput {
  return { ...input, updatedAt: toDate(input.updatedAt ?? Date.now()) };
}
