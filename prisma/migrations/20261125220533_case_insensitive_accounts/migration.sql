-- Usernames and emails unique whatever their letter case (issue 20 item 3): "DEMO.Clinician" may
-- not register beside "demo.clinician". Each gets a key the database computes, lower() of the
-- value, with a unique index; the app looks accounts up by these keys.
--
-- Hand-written: `npm run db:migration` made a table rebuild with `DEFAULT lower("username")`, which
-- SQLite refuses. Generated columns are what the schema's @default(dbgenerated(...)) stands for;
-- VIRTUAL is what ALTER TABLE can add in SQLite (PostgreSQL: GENERATED ALWAYS AS (...) STORED).
--
-- Rows that already clash (two usernames or two emails equal but for letter case) are not merged
-- or renamed here: the unique indexes fail and nothing of this migration is applied. The runner
-- first lists such rows with check.sql beside this file (app/lib/migrate.server.ts).
ALTER TABLE "User" ADD COLUMN "usernameKey" TEXT NOT NULL GENERATED ALWAYS AS (lower("username")) VIRTUAL;
ALTER TABLE "User" ADD COLUMN "emailKey" TEXT NOT NULL GENERATED ALWAYS AS (lower("email")) VIRTUAL;
CREATE UNIQUE INDEX "User_usernameKey_key" ON "User"("usernameKey");
CREATE UNIQUE INDEX "User_emailKey_key" ON "User"("emailKey");
-- Emails are stored lower-cased (spec 1 §3): one written otherwise by hand becomes so.
UPDATE "User" SET "email" = lower("email") WHERE "email" <> lower("email");
