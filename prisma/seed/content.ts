// The demo world's fixed content: its care sites, the names, places and conditions patients are
// drawn from, and the plan of the 20 patient places of each care site.

export type SiteDef = {
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

export const SITES: SiteDef[] = [
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

export const FEMALE = (
  "Mary Patricia Linda Barbara Elizabeth Jennifer Maria Susan Margaret Dorothy Lisa " +
  "Nancy Karen Betty Helen Sandra Donna Carol Ruth Sharon Michelle Laura Sarah " +
  "Kimberly Deborah Jessica Shirley Cynthia Angela Melissa Brenda Amy Anna Rebecca " +
  "Virginia Kathleen Pamela Martha Rosa Lucia Mei Aisha Fatima Keisha Yolanda " +
  "Ingrid Emma Olivia Sophia Isabella"
).split(" ");
export const MALE = (
  "James John Robert Michael William David Richard Charles Joseph Thomas " +
  "Christopher Daniel Paul Mark Donald George Kenneth Steven Edward Brian Ronald " +
  "Anthony Kevin Jason Matthew Gary Timothy Jose Larry Jeffrey Frank Scott Eric " +
  "Stephen Andrew Raymond Gregory Joshua Dennis Walter Patrick Peter Harold Douglas " +
  "Henry Carl Arthur Luis Hiroshi Darnell Emeka Ethan Noah Liam"
).split(" ");
export const LAST = (
  "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez " +
  "Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee " +
  "Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young " +
  "Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall " +
  "Rivera Campbell Mitchell Carter Roberts Olson Lindqvist Novak Okafor Yamamoto " +
  "Schmidt Kowalczyk Washington Begay O'Brien"
).split(" ");
export const STREETS = [
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
export const YOUNG_CONDITIONS = [
  "Duchenne muscular dystrophy",
  "Spinal muscular atrophy",
  "Cerebral palsy",
  "Cystic fibrosis",
];
export const ADULT_CONDITIONS = [
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
export const OTHER_CONDITIONS = [
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
export const ALLERGIES = [
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
export const BLOOD_TYPES = [
  "O+",
  "O+",
  "O+",
  "A+",
  "A+",
  "A+",
  "B+",
  "AB+",
  "O-",
  "A-",
  "B-",
  "AB-",
];

export const SLOT_TIMES: Record<number, number[]> = {
  1: [9 * 60],
  2: [8 * 60 + 30, 18 * 60 + 45],
  3: [8 * 60, 13 * 60, 18 * 60 + 30],
  4: [7 * 60 + 30, 11 * 60 + 30, 15 * 60 + 30, 19 * 60],
};
export const ALL_DAYS = "mon,tue,wed,thu,fri,sat,sun";
export const GOAL_DAYS = [
  ALL_DAYS,
  ALL_DAYS,
  ALL_DAYS,
  ALL_DAYS,
  "mon,wed,fri",
  "mon,tue,wed,thu,fri",
];

// Adherence profiles: share of goal therapies completed, and the habits around it.
export type Profile = "excellent" | "good" | "mid" | "low" | "verylow" | "missing";
export const PROFILES: Record<
  Profile,
  { rate: number; partial: number; extra: number; offDay: number }
> = {
  excellent: { rate: 0.98, partial: 0.5, extra: 0.06, offDay: 0.35 },
  good: { rate: 0.86, partial: 0.35, extra: 0.04, offDay: 0.2 },
  mid: { rate: 0.6, partial: 0.3, extra: 0.02, offDay: 0.1 },
  low: { rate: 0.35, partial: 0.25, extra: 0, offDay: 0.05 },
  verylow: { rate: 0.12, partial: 0.2, extra: 0, offDay: 0.02 },
  missing: { rate: 0.85, partial: 0.3, extra: 0.02, offDay: 0.1 },
};

// What each of the 20 patient places of a care site is. "special" cases are placed by site below.
export type Slot = {
  profile: Profile;
  goalChange?: "recent" | "older";
  adjustment?: "recent" | "older";
};
export const SLOTS: Slot[] = [
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
export const PATIENTS_PER_SITE = SLOTS.length;
export const NEVER_TRANSMITTED_SLOT = 17;
export const NO_DEVICE_SLOT = 18;
export const LAST_SLOT = 19;
export const REPAIRED = { site: 0, slot: 3 }; // device replaced 35 days ago
export const REUSED_DEVICE = { site: 0, slot: 16 }; // new patient on the replaced device, paired 10 days ago
export const RECENT_PAIRINGS: Record<string, number> = { "1:15": 45, "2:15": 60, "0:11": 25 }; // "site:slot" -> days ago
export const SPECIALITIES = [
  "Respiratory therapist",
  "Pulmonologist",
  "Neuromuscular nurse",
  "Physiatrist",
];
