// Who may read or change what (STYLE.md "Doors"): the only place care-site scoping is written.
//
// Every rule starts from an Actor: the signed-in user's id, role and email, the care sites where
// they hold an accepted membership *at an active care site* (with their role there), and the care
// site they are working in now. Models take an Actor and ask this module for a Prisma
// where-fragment (or, where a yes/no is needed, a "may" predicate); they never write a membership
// filter of their own and never take a Request. Routes get the Actor once per request
// (domain/actor.server.ts requireActor).
//
// Roles (DESIGN.md §5 "Care-site scoping"): superadmin and abmadmin reach every care site;
// clinicadmin and clinician reach the care sites of their accepted memberships at active care
// sites only; anything else reaches nothing. A fragment that matches nothing is how "denied"
// reads, so a model's answer for another care site's row is the same as for a missing row (the
// route answers 404).
//
// A membership counts only while it is accepted and its care site is active: a member removed
// from a care site (membership blocked, careSiteManagement withdrawMembership), one who
// deactivated it, or a member of a deactivated care site holds nothing there, whatever they did
// there before (invitations they sent, conversations, photos).
//
// Raw SQL that lists "the patients of care site X" (dashboard, adherence, daily summary) runs
//
// The rules are split by what they guard: access/core.server.ts (the Actor, loadActor),
// access/people.server.ts (care sites, patients, people, invitations) and
// access/resources.server.ts (conversations, photos, notifications, help, devices, pairings).
// Callers import from here.
export * from "./access/core.server";
export * from "./access/people.server";
export * from "./access/resources.server";
