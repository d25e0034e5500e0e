// Adding people to the demo world: accounts, memberships and the invitations they came through,
// with the demo's stable ids ("seed-user-007") and unique usernames and emails.
import { buildInvitation, buildMembership, buildUser, pad, sha256 } from "../factories";
import { DAY_MS } from "./calendar";
import { SITES, SPECIALITIES, STREETS, type SiteDef } from "./content";
import { Rng } from "./random";
import type { Ctx, Person } from "./world";

export function addUser(
  ctx: Ctx,
  u: {
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
  },
): Person {
  const id = u.id ?? `seed-user-${pad(++ctx.seq.user, 3)}`;
  const base = `${u.firstName}.${u.lastName}`.toLowerCase().replace(/[^a-z.]/g, "");
  let username = u.username ?? base;
  for (let n = 2; ctx.usernames.has(username); n++) username = `${base}${n}`;
  ctx.usernames.add(username);
  const email = (
    u.email ?? `${username}@${u.site ? `${u.site.domain}.example` : "arcconnect.example"}`
  ).toLowerCase();
  if (ctx.emails.has(email)) throw new Error(`duplicate demo email ${email}`);
  ctx.emails.add(email);
  const r = new Rng(`address:${id}`);
  const site = u.site ?? SITES[0];
  ctx.w.User.push(
    buildUser({
      id,
      username,
      email,
      phone: u.phone,
      passwordHash: ctx.passwordHash,
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
    }),
  );
  return { id, firstName: u.firstName, lastName: u.lastName, email };
}

export function addMembership(
  ctx: Ctx,
  site: SiteDef,
  user: Person,
  role: string,
  status: string,
  createdAt: number,
  acceptedAt: number | null,
  updatedAt = acceptedAt ?? createdAt,
) {
  const id = `seed-membership-${pad(++ctx.seq.membership, 3)}`;
  ctx.w.Membership.push(
    buildMembership({
      id,
      careSiteId: site.id,
      userId: user.id,
      role,
      status,
      createdAt,
      updatedAt,
      acceptedAt,
    }),
  );
  return id;
}

export function addInvitation(
  ctx: Ctx,
  i: {
    email: string;
    role: string;
    site: SiteDef | null;
    by: Person;
    status: string;
    createdAt: number;
    membershipId?: string | null;
    updatedAt?: number;
    lastSentAt?: number; // resend: a new token and expiry from this time
  },
) {
  const id = `seed-invitation-${pad(++ctx.seq.invitation, 3)}`;
  const sent = i.lastSentAt ?? i.createdAt;
  ctx.w.Invitation.push(
    buildInvitation({
      id,
      email: i.email,
      role: i.role,
      careSiteId: i.site?.id ?? null,
      invitedById: i.by.id,
      membershipId: i.membershipId ?? null,
      status: i.status,
      tokenHash: sha256(`arc-demo-invitation:${id}:${sent}`),
      expiresAt: sent + 7 * DAY_MS,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt ?? sent,
    }),
  );
  return id;
}

/** Invites a user to a site and records the accepted membership (invitation -> membership). */
export function join(
  ctx: Ctx,
  site: SiteDef,
  user: Person,
  role: string,
  by: Person,
  invitedAt: number,
  acceptAfterHours: number,
) {
  const acceptedAt = invitedAt + acceptAfterHours * 3_600_000;
  const membershipId = addMembership(ctx, site, user, role, "accepted", invitedAt, acceptedAt);
  addInvitation(ctx, {
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

/** A phone number of a care site's area. */
export const sitePhone = (site: SiteDef, n: number) => `1${site.areaCode}555${pad(n, 4)}`;
