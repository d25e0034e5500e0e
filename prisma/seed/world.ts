// The demo world as rows (Prisma's create-many inputs), and what its builders share while they
// make it: the calendar of "today", the sequence numbers behind the stable ids, names in use.
import type { Prisma } from "../../app/generated/prisma/client";
import { HOME_ZONE, at, dayOf, shiftDay } from "./calendar";

export type World = {
  User: Prisma.UserCreateManyInput[];
  PatientProfile: Prisma.PatientProfileCreateManyInput[];
  CareSite: Prisma.CareSiteCreateManyInput[];
  Membership: Prisma.MembershipCreateManyInput[];
  Invitation: Prisma.InvitationCreateManyInput[];
  Device: Prisma.DeviceCreateManyInput[];
  Pairing: Prisma.PairingCreateManyInput[];
  Prescription: Prisma.PrescriptionCreateManyInput[];
  Transmission: Prisma.TransmissionCreateManyInput[];
  Therapy: Prisma.TherapyCreateManyInput[];
  Cycle: Prisma.CycleCreateManyInput[];
  TherapyGoal: Prisma.TherapyGoalCreateManyInput[];
  PatientNote: Prisma.PatientNoteCreateManyInput[];
  NotificationSetting: Prisma.NotificationSettingCreateManyInput[];
  ChatDialog: Prisma.ChatDialogCreateManyInput[];
  ChatParticipant: Prisma.ChatParticipantCreateManyInput[];
  ChatMessage: Prisma.ChatMessageCreateManyInput[];
};

/** A person of the world as the other builders refer to them. */
export type Person = { id: string; firstName: string; lastName: string; email: string };

export const WINDOW_DAYS = 90;

export type Ctx = ReturnType<typeof newContext>;

export function newContext(today: Date, passwordHash: string) {
  const todayDay = dayOf(today.getTime(), HOME_ZONE);
  const w: World = {
    User: [],
    PatientProfile: [],
    CareSite: [],
    Membership: [],
    Invitation: [],
    Device: [],
    Pairing: [],
    Prescription: [],
    Transmission: [],
    Therapy: [],
    Cycle: [],
    TherapyGoal: [],
    PatientNote: [],
    NotificationSetting: [],
    ChatDialog: [],
    ChatParticipant: [],
    ChatMessage: [],
  };
  return {
    w,
    passwordHash,
    todayDay,
    yesterday: shiftDay(todayDay, -1),
    windowStart: shiftDay(todayDay, -WINDOW_DAYS),
    /** A local time (minutes after midnight) `daysAgo` days before today in a zone, epoch ms. */
    ago: (daysAgo: number, minutes: number, zone = HOME_ZONE) =>
      at(shiftDay(todayDay, -daysAgo), minutes, zone),
    /** The last number given to each kind of row ("seed-user-007"). */
    seq: {
      user: 0,
      membership: 0,
      invitation: 0,
      device: 0,
      rx: 0,
      pairing: 0,
      goal: 0,
      tx: 0,
      therapy: 0,
      cycle: 0,
    },
    usernames: new Set<string>(),
    emails: new Set<string>(),
    serials: new Set<string>(),
  };
}
