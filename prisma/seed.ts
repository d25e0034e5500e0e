// The demo world of ARC Connect: three care sites, their staff, about 60 patients with devices and
// 90 days of therapy data ending yesterday (America/Chicago), invitations in every status, notification
// settings and one chat. Deterministic: every choice comes from a seeded PRNG; only the calendar
// ("today") follows the clock, so the shape of the world is the same on every run.
//
//   tsx prisma/seed.ts             resets the database (DATA_DIR/arc.db) and loads the demo world
//   tsx prisma/seed.ts --if-empty  loads it only when the User table is empty (npm start)
//
// Written with better-sqlite3 in one transaction (Prisma's createMany is ~50x slower, STACK-NOTES.md).
// Storage facts the app relies on: DateTime columns hold integer milliseconds since the epoch
// (adapter timestampFormat "unixepoch-ms"), booleans are 0/1.
// Not filled on purpose: DailyAdherence (computed by the adherence engine), NotificationSummary,
// OutboxMessage, Session, OneTimeCode, DeviceStat.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { hash } from "@node-rs/argon2";
import { applyMigrations, migrationsDir, readMigrations } from "../app/lib/migrate.server";

export const DEMO_PASSWORD = "Demo-pass1!";

/** The accounts a demo visitor signs in with (all share DEMO_PASSWORD). */
export const DEMO_ACCOUNTS = [
  { username: "demo.superadmin", role: "superadmin", label: "Super admin" },
  { username: "demo.abmadmin", role: "abmadmin", label: "ABM Admin" },
  { username: "demo.siteadmin", role: "clinicadmin", label: "Care Site Admin, 2 care sites" },
  { username: "demo.clinician", role: "clinician", label: "Clinician, 2 care sites" },
  {
    username: "demo.newclinician",
    role: "clinician",
    label: "Clinician, no care site yet (1 pending invitation)",
  },
] as const;

const SEED = 20261121;
const SPECIALITIES = [
  "Respiratory therapist",
  "Pulmonologist",
  "Neuromuscular nurse",
  "Physiatrist",
];
const DAY_MS = 86_400_000;
const WINDOW_DAYS = 90;
const HOME_ZONE = "America/Chicago";

// ---------------------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------------------

/** FNV-1a: turns a label into a 32-bit seed so each patient and device has its own stream. */
function seedOf(label: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h ^ SEED) >>> 0;
}

class Rng {
  private a: number;
  constructor(label: string) {
    this.a = seedOf(label);
  }
  /** mulberry32 */
  next() {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** integer in [min, max] */
  int(min: number, max: number) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  float(min: number, max: number) {
    return min + this.next() * (max - min);
  }
  chance(p: number) {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
const pad = (n: number, width: number) => String(n).padStart(width, "0");
const round1 = (x: number) => Math.round(x * 10) / 10;

// ---------------------------------------------------------------------------------------------
// Calendar days in a time zone
// ---------------------------------------------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();
function zoneParts(ms: number, timeZone: string) {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, fmt);
  }
  const parts: Record<string, number> = {};
  for (const p of fmt.formatToParts(new Date(ms)))
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  return parts as {
    year: number;
    month: number;
    day: number;
    hour: number;
    minute: number;
    second: number;
  };
}

function dayInZone(ms: number, timeZone: string) {
  const p = zoneParts(ms, timeZone);
  return `${p.year}-${pad(p.month, 2)}-${pad(p.day, 2)}`;
}

function addDays(day: string, n: number) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10);
}

const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
function weekday(day: string) {
  const [y, m, d] = day.split("-").map(Number);
  return WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
}

const offsets = new Map<string, number>();
/** Milliseconds the zone is ahead of UTC on that day (taken at local noon: DST switches at 02:00). */
function zoneOffset(day: string, timeZone: string) {
  const key = `${timeZone}|${day}`;
  let off = offsets.get(key);
  if (off === undefined) {
    const [y, m, d] = day.split("-").map(Number);
    const noonUtc = Date.UTC(y, m - 1, d, 12);
    const p = zoneParts(noonUtc, timeZone);
    off = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - noonUtc;
    offsets.set(key, off);
  }
  return off;
}

/** The instant of a local wall-clock time (minutes after midnight, 03:00 or later) on a day. */
function at(day: string, minutes: number, timeZone: string) {
  const [y, m, d] = day.split("-").map(Number);
  return Date.UTC(y, m - 1, d) + Math.round(minutes * 60_000) - zoneOffset(day, timeZone);
}

// ---------------------------------------------------------------------------------------------
// Rows (column names = Prisma field names; DateTime = epoch ms)
// ---------------------------------------------------------------------------------------------

type UserRow = {
  id: string;
  username: string;
  email: string;
  phone: string;
  passwordHash: string;
  role: string;
  status: string;
  firstName: string;
  lastName: string;
  speciality: string | null;
  measuringUnit: string;
  photoId: null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string;
  createdAt: number;
  updatedAt: number;
};
type PatientProfileRow = {
  userId: string;
  patientTag: string | null;
  dateOfBirth: string;
  gender: string;
  bloodType: string;
  heightIn: number;
  weightLb: number;
  existingCondition1: string | null;
  existingCondition2: string | null;
  existingCondition3: string | null;
  allergy1: string | null;
  allergy2: string | null;
  allergy3: string | null;
  updatedAt: number;
};
type CareSiteRow = {
  id: string;
  accountNumber: string;
  name: string;
  email: string;
  phone: string;
  website: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  zip: string;
  country: string;
  status: string;
  timeZone: string;
  photoId: null;
  createdAt: number;
  updatedAt: number;
};
type MembershipRow = {
  id: string;
  careSiteId: string;
  userId: string;
  role: string;
  status: string;
  createdAt: number;
  updatedAt: number;
  acceptedAt: number | null;
};
type InvitationRow = {
  id: string;
  email: string;
  role: string;
  careSiteId: string | null;
  invitedById: string;
  membershipId: string | null;
  status: string;
  tokenHash: string;
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
};
type DeviceRow = {
  id: string;
  serial: string;
  type: string;
  tokenHash: string;
  createdAt: number;
  lastSeenAt: number | null;
};
type PairingRow = {
  id: string;
  deviceId: string;
  patientId: string;
  careSiteId: string | null;
  pairedById: string | null;
  pairedAt: number;
  unpairedAt: number | null;
};
type Settings = {
  pauseP: number;
  pauseT: number;
  inspP: number;
  inspT: number;
  expP: number;
  expT: number;
  oscillation: boolean;
};
type PrescriptionRow = Settings & {
  id: string;
  deviceId: string;
  mode: string;
  cycles: number;
  firstSeenAt: number;
  isAdjustment: boolean;
};
type TransmissionRow = {
  id: string;
  deviceId: string;
  pairingId: string | null;
  patientId: string | null;
  prescriptionId: string;
  sentAt: number;
  receivedAt: number;
  hmr: number | null;
  therapiesAccepted: number;
  therapiesDuplicate: number;
  deviatingTherapies: number;
  therapyAdjustment: boolean;
};
type TherapyRow = Settings & {
  id: string;
  deviceId: string;
  eventId: string;
  transmissionId: string;
  prescriptionId: string;
  pairingId: string | null;
  patientId: string | null;
  startedAt: number;
  mode: string;
  prescribedCycles: number;
  cyclesDelivered: number;
  completed: boolean;
  deviates: boolean;
};
type CycleRow = {
  id: string;
  therapyId: string;
  n: number;
  peakInspP: number | null;
  expVolume: number | null;
  peakFlow: number | null;
  spo2: number | null;
  oscillation: boolean;
};
type TherapyGoalRow = {
  id: string;
  patientId: string;
  pairingId: string | null;
  timesPerDay: number;
  days: string;
  createdById: string | null;
  createdAt: number;
};
type PatientNoteRow = {
  id: string;
  patientId: string;
  careSiteId: string | null;
  authorId: string | null;
  body: string;
  createdAt: number;
  updatedAt: number;
};
type NotificationSettingRow = {
  careSiteId: string;
  days: string;
  recipients: string;
  adherenceThreshold: number;
  spo2Threshold: number;
  therapyAdjustment: boolean;
  updatedById: string | null;
  updatedAt: number;
};
type ChatDialogRow = {
  id: string;
  type: number;
  name: string | null;
  createdById: string | null;
  createdAt: number;
  lastMessageAt: number | null;
};
type ChatParticipantRow = {
  dialogId: string;
  userId: string;
  joinedAt: number;
  lastDeliveredAt: number | null;
  lastReadAt: number | null;
};
type ChatMessageRow = {
  id: string;
  dialogId: string;
  senderId: string;
  body: string;
  createdAt: number;
};

type World = {
  User: UserRow[];
  PatientProfile: PatientProfileRow[];
  CareSite: CareSiteRow[];
  Membership: MembershipRow[];
  Invitation: InvitationRow[];
  Device: DeviceRow[];
  Pairing: PairingRow[];
  Prescription: PrescriptionRow[];
  Transmission: TransmissionRow[];
  Therapy: TherapyRow[];
  Cycle: CycleRow[];
  TherapyGoal: TherapyGoalRow[];
  PatientNote: PatientNoteRow[];
  NotificationSetting: NotificationSettingRow[];
  ChatDialog: ChatDialogRow[];
  ChatParticipant: ChatParticipantRow[];
  ChatMessage: ChatMessageRow[];
};

// Insertion order: parents before children (foreign keys are checked before commit).
const TABLE_ORDER: (keyof World)[] = [
  "CareSite",
  "User",
  "PatientProfile",
  "Membership",
  "Invitation",
  "Device",
  "Pairing",
  "TherapyGoal",
  "Prescription",
  "Transmission",
  "Therapy",
  "Cycle",
  "PatientNote",
  "NotificationSetting",
  "ChatDialog",
  "ChatParticipant",
  "ChatMessage",
];

// ---------------------------------------------------------------------------------------------
// Fixed content
// ---------------------------------------------------------------------------------------------

type SiteDef = {
  id: string;
  accountNumber: string;
  name: string;
  domain: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  zips: string[];
  timeZone: string;
  areaCode: string;
};

const SITES: SiteDef[] = [
  {
    id: "seed-site-1",
    accountNumber: "ARC000000001",
    name: "Hill Country Respiratory Care",
    domain: "hillcountryresp",
    addressLine1: "1201 W 38th St",
    addressLine2: "Suite 400",
    city: "Austin",
    state: "Texas",
    zips: ["78705", "78701", "78704", "78745", "78731", "78757"],
    timeZone: "America/Chicago",
    areaCode: "512",
  },
  {
    id: "seed-site-2",
    accountNumber: "ARC000000002",
    name: "Lakeshore Pulmonary Clinic",
    domain: "lakeshorepulm",
    addressLine1: "680 N Lake Shore Dr",
    addressLine2: null,
    city: "Chicago",
    state: "Illinois",
    zips: ["60611", "60614", "60622", "60640", "60657", "60618"],
    timeZone: "America/Chicago",
    areaCode: "312",
  },
  {
    id: "seed-site-3",
    accountNumber: "ARC000000003",
    name: "Front Range Breathing Center",
    domain: "frontrangebreathing",
    addressLine1: "1719 E 19th Ave",
    addressLine2: "Floor 2",
    city: "Denver",
    state: "Colorado",
    zips: ["80218", "80203", "80205", "80210", "80220", "80206"],
    timeZone: "America/Denver",
    areaCode: "303",
  },
];

const FEMALE = (
  "Mary Patricia Linda Barbara Elizabeth Jennifer Maria Susan Margaret Dorothy Lisa " +
  "Nancy Karen Betty Helen Sandra Donna Carol Ruth Sharon Michelle Laura Sarah " +
  "Kimberly Deborah Jessica Shirley Cynthia Angela Melissa Brenda Amy Anna Rebecca " +
  "Virginia Kathleen Pamela Martha Rosa Lucia Mei Aisha Fatima Keisha Yolanda " +
  "Ingrid Emma Olivia Sophia Isabella"
).split(" ");
const MALE = (
  "James John Robert Michael William David Richard Charles Joseph Thomas " +
  "Christopher Daniel Paul Mark Donald George Kenneth Steven Edward Brian Ronald " +
  "Anthony Kevin Jason Matthew Gary Timothy Jose Larry Jeffrey Frank Scott Eric " +
  "Stephen Andrew Raymond Gregory Joshua Dennis Walter Patrick Peter Harold Douglas " +
  "Henry Carl Arthur Luis Hiroshi Darnell Emeka Ethan Noah Liam"
).split(" ");
const LAST = (
  "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez " +
  "Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee " +
  "Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young " +
  "Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall " +
  "Rivera Campbell Mitchell Carter Roberts Olson Lindqvist Novak Okafor Yamamoto " +
  "Schmidt Kowalczyk Washington Begay O'Brien"
).split(" ");
const STREETS = [
  "Oak St",
  "Maple Ave",
  "Cedar Ln",
  "Elm St",
  "Lakeview Dr",
  "Pine Ridge Rd",
  "Willow Way",
  "Park Ave",
  "Main St",
  "Sunset Blvd",
  "Meadow Ln",
  "Highland Ave",
  "River Rd",
  "Birch Ct",
];

// Conditions that bring patients to cough-assist therapy; the first group is mostly young patients.
const YOUNG_CONDITIONS = [
  "Duchenne muscular dystrophy",
  "Spinal muscular atrophy",
  "Cerebral palsy",
  "Cystic fibrosis",
];
const ADULT_CONDITIONS = [
  "Amyotrophic lateral sclerosis (ALS)",
  "Spinal cord injury (C4-C6)",
  "Myasthenia gravis",
  "Post-polio syndrome",
  "Multiple sclerosis",
  "COPD",
  "Bronchiectasis",
  "Parkinson's disease",
  "Guillain-Barré syndrome",
  "Myotonic dystrophy",
];
const OTHER_CONDITIONS = [
  "Chronic respiratory failure",
  "Dysphagia",
  "Obstructive sleep apnea",
  "Scoliosis",
  "Hypertension",
  "Type 2 diabetes",
  "GERD",
  "Recurrent pneumonia",
  "Tracheostomy",
  "Osteoporosis",
];
const ALLERGIES = [
  "Penicillin",
  "Sulfa drugs",
  "Latex",
  "Peanuts",
  "Shellfish",
  "Codeine",
  "Iodine contrast",
  "Aspirin",
  "Bee stings",
  "Eggs",
];
const BLOOD_TYPES = ["O+", "O+", "O+", "A+", "A+", "A+", "B+", "AB+", "O-", "A-", "B-", "AB-"];

const SLOT_TIMES: Record<number, number[]> = {
  1: [9 * 60],
  2: [8 * 60 + 30, 18 * 60 + 45],
  3: [8 * 60, 13 * 60, 18 * 60 + 30],
  4: [7 * 60 + 30, 11 * 60 + 30, 15 * 60 + 30, 19 * 60],
};
const ALL_DAYS = "mon,tue,wed,thu,fri,sat,sun";
const GOAL_DAYS = [ALL_DAYS, ALL_DAYS, ALL_DAYS, ALL_DAYS, "mon,wed,fri", "mon,tue,wed,thu,fri"];

// Adherence profiles: share of goal therapies completed, and the habits around it.
type Profile = "excellent" | "good" | "mid" | "low" | "verylow" | "missing";
const PROFILES: Record<Profile, { rate: number; partial: number; extra: number; offDay: number }> =
  {
    excellent: { rate: 0.98, partial: 0.5, extra: 0.06, offDay: 0.35 },
    good: { rate: 0.86, partial: 0.35, extra: 0.04, offDay: 0.2 },
    mid: { rate: 0.6, partial: 0.3, extra: 0.02, offDay: 0.1 },
    low: { rate: 0.35, partial: 0.25, extra: 0, offDay: 0.05 },
    verylow: { rate: 0.12, partial: 0.2, extra: 0, offDay: 0.02 },
    missing: { rate: 0.85, partial: 0.3, extra: 0.02, offDay: 0.1 },
  };

// What each of the 20 patient places of a care site is. "special" cases are placed by site below.
type Slot = {
  profile: Profile;
  goalChange?: "recent" | "older";
  adjustment?: "recent" | "older";
};
const SLOTS: Slot[] = [
  { profile: "excellent", goalChange: "older" },
  { profile: "excellent", adjustment: "recent" },
  { profile: "good", goalChange: "recent" },
  { profile: "good" },
  { profile: "mid", goalChange: "older" },
  { profile: "mid", goalChange: "recent" },
  { profile: "low", adjustment: "recent" },
  { profile: "verylow" },
  { profile: "missing" },
  { profile: "good", goalChange: "older" },
  { profile: "excellent", adjustment: "older" },
  { profile: "mid" },
  { profile: "low", goalChange: "recent" },
  { profile: "verylow", goalChange: "older" },
  { profile: "missing" },
  { profile: "good" },
  { profile: "mid" },
  { profile: "good" }, // never transmitted (paired recently)
  { profile: "good" }, // no device
  { profile: "good" }, // site 1: no device; sites 2 and 3: blocked
];
const PATIENTS_PER_SITE = SLOTS.length;
const NEVER_TRANSMITTED_SLOT = 17;
const NO_DEVICE_SLOT = 18;
const LAST_SLOT = 19;
const REPAIRED = { site: 0, slot: 3 }; // device replaced 35 days ago
const REUSED_DEVICE = { site: 0, slot: 16 }; // new patient on the replaced device, paired 10 days ago
const RECENT_PAIRINGS: Record<string, number> = { "1:15": 45, "2:15": 60, "0:11": 25 }; // "site:slot" -> days ago

// ---------------------------------------------------------------------------------------------
// The world builder (pure: same today, same rows, except the password hash)
// ---------------------------------------------------------------------------------------------

type Person = { id: string; firstName: string; lastName: string; email: string };

export function buildDemoWorld(today: Date, passwordHash: string): World {
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
  const todayDay = dayInZone(today.getTime(), HOME_ZONE);
  const yesterday = addDays(todayDay, -1);
  const windowStart = addDays(todayDay, -WINDOW_DAYS);
  /** A local time `daysAgo` days before today in a zone. */
  const ago = (daysAgo: number, minutes: number, zone = HOME_ZONE) =>
    at(addDays(todayDay, -daysAgo), minutes, zone);

  // ---- care sites -----------------------------------------------------------------------------
  SITES.forEach((s, i) => {
    const created = ago(800 - i * 120, 10 * 60, s.timeZone);
    w.CareSite.push({
      id: s.id,
      accountNumber: s.accountNumber,
      name: s.name,
      email: `info@${s.domain}.example`,
      phone: `1${s.areaCode}5550100`,
      website: `https://www.${s.domain}.example`,
      addressLine1: s.addressLine1,
      addressLine2: s.addressLine2,
      city: s.city,
      state: s.state,
      zip: s.zips[0],
      country: "United States",
      status: "active",
      timeZone: s.timeZone,
      photoId: null,
      createdAt: created,
      updatedAt: created,
    });
  });

  // ---- users, memberships, invitations: helpers ------------------------------------------------
  const usernames = new Set<string>();
  const emails = new Set<string>();
  let userSeq = 0;
  let membershipSeq = 0;
  let invitationSeq = 0;

  function addUser(u: {
    id?: string;
    username?: string;
    email?: string;
    role: string;
    firstName: string;
    lastName: string;
    phone: string;
    site?: SiteDef;
    createdAt: number;
    measuringUnit?: string;
    home?: boolean;
  }): Person {
    const id = u.id ?? `seed-user-${pad(++userSeq, 3)}`;
    const base = `${u.firstName}.${u.lastName}`.toLowerCase().replace(/[^a-z.]/g, "");
    let username = u.username ?? base;
    for (let n = 2; usernames.has(username); n++) username = `${base}${n}`;
    usernames.add(username);
    const email = (
      u.email ?? `${username}@${u.site ? `${u.site.domain}.example` : "arcconnect.example"}`
    ).toLowerCase();
    if (emails.has(email)) throw new Error(`duplicate demo email ${email}`);
    emails.add(email);
    const r = new Rng(`address:${id}`);
    const site = u.site ?? SITES[0];
    w.User.push({
      id,
      username,
      email,
      phone: u.phone,
      passwordHash,
      role: u.role,
      status: "active",
      firstName: u.firstName,
      lastName: u.lastName,
      speciality:
        u.role === "clinician"
          ? SPECIALITIES[username.length % SPECIALITIES.length]
          : u.role === "clinicadmin"
            ? "Care site administration"
            : null,
      measuringUnit: u.measuringUnit ?? "Imperial",
      photoId: null,
      addressLine1: u.home ? `${r.int(100, 9899)} ${r.pick(STREETS)}` : site.addressLine1,
      addressLine2: u.home ? (r.chance(0.15) ? `Apt ${r.int(1, 40)}` : null) : site.addressLine2,
      city: site.city,
      state: site.state,
      zip: u.home ? r.pick(site.zips) : site.zips[0],
      country: "United States",
      createdAt: u.createdAt,
      updatedAt: u.createdAt,
    });
    return { id, firstName: u.firstName, lastName: u.lastName, email };
  }

  function addMembership(
    site: SiteDef,
    user: Person,
    role: string,
    status: string,
    createdAt: number,
    acceptedAt: number | null,
    updatedAt = acceptedAt ?? createdAt,
  ) {
    const id = `seed-membership-${pad(++membershipSeq, 3)}`;
    w.Membership.push({
      id,
      careSiteId: site.id,
      userId: user.id,
      role,
      status,
      createdAt,
      updatedAt,
      acceptedAt,
    });
    return id;
  }

  function addInvitation(i: {
    email: string;
    role: string;
    site: SiteDef | null;
    by: Person;
    status: string;
    createdAt: number;
    membershipId?: string | null;
    updatedAt?: number;
    lastSentAt?: number; // resend: a new token and expiry from this time
  }) {
    const id = `seed-invitation-${pad(++invitationSeq, 3)}`;
    const sent = i.lastSentAt ?? i.createdAt;
    w.Invitation.push({
      id,
      email: i.email.toLowerCase(),
      role: i.role,
      careSiteId: i.site?.id ?? null,
      invitedById: i.by.id,
      membershipId: i.membershipId ?? null,
      status: i.status,
      tokenHash: sha256(`arc-demo-invitation:${id}:${sent}`),
      expiresAt: sent + 7 * DAY_MS,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt ?? sent,
    });
    return id;
  }

  /** Invites a user to a site and records the accepted membership (invitation -> membership). */
  function join(
    site: SiteDef,
    user: Person,
    role: string,
    by: Person,
    invitedAt: number,
    acceptAfterHours: number,
  ) {
    const acceptedAt = invitedAt + acceptAfterHours * 3_600_000;
    const membershipId = addMembership(site, user, role, "accepted", invitedAt, acceptedAt);
    addInvitation({
      email: user.email,
      role,
      site,
      by,
      status: "accepted",
      createdAt: invitedAt,
      membershipId,
      updatedAt: acceptedAt,
    });
    return acceptedAt;
  }

  const [S1, S2, S3] = SITES;
  const phone = (site: SiteDef, n: number) => `1${site.areaCode}555${pad(n, 4)}`;

  // ---- staff ----------------------------------------------------------------------------------
  const superadmin = addUser({
    username: "demo.superadmin",
    email: "demo.superadmin@arcconnect.example",
    role: "superadmin",
    firstName: "Morgan",
    lastName: "Ellis",
    phone: "15125550101",
    createdAt: ago(900, 9 * 60),
  });
  const abmadmin = addUser({
    username: "demo.abmadmin",
    email: "demo.abmadmin@arcconnect.example",
    role: "abmadmin",
    firstName: "Jordan",
    lastName: "Reyes",
    phone: "15125550102",
    createdAt: ago(700, 11 * 60),
  });
  addInvitation({
    email: abmadmin.email,
    role: "abmadmin",
    site: null,
    by: superadmin,
    status: "accepted",
    createdAt: ago(701, 15 * 60),
    updatedAt: ago(700, 11 * 60),
  });

  const siteadmin = addUser({
    username: "demo.siteadmin",
    email: "demo.siteadmin@arcconnect.example",
    role: "clinicadmin",
    firstName: "Casey",
    lastName: "Lambert",
    phone: "15125550103",
    site: S1,
    createdAt: ago(640, 10 * 60),
  });
  join(S1, siteadmin, "clinicadmin", superadmin, ago(641, 14 * 60), 20);
  join(S2, siteadmin, "clinicadmin", abmadmin, ago(320, 9 * 60), 5);

  const clinician = addUser({
    username: "demo.clinician",
    email: "demo.clinician@arcconnect.example",
    role: "clinician",
    firstName: "Alex",
    lastName: "Turner",
    phone: "15125550104",
    site: S1,
    createdAt: ago(560, 16 * 60),
  });
  join(S1, clinician, "clinician", siteadmin, ago(561, 10 * 60), 30);

  const newclinician = addUser({
    username: "demo.newclinician",
    email: "demo.newclinician@arcconnect.example",
    role: "clinician",
    firstName: "Riley",
    lastName: "Chen",
    phone: "13125550105",
    site: S2,
    createdAt: ago(30, 13 * 60),
  });

  const rachel = addUser({
    role: "clinicadmin",
    firstName: "Rachel",
    lastName: "Nguyen",
    phone: phone(S1, 111),
    site: S1,
    createdAt: ago(760, 10 * 60),
  });
  join(S1, rachel, "clinicadmin", superadmin, ago(761, 9 * 60), 25);
  const marcus = addUser({
    role: "clinician",
    firstName: "Marcus",
    lastName: "Bell",
    phone: phone(S1, 112),
    site: S1,
    createdAt: ago(500, 10 * 60),
  });
  join(S1, marcus, "clinician", rachel, ago(501, 8 * 60), 26);
  const priya = addUser({
    role: "clinician",
    firstName: "Priya",
    lastName: "Raman",
    phone: phone(S1, 113),
    site: S1,
    createdAt: ago(410, 10 * 60),
  });
  join(S1, priya, "clinician", siteadmin, ago(412, 15 * 60), 43);

  const daniel = addUser({
    role: "clinicadmin",
    firstName: "Daniel",
    lastName: "Kowalski",
    phone: phone(S2, 121),
    site: S2,
    createdAt: ago(660, 10 * 60),
  });
  join(S2, daniel, "clinicadmin", abmadmin, ago(661, 9 * 60), 25);
  const hannah = addUser({
    role: "clinician",
    firstName: "Hannah",
    lastName: "Schultz",
    phone: phone(S2, 122),
    site: S2,
    createdAt: ago(480, 10 * 60),
  });
  join(S2, hannah, "clinician", daniel, ago(481, 11 * 60), 23);
  const omar = addUser({
    role: "clinician",
    firstName: "Omar",
    lastName: "Haddad",
    phone: phone(S2, 123),
    site: S2,
    createdAt: ago(455, 10 * 60),
  });
  join(S2, omar, "clinician", daniel, ago(456, 16 * 60), 18);

  const elena = addUser({
    role: "clinicadmin",
    firstName: "Elena",
    lastName: "Vargas",
    phone: phone(S3, 131),
    site: S3,
    createdAt: ago(600, 10 * 60, S3.timeZone),
    measuringUnit: "Metric",
  });
  join(S3, elena, "clinicadmin", superadmin, ago(601, 13 * 60, S3.timeZone), 21);
  const tyler = addUser({
    role: "clinician",
    firstName: "Tyler",
    lastName: "Brooks",
    phone: phone(S3, 132),
    site: S3,
    createdAt: ago(430, 10 * 60, S3.timeZone),
  });
  join(S3, tyler, "clinician", elena, ago(431, 9 * 60, S3.timeZone), 25);
  const grace = addUser({
    role: "clinician",
    firstName: "Grace",
    lastName: "Whitfield",
    phone: phone(S3, 133),
    site: S3,
    createdAt: ago(300, 10 * 60, S3.timeZone),
  });
  join(S3, grace, "clinician", elena, ago(301, 9 * 60, S3.timeZone), 25);
  join(S3, clinician, "clinician", elena, ago(210, 10 * 60, S3.timeZone), 6); // the clinician in two sites

  // Invitations in the other statuses.
  {
    // Omar worked at Hill Country too; his access there was revoked (blocked).
    const invited = ago(400, 10 * 60);
    const acceptedAt = invited + 20 * 3_600_000;
    const blockedAt = ago(120, 15 * 60);
    const m = addMembership(S1, omar, "clinician", "blocked", invited, acceptedAt, blockedAt);
    addInvitation({
      email: omar.email,
      role: "clinician",
      site: S1,
      by: rachel,
      status: "blocked",
      createdAt: invited,
      membershipId: m,
      updatedAt: blockedAt,
    });
  }
  {
    // Tyler declined an invitation to Hill Country.
    const invited = ago(75, 11 * 60);
    const rejectedAt = ago(74, 9 * 60);
    const m = addMembership(S1, tyler, "clinician", "rejected", invited, null, rejectedAt);
    addInvitation({
      email: tyler.email,
      role: "clinician",
      site: S1,
      by: siteadmin,
      status: "rejected",
      createdAt: invited,
      membershipId: m,
      updatedAt: rejectedAt,
    });
  }
  {
    // The new clinician's only invitation: pending, sent yesterday.
    const invited = ago(1, 10 * 60 + 15);
    const m = addMembership(S2, newclinician, "clinician", "pending", invited, null);
    addInvitation({
      email: newclinician.email,
      role: "clinician",
      site: S2,
      by: siteadmin,
      status: "pending",
      createdAt: invited,
      membershipId: m,
    });
  }
  // To people without an account yet.
  addInvitation({
    email: `olivia.hart@${S1.domain}.example`,
    role: "clinician",
    site: S1,
    by: siteadmin,
    status: "pending",
    createdAt: ago(12, 9 * 60 + 40),
  }); // expired 5 days ago
  addInvitation({
    email: "taylor.morgan@arcconnect.example",
    role: "abmadmin",
    site: null,
    by: superadmin,
    status: "pending",
    createdAt: ago(3, 14 * 60),
  });
  addInvitation({
    email: `kevin.marsh@${S2.domain}.example`,
    role: "clinician",
    site: S2,
    by: daniel,
    status: "blocked",
    createdAt: ago(20, 10 * 60),
    updatedAt: ago(18, 9 * 60),
  }); // removed before accepted
  addInvitation({
    email: `sofia.ramirez@${S3.domain}.example`,
    role: "clinician",
    site: S3,
    by: elena,
    status: "resend",
    createdAt: ago(9, 10 * 60, S3.timeZone),
    lastSentAt: ago(1, 9 * 60, S3.timeZone),
  });
  addInvitation({
    email: "harold.jensen@homecare.example",
    role: "patient",
    site: S1,
    by: clinician,
    status: "resend",
    createdAt: ago(16, 11 * 60),
    lastSentAt: ago(9, 11 * 60),
  }); // resent, expired again
  addInvitation({
    email: "walter.simmons@homecare.example",
    role: "patient",
    site: S3,
    by: elena,
    status: "pending",
    createdAt: ago(1, 15 * 60, S3.timeZone),
  });

  const staffBySite: Record<string, { admins: Person[]; clinicians: Person[] }> = {
    [S1.id]: { admins: [siteadmin, rachel], clinicians: [clinician, marcus, priya] },
    [S2.id]: { admins: [siteadmin, daniel], clinicians: [hannah, omar] },
    [S3.id]: { admins: [elena], clinicians: [clinician, tyler, grace] },
  };

  // ---- devices --------------------------------------------------------------------------------
  const serials = new Set<string>();
  let deviceSeq = 0;
  type DeviceState = {
    row: DeviceRow;
    rng: Rng;
    eventNo: number;
    hmr: number;
    rx: PrescriptionRow | null; // the device's current prescription
    rxPending: boolean; // not yet reported in a transmission
  };
  function addDevice(createdAt: number): DeviceState {
    const id = `seed-device-${pad(++deviceSeq, 3)}`;
    const r = new Rng(`device:${id}`);
    let serial = "";
    do serial = `${r.int(21, 24)}${pad(r.int(1, 52), 2)}A${pad(r.int(1, 9999), 4)}`;
    while (serials.has(serial));
    serials.add(serial);
    const row: DeviceRow = {
      id,
      serial,
      type: "cough",
      tokenHash: sha256(demoDeviceToken(serial)),
      createdAt,
      lastSeenAt: null,
    };
    w.Device.push(row);
    return {
      row,
      rng: r,
      eventNo: r.int(40, 3000),
      hmr: round1(r.float(20, 900)),
      rx: null,
      rxPending: false,
    };
  }

  let rxSeq = 0;
  function newPrescription(
    dev: DeviceState,
    settings: Omit<PrescriptionRow, "id" | "deviceId" | "firstSeenAt" | "isAdjustment">,
    isAdjustment: boolean,
  ) {
    dev.rx = {
      id: `seed-rx-${pad(++rxSeq, 4)}`,
      deviceId: dev.row.id,
      ...settings,
      firstSeenAt: 0,
      isAdjustment,
    };
    dev.rxPending = true;
  }
  function randomSettings(r: Rng) {
    return {
      mode: r.chance(0.7) ? "Auto" : "Manual",
      cycles: r.pick([3, 4, 4, 5, 5, 5, 6]),
      pauseP: 0,
      pauseT: r.pick([5, 10, 10, 15, 20]),
      inspP: r.pick([30, 35, 40, 40, 45, 50]),
      inspT: r.pick([10, 15, 20, 20, 25, 30]),
      expP: -r.pick([30, 35, 40, 40, 45, 50]),
      expT: r.pick([10, 15, 15, 20, 25]),
      oscillation: r.chance(0.3),
    };
  }
  function adjustedSettings(r: Rng, old: PrescriptionRow) {
    const s = {
      mode: old.mode,
      cycles: old.cycles,
      pauseP: old.pauseP,
      pauseT: old.pauseT,
      inspP: old.inspP,
      inspT: old.inspT,
      expP: old.expP,
      expT: old.expT,
      oscillation: old.oscillation,
    };
    const change = r.pick(["cycles", "insp", "exp", "time", "osc"] as const);
    if (change === "cycles") s.cycles = old.cycles >= 6 ? old.cycles - 1 : old.cycles + 1;
    else if (change === "insp") s.inspP = old.inspP >= 50 ? old.inspP - 5 : old.inspP + 5;
    else if (change === "exp") s.expP = old.expP <= -50 ? old.expP + 5 : old.expP - 5;
    else if (change === "time") s.inspT = old.inspT >= 30 ? old.inspT - 5 : old.inspT + 5;
    else s.oscillation = !old.oscillation;
    return s;
  }

  // ---- patients -------------------------------------------------------------------------------
  const nameKeys = new Set<string>();
  let pairingSeq = 0;
  let goalSeq = 0;
  let txSeq = 0;
  let therapySeq = 0;
  let cycleSeq = 0;

  type Goal = { timesPerDay: number; days: Set<string>; from: string };
  type Span = {
    pairing: PairingRow;
    dev: DeviceState;
    from: string; // first day with data
    to: string; // last day with data
    adjustDay?: string; // the day the clinic changes the device's prescription
  };
  type PatientSim = {
    id: string | null; // null: an unpaired device (data attributed to nobody)
    site: SiteDef;
    rng: Rng;
    profile: Profile;
    goals: Goal[];
    stopFrom?: string; // "missing": no therapy from this day on
    devRate: number; // share of therapies with a delivered-setting deviation
    volume: number;
    flow: number;
    spo2: number | null;
    acc: number;
  };

  /** Simulates a device's use by one patient over a span of days, writing transmissions and therapies. */
  function simulate(p: PatientSim, span: Span) {
    const { dev, pairing } = span;
    const tz = p.site.timeZone;
    const prof = PROFILES[p.profile];
    const r = p.rng;
    type Pending = { therapy: TherapyRow; cycles: CycleRow[]; end: number };
    let pending: Pending[] = [];
    let adjusted = !span.adjustDay;

    const flush = (day: string) => {
      if (!dev.rx) throw new Error("device without prescription");
      const lastEnd = Math.max(...pending.map((t) => t.end));
      let sentAt = at(day, 20 * 60 + 20 + r.int(0, 130), tz) + r.int(0, 59) * 1000;
      if (sentAt < lastEnd + 10 * 60_000) sentAt = lastEnd + r.int(10, 40) * 60_000;
      const receivedAt = sentAt + r.int(2, 95) * 1000;
      const id = `seed-tx-${pad(++txSeq, 6)}`;
      const adjustment = dev.rxPending && dev.rx.isAdjustment;
      if (dev.rxPending) {
        dev.rx.firstSeenAt = receivedAt;
        w.Prescription.push(dev.rx);
        dev.rxPending = false;
      }
      let deviating = 0;
      for (const t of pending) {
        t.therapy.transmissionId = id;
        t.therapy.prescriptionId = dev.rx.id;
        if (t.therapy.deviates) deviating++;
        dev.hmr += (t.end - t.therapy.startedAt) / 3_600_000;
        w.Therapy.push(t.therapy);
        for (const c of t.cycles) w.Cycle.push(c);
      }
      w.Transmission.push({
        id,
        deviceId: dev.row.id,
        pairingId: p.id ? pairing.id : null,
        patientId: p.id,
        prescriptionId: dev.rx.id,
        sentAt,
        receivedAt,
        hmr: round1(dev.hmr),
        therapiesAccepted: pending.length,
        therapiesDuplicate: r.chance(0.02) ? 1 : 0, // a therapy the relay sent twice
        deviatingTherapies: deviating,
        therapyAdjustment: adjustment,
      });
      dev.row.lastSeenAt = receivedAt;
      pending = [];
    };

    const therapy = (day: string, minutes: number, full: boolean) => {
      const rx = dev.rx!;
      const startedAt = at(day, minutes, tz) + r.int(0, 59) * 1000;
      const cyclesDelivered = full ? rx.cycles : r.int(1, rx.cycles - 1);
      // Delivered settings: the prescription within tolerance (±2 cmH2O, ±0.5 s are still fine) ...
      const d: Settings = {
        pauseP: rx.pauseP + (r.chance(0.1) ? r.pick([-1, 1]) : 0),
        pauseT: rx.pauseT + (r.chance(0.2) ? r.int(-3, 3) : 0),
        inspP: rx.inspP + (r.chance(0.4) ? r.pick([-2, -1, -1, 1, 1, 2]) : 0),
        inspT: rx.inspT + (r.chance(0.3) ? r.int(-5, 5) : 0),
        expP: rx.expP + (r.chance(0.4) ? r.pick([-2, -1, -1, 1, 1, 2]) : 0),
        expT: rx.expT + (r.chance(0.3) ? r.int(-5, 5) : 0),
        oscillation: rx.oscillation,
      };
      // ... unless this therapy deviates on a setting.
      if (r.chance(p.devRate)) {
        const kind = r.pick(["inspP", "expP", "inspT", "expT", "osc"] as const);
        if (kind === "inspP") d.inspP = rx.inspP - r.int(3, 8);
        else if (kind === "expP") d.expP = rx.expP + r.int(3, 8);
        else if (kind === "inspT") d.inspT = rx.inspT + r.pick([-1, 1]) * r.int(6, 10);
        else if (kind === "expT") d.expT = Math.max(1, rx.expT + r.pick([-1, 1]) * r.int(6, 10));
        else d.oscillation = !rx.oscillation;
      }
      const deviates =
        cyclesDelivered < rx.cycles ||
        Math.abs(d.pauseP - rx.pauseP) > 2 ||
        Math.abs(d.inspP - rx.inspP) > 2 ||
        Math.abs(d.expP - rx.expP) > 2 ||
        Math.abs(d.pauseT - rx.pauseT) > 5 ||
        Math.abs(d.inspT - rx.inspT) > 5 ||
        Math.abs(d.expT - rx.expT) > 5 ||
        d.oscillation !== rx.oscillation;
      const id = `seed-thr-${pad(++therapySeq, 6)}`;
      const cycles: CycleRow[] = [];
      for (let n = 1; n <= cyclesDelivered; n++) {
        cycles.push({
          id: `seed-cyc-${pad(++cycleSeq, 7)}`,
          therapyId: id,
          n,
          peakInspP: round1(d.inspP * r.float(0.88, 1.0)),
          expVolume: Math.round(p.volume * r.float(0.85, 1.12)),
          peakFlow: Math.round(p.flow * r.float(0.85, 1.12)),
          spo2: p.spo2 === null ? null : Math.min(100, p.spo2 + r.int(-2, 1)),
          oscillation: d.oscillation,
        });
      }
      const seconds = (cyclesDelivered * (d.pauseT + d.inspT + d.expT)) / 10 + r.int(20, 90);
      pending.push({
        therapy: {
          id,
          deviceId: dev.row.id,
          eventId: `T-${pad(++dev.eventNo, 6)}`,
          transmissionId: "",
          prescriptionId: "",
          pairingId: p.id ? pairing.id : null,
          patientId: p.id,
          startedAt,
          mode: rx.mode,
          prescribedCycles: rx.cycles,
          cyclesDelivered,
          completed: cyclesDelivered >= rx.cycles,
          ...d,
          deviates,
        },
        cycles,
        end: startedAt + seconds * 1000,
      });
    };

    for (let day = span.from; day <= span.to; day = addDays(day, 1)) {
      if (!adjusted && span.adjustDay && day >= span.adjustDay && pending.length === 0) {
        newPrescription(dev, adjustedSettings(dev.rng, dev.rx!), true);
        adjusted = true;
      }
      let goal = p.goals[0];
      for (const g of p.goals) if (g.from <= day) goal = g;
      const stopped = p.stopFrom !== undefined && day >= p.stopFrom;
      const times: { minutes: number; full: boolean }[] = [];
      if (!stopped) {
        if (goal.days.has(weekday(day))) {
          const tpd = goal.timesPerDay;
          let done: number;
          if (prof.rate >= 0.9) {
            done = 0;
            for (let k = 0; k < tpd; k++) if (r.chance(prof.rate)) done++;
          } else {
            // An accumulator keeps the share close to the profile over any week, with day-to-day noise.
            p.acc += tpd * prof.rate * r.float(0.6, 1.4);
            done = Math.min(tpd, Math.floor(p.acc));
            p.acc -= Math.floor(p.acc);
          }
          const slots = r.shuffle([...SLOT_TIMES[tpd]]);
          slots.forEach((base, k) => {
            const minutes = Math.min(base + r.int(-40, 40), 19 * 60 + 40);
            if (k < done) times.push({ minutes, full: true });
            else if (r.chance(prof.partial)) times.push({ minutes, full: false });
          });
          if (r.chance(prof.extra))
            times.push({ minutes: 16 * 60 + 30 + r.int(-30, 30), full: true });
        } else if (r.chance(prof.offDay)) {
          times.push({ minutes: 10 * 60 + r.int(-60, 90), full: r.chance(0.85) });
        }
      }
      times.sort((a, b) => a.minutes - b.minutes);
      for (const t of times) therapy(day, t.minutes, t.full);
      if (pending.length === 0) continue;
      // Now and then the device cannot reach the relay and sends the day's therapies the next evening.
      const next = addDays(day, 1);
      const mayDefer = next <= span.to && (adjusted || !span.adjustDay || span.adjustDay > next);
      if (mayDefer && r.chance(0.03)) continue;
      flush(day);
    }
    if (pending.length > 0) flush(span.to);
  }

  /** Adds a goal row; it governs the days after it was set. */
  function addGoal(
    p: PatientSim,
    pairingId: string,
    createdAt: number,
    timesPerDay: number,
    days: string,
    by: Person,
  ) {
    w.TherapyGoal.push({
      id: `seed-goal-${pad(++goalSeq, 3)}`,
      patientId: p.id!,
      pairingId,
      timesPerDay,
      days,
      createdById: by.id,
      createdAt,
    });
    p.goals.push({
      timesPerDay,
      days: new Set(days.split(",")),
      from: addDays(dayInZone(createdAt, p.site.timeZone), 1),
    });
  }

  function addPairing(
    dev: DeviceState,
    patientId: string,
    site: SiteDef,
    by: Person,
    pairedAt: number,
    unpairedAt: number | null = null,
  ) {
    const row: PairingRow = {
      id: `seed-pair-${pad(++pairingSeq, 3)}`,
      deviceId: dev.row.id,
      patientId,
      careSiteId: site.id,
      pairedById: by.id,
      pairedAt,
      unpairedAt,
    };
    w.Pairing.push(row);
    return row;
  }

  const dayOf = (ms: number, site: SiteDef) => dayInZone(ms, site.timeZone);
  let replacedDevice: DeviceState | null = null;
  let patientNo = 0;
  const notable: Record<string, Person> = {};

  SITES.forEach((site, s) => {
    const staff = staffBySite[site.id];
    for (let j = 0; j < PATIENTS_PER_SITE; j++) {
      const slot = SLOTS[j];
      const idx = ++patientNo;
      const id = `seed-user-${pad(100 + idx, 3)}`;
      const r = new Rng(`patient:${idx}`);

      // Who the patient is.
      const female = r.chance(0.5);
      let firstName = "";
      let lastName = "";
      do {
        firstName = r.pick(female ? FEMALE : MALE);
        lastName = r.pick(LAST);
      } while (nameKeys.has(`${firstName} ${lastName}`));
      nameKeys.add(`${firstName} ${lastName}`);
      const young = r.chance(0.25);
      const condition1 = r.pick(young ? YOUNG_CONDITIONS : ADULT_CONDITIONS);
      const age = young ? r.int(9, 32) : r.int(38, 88);
      const [ty] = todayDay.split("-").map(Number);
      const dateOfBirth = `${ty - age - 1}-${pad(r.int(1, 12), 2)}-${pad(r.int(1, 28), 2)}`;
      const child = age < 16;
      const others = r.shuffle([...OTHER_CONDITIONS]);
      const allergies = r.shuffle([...ALLERGIES]);
      const nAllergies = r.pick([0, 0, 1, 1, 1, 2, 3]);
      const nConditions = r.pick([0, 1, 1, 2]);

      // When they joined and how (special places first).
      const noDevice = j === NO_DEVICE_SLOT || (j === LAST_SLOT && s === 0);
      const blocked = j === LAST_SLOT && s > 0;
      const neverTransmitted = j === NEVER_TRANSMITTED_SLOT;
      const isRepaired = s === REPAIRED.site && j === REPAIRED.slot;
      const isReused = s === REUSED_DEVICE.site && j === REUSED_DEVICE.slot;
      const recentDays = RECENT_PAIRINGS[`${s}:${j}`];
      let pairedDaysAgo: number | null = null;
      if (!noDevice && !blocked) {
        if (neverTransmitted) pairedDaysAgo = r.int(3, 20);
        else if (isReused) pairedDaysAgo = 10;
        else if (recentDays !== undefined) pairedDaysAgo = recentDays;
        else pairedDaysAgo = r.int(WINDOW_DAYS + 5, 480);
      }
      const pairedAt =
        pairedDaysAgo === null ? null : ago(pairedDaysAgo, r.int(9 * 60, 16 * 60), site.timeZone);
      const invitedAt =
        pairedAt !== null
          ? pairedAt - r.int(1, 12) * DAY_MS - r.int(0, 5) * 3_600_000
          : ago(r.int(15, 400), r.int(9 * 60, 16 * 60), site.timeZone);
      const inviter = r.chance(0.6) ? r.pick(staff.clinicians) : r.pick(staff.admins);
      const acceptedAt = invitedAt + r.int(1, 40) * 3_600_000;

      const person = addUser({
        id,
        role: "patient",
        firstName,
        lastName,
        phone: phone(site, 200 + idx),
        email: `${`${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, "")}@homecare.example`,
        site,
        createdAt: acceptedAt,
        home: true,
        measuringUnit: "Imperial",
      });
      w.PatientProfile.push({
        userId: id,
        patientTag: `P-${10000 + idx * 7 + (idx % 3)}`,
        dateOfBirth,
        gender: female ? "Female" : "Male",
        bloodType: r.pick(BLOOD_TYPES),
        heightIn: child
          ? round1(r.float(46, 62))
          : round1(female ? r.float(59, 69) : r.float(64, 76)),
        weightLb: child
          ? round1(r.float(48, 120))
          : round1(female ? r.float(98, 210) : r.float(125, 260)),
        existingCondition1: condition1,
        existingCondition2: nConditions >= 1 ? others[0] : null,
        existingCondition3: nConditions >= 2 ? others[1] : null,
        allergy1: nAllergies >= 1 ? allergies[0] : null,
        allergy2: nAllergies >= 2 ? allergies[1] : null,
        allergy3: nAllergies >= 3 ? allergies[2] : null,
        updatedAt: acceptedAt,
      });
      if (blocked) {
        const blockedAt = ago(r.int(20, 50), r.int(9 * 60, 16 * 60), site.timeZone);
        const m = addMembership(
          site,
          person,
          "patient",
          "blocked",
          invitedAt,
          acceptedAt,
          blockedAt,
        );
        addInvitation({
          email: person.email,
          role: "patient",
          site,
          by: inviter,
          status: "blocked",
          createdAt: invitedAt,
          membershipId: m,
          updatedAt: blockedAt,
        });
        notable[`blocked${s}`] = person;
        continue;
      }
      const m = addMembership(site, person, "patient", "accepted", invitedAt, acceptedAt);
      addInvitation({
        email: person.email,
        role: "patient",
        site,
        by: inviter,
        status: "accepted",
        createdAt: invitedAt,
        membershipId: m,
        updatedAt: acceptedAt,
      });
      if (noDevice || pairedAt === null) {
        notable[`noDevice${s}:${j}`] = person;
        continue;
      }

      // The device, its goal and its use.
      const sim: PatientSim = {
        id,
        site,
        rng: r,
        profile: slot.profile,
        goals: [],
        devRate: r.pick([0, 0, 0.02, 0.04, 0.08, 0.15, 0.3]),
        volume: child ? r.int(500, 1100) : r.int(900, 2300),
        flow: child ? r.int(120, 220) : r.int(160, 340),
        spo2: r.chance(0.55) ? r.pick([98, 97, 97, 96, 95, 94, 93, 91, 89]) : null,
        acc: r.next(),
      };
      const pairer = r.pick([...staff.clinicians, ...staff.admins]);
      const goalSetter = () => r.pick(staff.clinicians);
      const dev: DeviceState =
        isReused && replacedDevice ? replacedDevice : addDevice(pairedAt - r.int(10, 90) * DAY_MS);
      const unpairedAt = isRepaired ? ago(35, 11 * 60, site.timeZone) : null;
      const pairing = addPairing(dev, id, site, pairer, pairedAt, unpairedAt);
      const tpd = r.pick([1, 2, 2, 2, 3, 3, 4]);
      const days = slot.profile === "missing" ? ALL_DAYS : r.pick(GOAL_DAYS);
      addGoal(sim, pairing.id, pairedAt + r.int(5, 40) * 60_000, tpd, days, goalSetter());
      // Goal changes: in the last 7 days, or earlier within the 90 days.
      if (slot.goalChange && !neverTransmitted) {
        const daysAgo =
          slot.goalChange === "recent"
            ? r.int(1, 6)
            : r.int(15, Math.min(80, (pairedDaysAgo ?? 90) - 5));
        const newTpd = tpd >= 4 ? 3 : tpd <= 1 ? 2 : tpd + r.pick([-1, 1]);
        addGoal(
          sim,
          pairing.id,
          ago(daysAgo, r.int(9 * 60, 17 * 60), site.timeZone),
          newTpd,
          r.chance(0.7) ? days : r.pick(GOAL_DAYS),
          goalSetter(),
        );
      }
      if (slot.profile === "missing") sim.stopFrom = addDays(yesterday, -r.int(2, 6)); // 3 to 7 empty days
      if (neverTransmitted) {
        notable.neverTransmitted = person;
        continue;
      }

      const from = pairedDaysAgo! >= WINDOW_DAYS ? windowStart : addDays(dayOf(pairedAt, site), 1);
      if (isReused) {
        // The replaced device gets new settings for its new patient.
        newPrescription(
          dev,
          { ...randomSettings(dev.rng), cycles: dev.rx!.cycles === 6 ? 4 : dev.rx!.cycles + 1 },
          true,
        );
        simulate(sim, { pairing, dev, from, to: yesterday });
        notable.reused = person;
        continue;
      }
      newPrescription(dev, randomSettings(dev.rng), false);
      const adjustDay =
        slot.adjustment === "recent"
          ? addDays(yesterday, -r.int(0, 5))
          : slot.adjustment === "older"
            ? addDays(yesterday, -r.int(20, 70))
            : undefined;

      if (!isRepaired) {
        simulate(sim, { pairing, dev, from, to: yesterday, adjustDay });
        continue;
      }
      // The re-paired patient: device 1 until 35 days ago, then a replacement with the same settings.
      notable.repaired = person;
      const unpairDay = dayOf(unpairedAt!, site);
      simulate(sim, { pairing, dev, from, to: addDays(unpairDay, -1) });
      const dev2 = addDevice(unpairedAt! - 20 * DAY_MS);
      const pairing2 = addPairing(dev2, id, site, pairer, unpairedAt! + 30 * 60_000);
      const old = dev.rx!;
      newPrescription(
        dev2,
        {
          mode: old.mode,
          cycles: old.cycles,
          pauseP: old.pauseP,
          pauseT: old.pauseT,
          inspP: old.inspP,
          inspT: old.inspT,
          expP: old.expP,
          expT: old.expT,
          oscillation: old.oscillation,
        },
        false,
      );
      addGoal(sim, pairing2.id, unpairedAt! + 45 * 60_000, tpd, days, goalSetter());
      simulate(sim, { pairing: pairing2, dev: dev2, from: addDays(unpairDay, 1), to: yesterday });
      // The old device, back at the clinic, sends one more therapy the next day: attributed to nobody.
      const orphan: PatientSim = {
        ...sim,
        id: null,
        rng: new Rng("orphan"),
        profile: "excellent",
        goals: [{ timesPerDay: 1, days: new Set(WEEKDAYS), from: windowStart }],
        devRate: 0,
      };
      const orphanDay = addDays(unpairDay, 1);
      simulate(orphan, { pairing, dev, from: orphanDay, to: orphanDay });
      replacedDevice = dev;
    }
  });

  // Spare devices in stock, never paired (for pairing by serial).
  for (let k = 0; k < 3; k++) addDevice(ago(60 - k * 7, 10 * 60));

  // ---- notes, notification settings, chat -----------------------------------------------------
  const noteTargets: [Person | undefined, SiteDef, Person, number, string][] = [
    [
      notable.repaired,
      S1,
      clinician,
      35,
      "Device replaced after a pressure sensor fault; settings copied to the new unit.",
    ],
    [
      notable.reused,
      S1,
      marcus,
      9,
      "First week on cough assist. Caregiver trained on Auto mode; call on Friday.",
    ],
    [
      notable.neverTransmitted,
      S3,
      grace,
      2,
      "Device paired but no data yet. Check Wi-Fi setup at home visit.",
    ],
  ];
  let noteSeq = 0;
  for (const [patient, site, author, daysAgo, body] of noteTargets) {
    if (!patient) continue;
    const t = ago(daysAgo, 14 * 60, site.timeZone);
    w.PatientNote.push({
      id: `seed-note-${pad(++noteSeq, 3)}`,
      patientId: patient.id,
      careSiteId: site.id,
      authorId: author.id,
      body,
      createdAt: t,
      updatedAt: t,
    });
  }

  const settingRecipients: Record<string, [Person, Person[]]> = {
    [S1.id]: [siteadmin, [siteadmin, rachel]],
    [S2.id]: [daniel, [daniel, siteadmin]],
    [S3.id]: [elena, [elena]],
  };
  SITES.forEach((site, i) => {
    const [by, to] = settingRecipients[site.id];
    w.NotificationSetting.push({
      careSiteId: site.id,
      days: "monday,tuesday,wednesday,thursday,friday",
      recipients: to.map((p) => p.email).join(","),
      adherenceThreshold: 70,
      spo2Threshold: 90,
      therapyAdjustment: true,
      updatedById: by.id,
      updatedAt: ago(40 + i * 11, 9 * 60, site.timeZone),
    });
  });

  const dialogId = "seed-chat-1";
  const repairedName = notable.repaired
    ? `${notable.repaired.firstName} ${notable.repaired.lastName}`
    : "our new patient";
  const messages: [Person, number, number, string][] = [
    [
      siteadmin,
      6,
      9 * 60 + 12,
      "Morning Alex, could you go through the Hill Country patients below 50% before Thursday's huddle?",
    ],
    [
      clinician,
      6,
      9 * 60 + 31,
      "Will do. Two of them had their goals changed this week, I'll call them today.",
    ],
    [
      siteadmin,
      3,
      15 * 60 + 5,
      `Thanks. ${repairedName} has been on the replacement device for a while now, anything to flag?`,
    ],
    [clinician, 2, 8 * 60 + 47, "Transmitting every evening, no deviations worth a call."],
    [siteadmin, 1, 17 * 60 + 20, "Great, thank you!"],
  ];
  const msgTimes = messages.map(([, d, min]) => ago(d, min));
  w.ChatDialog.push({
    id: dialogId,
    type: 3,
    name: null,
    createdById: siteadmin.id,
    createdAt: msgTimes[0] - 60_000,
    lastMessageAt: msgTimes[msgTimes.length - 1],
  });
  w.ChatParticipant.push(
    {
      dialogId,
      userId: siteadmin.id,
      joinedAt: msgTimes[0] - 60_000,
      lastDeliveredAt: msgTimes[4],
      lastReadAt: msgTimes[4],
    },
    {
      dialogId,
      userId: clinician.id,
      joinedAt: msgTimes[0] - 60_000,
      lastDeliveredAt: msgTimes[4],
      lastReadAt: msgTimes[3],
    },
  );
  messages.forEach(([sender, , , body], k) => {
    w.ChatMessage.push({
      id: `seed-chatmsg-${pad(k + 1, 3)}`,
      dialogId,
      senderId: sender.id,
      body,
      createdAt: msgTimes[k],
    });
  });

  return w;
}

/** The bearer token of a demo device (only its sha256 is stored): for the device simulator. */
export function demoDeviceToken(serial: string) {
  return `arc-demo-device-token-${serial}`;
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

type SqlValue = string | number | null;
const toSql = (v: unknown): SqlValue =>
  typeof v === "boolean" ? (v ? 1 : 0) : v === undefined ? null : (v as SqlValue);

function userTables(db: Database.Database) {
  return (
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations' ORDER BY name`,
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
}

export function tableCounts(db: Database.Database) {
  const counts: Record<string, number> = {};
  for (const t of userTables(db))
    counts[t] = (db.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).get() as { n: number }).n;
  return counts;
}

export type SeedResult = { counts: Record<string, number>; ms: number; today: string };

/** Resets the database file (applying migrations first) and loads the demo world. */
export async function seedDemoWorld(
  databaseFile: string,
  today: Date = new Date(),
): Promise<SeedResult> {
  const started = performance.now();
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true });
  applyMigrations(databaseFile, readMigrations(migrationsDir()));
  const passwordHash = await hash(DEMO_PASSWORD); // once: argon2 is slow on purpose
  const world = buildDemoWorld(today, passwordHash);

  const db = new Database(databaseFile);
  try {
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    // Everything is deleted, so delete order does not matter; the foreign keys of what is inserted
    // are checked before commit instead.
    db.pragma("foreign_keys = OFF");
    db.transaction(() => {
      for (const t of userTables(db)) db.prepare(`DELETE FROM "${t}"`).run();
      const hasSequence = db
        .prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'`)
        .get();
      if (hasSequence) db.prepare(`DELETE FROM sqlite_sequence`).run();
      for (const table of TABLE_ORDER) {
        const rows = world[table] as object[];
        if (rows.length === 0) continue;
        const columns = Object.keys(rows[0]);
        const insert = db.prepare(
          `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
        );
        for (const row of rows) {
          const record = row as Record<string, unknown>;
          insert.run(columns.map((c) => toSql(record[c])));
        }
      }
      const broken = db.pragma("foreign_key_check") as unknown[];
      if (broken.length > 0)
        throw new Error(`demo world breaks foreign keys: ${JSON.stringify(broken.slice(0, 5))}`);
    })();
    db.pragma("foreign_keys = ON");
    db.exec("ANALYZE");
    return {
      counts: tableCounts(db),
      ms: Math.round(performance.now() - started),
      today: dayInZone(today.getTime(), HOME_ZONE),
    };
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------

/** `tsx prisma/seed.ts [--if-empty]`, `arc-connect seed-demo [--if-empty]` */
export async function seedCommand(args: string[]) {
  const databaseFile = path.join(path.resolve(process.env.DATA_DIR ?? "data"), "arc.db");
  if (args.includes("--if-empty")) {
    applyMigrations(databaseFile, readMigrations(migrationsDir()));
    const db = new Database(databaseFile, { readonly: true });
    const users = (db.prepare(`SELECT COUNT(*) AS n FROM "User"`).get() as { n: number }).n;
    const demo = db
      .prepare(`SELECT COUNT(*) AS n FROM "User" WHERE username = ?`)
      .get(DEMO_ACCOUNTS[0].username) as { n: number };
    db.close();
    if (users > 0) {
      console.log(`Database ${databaseFile} already has data; demo world not loaded again.`);
      if (demo.n > 0) printDemoAccounts();
      return;
    }
  }
  const { counts, ms, today } = await seedDemoWorld(databaseFile);
  // The adherence rows are the engine's to compute (app/domain/adherence/adherence.server.ts), through the
  // app's own client on the same DATA_DIR.
  const { rebuildAll } = await import("../app/domain/adherence/adherence.server");
  const rebuilt = await rebuildAll();
  console.log(`Adherence computed: ${rebuilt.rows} patient-days for ${rebuilt.patients} patients.`);
  console.log(
    `Demo world loaded into ${databaseFile} in ${ms} ms (therapy data up to the day before ${today}, America/Chicago).`,
  );
  const shown = Object.entries(counts).filter(([, n]) => n > 0);
  console.log(shown.map(([t, n]) => `${t} ${n}`).join(", "));
  printDemoAccounts();
}

function printDemoAccounts() {
  console.log(`Demo accounts (password ${DEMO_PASSWORD}):`);
  for (const a of DEMO_ACCOUNTS) console.log(`  ${a.username.padEnd(19)} ${a.label}`);
  console.log(
    "Sign-in codes are texted to the account's phone: without an SMS provider the server prints them.",
  );
  console.log("Demo device tokens: arc-demo-device-token-<serial>.");
}

const entry = process.argv[1] ? path.resolve(process.argv[1]) : "";
if (/[\\/]prisma[\\/]seed(\.ts)?$/.test(entry)) {
  seedCommand(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
