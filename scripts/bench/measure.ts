// The pure parts of `npm run bench` (scripts/bench/run.ts): latency percentiles, /proc parsing,
// targets and their verdicts ("met", "missed by …"), ratios to a floor and the options. No I/O
// here, so tests/unit/bench-measure.test.ts covers it without a server.

/** The q-quantile (0..1) of an ascending list (nearest rank); NaN when empty. */
export function quantile(sorted: number[], q: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1))];
}

export type Percentiles = { p50: number; p95: number; p99: number; max: number; n: number };

/** p50, p95, p99 and max of latencies in any order (the list is not changed). */
export function percentiles(latencies: number[]): Percentiles {
  const sorted = Float64Array.from(latencies).sort();
  const list = Array.from(sorted);
  return {
    p50: quantile(list, 0.5),
    p95: quantile(list, 0.95),
    p99: quantile(list, 0.99),
    max: list.length ? list[list.length - 1] : NaN,
    n: list.length,
  };
}

// ---------------------------------------------------------------------------------------------
// /proc (Linux)
// ---------------------------------------------------------------------------------------------

/**
 * utime + stime (clock ticks) of a /proc/<pid>/stat line. The command name (field 2, in
 * parentheses) may hold spaces and parentheses, so fields are counted after the last ")".
 */
export function parseProcStatTicks(stat: string) {
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // rest[0] is field 3 (state): utime is field 14, stime field 15.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error("unreadable /proc stat");
  return utime + stime;
}

/** VmRSS (resident now) and VmHWM (peak resident) of a /proc/<pid>/status text, in MiB. */
export function parseProcStatusMemory(status: string) {
  const kb = (key: string) => {
    const m = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, "m").exec(status);
    return m ? Number(m[1]) / 1024 : NaN;
  };
  return { rssMb: kb("VmRSS"), hwmMb: kb("VmHWM") };
}

/** The "some" total (µs a task waited for a CPU) of /proc/pressure/cpu; NaN when absent. */
export function parsePressureTotal(text: string) {
  return Number(/some .*total=(\d+)/.exec(text)?.[1] ?? NaN);
}

// ---------------------------------------------------------------------------------------------
// Targets, verdicts, ratios
// ---------------------------------------------------------------------------------------------

/** A target of the issue: `max` (the figure must stay below) or `min` (at least). */
export type Target = { label: string; kind: "max" | "min"; value: number; unit: string };

export function maxTarget(label: string, value: number, unit: string): Target {
  return { label, kind: "max", value, unit };
}
export function minTarget(label: string, value: number, unit: string): Target {
  return { label, kind: "min", value, unit };
}

/** How a figure is written: below 10 with one decimal, else whole, with thousands separators. */
export function fmt(value: number, digits?: number) {
  if (!Number.isFinite(value)) return "–";
  const d = digits ?? (Math.abs(value) < 10 ? 1 : 0);
  return value.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
}

export type Verdict = { met: boolean; text: string };

/**
 * "met" or "missed by …" for one target: by how much (in the target's unit) and how many times
 * the target the figure is (max) or what share of the target it reaches (min).
 */
export function verdict(target: Target, measured: number): Verdict {
  const unit = target.unit ? ` ${target.unit}` : "";
  if (!Number.isFinite(measured)) return { met: false, text: `${target.label}: not measured` };
  if (target.kind === "max") {
    if (measured < target.value) return { met: true, text: `${target.label}: met` };
    const times = measured / target.value;
    return {
      met: false,
      text: `${target.label}: missed by ${fmt(measured - target.value)}${unit} (${times.toFixed(1)}× the target)`,
    };
  }
  if (measured >= target.value) return { met: true, text: `${target.label}: met` };
  const share = Math.round((measured / target.value) * 100);
  return {
    met: false,
    text: `${target.label}: missed by ${fmt(target.value - measured)}${unit} (${share} % of the target)`,
  };
}

/** measured ÷ floor as "12×" (one decimal below 10); "–" when either is missing or the floor is 0. */
export function ratio(measured: number, floor: number) {
  if (!Number.isFinite(measured) || !Number.isFinite(floor) || floor <= 0) return "–";
  const r = measured / floor;
  return `${r < 10 ? r.toFixed(1) : Math.round(r).toLocaleString("en-US")}×`;
}

/** The line the issue asks for: the 20k p95 over the 2k p95, and whether it is under 2×. */
export function scaleLine(label: string, small: number, large: number, limit = 2) {
  const r = large / small;
  if (!Number.isFinite(r)) return `${label}: not measured`;
  const ok = r < limit;
  return `${label}: p95 ${fmt(large)} ms ÷ ${fmt(small)} ms = ${r.toFixed(2)}× (target < ${limit}×: ${ok ? "met" : `missed by ${(r - limit).toFixed(2)}×`})`;
}

/** Least-squares slope of (x, y) points; NaN with fewer than 2 distinct x. */
export function slope(points: { x: number; y: number }[]) {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  if (sxx === 0) return NaN;
  return points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
}

// ---------------------------------------------------------------------------------------------
// Self time of a V8 CPU profile (node --cpu-prof)
// ---------------------------------------------------------------------------------------------

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
};
/** A V8 CPU profile (node --cpu-prof): startTime and the deltas are µs of the monotonic clock. */
export type CpuProfile = {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime?: number;
};
/** A stretch of the monotonic clock in µs (process.hrtime, the clock V8's profiles use on Linux). */
export type ProfileWindow = { fromUs: number; toUs: number };

type Frame = ProfileNode["callFrame"];

/** Each busy sample's frame and µs (the gap to the next sample), only those inside the window. */
function busySamples(profile: CpuProfile, window?: ProfileWindow) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out: { frame: Frame; us: number }[] = [];
  let t = profile.startTime ?? 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (window && (t < window.fromUs || t >= window.toUs)) return;
    const frame = byId.get(id)?.callFrame;
    // Idle time is not work: neither listed nor counted in the shares.
    if (!frame || frame.functionName === "(idle)") return;
    out.push({ frame, us: profile.timeDeltas[i + 1] ?? 0 });
  });
  return out;
}

function summed(entries: { key: string; us: number }[], top: number) {
  const sums = new Map<string, number>();
  let total = 0;
  for (const { key, us } of entries) {
    sums.set(key, (sums.get(key) ?? 0) + us);
    total += us;
  }
  return [...sums.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, ms: us / 1000, share: total ? us / total : 0 }));
}

/**
 * The functions with the most self time (ms, share of the busy samples), grouped by name and
 * place; with a window, only the samples inside it.
 */
export function topSelfTime(profile: CpuProfile, top = 15, window?: ProfileWindow) {
  return summed(
    busySamples(profile, window).map(({ frame, us }) => {
      const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules|build|app)\//, "$1/")}:${frame.lineNumber + 1}` : ""; // prettier-ignore
      return { key: `${frame.functionName || "(anonymous)"}${where ? ` ${where}` : ""}`, us };
    }),
    top,
  );
}

/**
 * What a frame's self time is spent on, in words a reader of the table knows: the SQLite
 * statements (better-sqlite3's native calls show as the JS function that made them: the Prisma
 * adapter's performIO/executeIO), Prisma's client, React's render, Remix, compression, Node's own
 * modules, the app's server build, garbage collection.
 */
export function categoryOf(frame: Frame) {
  const { functionName: fn, url } = frame;
  if (fn === "(garbage collector)") return "garbage collection";
  if (fn === "(program)") return "V8 and native code outside JS ((program))";
  if (url.includes("adapter-better-sqlite3") && /^(performIO|executeIO)$/.test(fn))
    return "SQLite statements (run through Prisma's adapter)";
  if (url.includes("/better-sqlite3/")) return "better-sqlite3 (JS side)";
  // The query-only connection's helpers (app/lib/reader.server.ts) call the statements' native
  // all()/get(): the samples land on them, so their self time is the statements'.
  if (/\/build\/index\.js$/.test(url) && /^read(Sql|Rows|Row)$/.test(fn))
    return "SQLite statements (the reader connection)";
  if (url.includes("/@prisma/"))
    return "Prisma client and adapter (query building, result mapping)";
  // The server's only WebAssembly is Prisma's query compiler (engineType "client").
  if (url.startsWith("wasm://")) return "Prisma query compiler (WebAssembly)";
  if (/\/(react-dom|react|scheduler)\//.test(url)) return "React server render";
  if (url.includes("/@remix-run/")) return "Remix (router, loaders, serialisation)";
  if (url === "node:zlib" || fn === "processChunk") return "compression (zlib)";
  if (url.startsWith("node:")) return "Node.js modules (http, streams, crypto, fs)";
  if (/\/build\/index\.js$/.test(url)) return "app code (build/index.js)";
  if (/\/build\/[^/]+\.js$/.test(url)) return "server and workers (build/server.js, …)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return `package ${pkg[1]}`;
  return url ? "other JS" : "native and V8 builtins";
}

/** Self time by category (categoryOf), largest first; with a window, only the samples inside it. */
export function selfTimeByCategory(profile: CpuProfile, window?: ProfileWindow) {
  return summed(
    busySamples(profile, window).map(({ frame, us }) => ({ key: categoryOf(frame), us })),
    Infinity,
  );
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

export const ROW_NAMES = [
  "floor",
  "dashboard",
  "profile",
  "admin",
  "ingest",
  "devicelog",
  "memory",
] as const;
export type RowName = (typeof ROW_NAMES)[number];

export type BenchOptions = {
  only: RowName[];
  quick: boolean;
  duration: number;
  warmup: number;
  connections: number;
  /** Rows whose servers run with --cpu-prof (--profile all: every row). */
  profile: RowName[];
  soakMinutes: number;
  worldsDir: string | null;
  /** The dashboard's small and large worlds; null: the defaults (2,000 and 20,000 × 365). */
  sizes: { patients: number; days: number }[] | null;
  scratchDir: string | null;
  write: boolean;
  build: boolean;
};

/** The command line of run.ts; throws with a message on an unknown option or row. */
export function parseOptions(argv: string[]): BenchOptions {
  const options: BenchOptions = {
    only: [...ROW_NAMES],
    quick: false,
    duration: NaN,
    warmup: NaN,
    connections: NaN,
    profile: [],
    soakMinutes: 0,
    worldsDir: null,
    sizes: null,
    scratchDir: null,
    write: true,
    build: false,
  };
  const rows = (text: string) => {
    const names = text.split(",").map((s) => s.trim()).filter(Boolean); // prettier-ignore
    for (const n of names)
      if (!(ROW_NAMES as readonly string[]).includes(n))
        throw new Error(`unknown row "${n}" (rows: ${ROW_NAMES.join(", ")})`);
    return names as RowName[];
  };
  const number = (name: string, text: string | undefined) => {
    const v = Number(text);
    if (text === undefined || text.trim() === "" || !Number.isFinite(v) || v < 0)
      throw new Error(`--${name} needs a number`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.startsWith("--") ? arg.slice(2).split(/=(.*)/s, 2) : [arg, undefined]; // prettier-ignore
    const value = () => inline ?? argv[++i];
    switch (name) {
      case "only":
        options.only = rows(value() ?? "");
        break;
      case "quick":
        options.quick = true;
        break;
      case "duration":
        options.duration = number(name, value());
        break;
      case "warmup":
        options.warmup = number(name, value());
        break;
      case "connections":
        options.connections = Math.max(1, Math.round(number(name, value())));
        break;
      case "profile": {
        const text = value() ?? "";
        options.profile = text.trim() === "all" ? [...ROW_NAMES] : rows(text);
        break;
      }
      case "soak-minutes":
        options.soakMinutes = number(name, value());
        break;
      case "sizes":
        options.sizes = (value() ?? "").split(",").map((text) => {
          const m = /^(\d+)x(\d+)$/.exec(text.trim());
          if (!m) throw new Error(`--sizes needs PATIENTSxDAYS[,PATIENTSxDAYS], not "${text}"`);
          return { patients: Number(m[1]), days: Number(m[2]) };
        });
        if (options.sizes.length > 2) throw new Error("--sizes takes at most two worlds");
        break;
      case "worlds-dir":
        options.worldsDir = value() ?? null;
        break;
      case "scratch-dir":
        options.scratchDir = value() ?? null;
        break;
      case "no-write":
        options.write = false;
        break;
      case "build":
        options.build = true;
        break;
      default:
        throw new Error(`unknown option ${arg}`);
    }
  }
  // Quick: few connections, so that even a busy machine answers within the short runs.
  if (!Number.isFinite(options.duration)) options.duration = options.quick ? 5 : 15;
  if (!Number.isFinite(options.warmup)) options.warmup = options.quick ? 2 : 3;
  if (!Number.isFinite(options.connections)) options.connections = options.quick ? 2 : 10;
  // Profiled rows run without the others unless --only says otherwise (a profile is cut to each
  // row's timed run, so rows sharing a server do not mix).
  if (options.profile.length && !argv.some((a) => a === "--only" || a.startsWith("--only=")))
    options.only = [...options.profile];
  // The soak is part of the memory row.
  if (options.soakMinutes > 0 && !options.only.includes("memory")) options.only.push("memory");
  return options;
}
