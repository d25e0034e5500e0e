// Loader and action of the two forgotten-password pages (/restorepasswordwithemail and
// /restorepasswordwithphone): the same steps, by email or by text message. The route files bind
// the channel. Post/redirect/get throughout; the step lives in the session.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { readForm } from "~/lib/formBody.server";
import { formReply, parseForm } from "~/lib/form.server";
import { maskPhone } from "~/domain/roles";
import { formatClockTime } from "~/lib/time";
import { getCode } from "~/domain/accounts/oneTimeCode.server";
import {
  completePasswordReset,
  requestPasswordReset,
  resendPasswordResetCode,
  verifyPasswordResetCode,
  type ResetChannel,
  type ResetState,
} from "~/domain/accounts/passwordReset.server";
import {
  forgotByEmailSchema,
  forgotByPhoneSchema,
  resetPasswordSchema,
  verificationCodeSchema,
} from "~/domain/accounts/schema";
import { requireAnonymous } from "./auth.server";
import { clientIp } from "~/lib/http.server";
import { commitSession, flash, getSession, type AppSession } from "~/lib/session.server";

const PATHS: Record<ResetChannel, string> = {
  email: "/restorepasswordwithemail",
  sms: "/restorepasswordwithphone",
};

function pendingReset(session: AppSession, channel: ResetChannel): ResetState | null {
  const reset = session.get("reset");
  return reset && !("done" in reset) && reset.channel === channel ? reset : null;
}

function maskEmail(email: string) {
  const [name, domain] = email.split("@");
  return `${name.slice(0, 2)}${"*".repeat(Math.max(name.length - 2, 1))}@${domain}`;
}

export async function resetLoader(channel: ResetChannel, { request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const session = await getSession(request);
  const reset = session.get("reset");
  if (reset && "done" in reset) {
    session.unset("reset");
    return data(
      { step: "done" as const },
      { headers: { "Set-Cookie": await commitSession(session) } },
    );
  }
  const state = pendingReset(session, channel);
  if (!state) return { step: "request" as const };
  if (state.verified) return { step: "password" as const };
  const code = await getCode(state.codeId);
  if (!code || code.consumedAt) {
    session.unset("reset");
    return data(
      { step: "request" as const },
      { headers: { "Set-Cookie": await commitSession(session) } },
    );
  }
  return {
    step: "code" as const,
    sentTo: channel === "email" ? maskEmail(code.destination) : maskPhone(code.destination),
    expiresAt: code.expiresAt.toISOString(),
    expiresAtText: formatClockTime(code.expiresAt),
  };
}

export async function resetAction(channel: ResetChannel, { request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const path = PATHS[channel];
  const form = await readForm(request);
  const session = await getSession(request);
  const ip = clientIp(request);
  const back = async () =>
    redirect(path, { headers: { "Set-Cookie": await commitSession(session) } });
  const state = pendingReset(session, channel);

  switch (form.get("intent")) {
    case "request": {
      const result =
        channel === "email"
          ? await parseForm(form, forgotByEmailSchema)
          : await parseForm(form, forgotByPhoneSchema);
      if (!result.ok) return result.reply;
      const address = "email" in result.data ? result.data.email : result.data.phonenumber;
      const outcome = await requestPasswordReset(channel, address, ip);
      if (!outcome.ok) {
        return formReply({}, result.values, { formError: outcome.message, status: outcome.status });
      }
      session.set("reset", outcome.state);
      return back();
    }
    case "code": {
      if (!state || state.verified) return back();
      const result = await parseForm(form, verificationCodeSchema);
      if (!result.ok) return result.reply;
      const outcome = await verifyPasswordResetCode(state, result.data.code, ip);
      if (!outcome.ok) {
        if (!outcome.restart) {
          return formReply({}, result.values, {
            formError: outcome.message,
            status: outcome.status,
          });
        }
        session.unset("reset");
        flash(session, "danger", outcome.message);
        return back();
      }
      session.set("reset", { ...state, verified: true });
      return back();
    }
    case "resend": {
      if (!state || state.verified) return back();
      const outcome = await resendPasswordResetCode(state, ip);
      flash(session, outcome.ok ? "success" : "danger", outcome.message);
      return back();
    }
    case "password": {
      if (!state?.verified) return back();
      const result = await parseForm(form, resetPasswordSchema);
      if (!result.ok) return result.reply;
      await completePasswordReset(state, result.data.password, ip);
      session.set("reset", { done: true });
      return back();
    }
    case "cancel": {
      session.unset("reset");
      return back();
    }
    default:
      throw new Response("Unknown intent", { status: 400 });
  }
}
