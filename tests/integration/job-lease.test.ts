// The scheduler lease on a real SQLite file, through two connections (as two processes would):
// one holder at a time, hand-over on release and on expiry, and scheduled jobs, the adherence
// worker and the catch-up only in the process that holds it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PrismaClient } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { readMigrations } from "~/lib/migrate.server";
import { AdherenceWorker } from "~/jobs/adherenceQueue.server";
import { dailySummaryJob } from "~/jobs/dailySummary.server";
import { Lease, LEASE_RENEW_MS, LEASE_TTL_MS, leaseHolderId } from "~/jobs/lease.server";
import { checkReadiness, startBackground, stopBackground } from "~/jobs/lifecycle.server";
import { jobs } from "~/jobs/housekeeping.server";
import { countsOnly, runJob, Scheduler, type Job } from "~/jobs/scheduler.server";
import { createUser, uid } from "../support/factories";
import { MIGRATIONS_DIR } from "../support/paths";

const ROOT = path.resolve(__dirname, "..", "..");

/** A second connection to the worker's database file: the "other process". */
let other: PrismaClient;

beforeAll(async () => {
  other = new PrismaClient({
    adapter: new PrismaBetterSQLite3(
      { url: `file:${env.databaseFile}`, timeout: 5000 },
      { timestampFormat: "unixepoch-ms" },
    ),
  });
  await other.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
});

afterAll(async () => {
  await other.$disconnect();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A settable clock for a lease. */
function clock(start = Date.now()) {
  let t = start;
  return { now: () => t, set: (ms: number) => void (t = ms), add: (ms: number) => void (t += ms) };
}

const waitFor = (check: () => boolean | Promise<boolean>, timeout = 5_000) =>
  vi.waitFor(
    async () => {
      if (!(await check())) throw new Error("not yet");
    },
    { timeout, interval: 20 },
  );

describe("the job lease", () => {
  it("is held by one process at a time; the other takes over when it is released", async () => {
    const name = uid("lease-");
    const t = clock();
    const a = new Lease({ name, holder: "host-a:1:aa", now: t.now });
    const b = new Lease({ name, holder: "host-b:2:bb", now: t.now, db: other });

    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    expect([a.held, b.held]).toEqual([true, false]);

    // Renewal by the holder moves its expiry on; the other still cannot take it.
    t.add(LEASE_RENEW_MS);
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    const row = await prisma.jobLease.findUniqueOrThrow({ where: { name } });
    expect(row).toEqual({
      name,
      holder: "host-a:1:aa",
      expiresAt: new Date(t.now() + LEASE_TTL_MS),
    });
    // Stored as integer milliseconds, like every DateTime column here.
    const [stored] = await prisma.$queryRawUnsafe<{ kind: string }[]>(
      `SELECT typeof("expiresAt") AS kind FROM "JobLease" WHERE "name" = ?`,
      name,
    );
    expect(stored.kind).toBe("integer");

    // A release hands over at the other's next attempt, not after the TTL.
    await a.release();
    expect(a.held).toBe(false);
    expect(await prisma.jobLease.findUnique({ where: { name } })).toBeNull();
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);

    // Releasing a lease one does not hold leaves the holder's row alone.
    await a.release();
    expect(await prisma.jobLease.findUniqueOrThrow({ where: { name } })).toMatchObject({
      holder: "host-b:2:bb",
    });
  });

  it("passes to another process once the holder stops renewing and the TTL has run out", async () => {
    const name = uid("lease-");
    const ttlMs = 1_000;
    const ta = clock();
    const tb = clock(ta.now());
    const a = new Lease({ name, holder: "a", ttlMs, now: ta.now });
    const b = new Lease({ name, holder: "b", ttlMs, now: tb.now, db: other });
    expect(await a.acquire()).toBe(true);

    // Just before the expiry the lease is still a's.
    tb.add(ttlMs - 1);
    expect(await b.acquire()).toBe(false);
    tb.add(2);
    expect(await b.acquire()).toBe(true);

    // a (say, a process stalled for a while) sees its own expiry pass: it stops counting itself
    // the holder even before it tries again, and cannot renew what b now holds.
    ta.add(ttlMs + 1);
    expect(a.held).toBe(false);
    expect(await a.acquire()).toBe(false);
    expect(b.held).toBe(true);
  });

  it("lets exactly one of many simultaneous contenders win", async () => {
    const name = uid("lease-");
    const clients = Array.from(
      { length: 4 },
      () =>
        new PrismaClient({
          adapter: new PrismaBetterSQLite3(
            { url: `file:${env.databaseFile}`, timeout: 5000 },
            { timestampFormat: "unixepoch-ms" },
          ),
        }),
    );
    try {
      const leases = [prisma, other, ...clients].map((db) => new Lease({ name, db }));
      const results = await Promise.all(leases.map((lease) => lease.acquire()));
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = leases[results.indexOf(true)];
      expect((await prisma.jobLease.findUniqueOrThrow({ where: { name } })).holder).toBe(
        winner.holder,
      );
    } finally {
      await Promise.all(clients.map((c) => c.$disconnect()));
    }
  });

  it("calls onAcquire when the lease is taken, not on each renewal", async () => {
    const name = uid("lease-");
    const t = clock();
    const acquired: string[] = [];
    const a = new Lease({ name, holder: "a", now: t.now, onAcquire: () => acquired.push("a") });
    const b = new Lease({
      name,
      holder: "b",
      now: t.now,
      db: other,
      onAcquire: () => acquired.push("b"),
    });
    await a.acquire();
    await a.acquire();
    await b.acquire();
    expect(acquired).toEqual(["a"]);
    await a.release();
    await b.acquire();
    await b.acquire();
    expect(acquired).toEqual(["a", "b"]);
  });

  it("renews in a loop, and a stopped holder hands over to a waiting one", async () => {
    const name = uid("lease-");
    const a = new Lease({ name, holder: "a", ttlMs: 300, renewMs: 50 });
    const b = new Lease({ name, holder: "b", ttlMs: 300, renewMs: 50, db: other });
    await a.start();
    await b.start();
    expect([a.held, b.held]).toEqual([true, false]);
    // Past the TTL of a's first lease, a's loop has renewed it twice over: a keeps it.
    const expiry = async () =>
      (await prisma.jobLease.findUniqueOrThrow({ where: { name } })).expiresAt.getTime();
    const first = await expiry();
    await waitFor(async () => (await expiry()) > first + 2 * 300);
    expect([a.held, b.held]).toEqual([true, false]);
    expect((await prisma.jobLease.findUniqueOrThrow({ where: { name } })).holder).toBe("a");
    await a.stop();
    expect(a.running).toBe(false);
    await waitFor(() => b.held);
    await b.stop();
    expect(await prisma.jobLease.findUnique({ where: { name } })).toBeNull();
  });

  it("names its holder by host, process and a random part", () => {
    const id = leaseHolderId();
    expect(id).toMatch(new RegExp(`^.+:${process.pid}:[0-9a-f]{8}$`));
    expect(leaseHolderId()).not.toBe(id);
  });
});

describe("scheduled jobs under the lease", () => {
  function countingJob() {
    const job: Job & { runs: number } = {
      name: uid("job-"),
      schedule: "* * * * *",
      runs: 0,
      run: async () => {
        job.runs++;
        return { done: 1 };
      },
    };
    return job;
  }

  it("run a tick only in the process that holds the lease", async () => {
    const name = uid("lease-");
    const t = clock();
    const a = new Lease({ name, holder: "a", now: t.now });
    const b = new Lease({ name, holder: "b", now: t.now, db: other });
    await a.acquire();
    await b.acquire();
    const job = countingJob();
    const standby = new Scheduler([job], { isLeader: () => b.held });

    // A slot nobody has run: the standby process still runs nothing, and records nothing.
    const slot = new Date("2026-11-21T13:00:00Z");
    expect(await standby.tick(job, slot)).toEqual({ skipped: true, standby: true });
    expect(job.runs).toBe(0);
    expect(await prisma.jobRun.count({ where: { job: job.name } })).toBe(0);

    // Once it holds the lease, its ticks do the work.
    await a.release();
    await b.acquire();
    expect(await standby.tick(job, slot)).toMatchObject({ skipped: false, detail: { done: 1 } });
    expect(job.runs).toBe(1);
  });

  it("run a job once when two schedulers share the database", async () => {
    const name = uid("lease-");
    const t = clock();
    const leases = [
      new Lease({ name, holder: "a", now: t.now }),
      new Lease({ name, holder: "b", now: t.now, db: other }),
    ];
    // "a" starts first and holds the lease; "b" finds it taken.
    for (const lease of leases) await lease.acquire();
    expect(leases.map((lease) => lease.held)).toEqual([true, false]);
    const job = countingJob();
    const schedulers = leases.map((lease) => new Scheduler([job], { isLeader: () => lease.held }));

    // Both processes' cron fires for the same minute, a few times over.
    const slot = new Date("2026-11-21T14:00:00Z");
    const results = await Promise.all(
      [...schedulers, ...schedulers].map((scheduler) => scheduler.tick(job, slot)),
    );
    expect(job.runs).toBe(1);
    expect(results.filter((r) => !r.skipped)).toHaveLength(1);
    // The process without the lease did not even try (its ticks 1 and 3).
    expect([results[1], results[3]]).toEqual([
      { skipped: true, standby: true },
      { skipped: true, standby: true },
    ]);
    const rows = await prisma.jobRun.findMany({ where: { job: job.name } });
    expect(rows.map((r) => [r.runKey, r.status])).toEqual([["2026-11-21T14:00", "succeeded"]]);

    // Even if the leases overlapped (a holder stalled past its TTL), JobRun still allows one run.
    const both = new Scheduler([job]);
    expect(await both.tick(job, slot)).toEqual({ skipped: true });
    expect(job.runs).toBe(1);
  });

  it("leave the adherence queue to the holder", async () => {
    const patient = await createUser({ role: "patient" });
    await prisma.adherenceQueue.create({
      data: { patientId: patient.id, fromAt: new Date("2026-11-01T00:00:00Z") },
    });
    let active = false;
    const worker = new AdherenceWorker(() => active);
    // The worker's timers on a fake clock: every pass it would start, and its sweep, come due.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    worker.start();
    try {
      worker.drain();
      await vi.advanceTimersByTimeAsync(61_000);
      expect(await prisma.adherenceQueue.count({ where: { patientId: patient.id } })).toBe(1);
      vi.useRealTimers();
      // Taking the lease over drains what is queued.
      active = true;
      worker.drain();
      await waitFor(
        async () => (await prisma.adherenceQueue.count({ where: { patientId: patient.id } })) === 0,
      );
    } finally {
      await worker.stop();
    }
  });
});

describe("startBackground, stopBackground and readiness", () => {
  const expected = readMigrations(MIGRATIONS_DIR).map((m) => m.name);

  afterEach(async () => {
    await stopBackground({ disconnect: false });
    await prisma.jobLease.deleteMany({});
  });

  it("are not ready before the background loop runs; ready as leader once it does", async () => {
    expect(await checkReadiness(expected)).toEqual({
      ready: false,
      database: "ok",
      migrations: "ok",
      scheduler: "stopped",
    });
    await startBackground();
    expect(await checkReadiness(expected)).toEqual({
      ready: true,
      database: "ok",
      migrations: "ok",
      scheduler: "leader",
    });
    const row = await prisma.jobLease.findUniqueOrThrow({ where: { name: "scheduler" } });
    expect(row.holder).toMatch(new RegExp(`:${process.pid}:`));

    // Stopping gives the lease up at once, for the next process.
    await stopBackground({ disconnect: false });
    expect(await prisma.jobLease.findUnique({ where: { name: "scheduler" } })).toBeNull();
    expect((await checkReadiness(expected)).scheduler).toBe("stopped");
  });

  it("are not ready while a migration the build ships is not recorded as finished", async () => {
    await startBackground();
    const future = "29991231000000_not_applied_yet";
    expect(await checkReadiness([...expected, future])).toEqual({
      ready: false,
      database: "ok",
      migrations: { pending: [future] },
      scheduler: "leader",
    });
    // A migration that started but never finished (or was rolled back) does not count either.
    const last = expected.at(-1)!;
    await prisma.$executeRawUnsafe(
      `UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = ?`,
      last,
    );
    try {
      expect((await checkReadiness(expected)).migrations).toEqual({ pending: [last] });
    } finally {
      await prisma.$executeRawUnsafe(
        `UPDATE _prisma_migrations SET finished_at = ? WHERE migration_name = ?`,
        Date.now(),
        last,
      );
    }
    expect((await checkReadiness(expected)).ready).toBe(true);
  });

  it("stand by while another process holds the lease, and catch up when they take it over", async () => {
    // 09:00 CDT: today's 07:00 summary is due, so a process that takes the lease makes it up.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-09-15T14:00:00Z"));
    await prisma.jobLease.create({
      data: {
        name: "scheduler",
        holder: "elsewhere:1:00",
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    await startBackground({ lease: { renewMs: 50 } });
    const readiness = await checkReadiness(expected);
    expect(readiness).toMatchObject({ ready: true, scheduler: "standby" });
    // The standby process did not run the catch-up: stopping waits for one in progress.
    const catchUpRuns = () =>
      prisma.jobRun.count({ where: { job: dailySummaryJob.name, runKey: "2026-09-15T14:00" } });
    await stopBackground({ disconnect: false });
    expect(await catchUpRuns()).toBe(0);
    await startBackground({ lease: { renewMs: 50 } });
    expect(await checkReadiness(expected)).toMatchObject({ scheduler: "standby" });

    // The other holder's lease lapses: this process takes it at its next renewal, and catches up.
    await other.jobLease.update({
      where: { name: "scheduler" },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    await waitFor(async () => (await checkReadiness(expected)).scheduler === "leader");
    await waitFor(async () => (await catchUpRuns()) === 1);
  });

  it("are not ready when the database does not answer, and say why", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-ready-"));
    fs.mkdirSync(path.join(dir, "arc.db")); // a folder where the database file should be
    try {
      const result = spawnSync(
        process.execPath,
        [
          path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"),
          "-e",
          `import { checkReadiness } from "~/jobs/lifecycle.server";
           checkReadiness(["001_init"]).then((r) => console.log(JSON.stringify(r)));`,
        ],
        { cwd: ROOT, encoding: "utf8", env: { ...process.env, DATA_DIR: dir } },
      );
      expect(JSON.parse(result.stdout)).toEqual({
        ready: false,
        database: "unable to open database file",
        migrations: { pending: ["001_init"] },
        scheduler: "stopped",
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the log line of a job run", () => {
  it("holds job, slot, status, duration and the counts of the result, nothing else", async () => {
    const lines: string[] = [];
    const spy = vi
      .spyOn(console, "log")
      .mockImplementation((line: string) => void lines.push(line));
    const job: Job = {
      name: uid("job-"),
      schedule: "* * * * *",
      // A job that (wrongly) returns text beside its counts: the text stays out of the log.
      run: async () => ({ sent: 2, failed: 0, to: "jane.doe@example.test", note: "Jane Doe" }),
    };
    try {
      await runJob(job, new Date("2026-11-21T15:00:00Z"));
      await runJob(job, new Date("2026-11-21T15:00:30Z"));
    } finally {
      spy.mockRestore();
    }
    const runs = lines.filter((l) => l.includes("job run") && l.includes(job.name));
    expect(runs).toHaveLength(2);
    expect(runs.join("\n")).not.toMatch(/jane|Jane/);
    const fields = runs.map((l) => JSON.parse(l.slice(l.indexOf("{"))) as Record<string, unknown>);
    expect(fields).toEqual([
      {
        job: job.name,
        slot: "2026-11-21T15:00",
        status: "succeeded",
        durationMs: expect.any(Number),
        detail: { sent: 2, failed: 0 },
      },
      {
        job: job.name,
        slot: "2026-11-21T15:00",
        status: "skipped",
        durationMs: expect.any(Number),
      },
    ]);
  });

  it("gets only numbers from every scheduled job there is", async () => {
    expect(countsOnly({ a: 1, b: "x", c: null, d: Number.NaN, e: { f: 1 } })).toEqual({ a: 1 });
    expect(countsOnly(undefined)).toBeUndefined();
    const now = new Date();
    for (const job of jobs) {
      const detail = await job.run(now);
      expect(detail, job.name).toBeTypeOf("object");
      // Everything a job reports is a count: the log line loses nothing.
      expect(countsOnly(detail ?? undefined), job.name).toEqual(detail);
    }
  });
});
