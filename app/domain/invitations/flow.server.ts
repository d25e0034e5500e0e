// Loader and action of the four Invitations screens (spec 2 §2, §4, §5): /app/invitation (abmadmin),
// /app/clinicadmin, /app/satable (superadmin), /app/cliniciantable. Lists, the invitation dialog
// and the confirmation dialogs are all addressed by URL, so everything works without JavaScript.
// The routes pass in the signed-in user's Actor (domain/actor.server.ts requireActor): lib does
// not reach into the domain, and every list and action is scoped by the model with it.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { readForm } from "../../lib/formBody.server";
import { badRequest, clientIp, notFoundUnless } from "~/lib/http.server";
import {
  invitationConfirmations,
  invitationMessages,
  isInvitationAction,
  needsCareSite,
  RECEIVED_SORT_KEYS,
  SENT_SORT_KEYS,
  sentRowTarget,
} from "~/domain/invitations/rules";
import { readListParams } from "~/lib/listParams";
import { patientProfileHref } from "~/domain/patients/profileLink";
import type { StaffRole } from "~/domain/roles";
import { commitSession, flash, getSession } from "~/lib/session.server";
import {
  applyInvitationAction,
  countInvitations,
  getInvitation,
  invitableCareSites,
  invitationRoleOptions,
  listReceivedInvitations,
  listSentInvitations,
  sendInvitations,
  type InvitationActor,
} from "~/domain/invitations/invitation.server";
import { EMAIL_REGEX } from "~/lib/validation";

export const INVITATION_SCREENS: Record<StaffRole, string> = {
  abmadmin: "/app/invitation",
  clinicadmin: "/app/clinicadmin",
  superadmin: "/app/satable",
  clinician: "/app/cliniciantable",
};

const CARE_SITE_SORTS = ["name", "city", "state", "zip"] as const;

export async function invitationsLoader(
  role: StaffRole,
  actor: InvitationActor,
  { request }: LoaderFunctionArgs,
) {
  const url = new URL(request.url);
  const search = url.searchParams;
  const canReceive = role !== "superadmin";
  const counts = await countInvitations(actor);
  const list =
    canReceive &&
    (search.get("list") ?? (counts.received > 0 && counts.sent === 0 ? "received" : "sent")) ===
      "received"
      ? "received"
      : "sent";

  const sentParams = readListParams(url, {
    sorts: SENT_SORT_KEYS,
    defaultSort: "email",
    prefix: "s",
  });
  const receivedParams = readListParams(url, {
    sorts: RECEIVED_SORT_KEYS,
    defaultSort: "careSiteName",
    prefix: "r",
  });
  const sent =
    list === "sent"
      ? await listSentInvitations(actor, sentParams).then(({ rows, total }) => ({
          total,
          rows: rows.map((row) => {
            const target = sentRowTarget(row);
            return {
              id: row.id,
              email: row.email,
              role: row.role,
              careSiteName: row.careSiteName,
              status: row.status,
              actions: row.actions,
              href:
                target?.kind === "userinfo"
                  ? `/app/userinfo/${target.userId}`
                  : target?.kind === "patientProfile"
                    ? patientProfileHref({
                        profileId: target.userId,
                        clinicId: row.careSiteId,
                        pairId: null,
                      })
                    : target?.kind === "warning"
                      ? `?list=sent&notice=${row.id}`
                      : null,
              warning: target?.kind === "warning" ? target.message : null,
            };
          }),
        }))
      : null;
  const received =
    list === "received"
      ? await listReceivedInvitations(actor, receivedParams).then(({ rows, total }) => ({
          total,
          rows: rows.map((row) => ({
            id: row.id,
            careSiteName: row.careSiteName ?? (role === "abmadmin" ? "SuperAdmin" : "-"),
            status: row.status,
            actions: row.actions,
          })),
        }))
      : null;
  const notice = sent?.rows.find((r) => r.id === search.get("notice"))?.warning ?? null;

  const dialog = search.get("dialog");
  let invite = null;
  if (dialog === "invite") {
    const email = (search.get("email") ?? "").trim().toLowerCase();
    const validEmail = email !== "" && EMAIL_REGEX.test(email) && email.length <= 254;
    const options = validEmail ? await invitationRoleOptions(actor, email) : null;
    const chosenRole = options?.options.includes(search.get("role") as never)
      ? search.get("role")
      : options?.options.length === 1
        ? options.options[0]
        : null;
    let careSites = null;
    if (validEmail && chosenRole && needsCareSite(chosenRole)) {
      const all = await invitableCareSites(actor, email, chosenRole);
      const cq = search.get("cq") ?? "";
      const csort = (CARE_SITE_SORTS as readonly string[]).includes(search.get("csort") ?? "")
        ? (search.get("csort") as (typeof CARE_SITE_SORTS)[number])
        : "name";
      const corder = search.get("corder") === "desc" ? -1 : 1;
      careSites = {
        // The spec's name search is case-sensitive.
        rows: all
          .filter((c) => c.name.includes(cq))
          .sort((a, b) => a[csort].localeCompare(b[csort]) * corder),
        anyAtAll: all.length > 0,
        cq,
        csort,
        corder: corder === 1 ? "asc" : "desc",
        preselected: search.get("all") === "1" ? all.map((c) => c.id) : search.getAll("c"),
      };
    }
    invite = {
      email: search.get("email") ?? "",
      emailError:
        search.has("email") && !validEmail
          ? email
            ? invitationMessages.invalidEmail
            : "Required"
          : null,
      existingRole: options?.existingRole ?? null,
      roleOptions: options?.options ?? [],
      roleMessage: options?.message ?? null,
      role: chosenRole,
      careSites,
      confirmCancel: search.get("cancel") === "1",
      // From "Invite" links elsewhere (dashboard, care site management): role and care sites to preselect.
      presetRole: search.get("role"),
      presetCareSites: search.getAll("c"),
    };
  }
  let confirm = null;
  if (dialog === "confirm") {
    const act = search.get("act");
    const detail = notFoundUnless(await getInvitation(actor, search.get("id") ?? ""));
    if (!isInvitationAction(act) || !detail.actions.includes(act)) badRequest();
    const site = detail.careSiteName ?? "ARC Connect";
    const question =
      act === "accept"
        ? invitationConfirmations.accept(site)
        : act === "resend"
          ? invitationConfirmations.resend(detail.email, site)
          : act === "revoke"
            ? invitationConfirmations.revoke
            : act === "remove"
              ? invitationConfirmations.remove(detail.email, site)
              : act === "reactivate"
                ? invitationConfirmations.reactivate
                : act === "deactivate"
                  ? "Deactivate your access to this care site?"
                  : `Reject the invitation from ${site}?`;
    confirm = { id: detail.id, act, question };
  }
  return {
    role,
    canReceive,
    list,
    counts,
    sent,
    received,
    sentParams,
    receivedParams,
    notice,
    dialog,
    invite,
    confirm,
    success:
      dialog === "sent"
        ? "Invitation sent successfully"
        : dialog === "resent"
          ? invitationMessages.resent
          : null,
  };
}

export async function invitationsAction(
  role: StaffRole,
  actor: InvitationActor,
  { request }: ActionFunctionArgs,
) {
  const path = INVITATION_SCREENS[role];
  const form = await readForm(request);
  const intent = form.get("intent");
  const session = await getSession(request);

  if (intent === "lookup" || intent === "chooseRole" || intent === "selectAll") {
    // The dialog's steps are GET states; the post carries what was typed and chosen there.
    const params = new URLSearchParams({
      dialog: "invite",
      email: String(form.get("email") ?? "").slice(0, 254),
    });
    const chosen = form.get("role") ?? form.get("presetRole");
    if (chosen) params.set("role", String(chosen).slice(0, 20));
    if (intent === "selectAll") params.set("all", "1");
    const checked = form.getAll("careSiteId");
    for (const id of (checked.length ? checked : form.getAll("keepC")).slice(0, 1000))
      params.append("c", String(id));
    return redirect(`${path}?${params}`);
  }
  if (intent === "send") {
    const input = {
      email: String(form.get("email") ?? ""),
      role: String(form.get("role") ?? ""),
      careSiteIds: form.getAll("careSiteId").map(String).slice(0, 1000),
    };
    const result = await sendInvitations(actor, input, { ip: clientIp(request) });
    if (!result.ok) return data({ formError: result.message }, { status: 400 });
    return redirect(`${path}?list=sent&dialog=sent`);
  }
  if (intent === "act") {
    const act = String(form.get("act") ?? "");
    if (!isInvitationAction(act)) badRequest();
    const result = await applyInvitationAction(actor, String(form.get("id") ?? ""), act, {
      ip: clientIp(request),
    });
    if (!result.ok) {
      notFoundUnless(!result.notFound);
      flash(
        session,
        "danger",
        "message" in result ? result.message : invitationMessages.actionNotAvailable,
      );
    } else if (act !== "resend") {
      flash(session, "success", `The invitation is now ${result.status}.`);
    }
    // Lists and counts reload from page 1 after a status change (spec 2 §4).
    const list = ["accept", "reject", "deactivate", "reactivate"].includes(act)
      ? "received"
      : "sent";
    const to = act === "resend" ? `${path}?list=sent&dialog=resent` : `${path}?list=${list}`;
    return redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
  }
  throw new Response("Unknown intent", { status: 400 });
}
