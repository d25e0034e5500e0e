// One way to validate a form (issue 19): every route that takes a form validates it through
// app/lib/form.server.ts (parseForm, formReply), and nothing under app/ validates a form another
// way (remix-validated-form's server-side validate/validationError, a hand safeParse of form
// fields). The routes with an action are listed from the file system, so a new route is checked
// the day it is added.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const routesDir = path.join(root, "app", "routes");

/** Routes whose action takes no HTML form, and why. */
const NOT_FORMS: Record<string, string> = {
  "api.v1.devices.$serial.transmissions.tsx": "device API: JSON (domain/devices/schema.ts)",
  "api.v1.devices.$serial.stats.tsx": "device API: JSON (domain/devices/schema.ts)",
  "decrypt.upload.tsx": "a streamed multipart upload with its own limits (deviceLogs upload)",
  "logout.tsx": "no fields: readForm refuses a body that is not a form, then the session ends",
  // Not yet on parseForm (docs/decisions.md, issue 19): the chip form keeps its own reader and
  // answers { values, errors } that its component and tests read.
  "app.notificationsettings.tsx": "reads with readNotificationForm, checks with its zod schema",
};

/**
 * Routes whose action is shared by several URLs and lives in one module (routes may not import
 * each other): the module must validate through parseForm.
 */
const SHARED_ACTIONS: Record<string, string> = {
  "signup.tsx": "app/domain/accounts/registrationFlow.server.ts",
  "acceptinvite.tsx": "app/domain/accounts/registrationFlow.server.ts",
  "app.signup.tsx": "app/domain/accounts/registrationFlow.server.ts",
  "restorepasswordwithemail.tsx": "app/domain/accounts/resetFlow.server.ts",
  "restorepasswordwithphone.tsx": "app/domain/accounts/resetFlow.server.ts",
};

const read = (file: string) => fs.readFileSync(file, "utf8");
const hasAction = (source: string) =>
  /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b/.test(source);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : filesUnder(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

const routesWithActions = fs
  .readdirSync(routesDir)
  .filter((name) => /\.tsx?$/.test(name) && hasAction(read(path.join(routesDir, name))));

describe("every form goes through the one validation helper", () => {
  it("finds the routes that take forms", () => {
    // The sign-in page, the registration pages, the profile and care-site screens, chat...: a
    // sanity floor so that a broken listing cannot pass by finding nothing.
    expect(routesWithActions.length).toBeGreaterThan(20);
    expect(routesWithActions).toContain("_index.tsx");
  });

  it.each(routesWithActions.filter((name) => !(name in NOT_FORMS)))(
    "%s validates its form with parseForm",
    (name) => {
      const route = read(path.join(routesDir, name));
      const shared = SHARED_ACTIONS[name];
      if (shared) {
        expect(route).toContain(shared.replace(/^app\//, "~/").replace(/\.ts$/, ""));
        expect(read(path.join(root, shared))).toMatch(/\bparseForm\(/);
      } else {
        expect(route).toMatch(/\bparseForm\(/);
      }
    },
  );

  it("lists only exceptions that still exist and still have an action", () => {
    for (const name of Object.keys(NOT_FORMS)) {
      expect(routesWithActions, name).toContain(name);
    }
  });

  it("no file under app/ validates a form another way", () => {
    const offenders = filesUnder(path.join(root, "app"))
      .filter((file) => !file.endsWith(path.join("lib", "form.server.ts")))
      .filter((file) => {
        const source = read(file);
        return (
          /\bvalidationError\(/.test(source) ||
          /Validator\.validate\(/.test(source) ||
          // A hand-checked form field: safeParse of something read from a FormData.
          /safeParse\([^)]*\.get\(/.test(source) ||
          /safeParse\(\s*Object\.fromEntries\(/.test(source)
        );
      })
      .map((file) => path.relative(root, file));
    expect(offenders).toEqual([]);
  });
});
