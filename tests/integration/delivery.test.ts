// Real delivery from the outbox: email to a real SMTP server (smtp-server on 127.0.0.1), text
// messages to a real HTTP provider (node:http on 127.0.0.1), failures retried with backoff.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { createSmtpTransport } from "~/lib/mailer.server";
import {
  consoleTransport,
  deliver,
  deliverPending,
  enqueue,
  MAX_ATTEMPTS,
  RETRY_DELAYS_MS,
  setTransport,
} from "~/lib/outbox.server";
import { httpSmsTransport } from "~/lib/sms.server";
import { uid } from "../support/factories";
import { closedPort, startSmtpServer, waitFor } from "../support/smtp";

const FROM = "ARC Connect <no-reply@arcconnect.example>";
const SUBJECT = "Your ARC Connect verification code";

// ---- helpers -------------------------------------------------------------------------------

/** An HTTP SMS provider on 127.0.0.1 that records requests and answers with `status`. */
async function startSmsProvider() {
  const requests: { method?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const state = { status: 200 };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      requests.push({ method: req.method, headers: req.headers, body });
      res.writeHead(state.status, { "content-type": "application/json" });
      res.end(JSON.stringify(state.status < 300 ? { id: "m1" } : { error: "provider trouble" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/messages`,
    requests,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const row = (id: string) => prisma.outboxMessage.findUniqueOrThrow({ where: { id } });
const code = () => String(crypto.randomInt(1000, 10_000));
const phone = () => `1512${crypto.randomInt(2_000_000, 10_000_000)}`;

function codeEmail(to: string, value: string) {
  return {
    channel: "email" as const,
    to,
    subject: SUBJECT,
    body: `Your ARC Connect verification code is ${value}. It expires in 5 minutes.`,
    html: `<p>Your ARC Connect verification code is <strong>${value}</strong>.</p>`,
  };
}

// ---- tests ---------------------------------------------------------------------------------

describe("email through SMTP", () => {
  it("delivers a verification code email as a multipart message with a text part", async () => {
    const smtp = await startSmtpServer();
    setTransport("email", createSmtpTransport(smtp.url, FROM));
    try {
      const to = `${uid()}@example.test`;
      const value = code();
      const id = await enqueue(codeEmail(to, value));

      const mail = await smtp.receivedMail((m) => m.envelope.to.includes(to));
      expect(mail.envelope.from).toBe("no-reply@arcconnect.example");
      expect(mail.headers.from).toBe(`"ARC Connect" <no-reply@arcconnect.example>`);
      expect(mail.headers.to).toBe(to);
      expect(mail.headers.subject).toBe(SUBJECT);
      expect(mail.contentType).toBe("multipart/alternative");
      expect(mail.text).toContain(`verification code is ${value}`);
      expect(mail.html).toContain(`<strong>${value}</strong>`);

      const sent = await waitFor(async () => {
        const r = await row(id);
        return r.status === "sent" ? r : null;
      });
      expect(sent.sentAt).not.toBeNull();
      expect(sent.attempts).toBe(1);
      expect(sent.lastError).toBeNull();
    } finally {
      setTransport("email", consoleTransport);
      await smtp.close();
    }
  });

  it("sends attachments, and a text-only message as plain text", async () => {
    const smtp = await startSmtpServer();
    setTransport("email", createSmtpTransport(smtp.url, FROM));
    try {
      const to = `${uid()}@example.test`;
      await enqueue({
        channel: "email",
        to,
        subject: "Daily summary",
        body: "See the attached summary.",
        attachments: [
          {
            filename: "summary.csv",
            content: Buffer.from("patient,minutes\nA,12\n").toString("base64"),
            contentType: "text/csv",
          },
        ],
      });
      const mail = await smtp.receivedMail((m) => m.envelope.to.includes(to));
      expect(mail.contentType).toBe("multipart/mixed");
      expect(mail.text).toBe("See the attached summary.");
      const csv = mail.attachments.find((a) => a.contentType === "text/csv");
      expect(csv?.filename).toBe("summary.csv");
      expect(csv?.content.toString("utf8")).toBe("patient,minutes\nA,12\n");

      const plainTo = `${uid()}@example.test`;
      await enqueue({ channel: "email", to: plainTo, subject: "Plain", body: "Just text." });
      const plain = await smtp.receivedMail((m) => m.envelope.to.includes(plainTo));
      expect(plain.contentType).toBe("text/plain");
      expect(plain.text?.trim()).toBe("Just text.");
    } finally {
      setTransport("email", consoleTransport);
      await smtp.close();
    }
  });

  it("keeps a message pending with backoff while the server is down, then sends it once", async () => {
    const port = await closedPort();
    setTransport("email", createSmtpTransport(`smtp://127.0.0.1:${port}`, FROM));
    let smtp: Awaited<ReturnType<typeof startSmtpServer>> | null = null;
    try {
      const to = `${uid()}@example.test`;
      const before = Date.now();
      const id = await enqueue(codeEmail(to, code()));

      const failed = await waitFor(async () => {
        const r = await row(id);
        return r.status === "pending" && r.attempts === 1 ? r : null;
      });
      expect(failed.lastError).toMatch(/ECONNREFUSED/);
      expect(failed.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + RETRY_DELAYS_MS[0]);
      expect(failed.nextAttemptAt.getTime()).toBeLessThan(Date.now() + RETRY_DELAYS_MS[0] + 1000);

      // Not due yet: the job leaves it alone.
      await deliverPending();
      expect(await row(id)).toMatchObject({ status: "pending", attempts: 1 });

      // Its time has come and the server is back.
      smtp = await startSmtpServer({ port });
      await prisma.outboxMessage.update({
        where: { id },
        data: { nextAttemptAt: new Date(Date.now() - 1000) },
      });
      await deliverPending();
      await deliverPending();
      const sent = await row(id);
      expect(sent).toMatchObject({ status: "sent", attempts: 2, lastError: null });
      expect(smtp.received.filter((m) => m.envelope.to.includes(to))).toHaveLength(1);
    } finally {
      setTransport("email", consoleTransport);
      await smtp?.close();
    }
  });

  it("answers the request before the SMTP server has answered", async () => {
    const smtp = await startSmtpServer({ delayMs: 1000 });
    setTransport("email", createSmtpTransport(smtp.url, FROM));
    try {
      const to = `${uid()}@example.test`;
      const id = await enqueue(codeEmail(to, code()));
      expect((await row(id)).status).not.toBe("sent");

      await smtp.receivedMail((m) => m.envelope.to.includes(to));
      await waitFor(async () => (await row(id)).status === "sent");
    } finally {
      setTransport("email", consoleTransport);
      await smtp.close();
    }
  });
});

describe("text messages through the HTTP provider", () => {
  it("posts JSON with the bearer token, and records a 500 as a failure with backoff", async () => {
    const provider = await startSmsProvider();
    const token = uid("token-");
    setTransport("sms", httpSmsTransport(provider.url, token));
    try {
      const to = phone();
      const body = `Your ARC Connect verification code is ${code()}. It expires in 5 minutes.`;
      const id = await enqueue({ channel: "sms", to, body });
      await waitFor(async () => (await row(id)).status === "sent");
      const request = provider.requests.find((r) => r.body.includes(to));
      expect(request?.method).toBe("POST");
      expect(request?.headers.authorization).toBe(`Bearer ${token}`);
      expect(request?.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(request!.body)).toEqual({ to: `+${to}`, body });

      provider.state.status = 500;
      const failingTo = phone();
      const before = Date.now();
      const failingId = await enqueue({ channel: "sms", to: failingTo, body: "code 1234" });
      const failed = await waitFor(async () => {
        const r = await row(failingId);
        return r.attempts === 1 && r.status === "pending" ? r : null;
      });
      expect(failed.lastError).toContain("500");
      expect(failed.lastError).not.toContain("code 1234");
      expect(failed.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + RETRY_DELAYS_MS[0]);
      expect(provider.requests.filter((r) => r.body.includes(failingTo))).toHaveLength(1);
    } finally {
      setTransport("sms", consoleTransport);
      await provider.close();
    }
  });
});

describe("retry schedule", () => {
  it(`backs off 1 min, 5 min, 15 min, 1 h, 3 h and gives up after ${MAX_ATTEMPTS} attempts`, async () => {
    let calls = 0;
    setTransport("sms", {
      name: "down",
      send: async () => {
        calls++;
        throw new Error("provider down");
      },
    });
    try {
      const created = await prisma.outboxMessage.create({
        data: {
          channel: "sms",
          to: phone(),
          body: "x",
          nextAttemptAt: new Date(Date.now() + 60_000),
        },
      });
      expect(await deliver(created.id)).toBe("skipped"); // not due: no attempt used
      const delays: number[] = [];
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        await prisma.outboxMessage.update({
          where: { id: created.id },
          data: { nextAttemptAt: new Date(Date.now() - 1000) },
        });
        const before = Date.now();
        const outcome = await deliver(created.id);
        const r = await row(created.id);
        expect(r.attempts).toBe(attempt);
        expect(r.lastError).toBe("provider down");
        if (attempt < MAX_ATTEMPTS) {
          expect(outcome).toBe("retry");
          expect(r.status).toBe("pending");
          delays.push(Math.round((r.nextAttemptAt.getTime() - before) / 60_000));
        } else {
          expect(outcome).toBe("failed");
          expect(r.status).toBe("failed");
        }
      }
      expect(delays).toEqual([1, 5, 15, 60, 180]);
      expect(calls).toBe(MAX_ATTEMPTS);
      expect(await deliver(created.id)).toBe("skipped");
    } finally {
      setTransport("sms", consoleTransport);
    }
  });
});
