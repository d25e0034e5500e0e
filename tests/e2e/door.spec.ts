// The server's door (server/http.ts, app/lib/door.server.ts) on the production build: security
// headers and no-store on every authenticated page, file and data answer and on errors; paths
// that routing would rewrite refused before any route; the client address from the socket only.
// HTTP-level checks: the no-js project runs them (playwright.config.ts).
import http from "node:http";
import { expect, test, type APIResponse } from "@playwright/test";
import { anyCareSiteId, createSession, createUser, db, latestCode, patientOf } from "./support/db";
import { E2E_PORT } from "./support/env";

async function clinicadmin() {
  const siteId = anyCareSiteId();
  const user = await createUser("clinicadmin", { careSiteIds: [siteId] });
  return { id: user.id, siteId, cookie: `__arc_session=${await createSession(user.id)}` };
}

const patientParam = (siteId: string) =>
  encodeURIComponent(
    Buffer.from(
      JSON.stringify({ profile_id: patientOf(siteId), clinic_id: siteId, pair_id: null }),
    ).toString("base64"),
  );

function expectDoorHeaders(response: APIResponse, where: string) {
  const headers = response.headers();
  expect(headers["cache-control"], where).toContain("no-store");
  expect(headers["x-content-type-options"], where).toBe("nosniff");
  expect(headers["x-frame-options"], where).toBe("DENY");
  expect(headers["referrer-policy"], where).toBe("same-origin");
  expect(headers["strict-transport-security"], where).toMatch(/^max-age=\d+/);
  expect(headers["content-security-policy"], where).toContain("frame-ancestors 'none'");
}

test("authenticated pages, files and data carry no-store and the security headers", async ({
  request,
}) => {
  const { siteId, cookie } = await clinicadmin();
  const p = patientParam(siteId);
  // The app runs Remix's single fetch: its data requests (the `?_data=` JSON of older Remix) are
  // `<path>.data` (turbo-stream).
  const cases: [path: string, type: RegExp | null][] = [
    ["/app", /text\/html/],
    ["/app/Reports", /text\/html/],
    [`/app/PatientProfile?p=${p}`, /text\/html/],
    ["/app/notificationSummary", /text\/html/],
    ["/app/caresitesettingdashboard", /text\/html/],
    ["/app/Reports.data", /text\/x-script/],
    [`/app/PatientProfile.data?p=${p}`, /text\/x-script/],
    ["/app/notificationSummary.data", /text\/x-script/],
    [`/app/PatientProfile/csv?p=${p}`, /text\/csv/],
    [`/app/PatientProfile/pdf?p=${p}`, /application\/pdf/],
    [`/app/caresitesettingdashboard/csv?c=${siteId}&view=patient`, /text\/csv/],
  ];
  for (const [path, type] of cases) {
    const response = await request.get(path, { headers: { Cookie: cookie }, maxRedirects: 0 });
    expect(response.status(), path).toBe(200);
    if (type) expect(response.headers()["content-type"], path).toMatch(type);
    expectDoorHeaders(response, path);
    if (type?.source.includes("html")) {
      expect(response.headers()["content-security-policy"], path).toMatch(/'nonce-[^']+'/);
    }
  }
});

test("errors, redirects, health checks and the device API carry them too", async ({ request }) => {
  const { cookie } = await clinicadmin();
  const cases: [method: "get" | "post", path: string, status: number, cookie?: string][] = [
    ["get", "/no/such/page", 404],
    ["get", "/app/no-such-page", 404, cookie],
    ["get", "/app", 302],
    ["get", "/healthz", 200],
    ["get", "/readyz", 200],
    ["post", "/api/v1/devices/NO-SUCH-SERIAL/transmissions", 401],
    ["post", "/api/v1/devices/NO-SUCH-SERIAL/stats", 401],
  ];
  for (const [method, path, status, withCookie] of cases) {
    const response = await request[method](path, {
      headers: withCookie ? { Cookie: withCookie } : {},
      maxRedirects: 0,
      ...(method === "post" ? { data: "{}" } : {}),
    });
    expect(response.status(), path).toBe(status);
    expectDoorHeaders(response, path);
  }
});

/** A request sent with its path exactly as written (Playwright and fetch would resolve `..`). */
function raw(
  method: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: E2E_PORT,
        method,
        path,
        agent: false,
        headers: { "Content-Length": String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"] ?? "", text }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test("a registration through a dot-segment path under the device API is refused, and texts no code", async () => {
  const name = `door${Date.now()}`;
  const phone = `512${Math.floor(2e6 + Math.random() * 7e6)}`;
  const form = new URLSearchParams({
    intent: "next",
    username: name,
    password: "Register-1!",
    confirmPassword: "Register-1!",
    firstName: "Dana",
    lastName: "Brooks",
    phoneCountry: "1",
    phone,
    email: `${name}@example.test`,
  }).toString();
  const started = Date.now() - 1000;
  for (const path of [
    "/api/v1/devices/../../../signup",
    "/api/v1/devices/%2e%2e/%2e%2e/%2e%2e/signup",
    "/api/v1/devices/..\\..\\..\\signup",
    "/api/v1/devices/x%2f..%2f..%2f..%2fsignup",
  ]) {
    const answer = await raw("POST", path, form, {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Arc-Client-Ip": "203.0.113.99",
    });
    expect(answer.status, path).toBe(400);
    expect(answer.type, path).toMatch(/^text\/plain/);
    expect(answer.text, path).toBe(
      "Bad Request: the address has dot segments, encoded slashes or backslashes.",
    );
  }
  // fullPhone(): country code and national number as one string of digits.
  expect(latestCode(`1${phone}`, started)).toBeNull();
});

test("the audit trail records the socket's address, not one the client sends", async ({
  request,
}) => {
  const { id, siteId, cookie } = await clinicadmin();
  const response = await request.get(`/app/PatientProfile/csv?p=${patientParam(siteId)}`, {
    headers: {
      Cookie: cookie,
      "X-Arc-Client-Ip": "203.0.113.7",
      "X-Forwarded-For": "198.51.100.9",
    },
  });
  expect(response.status()).toBe(200);
  const database = db();
  try {
    const rows = database
      .prepare(`SELECT ip FROM "AuditEvent" WHERE actorId = ? AND ip IS NOT NULL`)
      .all(id) as { ip: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  } finally {
    database.close();
  }
});
