import path from "node:path";

export const TMP_DIR = path.resolve(__dirname, "..", ".tmp", "vitest");
export const TEMPLATE_DB = path.join(TMP_DIR, "template.db");
export const MIGRATIONS_DIR = path.resolve(__dirname, "..", "..", "prisma", "migrations");
/** The session secret every test process and test server shares (never used outside tests). */
export const TEST_SESSION_SECRET = "test-secret-0123456789abcdef0123456789abcdef";
