// Bodies no action can read (issue 18 item 7): the form reader answers 415, 413 or 400 with a
// message, through the real route actions on a real SQLite file; and cross-site posts and wrong
// methods are answered 403 and 405 over HTTP by the guard in front of Remix, where Remix's own
// cross-site check would throw (a 500).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_MESSAGES, MAX_FORM_BYTES, readForm } from "~/lib/formBody.server";
import { action as signInAction } from "~/routes/_index";
import { action as passwordAndSecurityAction } from "~/routes/app.PasswordAndSecurity";
import { action as satableAction } from "~/routes/app.satable";
import { action as settingsAction } from "~/routes/app.settings";
import { action as resetByEmailAction } from "~/routes/restorepasswordwithemail";
import { action as signupAction } from "~/routes/signup";
import { REQUEST_GUARD_MESSAGES, requestGuard } from "../../server/requestGuard";
import { createUser } from "../support/factories";
import { signedInBrowser } from "../support/session";

const FORM = "application/x-www-form-urlencoded";

function post(path: string, headers: Record<string, string>, body?: BodyInit, cookie = "") {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** The status and text of what an action threw or returned. */
async function answerOf(run: () => Promise<unknown>) {
  try {
    const result = await run();
    if (result instanceof Response) return { status: result.status, text: await result.text() };
    return { status: 200, text: JSON.stringify(result) };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { status: thrown.status, text: await thrown.text() };
  }
}

const multipartBody = (boundary: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nrequest\r\n--${boundary}--\r\n`;

describe("readForm", () => {
  it.each([
    ["JSON", { "Content-Type": "application/json" }, '{"intent":"credentials"}'],
    ["text/plain", { "Content-Type": "text/plain" }, "intent=credentials"],
    ["no content type", {}, "intent=credentials"],
    ["no content type and no body", {}, undefined],
  ])("refuses %s with 415 and a message", async (_name, headers, body) => {
    const answer = await answerOf(() => readForm(post("/x", headers, body)));
    expect(answer).toEqual({ status: 415, text: FORM_MESSAGES.wrongType });
  });

  it.each([
    ["a multipart body without a boundary", "multipart/form-data", multipartBody("b")],
    [
      "a multipart body with another boundary",
      "multipart/form-data; boundary=a",
      multipartBody("b"),
    ],
    [
      "a cut-off multipart body",
      "multipart/form-data; boundary=b",
      multipartBody("b").slice(0, 40),
    ],
  ])("refuses %s with 400 and a message", async (_name, type, body) => {
    const answer = await answerOf(() => readForm(post("/x", { "Content-Type": type }, body)));
    expect(answer).toEqual({ status: 400, text: FORM_MESSAGES.unreadable });
  });

  it("refuses a form over 1 MiB with 413, by its declared length or by what it sends", async () => {
    const big = `a=${"x".repeat(MAX_FORM_BYTES)}`;
    expect(await answerOf(() => readForm(post("/x", { "Content-Type": FORM }, big)))).toEqual({
      status: 413,
      text: FORM_MESSAGES.tooLarge,
    });
    // No Content-Length: a stream, read until the limit only.
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
        if (sent > 4 * MAX_FORM_BYTES) controller.close();
      },
    });
    expect(await answerOf(() => readForm(post("/x", { "Content-Type": FORM }, stream)))).toEqual({
      status: 413,
      text: FORM_MESSAGES.tooLarge,
    });
    expect(sent).toBeLessThan(2 * MAX_FORM_BYTES);
  });

  it("reads urlencoded and multipart forms, duplicates, prototype keys and bad bytes included", async () => {
    const urlencoded = await readForm(
      post(
        "/x",
        { "Content-Type": `${FORM}; charset=UTF-8` },
        "intent=a&intent=b&__proto__=p&constructor[prototype][x]=1&bad=%FF%E0%A4%A&%%%",
      ),
    );
    expect(urlencoded.getAll("intent")).toEqual(["a", "b"]);
    expect(urlencoded.get("__proto__")).toBe("p");
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const multipart = await readForm(
      post("/x", { "Content-Type": "multipart/form-data; boundary=b" }, multipartBody("b")),
    );
    expect(multipart.get("intent")).toBe("request");
  });
});

describe("actions answer bodies they cannot read with 415/400, never a 500", () => {
  it("sign-in, sign-up (invited) and reset: JSON, text/plain, none, broken multipart", async () => {
    const json = { "Content-Type": "application/json" };
    expect(await answerOf(() => signInAction(args(post("/?index", json, "{}"))))).toMatchObject({
      status: 415,
    });
    expect(
      await answerOf(() =>
        signupAction(args(post("/signup?param1=x", { "Content-Type": "text/plain" }, "a"))),
      ),
    ).toMatchObject({ status: 415 });
    expect(
      await answerOf(() => resetByEmailAction(args(post("/restorepasswordwithemail", {}, "a=b")))),
    ).toMatchObject({ status: 415, text: FORM_MESSAGES.wrongType });
    expect(
      await answerOf(() =>
        resetByEmailAction(
          args(
            post(
              "/restorepasswordwithemail",
              { "Content-Type": "multipart/form-data; boundary=zz" },
              multipartBody("b"),
            ),
          ),
        ),
      ),
    ).toEqual({ status: 400, text: FORM_MESSAGES.unreadable });
  });

  it("signed in: invitations, settings, Password and Security", async () => {
    const superadmin = await createUser({ role: "superadmin" });
    const browser = await signedInBrowser(superadmin.id);
    const json = { "Content-Type": "application/json" };
    for (const [run, path] of [
      [satableAction, "/app/satable"],
      [settingsAction, "/app/settings"],
      [passwordAndSecurityAction, "/app/PasswordAndSecurity"],
    ] as const) {
      const answer = await answerOf(() =>
        run(args(post(path, json, '{"intent":"x"}', browser.cookie))),
      );
      expect(answer, path).toEqual({ status: 415, text: FORM_MESSAGES.wrongType });
    }
    // A panel that does not exist is a bad request, not a forbidden one.
    const unknownPanel = await answerOf(() =>
      passwordAndSecurityAction(
        args(post("/app/PasswordAndSecurity", { "Content-Type": FORM }, "panel=x", browser.cookie)),
      ),
    );
    expect(unknownPanel.status).toBe(400);
  });
});

function args(request: Request) {
  return { request, params: {}, context: {} } as Parameters<typeof signInAction>[0];
}

// ---------------------------------------------------------------------------------------------
// Over HTTP: express with the guard in front of Remix's own request handler, on a one-route build
// (Remix's cross-site check, in @remix-run/server-runtime, runs before any route code).
// ---------------------------------------------------------------------------------------------

function oneRouteBuild(): ServerBuild {
  const action = async () => ({ done: true });
  return {
    mode: "production",
    entry: {
      module: {
        // Whatever the app renders; the status is what Remix decided.
        default: (_request: Request, status: number) =>
          new Response(`status ${status}`, { status }),
      },
    },
    routes: {
      root: {
        id: "root",
        path: "",
        module: { default: () => null },
      },
      "routes/form": {
        id: "routes/form",
        parentId: "root",
        path: "form",
        module: { default: () => null, action },
      },
    },
    assets: { entry: { imports: [], module: "" }, routes: {}, url: "", version: "1" },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: { v3_singleFetch: true, v3_lazyRouteDiscovery: true } as ServerBuild["future"],
    isSpaMode: false,
    basename: undefined,
  } as unknown as ServerBuild;
}

async function listen(app: express.Express) {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("cross-site posts and wrong methods over HTTP", () => {
  let guarded: Awaited<ReturnType<typeof listen>>;
  let bare: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    const handler = createRequestHandler({ build: oneRouteBuild(), mode: "production" });
    const withGuard = express();
    withGuard.use(requestGuard);
    withGuard.all("*", handler);
    guarded = await listen(withGuard);
    const without = express();
    without.all("*", handler);
    bare = await listen(without);
  });
  afterAll(async () => {
    await guarded.close();
    await bare.close();
  });

  const send = (base: string, headers: Record<string, string>, method = "POST") =>
    fetch(`${base}/form`, {
      method,
      headers: { "Content-Type": FORM, ...headers },
      body: method === "DELETE" ? undefined : "intent=x",
      redirect: "manual",
    });

  it("Remix alone answers a foreign Origin with a 500 (its check throws)", async () => {
    const response = await send(bare.url, { Origin: "https://evil.example" });
    expect(response.status).toBe(500);
  });

  it.each([
    ["a foreign Origin", { Origin: "https://evil.example" }],
    ["Origin null", { Origin: "null" }],
    ["an Origin that is not a URL", { Origin: "not a url" }],
    [
      "a forged X-Forwarded-Host",
      { Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" },
    ],
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
  ])("answers %s with 403 and a message", async (_name, headers) => {
    const response = await send(guarded.url, headers);
    expect(response.status).toBe(403);
    expect(await response.text()).toBe(REQUEST_GUARD_MESSAGES.crossSite);
  });

  it("lets same-origin posts and posts without Origin (devices) through to the action", async () => {
    const sameOrigin = await send(guarded.url, {
      Origin: guarded.url,
      "Sec-Fetch-Site": "same-origin",
    });
    expect(sameOrigin.status).toBe(200);
    const noOrigin = await send(guarded.url, {});
    expect(noOrigin.status).toBe(200);
  });

  it.each(["PUT", "PATCH", "DELETE"])("answers %s with 405 and Allow", async (method) => {
    const response = await send(guarded.url, {}, method);
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, HEAD, POST");
  });
});
