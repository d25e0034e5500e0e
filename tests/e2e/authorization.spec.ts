// Every route of the spec's route table (spec 1 §2.1-§2.2, spec 3 §2.1) tried as each staff role
// and as a signed-out visitor.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { anyCareSiteId, createSession, createUser, patientOf } from "./support/db";

const STAFF = ["superadmin", "abmadmin", "clinicadmin", "clinician"] as const;
type Staff = (typeof STAFF)[number];
const ALL = STAFF;
const SITE = ["clinicadmin", "clinician"] as const;

/** path: gets the visiting user's id (for routes about a user). */
type AppRoute = { path: (self: string) => string; roles: readonly Staff[] };

const careSiteId = () => anyCareSiteId();
/** A patient with an accepted membership at anyCareSiteId() (the care site users are given). */
const demoPatientId = () => patientOf(careSiteId());
const patientParam = () =>
  encodeURIComponent(
    Buffer.from(
      JSON.stringify({ profile_id: demoPatientId(), clinic_id: careSiteId(), pair_id: null }),
    ).toString("base64"),
  );

const appRoutes: Record<string, AppRoute> = {
  "/app": { path: () => "/app", roles: ALL },
  "/app/settings": { path: () => "/app/settings", roles: ALL },
  "/app/userinfo/{id}": { path: (self) => `/app/userinfo/${self}`, roles: ALL },
  "/app/notificationsettings": {
    path: () => "/app/notificationsettings",
    roles: SITE,
  },
  "/app/signup": { path: () => "/app/signup", roles: ALL },
  "/app/chat": { path: () => "/app/chat", roles: ALL },
  "/app/satable": { path: () => "/app/satable", roles: ["superadmin"] },
  "/app/invitation": { path: () => "/app/invitation", roles: ["abmadmin"] },
  "/app/clinicadmin": {
    path: () => "/app/clinicadmin",
    roles: ["clinicadmin"],
  },
  "/app/cliniciantable": {
    path: () => "/app/cliniciantable",
    roles: ["clinician"],
  },
  "/app/notificationSummary": {
    path: () => "/app/notificationSummary",
    roles: SITE,
  },
  "/app/caresitesettingdashboard": {
    path: () => "/app/caresitesettingdashboard",
    roles: SITE,
  },
  "/app/help": { path: () => "/app/help", roles: SITE },
  "/app/Reports": { path: () => "/app/Reports", roles: SITE },
  "/app/PatientProfile": {
    path: () => `/app/PatientProfile?p=${patientParam()}`,
    roles: ALL,
  },
  "/app/PasswordAndSecurity": { path: () => "/app/PasswordAndSecurity", roles: ALL },
  "/app/clinicprofiledetails": {
    path: () => `/app/clinicprofiledetails?c_id=${careSiteId()}`,
    roles: ["superadmin", "abmadmin"],
  },
};

// Public routes: signed-in users are sent to /app, except the device tools, which are reachable
// with or without a login (spec 1 §2.1, docs/decisions.md).
type PublicRoute = { path: string; redirectsSignedIn: boolean };
const publicRoutes: PublicRoute[] = [
  { path: "/", redirectsSignedIn: true },
  { path: "/expired", redirectsSignedIn: true },
  { path: "/forgotpassword", redirectsSignedIn: true },
  { path: "/restorepasswordwithemail", redirectsSignedIn: true },
  { path: "/restorepasswordwithphone", redirectsSignedIn: true },
  { path: "/signup", redirectsSignedIn: true },
  { path: "/acceptinvite", redirectsSignedIn: true },
  { path: "/decrypt", redirectsSignedIn: false },
  { path: "/deviceStats", redirectsSignedIn: false },
  { path: "/dash", redirectsSignedIn: false },
];

async function signIn(role: Staff) {
  const careSiteIds = SITE.includes(role as never) ? [careSiteId()] : [];
  const user = await createUser(role, { careSiteIds });
  return { id: user.id, cookie: `__arc_session=${await createSession(user.id)}` };
}

async function get(request: APIRequestContext, path: string, cookie?: string) {
  return request.get(path, { maxRedirects: 0, headers: cookie ? { Cookie: cookie } : {} });
}

for (const [name, route] of Object.entries(appRoutes)) {
  test(`${name}: a signed-out visitor is sent to /`, async ({ request }) => {
    const response = await get(request, route.path("someone"));
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe("/");
  });

  test(`${name}: open to ${route.roles.join(", ")} only`, async ({ request }) => {
    for (const role of STAFF) {
      const visitor = await signIn(role);
      const response = await get(request, route.path(visitor.id), visitor.cookie);
      const expected = route.roles.includes(role) ? 200 : 403;
      expect(response.status(), `${role} on ${name}`).toBe(expected);
    }
  });
}

for (const route of publicRoutes) {
  test(`${route.path}: public, ${route.redirectsSignedIn ? "signed-in users go to /app" : "open to everyone"}`, async ({
    request,
  }) => {
    expect((await get(request, route.path)).status(), "signed out").toBe(200);
    const signedIn = await get(request, route.path, (await signIn("clinician")).cookie);
    if (route.redirectsSignedIn) {
      expect(signedIn.status()).toBe(302);
      expect(signedIn.headers().location).toBe("/app");
    } else {
      expect(signedIn.status()).toBe(200);
    }
  });
}

test("/deviceStats shows only its password box, and its export nothing, without the password", async ({
  request,
}) => {
  const page = await get(request, "/deviceStats", (await signIn("superadmin")).cookie);
  const html = await page.text();
  expect(html).toContain('type="password"');
  expect(html).not.toContain("<table");
  for (const format of ["csv", "xlsx"]) {
    const exported = await get(request, `/deviceStats/export?format=${format}`);
    expect(exported.status()).toBe(302);
    expect(exported.headers().location).toBe("/deviceStats");
  }
});

test("/dev/outbox answers 404 in production", async ({ request }) => {
  expect((await get(request, "/dev/outbox")).status()).toBe(404);
});

test("/healthz answers while the process runs; /readyz checks database, migrations and jobs", async ({
  request,
}) => {
  const health = await get(request, "/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok", version: "1.6.2" });
  const ready = await get(request, "/readyz");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({
    status: "ready",
    version: "1.6.2",
    ready: true,
    database: "ok",
    migrations: "ok",
    scheduler: "leader",
  });
});

test("pages carry a same-origin CSP and no framing", async ({ request }) => {
  const response = await get(request, "/");
  const csp = response.headers()["content-security-policy"];
  expect(csp).toContain("default-src 'self'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
  expect(csp).toContain("frame-ancestors 'none'");
});

test("build assets are cached as immutable", async ({ request }) => {
  const html = await (await get(request, "/")).text();
  const asset = html.match(/\/build\/[^"]+\.css/)![0];
  const response = await get(request, asset);
  expect(response.headers()["cache-control"]).toContain("immutable");
});
