// The Patients page's search (spec 3 §2.5, §2.6, §7.2 "Report search"): the patients of the
// viewer's care sites, one row per patient and care site, searched by name, email or Patient Id.
import { patientPlacesReadableBy, type Actor } from "~/domain/access.server";
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { PAGE_SIZE, skipFor, type ListParams } from "~/lib/listParams";
import { patientProfileHref } from "~/domain/patients/profileLink";
import { photoUrl } from "~/lib/photoUrl";

export const PATIENT_SEARCH_SORTS = ["lastName", "firstName", "careSite"] as const;
export type PatientSearchSort = (typeof PATIENT_SEARCH_SORTS)[number];

/**
 * Every word of `q` must match the first name, last name, email or Patient Id (so "ann smith"
 * finds Ann Smith); an empty `q` lists everyone. Scoped to the patients the actor may read
 * (access.server.ts patientPlacesReadableBy: accepted patients of the actor's care sites).
 */
export async function searchPatients(actor: Actor, params: ListParams<PatientSearchSort>) {
  const words = params.q.split(/\s+/).filter(Boolean).slice(0, 5);
  const where: Prisma.MembershipWhereInput = {
    AND: [
      patientPlacesReadableBy(actor),
      {
        user: {
          AND: words.map((w) => ({
            OR: [
              { firstName: { contains: w } },
              { lastName: { contains: w } },
              { email: { contains: w.toLowerCase() } },
              { patientProfile: { patientTag: { contains: w } } },
            ],
          })),
        },
      },
    ],
  };
  const by = params.order;
  const orderBy: Prisma.MembershipOrderByWithRelationInput[] =
    params.sort === "careSite"
      ? [{ careSite: { name: by } }, { user: { lastName: "asc" } }]
      : [{ user: { [params.sort]: by } }, { user: { id: "asc" } }];
  const [total, rows] = await Promise.all([
    prisma.membership.count({ where }),
    prisma.membership.findMany({
      where,
      orderBy: [...orderBy, { id: "asc" }],
      skip: skipFor(params.page),
      take: PAGE_SIZE,
      select: {
        careSite: { select: { id: true, name: true } },
        user: {
          select: {
            id: true,
            firstName: true,
            lastName: true,
            photoId: true,
            pairings: { where: { unpairedAt: null }, take: 1, select: { id: true } },
          },
        },
      },
    }),
  ]);
  return {
    total,
    rows: rows.map(({ careSite, user }) => ({
      key: `${user.id}:${careSite.id}`,
      firstName: user.firstName,
      lastName: user.lastName,
      careSite: careSite.name,
      photoUrl: photoUrl(user.photoId),
      href: patientProfileHref({
        profileId: user.id,
        clinicId: careSite.id,
        pairId: user.pairings[0]?.id ?? null,
      }),
    })),
  };
}
