// Usernames and emails are unique whatever their letter case (issue 20 item 3), in the database
// (generated lower() keys with unique indexes) and in every lookup: registration, the
// availability check, sign-in. The migration that adds the keys refuses a database where two
// accounts already clash, lists them and changes nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { applyMigrations, MigrationRefused, readMigrations } from "~/lib/migrate.server";
import { findAccountByLogin } from "~/domain/accounts/user.server";
import { accountMessages } from "~/domain/accounts/schema";
import { action as signupAction } from "~/routes/signup";
import { loader as availability } from "~/routes/availability";
import { createUser, uid } from "../support/factories";
import { bodyOf, Browser, statusOf } from "../support/requests";
import { MIGRATIONS_DIR } from "../support/paths";

const MIGRATION = "20261125220533_case_insensitive_accounts";

function insertUser(db: Database.Database, id: string, username: string, email: string) {
  db.prepare(
    `INSERT INTO "User" (id, username, email, phone, passwordHash, role, firstName, lastName, createdAt, updatedAt)
     VALUES (?, ?, ?, '15125550100', 'x', 'clinician', 'A', 'B', 0, 0)`,
  ).run(id, username, email);
}

describe("the migration", () => {
  it("refuses clashing rows, lists them and changes nothing; applies once they are resolved", () => {
    const all = readMigrations(MIGRATIONS_DIR);
    const at = all.findIndex((m) => m.name === MIGRATION);
    expect(at).toBeGreaterThan(0);
    expect(all[at].check).toBeTruthy();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "arc-ci-")), "arc.db");
    applyMigrations(file, all.slice(0, at));

    let db = new Database(file);
    insertUser(db, "u1", "demo.clinician", "dana@example.test");
    insertUser(db, "u2", "DEMO.Clinician", "erin@example.test");
    insertUser(db, "u3", "someone.else", "Dana@Example.test");
    insertUser(db, "u4", "fourth.user", "Fourth@Example.test");
    db.close();

    let refused: unknown;
    try {
      applyMigrations(file, all);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(MigrationRefused);
    const message = (refused as Error).message;
    expect(message).toContain(MIGRATION);
    expect(message).toContain(
      "field: username; key: demo.clinician; rows: u1 (demo.clinician), u2 (DEMO.Clinician)",
    );
    expect(message).toContain(
      "field: email; key: dana@example.test; rows: u1 (dana@example.test), u3 (Dana@Example.test)",
    );
    expect(message).not.toContain("u4");

    db = new Database(file);
    const applied = db
      .prepare(`SELECT migration_name FROM _prisma_migrations WHERE migration_name = ?`)
      .all(MIGRATION);
    expect(applied, "not recorded").toEqual([]);
    const columns = (db.prepare(`PRAGMA table_xinfo("User")`).all() as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).not.toContain("usernameKey");
    expect(db.prepare(`SELECT id, username, email FROM "User" ORDER BY id`).all()).toEqual([
      { id: "u1", username: "demo.clinician", email: "dana@example.test" },
      { id: "u2", username: "DEMO.Clinician", email: "erin@example.test" },
      { id: "u3", username: "someone.else", email: "Dana@Example.test" },
      { id: "u4", username: "fourth.user", email: "Fourth@Example.test" },
    ]);

    // Resolved by hand (the migration does not guess which account keeps the name).
    db.prepare(`UPDATE "User" SET username = 'demo.clinician2' WHERE id = 'u2'`).run();
    db.prepare(`UPDATE "User" SET email = 'dana.other@example.test' WHERE id = 'u3'`).run();
    db.close();
    expect(applyMigrations(file, all)).toEqual(all.slice(at).map((m) => m.name));

    db = new Database(file);
    expect(
      db.prepare(`SELECT usernameKey, email, emailKey FROM "User" WHERE id = 'u4'`).get(),
    ).toEqual({
      usernameKey: "fourth.user",
      email: "fourth@example.test",
      emailKey: "fourth@example.test",
    });
    expect(() => insertUser(db, "u5", "Demo.Clinician", "new@example.test")).toThrow(
      /UNIQUE constraint failed: User\.usernameKey/,
    );
    db.close();
  });
});

describe("the database", () => {
  it("refuses a username or an email that differs from another only by letter case", async () => {
    const existing = await createUser();
    const data = (username: string, email: string) => ({
      username,
      email,
      phone: "15125550100",
      passwordHash: "x",
      role: "clinician",
      firstName: "A",
      lastName: "B",
    });
    await expect(
      prisma.user.create({ data: data(existing.username.toUpperCase(), `${uid("e")}@x.test`) }),
    ).rejects.toMatchObject({ code: "P2002" });
    await expect(
      prisma.user.create({ data: data(uid("u"), existing.email.toUpperCase()) }),
    ).rejects.toMatchObject({ code: "P2002" });
  });
});

function registration(overrides: Record<string, string>) {
  const name = uid("reg");
  return {
    intent: "next",
    username: name,
    password: "Register-1!",
    confirmPassword: "Register-1!",
    firstName: "Dana",
    lastName: "Brooks",
    phoneCountry: "1",
    phone: `512${Math.floor(2e6 + Math.random() * 7e6)}`,
    email: `${name}@example.test`,
    ...overrides,
  };
}

describe("registration, availability and sign-in", () => {
  it('"DEMO.Clinician" cannot register beside "demo.clinician": Username already exists', async () => {
    const existing = await createUser();
    const variant = existing.username.replace(/[a-z]/g, (c, i) => (i % 2 ? c.toUpperCase() : c));
    expect(variant).not.toBe(existing.username);
    const browser = new Browser();
    const result = await browser.run(
      signupAction,
      browser.post("/signup", registration({ username: variant })),
    );
    expect(statusOf(result)).toBe(400);
    expect(await bodyOf(result)).toMatchObject({
      fieldErrors: { username: accountMessages.usernameExists },
    });
    const check = await availability({
      request: new Request(`http://localhost/availability?username=${variant}`),
      params: {},
      context: {},
    });
    expect(await check.json()).toMatchObject({ username: accountMessages.usernameExists });
  });

  it("an email stored with capitals is taken for its lower-case form: Email address already exists", async () => {
    const existing = await createUser();
    const mixed = `Mixed.${uid("m")}@Example.test`;
    // Written by hand, as an import or an old row might be (the app stores emails lower-cased).
    await prisma.$executeRaw`UPDATE "User" SET email = ${mixed} WHERE id = ${existing.id}`;
    const browser = new Browser();
    const result = await browser.run(
      signupAction,
      browser.post("/signup", registration({ email: mixed.toLowerCase() })),
    );
    expect(await bodyOf(result)).toMatchObject({
      fieldErrors: { email: accountMessages.emailExists },
    });
  });

  it("signs in by username or email whatever their letter case", async () => {
    const existing = await createUser();
    expect(await findAccountByLogin(existing.username.toUpperCase())).toMatchObject({
      id: existing.id,
    });
    expect(await findAccountByLogin(` ${existing.email.toUpperCase()} `)).toMatchObject({
      id: existing.id,
    });
  });
});
