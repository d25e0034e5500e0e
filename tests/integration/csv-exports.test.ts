// Every CSV export writes through the one writer (lib/csv): a cell starting with = + - @ tab or
// carriage return comes out behind a single quote (OWASP "CSV Injection"), per export, on a real
// SQLite. The transmissions export is tested in tests/unit/csv.test.ts, the decrypted device log in
// tests/integration/devicelog-upload.test.ts.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { dashboardCsvOf } from "~/domain/adherence/dashboard.server";
import { summaryCsv, type SummaryRow } from "~/domain/notifications/summaryRows.server";
import { deviceStatsCsv } from "~/domain/deviceStats/deviceStats.server";
import { loader as enrolledCsvLoader } from "~/routes/app.caresitesettingdashboard.csv";
import { armedCells, csvRecords, disarmed, FORMULA_CELLS } from "../support/csvInjection";
import { createCareSite, createPairedPatient, createUser, uid } from "../support/factories";
import { signedInBrowser } from "../support/session";

const DAY = 86_400_000;

describe("CSV exports disarm formula cells", () => {
  it("the care site dashboard's category list", async () => {
    const site = await createCareSite();
    for (const cell of FORMULA_CELLS) {
      await createPairedPatient(site.id, {
        firstName: cell,
        lastName: cell,
        pairedAt: new Date(Date.now() - 10 * DAY),
      });
    }
    const { csv } = await dashboardCsvOf(site.id, "never", new URLSearchParams());
    const [header, ...rows] = csvRecords(csv);
    expect(header.slice(0, 2)).toEqual(["Last Name", "First Name"]);
    expect(rows.map((r) => r[0]).sort()).toEqual(FORMULA_CELLS.map(disarmed).sort());
    expect(rows.map((r) => r[1]).sort()).toEqual(FORMULA_CELLS.map(disarmed).sort());
    expect(armedCells(rows)).toEqual([]);
  });

  it("the daily notification summary", () => {
    const rows: SummaryRow[] = FORMULA_CELLS.map((cell, i) => ({
      patientId: String(i),
      firstName: cell,
      lastName: cell,
      photoUrl: "",
      adherencePercent: 50,
      spo2: null,
      deviation: false,
      therapyAdjusted: false,
    })) as SummaryRow[];
    const [header, ...records] = csvRecords(summaryCsv(rows));
    expect(header).toEqual(["Last Name", "First Name", "Adherence %", "SpO2", "Deviation"]);
    expect(records.map((r) => r[0])).toEqual(FORMULA_CELLS.map(disarmed));
    expect(records.map((r) => r[1])).toEqual(FORMULA_CELLS.map(disarmed));
    expect(armedCells(records)).toEqual([]);
  });

  it("the care site's enrolled patients", async () => {
    const site = await createCareSite();
    const admin = await createUser({ role: "clinicadmin", careSites: [{ id: site.id }] });
    const tag = uid("Zz").replace(/[0-9]/g, "q");
    for (const cell of FORMULA_CELLS) {
      const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
      await prisma.user.update({
        where: { id: patient.id },
        data: { firstName: cell, lastName: tag, city: cell, zip: "-1" },
      });
    }
    const browser = await signedInBrowser(admin.id);
    const response = (await browser.run(
      enrolledCsvLoader,
      browser.get(`/app/caresitesettingdashboard/csv?c=${site.id}&view=patient&q=${tag}`),
    )) as Response;
    expect(response.status).toBe(200);
    const [header, ...rows] = csvRecords(await response.text());
    expect(header.slice(0, 2)).toEqual(["Last Name", "First Name"]);
    expect(rows.map((r) => r[1]).sort()).toEqual(FORMULA_CELLS.map(disarmed).sort());
    expect(rows.map((r) => r[header.indexOf("City")]).sort()).toEqual(
      FORMULA_CELLS.map(disarmed).sort(),
    );
    // A zip of "-1" reads as a number in a spreadsheet and runs nothing: it stays as it is.
    expect(rows.every((r) => r[header.indexOf("Zip")] === "-1")).toBe(true);
    expect(armedCells(rows)).toEqual([]);
  });

  it("the device statistics", async () => {
    const serial = `CSV${uid()
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, "")}`;
    const { id: deviceId } = await prisma.device.create({
      data: { serial, type: "cough", tokenHash: uid("h") },
    });
    const at = new Date(Date.now() - 60_000);
    await prisma.deviceStat.createMany({
      data: FORMULA_CELLS.map((cell) => ({
        deviceId,
        serial,
        deviceType: "cough",
        core: "Single",
        temperature: -1.5,
        createdAt: at,
        test: cell,
        mode: cell,
        testType: cell,
        testDec: cell,
      })),
    });
    const stream = deviceStatsCsv({
      start: new Date(at.getTime() - DAY),
      end: new Date(),
      q: serial,
    });
    const text = await new Response(stream).text();
    const [table] = text.split("\n\n");
    const [header, ...rows] = csvRecords(table);
    expect(rows).toHaveLength(FORMULA_CELLS.length);
    for (const column of ["test", "mode", "test_type", "test_dec"]) {
      expect(rows.map((r) => r[header.indexOf(column)]).sort()).toEqual(
        FORMULA_CELLS.map(disarmed).sort(),
      );
    }
    expect(rows.every((r) => r[header.indexOf("temperature")] === "-1.5")).toBe(true);
    expect(armedCells(rows)).toEqual([]);
  });
});
