import { prisma } from "~/lib/db.server";

/** The super admin's enrolled counts: active care sites and accepted people per role. */
export async function getEnrolledCounts() {
  const acceptedIn = (role: string) =>
    prisma.user.count({
      where: {
        role,
        memberships: { some: { status: "accepted", role, careSite: { status: "active" } } },
      },
    });
  const [careSites, patients, clinicians, careSiteAdmins] = await Promise.all([
    prisma.careSite.count({ where: { status: "active" } }),
    acceptedIn("patient"),
    acceptedIn("clinician"),
    acceptedIn("clinicadmin"),
  ]);
  return { careSites, patients, clinicians, careSiteAdmins };
}
