// Posts that are not web forms, to every account screen (issue 20 item 15): a JSON body, plain
// text, no body at all, a content type no form has, a multipart body that is not one. Each must
// answer a 4xx that says what is wrong (415, 400, 413), as the right visitor (signed out for the
// public screens, signed in for the others), never a 5xx or a silent redirect. fuzz.spec.ts
// throws every malformed body at every route for "never a 5xx"; this spec holds each account
// screen to a clear refusal. The photo uploads (/app/settings, the care site picture) read
// multipart bodies their own way and are checked with the multipart cases.
import crypto from "node:crypto";
import http from "node:http";
import { createCareSite, createSession, createUser } from "./support/db";
import { expect, test } from "./support/fixtures";

test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "HTTP level: the no-js run is enough");

const WRONG_TYPE =
  "The form was not sent as a web form (application/x-www-form-urlencoded or multipart/form-data). Please reload the page and try again.";
const UNREADABLE = "The form could not be read. Please reload the page and try again.";
const PHOTO_UNREADABLE = "The upload could not be read. Please try again.";
const BAD_REQUEST = "The request could not be understood. Please go back and try again.";

type Body = { name: string; type: string | null; body: Buffer };

const NOT_A_FORM: Body[] = [
  {
    name: "a JSON body",
    type: "application/json",
    body: Buffer.from(JSON.stringify({ intent: "next", username: "x" })),
  },
  { name: "plain text", type: "text/plain", body: Buffer.from("intent=next&username=x") },
  { name: "no body and no content type", type: null, body: Buffer.alloc(0) },
  { name: "an XML body", type: "application/xml", body: Buffer.from("<intent>next</intent>") },
];

const GARBAGE_MULTIPART: Body[] = [
  {
    name: "multipart without a boundary",
    type: "multipart/form-data",
    body: Buffer.from(
      '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nnext\r\n--x--\r\n',
    ),
  },
  {
    name: "multipart of random bytes",
    type: "multipart/form-data; boundary=----arc",
    body: crypto.randomBytes(2048),
  },
  {
    name: "multipart cut off before its end",
    type: "multipart/form-data; boundary=----arc",
    body: Buffer.from(
      '------arc\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    ),
  },
];

function post(baseURL: string, path: string, body: Body, cookie: string | null) {
  const url = new URL(path, baseURL);
  const headers: Record<string, string> = { "Content-Length": String(body.body.length) };
  if (body.type !== null) headers["Content-Type"] = body.type;
  if (cookie) headers.Cookie = cookie;
  return new Promise<{ status: number; text: string; location: string | null }>(
    (resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: "POST",
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString("utf8"),
              location: res.headers.location ?? null,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body.body);
    },
  );
}

type Screen = {
  path: string;
  who: "anonymous" | "clinician" | "abmadmin" | "clinicadmin";
  /** The screen reads multipart bodies as a photo upload. */
  photo?: boolean;
  /** No action (the page is two links): Remix answers 405 to any post, "Bad request" in words. */
  noAction?: boolean;
};

const SCREENS: Screen[] = [
  { path: "/?index", who: "anonymous" },
  { path: "/signup", who: "anonymous" },
  { path: "/app/signup", who: "clinician" },
  { path: "/forgotpassword", who: "anonymous", noAction: true },
  { path: "/restorepasswordwithemail", who: "anonymous" },
  { path: "/restorepasswordwithphone", who: "anonymous" },
  { path: "/acceptinvite", who: "anonymous" },
  { path: "/app/settings", who: "clinician", photo: true },
  { path: "/app/PasswordAndSecurity", who: "clinician" },
  { path: "/app/clinicprofiledetails?c_id=SITE", who: "abmadmin", photo: true },
  // The picture form sits in the Care site details dialog, whose post keeps it open.
  { path: "/app/caresitesettingdashboard?c=SITE&dialog=details", who: "clinicadmin", photo: true },
  { path: "/logout", who: "clinician" },
];

for (const screen of SCREENS) {
  test(`${screen.path.replace(/=SITE.*/, "")} refuses bodies that are not forms with a 4xx and a message`, async ({
    baseURL,
  }) => {
    const site = createCareSite("Body Check");
    let cookie: string | null = null;
    if (screen.who !== "anonymous") {
      const careSiteIds = screen.who === "clinicadmin" ? [site.id] : [];
      const user = await createUser(screen.who, { careSiteIds });
      cookie = `__arc_session=${await createSession(user.id)}`;
    }
    const path = screen.path.replace("SITE", site.id);
    const failures: string[] = [];
    for (const body of [...NOT_A_FORM, ...GARBAGE_MULTIPART]) {
      const answer = await post(baseURL!, path, body, cookie);
      const multipart = GARBAGE_MULTIPART.includes(body);
      const expected = screen.noAction
        ? { status: [405], messages: [BAD_REQUEST] }
        : multipart && screen.photo
          ? // The upload's own message, or (a multipart body with no intent in it) the 400 page's.
            { status: [400, 413], messages: [PHOTO_UNREADABLE, "Please choose a", BAD_REQUEST] }
          : multipart
            ? { status: [400], messages: [UNREADABLE] }
            : { status: [415], messages: [WRONG_TYPE] };
      const said = expected.messages.some((message) => answer.text.includes(message));
      if (!expected.status.includes(answer.status) || !said) {
        failures.push(
          `${body.name}: ${answer.status}${answer.location ? ` to ${answer.location}` : ""}, ` +
            `expected ${expected.status.join(" or ")} saying "${expected.messages[0]}": ` +
            answer.text.replace(/\s+/g, " ").slice(0, 200),
        );
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
    if (cookie) {
      // The session the refused posts carried is still open (a refused /logout signs no one out).
      const still = await post(
        baseURL!,
        "/app/PasswordAndSecurity",
        { name: "form", type: "application/x-www-form-urlencoded", body: Buffer.from("panel=x") },
        cookie,
      );
      expect(still.status, "still signed in").toBe(400);
    }
  });
}
