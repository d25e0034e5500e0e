// The release binary's entry (scripts/binary/build.mjs bundles it with the Remix build and every
// dependency into one script that Node's single executable application runs).
import type { ServerBuild } from "@remix-run/node";
import { runCli } from "../../server/cli";
import { runtimeRoot } from "./runtime";

runCli(process.argv.slice(2), {
  root: runtimeRoot(),
  loadBuild: () => require("../../build/index.js") as ServerBuild,
}).then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
