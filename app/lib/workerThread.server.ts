// Work that would hold the main thread for seconds (decrypting a 200 MB device log) runs in a
// worker thread (node:worker_threads). A worker's code is one self-contained CommonJS script run
// with `eval`, so the same call works in every way the server runs:
//   - the release binary (scripts/binary/build.mjs): the script is an asset of the executable;
//   - `node build/server.js`: scripts/build-server.mjs bundles it as build/<name>.js;
//   - development and tests: esbuild bundles the TypeScript entry on first use.
// The script may import only node: built-ins and packages it bundles (no database, no env).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

const scripts = new Map<string, string>();
// A require that bundlers leave alone: esbuild must not pull esbuild (or node:sea) into a build.
const runtimeRequire = createRequire(path.join(process.cwd(), "worker-loader.cjs"));

function seaAsset(key: string): string | null {
  try {
    const sea = runtimeRequire(["node", "sea"].join(":")) as {
      isSea(): boolean;
      getAsset(key: string, encoding: string): string;
    };
    return sea.isSea() ? sea.getAsset(key, "utf8") : null;
  } catch {
    return null;
  }
}

function builtScript(name: string): string | null {
  const dirs = [path.dirname(process.argv[1] ?? ""), path.join(process.cwd(), "build")];
  for (const dir of dirs) {
    const file = path.join(dir, `${name}.js`);
    if (fs.existsSync(file)) return fs.readFileSync(file, "utf8");
  }
  return null;
}

function bundledFromSource(entry: string): string {
  const esbuild = runtimeRequire(["es", "build"].join("")) as typeof import("esbuild");
  const result = esbuild.buildSync({
    entryPoints: [path.resolve(process.cwd(), entry)],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    logLevel: "warning",
  });
  return result.outputFiles[0].text;
}

/**
 * The script of worker `name`: built (binary asset, build/<name>.js) in production, bundled from
 * `entry` (a path from the repository's root) elsewhere, or when no build has it.
 */
export function workerScript(name: string, entry: string): string {
  let script = scripts.get(name);
  if (script === undefined) {
    const fromSource = process.env.NODE_ENV !== "production" && fs.existsSync(entry);
    script =
      (fromSource ? null : (seaAsset(`build/${name}.js`) ?? builtScript(name))) ??
      bundledFromSource(entry);
    scripts.set(name, script);
  }
  return script;
}

/** A new worker running the script of `name` (see workerScript). */
export function startWorker(name: string, entry: string) {
  return new Worker(workerScript(name, entry), { eval: true });
}
