// The four Invitations screens (spec 2 §2, §4, §5): /app/invitation (abmadmin), /app/clinicadmin,
// /app/satable (superadmin), /app/cliniciantable. Lists, the invitation dialog and the
// confirmation dialogs are all addressed by URL, so everything works without JavaScript: the
// screen is a function of the URL (loadInvitationsScreen), and a post is one intent that answers
// where to go next (runInvitationsIntent). The routes pass in the signed-in user's Actor
// (domain/actor.server.ts requireActor); every list and action is scoped with it.
import { badRequest, notFoundUnless } from "~/lib/http.server";
import type { PostOutcome } from "~/lib/session.server";
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
import {
  applyInvitationAction,
  type InvitationActor,
} from "~/domain/invitations/invitation.server";
import {
  countInvitations,
  getInvitation,
  listReceivedInvitations,
  listSentInvitations,
} from "~/domain/invitations/lists.server";
import {
  invitableCareSites,
  invitationRoleOptions,
  sendInvitations,
} from "~/domain/invitations/send.server";
import type { InvitationsForm } from "~/domain/invitations/schema";
import { EMAIL_REGEX } from "~/lib/validation";

export const INVITATION_SCREENS: Record<StaffRole, string> = {
  abmadmin: "/app/invitation",
  clinicadmin: "/app/clinicadmin",
  superadmin: "/app/satable",
  clinician: "/app/cliniciantable",
};

const CARE_SITE_SORTS = ["name", "city", "state", "zip"] as const;

/** What the screen at `url` shows to this actor: counts, one list, and the dialog the URL opens. */
export async function loadInvitationsScreen(role: StaffRole, actor: InvitationActor, url: URL) {
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

export type InvitationsScreen = Awaited<ReturnType<typeof loadInvitationsScreen>>;

/** Runs one post of the screen (the dialog's steps, Send, a confirmed action) for this actor. */
export async function runInvitationsIntent(
  role: StaffRole,
  actor: InvitationActor,
  input: InvitationsForm,
  ip: string | null,
): Promise<PostOutcome> {
  const path = INVITATION_SCREENS[role];
  switch (input.intent) {
    case "lookup":
    case "chooseRole":
    case "selectAll": {
      // The dialog's steps are GET states; the post carries what was typed and chosen there.
      const params = new URLSearchParams({ dialog: "invite", email: input.email.slice(0, 254) });
      const chosen = input.role ?? input.presetRole;
      if (chosen) params.set("role", chosen.slice(0, 20));
      if (input.intent === "selectAll") params.set("all", "1");
      const checked = input.careSiteId.length ? input.careSiteId : input.keepC;
      for (const id of checked.slice(0, 1000)) params.append("c", id);
      return { ok: true, to: `${path}?${params}` };
    }
    case "send": {
      const { email, role: invitedRole, careSiteId } = input;
      const careSiteIds = careSiteId.slice(0, 1000);
      const result = await sendInvitations(
        actor,
        { email, role: invitedRole, careSiteIds },
        { ip },
      );
      if (!result.ok) return result;
      return { ok: true, to: `${path}?list=sent&dialog=sent` };
    }
    case "act": {
      const { act } = input;
      const result = await applyInvitationAction(actor, input.id, act, { ip });
      notFoundUnless(result.ok || !result.notFound);
      // Lists and counts reload from page 1 after a status change (spec 2 §4).
      const list = ["accept", "reject", "deactivate", "reactivate"].includes(act)
        ? "received"
        : "sent";
      const to = act === "resend" ? `${path}?list=sent&dialog=resent` : `${path}?list=${list}`;
      if (!result.ok) {
        const message =
          "message" in result ? result.message : invitationMessages.actionNotAvailable;
        return { ok: true, to, flash: { kind: "danger", message } };
      }
      if (act === "resend") return { ok: true, to };
      return {
        ok: true,
        to,
        flash: { kind: "success", message: `The invitation is now ${result.status}.` },
      };
    }
  }
}
