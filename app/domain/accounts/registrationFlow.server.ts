// Loader and action of the registration pages (/signup, /app/signup, /acceptinvite): the form,
// the phone's code, the success panel. The route files bind where they live.
import { requireAnonymous } from "./auth.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { readForm } from "~/lib/formBody.server";
import { formReply, parseForm, typedFields } from "~/lib/form.server";
import { prisma } from "~/lib/db.server";
import { accountKey } from "~/domain/accounts/accountKey";
import { maskPhone } from "~/domain/roles";
import { formatClockTime } from "~/lib/time";
import { findInvitationByToken } from "~/domain/invitations/token.server";
import {
  completeRegistration,
  describePendingRegistration,
  resendRegistrationCode,
  startRegistration,
  verifyRegistrationPhone,
} from "~/domain/accounts/registration.server";
import {
  accountMessages,
  fullPhone,
  registrationSchema,
  verificationCodeSchema,
} from "~/domain/accounts/schema";
import { clientIp } from "~/lib/http.server";
import { commitSession, flash, getSession, type AppSession } from "~/lib/session.server";

export type RegistrationPageData =
  | { state: "expired" }
  | { state: "existingAccount"; careSiteName: string | null }
  | { state: "done" }
  | {
      state: "form";
      invitation: { email: string; role: string; careSiteName: string | null } | null;
      /** What was typed before "Change my details" (never a password). */
      values?: Record<string, string>;
    }
  | {
      state: "code";
      invited: boolean;
      verified: boolean;
      username: string;
      email: string;
      phone: string;
      maskedPhone: string;
      expiresAt: string;
      expiresAtText: string;
    };

function pendingCodeId(session: AppSession) {
  const signup = session.get("signup");
  return signup && "codeId" in signup ? signup.codeId : null;
}

/** The values to fill the form with again, when the user came back to this page's form. */
function draftValues(session: AppSession, url: URL) {
  const signup = session.get("signup");
  return signup && "draft" in signup && signup.at === `${url.pathname}${url.search}`
    ? signup.draft
    : undefined;
}

async function withCommit(session: AppSession, body: RegistrationPageData) {
  return data(body, { headers: { "Set-Cookie": await commitSession(session) } });
}

export async function registrationLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("param1");
  const session = await getSession(request);
  const signup = session.get("signup");
  if (signup && "done" in signup) {
    session.unset("signup");
    return withCommit(session, { state: "done" });
  }
  const codeId = pendingCodeId(session);
  const values = draftValues(session, url);
  if (codeId) {
    const pending = await describePendingRegistration(codeId);
    if (pending) {
      return {
        state: "code",
        invited: pending.invited,
        verified: pending.verified,
        username: pending.username,
        email: pending.email,
        phone: pending.phone,
        maskedPhone: maskPhone(pending.phone),
        expiresAt: pending.expiresAt.toISOString(),
        expiresAtText: formatClockTime(pending.expiresAt),
      } satisfies RegistrationPageData;
    }
    session.unset("signup");
    if (!token) return withCommit(session, { state: "form", invitation: null });
  }
  if (!token) return { state: "form", invitation: null, values } satisfies RegistrationPageData;
  const invitation = await findInvitationByToken(token);
  if (typeof invitation === "string") return { state: "expired" } satisfies RegistrationPageData;
  const existing = await prisma.user.findUnique({
    where: { emailKey: accountKey(invitation.email) },
    select: { id: true },
  });
  if (existing) {
    return {
      state: "existingAccount",
      careSiteName: invitation.careSite?.name ?? null,
    } satisfies RegistrationPageData;
  }
  return {
    state: "form",
    invitation: {
      email: invitation.email,
      role: invitation.role,
      careSiteName: invitation.careSite?.name ?? null,
    },
    values,
  } satisfies RegistrationPageData;
}

export async function registrationAction({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("param1");
  const here = `${url.pathname}${url.search}`;
  const form = await readForm(request);
  const session = await getSession(request);
  const ip = clientIp(request);
  const back = async () =>
    redirect(here, { headers: { "Set-Cookie": await commitSession(session) } });
  const codeId = pendingCodeId(session);

  switch (form.get("intent")) {
    case "next": {
      const result = await parseForm(form, registrationSchema);
      const invited = token !== null;
      if (!result.ok) {
        if (!invited || !result.fieldErrors.phone) return result.reply;
        // The invited flow's phone messages (spec 1 §5.3, §8).
        const phone = String(form.get("phone") ?? "").trim()
          ? accountMessages.mobileInvalid
          : accountMessages.mobileMissing;
        return formReply({ ...result.fieldErrors, phone }, result.values);
      }
      const typed = typedFields(result);
      const { phoneCountry, phone, confirmPassword: _confirm, ...rest } = result.data;
      const outcome = await startRegistration(
        { ...rest, phone: fullPhone(phoneCountry, phone) },
        token,
        ip,
      );
      if (!outcome.ok) {
        const reply = outcome.fieldErrors ?? {};
        return formReply(reply, result.values, {
          formError: outcome.formError,
          status: outcome.status,
        });
      }
      session.set("signup", { codeId: outcome.codeId, typed });
      return back();
    }
    case "verify":
    case "register": {
      if (!codeId) return back();
      const pending = await describePendingRegistration(codeId);
      if (!pending) return back();
      const intent = form.get("intent");
      const code = String(form.get("code") ?? "");
      // Invited: Verify checks the code; Submit needs a verified phone. Self-registration: the
      // code and Submit come together.
      if (!pending.verified && (intent === "verify" || !pending.invited)) {
        const result = await parseForm(form, verificationCodeSchema);
        if (!result.ok) return result.reply;
        const verified = await verifyRegistrationPhone(codeId, code, ip);
        if (!verified.ok) {
          return formReply({}, result.values, {
            formError: verified.message,
            status: verified.status,
          });
        }
        // The code step now shows the spec's "successfully verified" line.
        if (intent === "verify") return back();
      }
      if (intent === "verify") return back();
      const submittedPhone = form.has("phone") ? String(form.get("phone")) : null;
      const done = await completeRegistration(codeId, submittedPhone, ip);
      if (!done.ok) return formReply({}, { code }, { formError: done.message });
      session.set("signup", { done: true });
      return back();
    }
    case "resend": {
      if (!codeId) return back();
      const outcome = await resendRegistrationCode(codeId);
      flash(session, outcome.ok ? "success" : "danger", outcome.message);
      return back();
    }
    case "cancel": {
      // "Change my details": the form comes back with what was typed (spec 1 §4.3).
      const signup = session.get("signup");
      if (signup && "typed" in signup && signup.typed) {
        session.set("signup", { draft: signup.typed, at: here });
      } else session.unset("signup");
      return back();
    }
    default:
      throw new Response("Unknown intent", { status: 400 });
  }
}

/** The registration page for someone not signed in (/signup and /acceptinvite). */
export async function anonymousRegistrationLoader(args: LoaderFunctionArgs) {
  await requireAnonymous(args.request);
  return registrationLoader(args);
}

export async function anonymousRegistrationAction(args: ActionFunctionArgs) {
  await requireAnonymous(args.request);
  return registrationAction(args);
}
