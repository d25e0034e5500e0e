// Bundles the browser scripts (app/**/*.browser.ts) to public/js/<name>.js, where the server
// serves them as /js/<name>.js (and the release binary embeds them with the rest of public/).
// Each is one classic <script defer>: an IIFE, no imports left, syntax old browsers read.
import { build } from "esbuild";

const browserScripts = {
  countdown: "app/domain/accounts/ui/countdown.browser.ts",
  flash: "app/ui/flash.browser.ts",
  "decrypt-upload": "app/domain/deviceLogs/ui/decrypt-upload.browser.ts",
  "therapy-dashboard": "app/domain/deviceLogs/ui/therapy-dashboard.browser.ts",
  "copy-data": "app/domain/deviceStats/ui/copy-data.browser.ts",
};

await build({
  entryPoints: browserScripts,
  outdir: "public/js",
  bundle: true,
  platform: "browser",
  format: "iife",
  // es5 is not a target esbuild can lower let/const to; es2015 is what every browser since 2017 reads.
  target: "es2015",
  minify: true,
  logLevel: "warning",
});
