// What the release binary's smoke test (smoke.test.ts) drives the binary with: its commands as child
// processes with a transcript for failure reports, a fake SMS provider, and a small cookie-keeping
// HTTP client that posts forms the way a browser without JavaScript does.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { vi } from "vitest";

// ---- Transcript: everything the binary printed, for readable CI failures ------------------------

const transcript: string[] = [];

/** Appends a block (a command and its output) to the transcript. */
export function record(title: string, text: string) {
  transcript.push(`──── ${title}\n${text.trimEnd() || "(no output)"}`);
}

/** The transcript since `from` (an earlier transcriptLength()). */
export function transcriptSince(from: number) {
  return transcript.slice(from).join("\n");
}

export const transcriptLength = () => transcript.length;

// ---- Commands ---------------------------------------------------------------------------------

/** Every child not yet exited, so that afterAll can end them whatever happened. */
const live = new Set<ChildProcess>();

function track<T extends ChildProcess>(child: T): T {
  live.add(child);
  child.on("close", () => live.delete(child));
  child.on("error", () => live.delete(child));
  return child;
}

/** Kills every child still running (afterAll). */
export function killAll() {
  for (const child of live) child.kill("SIGKILL");
}

export type Env = Record<string, string>;

// Exactly these variables: nothing of the test's own environment reaches the binary.
const processEnv = (env: Env) => env as unknown as NodeJS.ProcessEnv;

export type Ran = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, in the order they arrived */
  output: string;
  timedOut: boolean;
};

/** Runs `binary args` to its end (killed after timeoutMs: a command that should exit but serves). */
export function runBinary(
  binary: string,
  args: string[],
  options: { cwd: string; env: Env; timeoutMs?: number },
): Promise<Ran> {
  const { cwd, env, timeoutMs = 60_000 } = options;
  return new Promise((resolve, reject) => {
    const child = track(
      spawn(binary, args, {
        cwd,
        env: processEnv(env),
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    let stdout = "";
    let stderr = "";
    let output = "";
    let timedOut = false;
    child.stdout.on("data", (d: Buffer) => ((stdout += d), (output += d)));
    child.stderr.on("data", (d: Buffer) => ((stderr += d), (output += d)));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const status = timedOut
        ? `still running after ${timeoutMs} ms: killed`
        : `exit code ${code}${signal ? `, signal ${signal}` : ""}`;
      record(`arc-connect ${args.join(" ")} (${status})`, output);
      resolve({ code, signal, stdout, stderr, output, timedOut });
    });
  });
}

/** A `serve` running in the background. */
export class ServerProcess {
  readonly child: ChildProcess;
  stdout = "";
  stderr = "";
  output = "";
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    readonly name: string,
    binary: string,
    args: string[],
    options: { cwd: string; env: Env },
    readonly origin: string,
  ) {
    this.child = track(
      spawn(binary, args, {
        cwd: options.cwd,
        env: processEnv(options.env),
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    this.child.stdout!.on("data", (d: Buffer) => ((this.stdout += d), (this.output += d)));
    this.child.stderr!.on("data", (d: Buffer) => ((this.stderr += d), (this.output += d)));
    this.exited = new Promise((resolve) => {
      this.child.on("close", (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
      this.child.on("error", (error) => {
        this.output += `\n[spawn error] ${error.message}`;
        this.exit = { code: null, signal: null };
        resolve(this.exit);
      });
    });
  }

  get running() {
    return this.exit === null;
  }

  /** The output so far, for failure reports. */
  describe() {
    const state = this.exit
      ? `exited: code ${this.exit.code}, signal ${this.exit.signal}`
      : `running, pid ${this.child.pid}`;
    return `${this.name} (${state}) at ${this.origin}:\n${this.output.trimEnd() || "(no output)"}`;
  }

  /**
   * Waits until /readyz answers 200 (database, migrations and scheduler ready) and returns its
   * body. A 503 is "not yet"; anything else, or the process exiting, fails at once.
   */
  async waitReady(timeoutMs = 60_000): Promise<Record<string, unknown>> {
    let last = "no answer yet";
    // Asked again until it holds; a fatal answer ends the wait at once (vi.waitFor retries throws).
    const outcome = await vi
      .waitFor(
        async () => {
          if (!this.running) {
            return new Error(`${this.name} exited before it was ready.\n${this.describe()}`);
          }
          let response: Response | null = null;
          try {
            response = await fetch(`${this.origin}/readyz`, {
              signal: AbortSignal.timeout(5_000),
            });
          } catch (error) {
            last = (error as Error).message; // not listening yet
          }
          if (response) {
            const body = await response.text();
            if (response.status === 200) return JSON.parse(body) as Record<string, unknown>;
            last = `/readyz answered ${response.status}: ${body.slice(0, 300)}`;
            if (response.status !== 503) return new Error(`${last}\n${this.describe()}`);
          }
          throw new Error(last);
        },
        { timeout: timeoutMs, interval: 250 },
      )
      .catch(
        () =>
          new Error(`${this.name} not ready within ${timeoutMs} ms (${last}).\n${this.describe()}`),
      );
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  /** Sends `signal` and waits for the exit (null when it takes longer than timeoutMs). */
  async stop(signal: NodeJS.Signals, timeoutMs: number) {
    if (!this.running) return { ...this.exit!, ms: 0 };
    const started = Date.now();
    this.child.kill(signal);
    const outcome = await Promise.race([this.exited, timeout(timeoutMs).then(() => null)]);
    return outcome ? { ...outcome, ms: Date.now() - started } : null;
  }
}

/** A guard for a race: settles after `ms` whatever else happens (never a wait for an event). */
export const timeout = (ms: number) => new Promise((elapsed) => setTimeout(elapsed, ms));

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// ---- The SMS provider ---------------------------------------------------------------------------

export type Sms = { to: string; body: string; at: number };

/**
 * A stand-in for the HTTP SMS provider (app/lib/sms.server.ts's contract): a JSON POST
 * `{ "to": "+<digits>", "body": "…" }` with `Authorization: Bearer <token>`; 2xx means sent.
 * Anything else is answered 4xx and kept in `refused`.
 */
export async function startSmsProvider(token: string) {
  const messages: Sms[] = [];
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d: Buffer) => (raw += d));
    req.on("end", () => {
      const refuse = (status: number, why: string) => {
        refused.push(`${req.method} ${req.url}: ${why}`);
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: why }));
      };
      if (req.method !== "POST") return refuse(405, "not a POST");
      if (req.headers.authorization !== `Bearer ${token}`) {
        return refuse(401, `wrong authorization: ${req.headers.authorization ?? "none"}`);
      }
      if (!String(req.headers["content-type"]).startsWith("application/json")) {
        return refuse(415, `content-type ${req.headers["content-type"]}`);
      }
      let message: { to?: unknown; body?: unknown };
      try {
        message = JSON.parse(raw);
      } catch {
        return refuse(400, "body is not JSON");
      }
      if (typeof message.to !== "string" || !/^\+\d+$/.test(message.to)) {
        return refuse(400, `"to" is not +<digits>: ${JSON.stringify(message.to)}`);
      }
      if (typeof message.body !== "string" || !message.body) return refuse(400, "no body");
      messages.push({ to: message.to, body: message.body, at: Date.now() });
      res.writeHead(202, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: `sms-${messages.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/messages`,
    messages,
    refused,
    /** The first message to `to` after the first `skip` ones sent there. */
    async next(to: string, skip: number, timeoutMs = 20_000): Promise<Sms> {
      return vi
        .waitFor(
          () => {
            const found = messages.filter((m) => m.to === to)[skip];
            if (!found) throw new Error("not yet");
            return found;
          },
          { timeout: timeoutMs, interval: 100 },
        )
        .catch(() => {
          throw new Error(
            `No text message to ${to} within ${timeoutMs} ms (received: ${JSON.stringify(messages)}; refused: ${JSON.stringify(refused)})`,
          );
        });
    },
    count: (to: string) => messages.filter((m) => m.to === to).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- A browser without JavaScript ---------------------------------------------------------------

/**
 * Keeps cookies across requests to one origin, never follows redirects by itself, and sends the
 * Origin header on posts as a browser does for a same-origin form.
 */
export class Client {
  private cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  get cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired =
        attributes.some((a) => /^\s*max-age=(0|-\d+)\s*$/i.test(a)) ||
        attributes.some((a) => {
          const m = /^\s*expires=(.*)$/i.exec(a);
          return m ? Date.parse(m[1]) <= Date.now() : false;
        });
      if (expired || !value) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", this.cookieHeader);
    if (init.method && init.method !== "GET") headers.set("origin", this.origin);
    const response = await fetch(this.origin + path, {
      ...init,
      headers,
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    this.remember(response);
    return response;
  }

  get(path: string) {
    return this.request(path);
  }

  /** A urlencoded form post. */
  post(path: string, fields: Record<string, string>) {
    return this.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }

  postMultipart(path: string, form: FormData) {
    return this.request(path, { method: "POST", body: form });
  }

  /** GETs `path` and follows redirects (at most 5); returns the last response and its path. */
  async follow(path: string, response?: Response) {
    let current = response ?? (await this.get(path));
    let at = path;
    for (let hops = 0; isRedirect(current.status); hops++) {
      if (hops === 5) throw new Error(`Too many redirects from ${path}`);
      await current.arrayBuffer();
      const location = current.headers.get("location");
      if (!location) throw new Error(`${at} answered ${current.status} without a Location`);
      const next = new URL(location, this.origin + at);
      if (next.origin !== this.origin) throw new Error(`${at} redirects off-site to ${location}`);
      at = next.pathname + next.search;
      current = await this.get(at);
    }
    return { response: current, path: at };
  }
}

export const isRedirect = (status: number) => status >= 300 && status < 400;

// ---- HTML ------------------------------------------------------------------------------------------

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1].toLowerCase() === "x" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return String.fromCodePoint(code);
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The visible text of server-rendered HTML: no tags, no React's <!-- --> text separators. */
export function textOf(html: string) {
  return decodeEntities(
    html
      .replace(/<script[\s\S]*?<\/script>/gi, " ")
      .replace(/<style[\s\S]*?<\/style>/gi, " ")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<[^>]+>/g, " "),
  )
    .replace(/\s+/g, " ")
    .trim();
}

/** The text inside the first element with data-testid="<id>" (nested elements and all), or null. */
export function testIdText(html: string, id: string) {
  const open = new RegExp(`<(\\w+)\\b[^>]*\\bdata-testid="${id}"[^>]*>`).exec(html);
  if (!open) return null;
  const tag = open[1];
  const tags = new RegExp(`<(/?)${tag}\\b[^>]*?(/?)>`, "g");
  tags.lastIndex = open.index + open[0].length;
  let depth = 1;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    if (m[2]) continue; // <tag ... />
    depth += m[1] ? -1 : 1;
    if (depth === 0) return textOf(html.slice(open.index + open[0].length, m.index));
  }
  return null;
}
