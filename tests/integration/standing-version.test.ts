// The care site dashboard's cards are kept per site, window and StandingVersion (migration
// standing_version): a second view with nothing changed reuses the counts, and each kind of write
// the cards depend on raises the site's version (a standing row written, a pairing started or
// ended), so the next view counts again. dashboard-standing.test.ts checks the cards against the
// base rows through every change; this file checks the keeping itself.
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { closeReader } from "~/lib/reader.server";
import { yesterdayInZone } from "~/lib/time";
import { addDays } from "~/domain/adherence/score";
import { rebuildAll } from "~/domain/adherence/adherence.server";
import { standingCounts, standingWindow } from "~/domain/adherence/sql/dashboard.server";
import { createCareSite, createPairedPatient } from "../support/factories";

const ZONE = "America/Chicago";

afterAll(() => closeReader());

async function versionOf(careSiteId: string) {
  const row = await prisma.standingVersion.findUnique({ where: { careSiteId } });
  return row?.version ?? null;
}

function weekWindow(now = new Date()) {
  const asOf = yesterdayInZone(now, ZONE);
  return standingWindow(ZONE, asOf, addDays(asOf, -6), asOf);
}

describe("the dashboard cards kept per standing version", () => {
  it("reuses a site's counts until a standing row or a pairing of its patients changes", async () => {
    const site = await createCareSite();
    const pairedAt = new Date(Date.now() - 10 * 86_400_000);
    const a = await createPairedPatient(site.id, { firstName: "Ann", lastName: "Kept", pairedAt });
    const b = await createPairedPatient(site.id, { firstName: "Bo", lastName: "Kept", pairedAt });
    await rebuildAll();
    const w = weekWindow();

    const v1 = await versionOf(site.id);
    expect(v1, "the standing rows' writes gave the site a version").not.toBeNull();
    const first = await standingCounts(site.id, w);
    expect(first.never).toBe(2);
    // Nothing changed: the same counts, not counted again.
    expect(await standingCounts(site.id, w)).toBe(first);

    // A pairing ends (no current pairing: no longer "never transmitted"): the version moves.
    await prisma.pairing.updateMany({
      where: { patientId: a.patient.id, unpairedAt: null },
      data: { unpairedAt: new Date() },
    });
    const v2 = await versionOf(site.id);
    expect(v2).not.toBe(v1);
    const second = await standingCounts(site.id, w);
    expect(second).not.toBe(first);
    expect(second.never).toBe(1);

    // A standing row rewritten (the adherence recompute) moves it too, even with equal values.
    await prisma.patientStanding.updateMany({
      where: { careSiteId: site.id, patientId: b.patient.id },
      data: { transmitted: false },
    });
    expect(await versionOf(site.id)).not.toBe(v2);
    expect(await standingCounts(site.id, w)).not.toBe(second);

    // A new pairing of one of its patients: "never transmitted" again.
    const v3 = await versionOf(site.id);
    await prisma.pairing.create({
      data: {
        deviceId: a.device.id,
        patientId: a.patient.id,
        careSiteId: site.id,
        pairedAt: new Date(),
      },
    });
    expect(await versionOf(site.id)).not.toBe(v3);
    expect((await standingCounts(site.id, w)).never).toBe(2);
  });

  it("keeps another window's counts apart", async () => {
    const site = await createCareSite();
    const pairedAt = new Date(Date.now() - 10 * 86_400_000);
    await createPairedPatient(site.id, { firstName: "Cy", lastName: "Kept", pairedAt });
    await rebuildAll();
    const week = weekWindow();
    const earlier = weekWindow(new Date(Date.now() - 3 * 86_400_000));
    const counts = await standingCounts(site.id, week);
    expect(await standingCounts(site.id, earlier)).not.toBe(counts);
    expect(await standingCounts(site.id, week)).toBe(counts);
  });
});
