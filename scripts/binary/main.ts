// The release binary's entry (scripts/binary/build.mjs bundles it with the Remix build and every
// dependency into one script that Node's single executable application runs).
import type { ServerBuild } from "@remix-run/node";
import { main } from "../../server/cli";
import { runtimeRoot } from "./runtime";

main({
  root: runtimeRoot(),
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, loaded when the binary starts
  loadBuild: () => require("../../build/index.js") as ServerBuild,
});
