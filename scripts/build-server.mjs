// Compiles server.ts to build/server.js (the Remix compiler builds only the app).
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: "build/server.js",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});

// The decrypt worker (app/lib/workerThread.server.ts): one self-contained script, packages bundled.
await build({
  entryPoints: ["app/domain/deviceLogs/decryptWorker.ts"],
  outfile: "build/deviceLogWorker.js",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
});
