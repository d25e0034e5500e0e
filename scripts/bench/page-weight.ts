// Page weight of a first visit (empty cache) to each route of the production build: the HTML, and
// every JavaScript and CSS file the HTML makes the browser download, in gzipped bytes as the
// server's own compression middleware sends them.
//
//   npm run bench:page-weight            measures the current build (builds first if there is none)
//   npm run bench:page-weight -- --build runs `npm run build` first
//
// It seeds the demo world into a temporary DATA_DIR, starts `node build/server.js` on a free port,
// makes signed-in sessions directly in the database (as tests/e2e/support/db.ts does), measures,
// stops the server, prints a table and rewrites its own section of docs/performance.md (between
// the page-weight markers; the rest of that file belongs to other benchmarks and is kept).
// Exit code 1 when a route or an asset answers another status than expected: error pages are
// never measured silently (docs/performance.md is then left untouched).
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import { seedDemoWorld } from "../../prisma/seed";
import { ensureBuild, freePort, startServer, stopServer, waitForHealth } from "./support";

// =============================================================================================
// ROUTES MEASURED. Add new pages here. role: the demo account that visits (null: signed out).
// expectStatus: 200 unless said otherwise; any other answer (a redirect too) fails the run.
// =============================================================================================
type Role = "superadmin" | "abmadmin" | "clinicadmin" | "clinician";
type RouteSpec = { path: string; role: Role | null; label: string; expectStatus?: number };

const ROUTES: RouteSpec[] = [
  { path: "/", role: null, label: "Sign in" },
  { path: "/expired", role: null, label: "Session expired" },
  { path: "/forgotpassword", role: null, label: "Forgot password" },
  { path: "/restorepasswordwithemail", role: null, label: "Reset by email" },
  { path: "/signup", role: null, label: "Register" },
  { path: "/app/settings", role: "clinician", label: "Edit user profile" },
  { path: "/app/clinicadmin", role: "clinicadmin", label: "Invitations" },
  { path: "/app/caresitesettingdashboard", role: "clinicadmin", label: "Care Site" },
  { path: "/app?tab=caresite", role: "superadmin", label: "Dashboard, care sites" },
  { path: "/app/PasswordAndSecurity?panel=password", role: "clinician", label: "Settings" },
  { path: "/app", role: "superadmin", label: "Dashboard" },
  { path: "/app", role: "abmadmin", label: "Dashboard" },
  { path: "/app", role: "clinicadmin", label: "Care Site Dashboard" },
  { path: "/app", role: "clinician", label: "Care Site Dashboard" },
  {
    path: "/app/no-such-page",
    role: "clinician",
    label: "Not found, in the shell",
    expectStatus: 404,
  },
];

/** The demo account (prisma/seed.ts DEMO_ACCOUNTS) that stands for each role. */
const DEMO_USER: Record<Role, string> = {
  superadmin: "demo.superadmin",
  abmadmin: "demo.abmadmin",
  clinicadmin: "demo.siteadmin",
  clinician: "demo.clinician",
};
// =============================================================================================

const ROOT = path.resolve(__dirname, "..", "..");
const DOC_FILE = path.join(ROOT, "docs", "performance.md");
const START_MARKER = "<!-- page-weight:start -->";
const END_MARKER = "<!-- page-weight:end -->";
const SESSION_SECRET = `page-weight-${crypto.randomBytes(24).toString("hex")}`;
const KB = 1024;

type Fetched = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Body bytes as received (content-encoded, without headers or chunk framing). */
  wireBytes: number;
  /** The decoded body. */
  body: Buffer;
  /** Whether the server compressed the body (Content-Encoding: gzip). */
  serverGzip: boolean;
};

type Asset = {
  url: string;
  kind: "js" | "css";
  status: number;
  rawBytes: number;
  gzBytes: number;
  /** Served uncompressed (under compression's threshold): gzBytes is zlib level 6 of the body. */
  gzippedHere: boolean;
  /** Not named by the HTML, reached through a static import of another file. */
  viaImport: boolean;
};

type Result = {
  spec: RouteSpec;
  status: number;
  htmlRaw: number;
  htmlGz: number;
  htmlGzippedHere: boolean;
  inlineScriptBytes: number;
  assets: Asset[];
  problems: string[];
};

// ---------------------------------------------------------------------------------------------
// Data: the demo world and signed-in sessions
// ---------------------------------------------------------------------------------------------

async function makeSessions(databaseFile: string): Promise<Map<Role, string>> {
  const cookie = createCookie("__arc_session", { secrets: [SESSION_SECRET] });
  const roles = [...new Set(ROUTES.map((r) => r.role).filter((r): r is Role => r !== null))];
  const cookies = new Map<Role, string>();
  const db = new Database(databaseFile);
  try {
    db.pragma("busy_timeout = 5000");
    for (const role of roles) {
      const user = db.prepare(`SELECT id FROM "User" WHERE username = ?`).get(DEMO_USER[role]) as
        { id: string } | undefined;
      if (!user) throw new Error(`demo user ${DEMO_USER[role]} not found in the seeded database`);
      const sessionId = crypto.randomBytes(32).toString("base64url");
      const now = Date.now();
      db.prepare(
        `INSERT INTO "Session" (id, userId, data, createdAt, authenticatedAt, lastSeenAt, expiresAt)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        sessionId,
        user.id,
        JSON.stringify({ userId: user.id, authenticatedAt: now }),
        now,
        now,
        now,
        now + 12 * 3_600_000,
      );
      const serialized = await cookie.serialize(sessionId);
      cookies.set(role, serialized.split(";")[0]); // "__arc_session=<value>"
    }
  } finally {
    db.close();
  }
  return cookies;
}

// ---------------------------------------------------------------------------------------------
// HTTP: raw bytes on the wire (fetch would decompress them out of sight)
// ---------------------------------------------------------------------------------------------

function get(url: string, headers: Record<string, string>): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { headers: { "Accept-Encoding": "gzip", ...headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          try {
            const wire = Buffer.concat(chunks);
            const encoding = (res.headers["content-encoding"] ?? "identity").toLowerCase();
            if (encoding !== "gzip" && encoding !== "identity") {
              throw new Error(`${url}: unexpected Content-Encoding ${encoding}`);
            }
            const serverGzip = encoding === "gzip";
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              wireBytes: wire.length,
              body: serverGzip ? zlib.gunzipSync(wire) : wire,
              serverGzip,
            });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`${url}: timed out`)));
  });
}

/** Gzipped size as served; a body sent uncompressed is gzipped here (zlib level 6). */
function gzSize(res: Fetched) {
  if (res.serverGzip) return { gzBytes: res.wireBytes, gzippedHere: false };
  return { gzBytes: zlib.gzipSync(res.body, { level: 6 }).length, gzippedHere: true };
}

// ---------------------------------------------------------------------------------------------
// HTML: which files a first visit downloads
// ---------------------------------------------------------------------------------------------

function attributes(tag: string) {
  const attrs = new Map<string, string>();
  const re = /([^\s=<>/"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (const m of tag.matchAll(re)) {
    attrs.set(m[1].toLowerCase(), (m[2] ?? m[3] ?? m[4] ?? "").replace(/&amp;/g, "&"));
  }
  return attrs;
}

/** Same-origin URL of a reference in the page, or null for another origin. */
function sameOrigin(ref: string, pageUrl: string) {
  const url = new URL(ref, pageUrl);
  return url.origin === new URL(pageUrl).origin ? url.href : null;
}

function assetsOfHtml(html: string, pageUrl: string) {
  const js = new Set<string>();
  const css = new Set<string>();
  let inlineScriptBytes = 0;
  const add = (set: Set<string>, ref: string) => {
    const url = sameOrigin(ref, pageUrl);
    if (url) set.add(url);
  };

  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const src = attributes(m[1]).get("src");
    if (src) {
      add(js, src);
      continue;
    }
    inlineScriptBytes += Buffer.byteLength(m[2]);
    // Remix's inline module script: import * as route0 from "/build/..."; import("/build/entry...")
    for (const ref of m[2].matchAll(/\b(?:import|from)\s*\(?\s*["'](\/build\/[^"']+\.js)["']/g))
      add(js, ref[1]);
  }
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attrs = attributes(m[1]);
    const rel = (attrs.get("rel") ?? "").toLowerCase().split(/\s+/);
    const href = attrs.get("href");
    if (!href) continue;
    if (rel.includes("modulepreload")) add(js, href);
    else if (rel.includes("stylesheet")) add(css, href);
  }
  return { js, css, inlineScriptBytes };
}

/** Static imports of an ES module (import x from "…", import "…"); dynamic import() is not a first-visit download. */
function staticImports(source: string, fileUrl: string) {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*)["']([^"']+\.js)["']/g)) {
    const url = sameOrigin(m[1], fileUrl);
    if (url) found.push(url);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------

const assetCache = new Map<string, Promise<{ res: Fetched; gz: ReturnType<typeof gzSize> }>>();

function fetchAsset(url: string) {
  let pending = assetCache.get(url);
  if (!pending) {
    pending = get(url, {}).then((res) => ({ res, gz: gzSize(res) }));
    assetCache.set(url, pending);
  }
  return pending;
}

async function measure(base: string, spec: RouteSpec, cookies: Map<Role, string>): Promise<Result> {
  const pageUrl = new URL(spec.path, base).href;
  const headers: Record<string, string> = { Accept: "text/html" };
  if (spec.role) headers.Cookie = cookies.get(spec.role) ?? "";
  const page = await get(pageUrl, headers);
  const problems: string[] = [];
  const expected = spec.expectStatus ?? 200;
  if (page.status !== expected) {
    const where = page.headers.location ? ` (to ${page.headers.location})` : "";
    problems.push(`${spec.path} answered ${page.status}${where}, expected ${expected}`);
  }
  const html = page.body.toString("utf8");
  const { js, css, inlineScriptBytes } = assetsOfHtml(html, pageUrl);
  const htmlGz = gzSize(page);

  const assets: Asset[] = [];
  const seen = new Set<string>();
  const queue: { url: string; kind: "js" | "css"; viaImport: boolean }[] = [
    ...[...js].map((url) => ({ url, kind: "js" as const, viaImport: false })),
    ...[...css].map((url) => ({ url, kind: "css" as const, viaImport: false })),
  ];
  for (const item of queue) seen.add(item.url);
  // Breadth first: the files the HTML names, then any static import they have that it does not.
  for (let i = 0; i < queue.length; i++) {
    const { url, kind, viaImport } = queue[i];
    const { res, gz } = await fetchAsset(url);
    if (res.status !== 200) problems.push(`${new URL(url).pathname} answered ${res.status}`);
    assets.push({ url, kind, status: res.status, rawBytes: res.body.length, ...gz, viaImport });
    if (kind === "js" && res.status === 200) {
      for (const imported of staticImports(res.body.toString("utf8"), url)) {
        if (seen.has(imported)) continue;
        seen.add(imported);
        queue.push({ url: imported, kind: "js", viaImport: true });
      }
    }
  }
  return {
    spec,
    status: page.status,
    htmlRaw: page.body.length,
    htmlGz: htmlGz.gzBytes,
    htmlGzippedHere: htmlGz.gzippedHere,
    inlineScriptBytes,
    assets,
    problems,
  };
}

// ---------------------------------------------------------------------------------------------
// Reporting
// ---------------------------------------------------------------------------------------------

const kb = (bytes: number) => (bytes / KB).toFixed(1);
const sum = (assets: Asset[], kind: "js" | "css", field: "gzBytes" | "rawBytes" = "gzBytes") =>
  assets.filter((a) => a.kind === kind).reduce((n, a) => n + a[field], 0);
const visitor = (spec: RouteSpec) => spec.role ?? "signed out";
const hydrates = (r: Result) => r.assets.some((a) => a.kind === "js");
const shortName = (url: string) => new URL(url).pathname.replace(/^\/build\//, "");

const HEADER = ["Route", "Visitor", "HTML gz KB", "HTML KB", "JS gz KB", "CSS gz KB", "Hydrates"];

function rows(results: Result[], markdown = false) {
  return results.map((r) => [
    markdown ? `\`${r.spec.path}\` ${r.spec.label}` : `${r.spec.path} (${r.spec.label})`,
    visitor(r.spec),
    kb(r.htmlGz),
    kb(r.htmlRaw),
    kb(sum(r.assets, "js")),
    kb(sum(r.assets, "css")),
    hydrates(r) ? "yes" : "no",
  ]);
}

function printTable(results: Result[]) {
  const body = rows(results);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const numeric = new Set([2, 3, 4, 5]);
  const line = (cells: string[]) =>
    cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ");
  console.log(line(HEADER));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of body) console.log(line(row));
}

function markdownTable(results: Result[]) {
  const escape = (s: string) => s.replace(/\|/g, "\\|");
  const out = [
    `| ${HEADER.join(" | ")} |`,
    `| ${HEADER.map((_, i) => (i >= 2 && i <= 5 ? "---:" : "---")).join(" | ")} |`,
  ];
  for (const row of rows(results, true)) out.push(`| ${row.map(escape).join(" | ")} |`);
  return out.join("\n");
}

function heaviest(results: Result[]) {
  return results.reduce((best, r) => (sum(r.assets, "js") > sum(best.assets, "js") ? r : best));
}

function jsParagraph(results: Result[]) {
  const top = heaviest(results);
  const files = top.assets.filter((a) => a.kind === "js").sort((a, b) => b.gzBytes - a.gzBytes);
  if (files.length === 0) return "No route downloads any JavaScript file.";
  const big = files.filter((a) => a.gzBytes >= KB);
  const small = files.filter((a) => a.gzBytes < KB);
  const parts = big.map(
    (a) =>
      `\`${shortName(a.url)}\` ${kb(a.gzBytes)} KB gz (${kb(a.rawBytes)} KB)` +
      `${a.viaImport ? ", a static import the HTML does not name" : ""}`,
  );
  if (small.length > 0) {
    parts.push(
      `${small.length} more under 1 KB gz each, ${kb(small.reduce((n, a) => n + a.gzBytes, 0))} KB gz together ` +
        `(${small.map((a) => `\`${shortName(a.url)}\``).join(", ")})`,
    );
  }
  return (
    `Heaviest route for JavaScript: \`${top.spec.path}\` (${top.spec.label}, ${visitor(top.spec)}), ` +
    `${kb(sum(top.assets, "js"))} KB gz in ${files.length} files: ${parts.join("; ")}.`
  );
}

function docSection(results: Result[], build: ReturnType<typeof ensureBuild>, started: Date) {
  const cpu = os.cpus();
  const machine = `${cpu[0]?.model?.trim() ?? "unknown CPU"}, ${cpu.length} cores, Node ${process.version}, ${os.type()} ${os.release()}`;
  const gzippedHere = [
    ...new Set(
      results.flatMap((r) => r.assets.filter((a) => a.gzippedHere).map((a) => shortName(a.url))),
    ),
  ];
  const htmlHere = results.filter((r) => r.htmlGzippedHere).map((r) => r.spec.path);
  const notes: string[] = [];
  if (gzippedHere.length > 0) {
    notes.push(
      `${gzippedHere.length} JavaScript or CSS files were sent uncompressed (below the compression ` +
        "middleware's 1 KB threshold); their gz figures are zlib level 6 of the body, computed by the script " +
        "(its output names them).",
    );
  }
  if (htmlHere.length > 0)
    notes.push(`HTML sent uncompressed, counted gzipped here (level 6): ${htmlHere.join(", ")}.`);
  if (build.stale.length > 0) {
    notes.push(
      `Source files were newer than the build when it was measured (${build.stale.length}, e.g. \`${build.stale[0]}\`).`,
    );
  }
  return [
    START_MARKER,
    "## Page weight",
    "",
    `Run ${started.toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine}. ` +
      `Build \`${build.version}\` (build/version.txt written ${build.builtAt.toISOString().slice(0, 19).replace("T", " ")} UTC).`,
    "",
    "A first visit with an empty cache: the HTML, then every JavaScript file the HTML names " +
      '(`<script src>`, `<link rel="modulepreload">`, imports in inline module scripts) or that those import statically, ' +
      'and every `<link rel="stylesheet">`. Sizes are response bodies (headers not counted) ' +
      "as gzipped by the server (`Accept-Encoding: gzip`); 1 KB = 1024 bytes. " +
      "Hydrates: the page downloads JavaScript.",
    "",
    markdownTable(results),
    "",
    jsParagraph(results),
    ...(notes.length > 0 ? ["", notes.join(" ")] : []),
    END_MARKER,
  ].join("\n");
}

const DOC_TEMPLATE = `# Performance

Every figure on this page comes from a script under \`scripts/bench\`; each script rewrites only its
own section (between its \`<!-- name:start -->\` and \`<!-- name:end -->\` markers), so the figures are
never edited by hand. To re-run the page-weight benchmark: \`npm run build && npm run bench:page-weight\`
(it measures the build on disk, builds first when there is none, and says which build it measured).
`;

/** The section as Prettier (the project's formatter) would write it, so the file stays formatted. */
async function formatted(section: string) {
  try {
    const prettier = await import("prettier");
    const options = (await prettier.resolveConfig(DOC_FILE)) ?? {};
    return (await prettier.format(section, { ...options, parser: "markdown" })).trimEnd();
  } catch (error) {
    console.warn(`Prettier could not format the section (${String(error)}); writing it as is.`);
    return section;
  }
}

async function writeDoc(rawSection: string) {
  const section = await formatted(rawSection);
  fs.mkdirSync(path.dirname(DOC_FILE), { recursive: true });
  const current = fs.existsSync(DOC_FILE) ? fs.readFileSync(DOC_FILE, "utf8") : DOC_TEMPLATE;
  const start = current.indexOf(START_MARKER);
  const end = current.indexOf(END_MARKER);
  let next: string;
  if (start !== -1 && end > start) {
    next = current.slice(0, start) + section + current.slice(end + END_MARKER.length);
  } else {
    next = `${current.trimEnd()}\n\n${section}\n`;
  }
  fs.writeFileSync(DOC_FILE, next);
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main() {
  const started = new Date();
  const build = ensureBuild(["public/build"]);
  console.log(
    `Measuring build ${build.version} (build/version.txt written ${build.builtAt.toISOString()}).`,
  );
  if (build.stale.length > 0) {
    console.warn(
      `Warning: ${build.stale.length} source files are newer than the build (e.g. ${build.stale.slice(0, 3).join(", ")}); ` +
        "run npm run build (or pass --build) to measure the current code.",
    );
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-page-weight-"));
  let server: ReturnType<typeof startServer> | null = null;
  const stop = () => {
    server?.child.kill("SIGTERM");
    process.exit(130);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    const databaseFile = path.join(dataDir, "arc.db");
    await seedDemoWorld(databaseFile);
    const cookies = await makeSessions(databaseFile);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = startServer(port, dataDir, { SESSION_SECRET });
    await waitForHealth(base, server.child, server.output);

    const results: Result[] = [];
    for (const spec of ROUTES) results.push(await measure(base, spec, cookies));

    console.log("");
    printTable(results);
    console.log("");
    for (const r of results) {
      const files = r.assets.map(
        (a) =>
          `    ${a.kind.padEnd(3)} ${kb(a.gzBytes).padStart(6)} KB gz ${kb(a.rawBytes).padStart(7)} KB  ${shortName(a.url)}` +
          `${a.gzippedHere ? "  (sent uncompressed; gzipped here)" : ""}${a.viaImport ? "  (static import not named by the HTML)" : ""}`,
      );
      console.log(
        `${r.spec.path} as ${visitor(r.spec)}: HTTP ${r.status}, inline scripts ${kb(r.inlineScriptBytes)} KB`,
      );
      for (const f of files) console.log(f);
    }
    console.log("");
    console.log(jsParagraph(results));

    const problems = results.flatMap((r) => r.problems);
    if (problems.length > 0) {
      console.error(`\nFAILED: unexpected answers, ${path.relative(ROOT, DOC_FILE)} not updated:`);
      for (const p of problems) console.error(`  ${p}`);
      process.exitCode = 1;
      return;
    }
    await writeDoc(docSection(results, build, started));
    console.log(`\nWrote the page-weight section of ${path.relative(ROOT, DOC_FILE)}.`);
  } finally {
    if (server) await stopServer(server.child);
    process.removeListener("SIGINT", stop);
    process.removeListener("SIGTERM", stop);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
