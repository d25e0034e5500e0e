// The plumbing under every screen: migrations, the job runner, the outbox, housekeeping.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { applyMigrations, readMigrations } from "~/lib/migrate.server";
import {
  deliver,
  deliverPending,
  enqueue,
  setTransport,
  consoleTransport,
  type OutgoingMessage,
} from "~/lib/outbox.server";
import { purgeExpired } from "~/jobs/housekeeping.server";
import { runJob, type Job } from "~/jobs/scheduler.server";
import { createUser, uid } from "../support/factories";
import { MIGRATIONS_DIR } from "../support/paths";

describe("migrations", () => {
  it("apply once, in order, recorded where the Prisma CLI looks", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-migrate-"));
    const file = path.join(dir, "arc.db");
    const migrations = readMigrations(MIGRATIONS_DIR);
    expect(applyMigrations(file, migrations)).toEqual(migrations.map((m) => m.name));
    expect(applyMigrations(file, migrations)).toEqual([]);
    const db = new Database(file, { readonly: true });
    const rows = db
      .prepare(`SELECT migration_name, checksum, finished_at FROM _prisma_migrations`)
      .all() as {
      migration_name: string;
      checksum: string;
      finished_at: number;
    }[];
    expect(rows.map((r) => r.migration_name)).toEqual(migrations.map((m) => m.name));
    expect(rows[0].checksum).toBe(
      crypto.createHash("sha256").update(migrations[0].sql).digest("hex"),
    );
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as {
      name: string;
    }[];
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(["User", "CareSite", "Therapy", "OutboxMessage"]),
    );
    db.close();
  });

  it("leave nothing behind when a migration fails", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-migrate-"));
    const file = path.join(dir, "arc.db");
    const broken = [
      { name: "001_half", sql: `CREATE TABLE "A" (id TEXT); CREATE TABLE nonsense (` },
    ];
    expect(() => applyMigrations(file, broken)).toThrow();
    const db = new Database(file, { readonly: true });
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'A'`).get()).toBeUndefined();
    expect(db.prepare(`SELECT COUNT(*) AS n FROM _prisma_migrations`).get()).toEqual({ n: 0 });
    db.close();
  });

  it("check the foreign keys of the tables a migration can have broken, not the whole database", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-migrate-"));
    const file = path.join(dir, "arc.db");
    const base = {
      name: "001_base",
      sql: `CREATE TABLE "P" ("id" TEXT PRIMARY KEY);
        CREATE TABLE "C" ("id" TEXT PRIMARY KEY, "pId" TEXT REFERENCES "P" ("id"));
        CREATE TABLE "Log" ("id" TEXT PRIMARY KEY, "pId" TEXT REFERENCES "P" ("id"));
        CREATE TABLE "Other" ("id" TEXT PRIMARY KEY, "pId" TEXT REFERENCES "P" ("id"));
        INSERT INTO "P" VALUES ('p1'), ('p2');
        INSERT INTO "C" VALUES ('c1', 'p1');`,
    };
    expect(applyMigrations(file, [base])).toEqual(["001_base"]);
    // A row that already breaks a foreign key, in a table the next migrations do not touch.
    const db = new Database(file);
    db.pragma("foreign_keys = OFF");
    db.prepare(`INSERT INTO "Other" VALUES ('o1', 'gone')`).run();
    db.close();
    const applied = (sql: string, name: string) => {
      try {
        return applyMigrations(file, [base, { name, sql }]);
      } catch (error) {
        return (error as Error).message;
      }
    };
    // Adding a table (and filling it) checks that table only.
    expect(
      applied(
        `CREATE TABLE "N" ("id" TEXT PRIMARY KEY, "pId" TEXT REFERENCES "P" ("id"));
        INSERT INTO "N" SELECT "id", "id" FROM "P";`,
        "002_add",
      ),
    ).toEqual(["002_add"]);
    // Deleting parent rows checks every table that points at them (C and N lose their parent;
    // Other's old row counts there too).
    expect(applied(`DELETE FROM "P" WHERE "id" = 'p1';`, "003_delete")).toMatch(
      /003_delete breaks 3 foreign key/,
    );
    // A rebuilt table (Prisma's new_X) that loses a row: the same.
    expect(
      applied(
        `CREATE TABLE "new_P" ("id" TEXT PRIMARY KEY);
        INSERT INTO "new_P" SELECT "id" FROM "P" WHERE "id" <> 'p1';
        DROP TABLE "P"; ALTER TABLE "new_P" RENAME TO "P";`,
        "004_rebuild",
      ),
    ).toMatch(/004_rebuild breaks/);
    // Rows written by a trigger that the migration's write fires are checked too.
    expect(
      applied(
        `CREATE TRIGGER "t" AFTER INSERT ON "N" BEGIN INSERT INTO "Log" VALUES (NEW."id", 'gone'); END;
        INSERT INTO "N" VALUES ('n1', 'p2');`,
        "005_trigger",
      ),
    ).toMatch(/005_trigger breaks 1 foreign key/);
  });
});

describe("the one connection", () => {
  it("keeps other queries out of an open transaction: no dirty read, no write undone by its rollback", async () => {
    const action = uid("test.connection.");
    const rows = () =>
      prisma.auditEvent
        .findMany({ where: { action }, select: { targetId: true }, orderBy: { targetId: "asc" } })
        .then((found) => found.map((r) => r.targetId));
    let inside!: () => void;
    const insideWritten = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const rolledBack = prisma
      .$transaction(async (tx) => {
        await tx.auditEvent.create({ data: { action, targetId: "inside" } });
        inside();
        await released;
        throw new Error("rolled back on purpose");
      })
      .catch((error: Error) => error.message);
    await insideWritten;
    // Issued while the transaction is open: they wait for it to end instead of joining it.
    const outside = Promise.all([
      rows(),
      prisma.auditEvent.create({ data: { action, targetId: "outside" } }),
    ]);
    // The connection's queue has no hook: one turn of the event loop (no timer) hands them to it.
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const [seen] = await outside;
    expect(seen).toEqual([]);
    expect(await rolledBack).toBe("rolled back on purpose");
    expect(await rows()).toEqual(["outside"]);
  });

  it("lets a transaction wait its turn behind a long one instead of failing to start", async () => {
    const action = uid("test.connection.");
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Prisma's timers (how long a transaction may wait to start) on a fake clock.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const first = prisma.$transaction(async (tx) => {
        await tx.auditEvent.create({ data: { action, targetId: "first" } });
        firstStarted();
        await released;
      });
      await started;
      const timers = vi.getTimerCount();
      const second = prisma.$transaction((tx) =>
        tx.auditEvent.create({ data: { action, targetId: "second" } }),
      );
      // The second is waiting to start (its timer is set): longer than Prisma's default 2 s passes.
      await vi.waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(timers));
      await vi.advanceTimersByTimeAsync(2_500);
      release();
      await Promise.all([first, second]);
    } finally {
      vi.useRealTimers();
    }
    expect(await prisma.auditEvent.count({ where: { action } })).toBe(2);
  });
});

describe("readWriteTransaction", () => {
  it("holds the write lock from its start: its reads cannot go stale, so it runs once", async () => {
    const action = uid("test.lock.");
    const other = new Database(env.databaseFile, { timeout: 0 });
    const attempts: string[] = [];
    try {
      await readWriteTransaction(async (tx) => {
        const before = await tx.auditEvent.count({ where: { action } });
        // Another connection (another process, the ingest connection) tries to commit between
        // this transaction's read and its write.
        try {
          other
            .prepare("INSERT INTO AuditEvent (id, at, action) VALUES (?, ?, ?)")
            .run(uid("id-"), Date.now(), action);
          attempts.push("other wrote");
        } catch (error) {
          attempts.push((error as { code: string }).code);
        }
        await tx.auditEvent.create({ data: { action, targetId: String(before) } });
      });
    } finally {
      other.close();
    }
    expect(attempts).toEqual(["SQLITE_BUSY"]);
    expect(
      await prisma.auditEvent.findMany({ where: { action }, select: { targetId: true } }),
    ).toEqual([{ targetId: "0" }]);
  });
});

describe("scheduled jobs", () => {
  it("run a slot once, however often they are triggered for it", async () => {
    let runs = 0;
    const job: Job = { name: uid("job-"), schedule: "* * * * *", run: async () => void runs++ };
    const slot = new Date("2026-11-21T13:00:10Z");
    expect((await runJob(job, slot)).skipped).toBe(false);
    expect((await runJob(job, new Date("2026-11-21T13:00:50Z"))).skipped).toBe(true);
    expect((await runJob(job, new Date("2026-11-21T13:01:00Z"))).skipped).toBe(false);
    expect(runs).toBe(2);
    const rows = await prisma.jobRun.findMany({ where: { job: job.name } });
    expect(rows.map((r) => r.status)).toEqual(["succeeded", "succeeded"]);
  });

  it("record a failure without throwing", async () => {
    const job: Job = {
      name: uid("job-"),
      schedule: "* * * * *",
      run: async () => {
        throw new Error("boom");
      },
    };
    await runJob(job, new Date());
    const row = await prisma.jobRun.findFirstOrThrow({ where: { job: job.name } });
    expect(row.status).toBe("failed");
    expect(row.detail).toContain("boom");
  });

  it("purge expired sessions and spent codes, and keep live ones", async () => {
    const user = await createUser();
    const now = new Date();
    const old = new Date(now.getTime() - 2 * 86_400_000);
    await prisma.session.createMany({
      data: [
        { id: uid("s"), userId: user.id, expiresAt: new Date(now.getTime() - 1000) },
        { id: uid("s"), userId: user.id, expiresAt: new Date(now.getTime() + 3_600_000) },
      ],
    });
    await prisma.oneTimeCode.create({
      data: {
        userId: user.id,
        purpose: "login",
        channel: "sms",
        destination: user.phone,
        codeHash: "x",
        expiresAt: old,
      },
    });
    await purgeExpired.run(now);
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(1);
    expect(await prisma.oneTimeCode.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("outbox", () => {
  it("keeps every message and sends it once", async () => {
    const sent: OutgoingMessage[] = [];
    setTransport("email", { name: "memory", send: async (m) => void sent.push(m) });
    try {
      const to = `${uid()}@example.test`;
      const id = await enqueue({ channel: "email", to, subject: "Hello", body: "Body" });
      await deliver(id); // a second delivery of the same message is a no-op
      await deliverPending();
      // Sent (by whichever attempt claimed it): no other attempt can claim it any more.
      await vi.waitFor(async () =>
        expect((await prisma.outboxMessage.findUniqueOrThrow({ where: { id } })).status).toBe(
          "sent",
        ),
      );
      expect(sent.filter((m) => m.to === to)).toHaveLength(1);
      const row = await prisma.outboxMessage.findUniqueOrThrow({ where: { id } });
      expect(row.status).toBe("sent");
      expect(row.sentAt).not.toBeNull();
    } finally {
      setTransport("email", consoleTransport);
    }
  });

  it("retries a failed delivery later and never resends one interrupted mid-send", async () => {
    let fail = true;
    const sent: string[] = [];
    setTransport("sms", {
      name: "flaky",
      send: async (m) => {
        if (fail) throw new Error("provider down");
        sent.push(m.to);
      },
    });
    try {
      const to = uid("1512");
      const id = await enqueue({ channel: "sms", to, body: "code" });
      // The attempt enqueue starts has failed and set the message back to pending.
      const failed = await vi.waitFor(async () => {
        const row = await prisma.outboxMessage.findUniqueOrThrow({ where: { id } });
        expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "provider down" });
        return row;
      });
      expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
      fail = false;
      await deliverPending(); // still backing off
      expect(sent).toEqual([]);
      await prisma.outboxMessage.update({ where: { id }, data: { nextAttemptAt: new Date() } });
      await deliverPending();
      expect(sent).toEqual([to]);

      const stuck = await prisma.outboxMessage.create({
        data: {
          channel: "sms",
          to: uid("1512"),
          body: "x",
          status: "sending",
          attempts: 1,
          createdAt: new Date(Date.now() - 10 * 60_000),
          nextAttemptAt: new Date(Date.now() - 10 * 60_000), // while sending: when it was claimed
        },
      });
      await deliverPending();
      const after = await prisma.outboxMessage.findUniqueOrThrow({ where: { id: stuck.id } });
      expect(after.status).toBe("failed");
      expect(sent).not.toContain(stuck.to);
    } finally {
      setTransport("sms", consoleTransport);
    }
  });
});
