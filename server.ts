// The portal from a checkout: `node build/server.js [command]` (scripts/build-server.mjs compiles
// this file) and `npm run dev`. The release binary has its own entry (scripts/binary/main.ts).
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import { main } from "./server/cli";

const root = process.cwd();
const buildPath = path.join(root, "build", "index.js");

main({
  root,
  // The build is CommonJS: a development rebuild needs the require cache cleared to load anew.
  loadBuild() {
    delete require.cache[require.resolve(buildPath)];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path known at run time, cleared from the cache above
    return require(buildPath) as ServerBuild;
  },
  watchFile: path.join(root, "build", "version.txt"),
});
