// Events of their own (a profile view) go through the device API's writer (audit.server.ts
// auditAlone): the row is committed once the call resolves, with every field an audit reader
// relies on, and a view that arrives while a Prisma transaction holds the write lock waits for it
// instead of failing or being dropped.
import { describe, expect, it } from "vitest";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { auditAlone } from "~/domain/audit.server";
import { auditProfileView } from "~/domain/patients/profile.server";
import { createCareSite, createUser } from "../support/factories";

describe("auditAlone", () => {
  it("keeps the row, with its actor, target, care site, address, detail and time, once resolved", async () => {
    const site = await createCareSite();
    const staff = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    await auditAlone({
      actorId: staff.id,
      action: "test.alone",
      targetType: "User",
      targetId: patient.id,
      careSiteId: site.id,
      ip: "203.0.113.9",
      detail: { a: 1 },
      at,
    });
    const row = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "test.alone", actorId: staff.id },
    });
    expect(row).toMatchObject({
      at,
      targetType: "User",
      targetId: patient.id,
      careSiteId: site.id,
      ip: "203.0.113.9",
      detail: JSON.stringify({ a: 1 }),
    });

    await auditProfileView(staff, patient.id, { careSiteId: site.id, ip: "203.0.113.10" });
    const viewed = await prisma.auditEvent.findMany({
      where: { action: "patient.profile_viewed", actorId: staff.id, targetId: patient.id },
    });
    expect(viewed).toHaveLength(1);
    expect(viewed[0]).toMatchObject({ careSiteId: site.id, ip: "203.0.113.10", detail: null });
  });

  it("waits for a Prisma transaction that holds the write lock, then keeps the row", async () => {
    const site = await createCareSite();
    const staff = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    let written: Promise<void> | null = null;
    await readWriteTransaction(async (tx) => {
      await tx.careSite.update({ where: { id: site.id }, data: { name: `${site.name} (held)` } });
      // The lock is held now: the event is queued behind it.
      written = auditAlone({ actorId: staff.id, action: "test.waited", careSiteId: site.id });
    });
    await written;
    expect(await prisma.auditEvent.count({ where: { action: "test.waited" } })).toBe(1);
  });
});
