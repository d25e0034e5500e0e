// The pure parts of `npm run bench` (scripts/bench/measure.ts): percentiles, /proc parsing,
// verdicts and ratios, the CPU profile's self time and the options. No timing is asserted.
import { describe, expect, it } from "vitest";
import {
  fmt,
  maxTarget,
  minTarget,
  parseOptions,
  parsePressureTotal,
  parseProcStatTicks,
  parseProcStatusMemory,
  percentiles,
  quantile,
  ratio,
  scaleLine,
  slope,
  categoryOf,
  selfTimeByCategory,
  topSelfTime,
  verdict,
} from "../../scripts/bench/measure";

describe("percentiles", () => {
  it("takes the nearest rank of 1..100", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentiles(values)).toEqual({ p50: 50, p95: 95, p99: 99, max: 100, n: 100 });
  });

  it("does not sort the caller's list, and is NaN when empty", () => {
    const values = [3, 1, 2];
    expect(percentiles(values).p50).toBe(2);
    expect(values).toEqual([3, 1, 2]);
    expect(Number.isNaN(percentiles([]).p95)).toBe(true);
    expect(quantile([7], 0.99)).toBe(7);
  });
});

describe("/proc parsing", () => {
  it("reads utime + stime after a command name holding spaces and parentheses", () => {
    const stat =
      "4242 (node (my) server) S 1 4242 4242 0 -1 4194560 9000 0 0 0 1234 567 0 0 20 0 11 0 100 900000000 30000";
    expect(parseProcStatTicks(stat)).toBe(1234 + 567);
  });

  it("refuses a line it cannot read", () => {
    expect(() => parseProcStatTicks("garbage")).toThrow();
  });

  it("reads VmRSS and VmHWM in MiB", () => {
    const status = "Name:\tnode\nVmHWM:\t  524288 kB\nVmRSS:\t  262144 kB\nThreads:\t11\n";
    expect(parseProcStatusMemory(status)).toEqual({ rssMb: 256, hwmMb: 512 });
    expect(Number.isNaN(parseProcStatusMemory("Name: x").rssMb)).toBe(true);
  });

  it("reads the 'some' total of /proc/pressure/cpu", () => {
    const text =
      "some avg10=1.00 avg60=2.00 avg300=3.00 total=123456\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
    expect(parsePressureTotal(text)).toBe(123456);
    expect(Number.isNaN(parsePressureTotal(""))).toBe(true);
  });
});

describe("verdicts and ratios", () => {
  it("says met under a maximum, and by how much it is missed above it", () => {
    const p95 = maxTarget("p95 < 150 ms", 150, "ms");
    expect(verdict(p95, 149.9)).toEqual({ met: true, text: "p95 < 150 ms: met" });
    expect(verdict(p95, 390)).toEqual({
      met: false,
      text: "p95 < 150 ms: missed by 240 ms (2.6× the target)",
    });
    expect(verdict(p95, 150).met).toBe(false);
  });

  it("says met at a minimum, and what share of it is reached below it", () => {
    const rate = minTarget("≥ 2,000 therapies/s", 2000, "therapies/s");
    expect(verdict(rate, 2000).met).toBe(true);
    expect(verdict(rate, 817)).toEqual({
      met: false,
      text: "≥ 2,000 therapies/s: missed by 1,183 therapies/s (41 % of the target)",
    });
  });

  it("never calls a figure that was not measured met", () => {
    expect(verdict(maxTarget("p95 < 50 ms", 50, "ms"), NaN)).toEqual({
      met: false,
      text: "p95 < 50 ms: not measured",
    });
  });

  it("writes ratios and figures readably", () => {
    expect(ratio(54, 0.5)).toBe("108×");
    expect(ratio(3, 2)).toBe("1.5×");
    expect(ratio(3, 0)).toBe("–");
    expect(ratio(NaN, 2)).toBe("–");
    expect(fmt(1234.5)).toBe("1,235");
    expect(fmt(4.26)).toBe("4.3");
    expect(fmt(0.123, 2)).toBe("0.12");
    expect(fmt(NaN)).toBe("–");
  });

  it("prints the 20k ÷ 2k line with its verdict", () => {
    expect(scaleLine("Dashboard", 48, 90)).toBe(
      "Dashboard: p95 90 ms ÷ 48 ms = 1.88× (target < 2×: met)",
    );
    expect(scaleLine("Dashboard", 48, 390)).toContain("missed by 6.13×");
  });

  it("fits the slope of RSS samples", () => {
    expect(
      slope([
        { x: 0, y: 100 },
        { x: 1, y: 102 },
        { x: 2, y: 104 },
      ]),
    ).toBeCloseTo(2);
    expect(Number.isNaN(slope([{ x: 0, y: 1 }]))).toBe(true);
  });
});

describe("CPU profile", () => {
  it("sums self time per function, biggest first, idle time left out", () => {
    const frame = (functionName: string, line: number) => ({
      functionName,
      url: "file:///work/x/node_modules/react-dom/server.js",
      lineNumber: line,
    });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame("(root)", 0) },
        { id: 2, callFrame: frame("render", 9) },
        { id: 3, callFrame: frame("", 19) },
        { id: 4, callFrame: { functionName: "(idle)", url: "", lineNumber: -1 } },
      ],
      samples: [2, 3, 2, 2, 4],
      timeDeltas: [0, 1000, 3000, 1000, 1000, 9000],
    };
    expect(topSelfTime(profile)).toEqual([
      { name: "render node_modules/react-dom/server.js:10", ms: 3, share: 0.5 },
      { name: "(anonymous) node_modules/react-dom/server.js:20", ms: 3, share: 0.5 },
    ]);
  });
});

describe("a profile cut to a timed run", () => {
  const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
  // Samples at 1,000 (idle), 2,000, 3,000, 4,000, 5,000 µs: each lasts until the next one.
  const profile = {
    startTime: 0,
    nodes: [
      { id: 1, callFrame: frame("(idle)", "") },
      { id: 2, callFrame: frame("performIO", "file:///x/node_modules/@prisma/adapter-better-sqlite3/dist/index.js") }, // prettier-ignore
      {
        id: 3,
        callFrame: frame("renderElement", "file:///x/node_modules/react-dom/cjs/server.js"),
      },
      { id: 4, callFrame: frame("(garbage collector)", "") },
    ],
    samples: [1, 2, 3, 3, 4],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 2000],
  };

  it("counts only the samples inside the window, by what they are spent on", () => {
    expect(selfTimeByCategory(profile, { fromUs: 2500, toUs: 5000 })).toEqual([
      { name: "React server render", ms: 2, share: 1 },
    ]);
    expect(selfTimeByCategory(profile).map((c) => [c.name, c.ms])).toEqual([
      ["React server render", 2],
      ["garbage collection", 2],
      ["SQLite statements (run through Prisma's adapter)", 1],
    ]);
    expect(topSelfTime(profile, 5, { fromUs: 0, toUs: 2500 })).toEqual([
      {
        name: "performIO node_modules/@prisma/adapter-better-sqlite3/dist/index.js:1",
        ms: 1,
        share: 1,
      },
    ]);
  });

  it("names the categories a reader knows", () => {
    expect(categoryOf(frame("wasm-function[90]", "wasm://wasm/0072416a"))).toBe("Prisma query compiler (WebAssembly)"); // prettier-ignore
    expect(categoryOf(frame("processChunk", "node:zlib"))).toBe("compression (zlib)");
    expect(categoryOf(frame("x", "file:///w/build/index.js"))).toBe("app code (build/index.js)");
    expect(categoryOf(frame("readSql", "file:///w/build/index.js"))).toBe("SQLite statements (the reader connection)"); // prettier-ignore
    expect(categoryOf(frame("x", "file:///w/node_modules/@date-fns/tz/index.cjs"))).toBe("package @date-fns/tz"); // prettier-ignore
  });
});

describe("options", () => {
  it("has defaults, and --quick shortens the runs", () => {
    const normal = parseOptions([]);
    expect(normal.only).toContain("dashboard");
    expect([normal.duration, normal.warmup, normal.connections]).toEqual([15, 3, 10]);
    const quick = parseOptions(["--quick"]);
    expect([quick.duration, quick.warmup, quick.connections]).toEqual([5, 2, 2]);
    expect(parseOptions(["--quick", "--connections", "8"]).connections).toBe(8);
  });

  it("reads --only, --duration=S, --connections and --soak-minutes", () => {
    const o = parseOptions(["--only", "admin,profile", "--duration=5", "--connections", "4"]);
    expect(o.only).toEqual(["admin", "profile"]);
    expect([o.duration, o.connections]).toEqual([5, 4]);
    expect(parseOptions(["--profile", "admin,ingest"]).only).toEqual(["admin", "ingest"]);
    expect(parseOptions(["--profile", "all", "--only", "admin"]).profile).toContain("devicelog");
    expect(parseOptions(["--profile", "all", "--only", "admin"]).only).toEqual(["admin"]);
    expect(parseOptions(["--only", "admin", "--soak-minutes", "30"]).only).toEqual([
      "admin",
      "memory",
    ]);
  });

  it("reads --sizes: the small world, and the large one when given", () => {
    expect(parseOptions(["--sizes", "2000x365"]).sizes).toEqual([{ patients: 2000, days: 365 }]);
    expect(parseOptions(["--sizes=200x30,2000x30"]).sizes).toEqual([
      { patients: 200, days: 30 },
      { patients: 2000, days: 30 },
    ]);
    expect(() => parseOptions(["--sizes", "2000"])).toThrow(/--sizes needs/);
  });

  it("runs a profiled row alone", () => {
    expect(parseOptions(["--profile", "dashboard"]).only).toEqual(["dashboard"]);
  });

  it("refuses an unknown row or option", () => {
    expect(() => parseOptions(["--only", "dashbord"])).toThrow(/unknown row "dashbord"/);
    expect(() => parseOptions(["--fast"])).toThrow(/unknown option --fast/);
    expect(() => parseOptions(["--duration", "x"])).toThrow(/--duration needs a number/);
  });
});
