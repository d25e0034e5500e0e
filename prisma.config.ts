import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

// The Prisma CLI runs its schema engine as WebAssembly through the driver adapter, so nothing is
// downloaded (STACK-NOTES.md "Prisma offline"). The database file follows DATA_DIR like the app.
const dataDir = path.resolve(process.env.DATA_DIR ?? "data");

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    fs.mkdirSync(dataDir, { recursive: true });
    return new PrismaBetterSQLite3(
      { url: `file:${path.join(dataDir, "arc.db")}` },
      { timestampFormat: "unixepoch-ms" },
    );
  },
});
