// The chat's limits, names and messages (spec 3 §2.10, §9): pure, so the pages and the server
// share them.

export const CHAT_PAGE_SIZE = 50;
/** Older pages a chat window may load at once (50 each). */
export const MAX_CHAT_PAGES = 40;
/** An attachment must be under this many bytes (spec 3 §9). */
export const MAX_ATTACHMENT_BYTES = 2_000_000;
/** A stored chat image's longest side, in pixels (larger ones are scaled down on arrival). */
export const MAX_IMAGE_SIDE = 2048;
export const MAX_MESSAGE_LENGTH = 2000;
export const MAX_GROUP_NAME_LENGTH = 60;
export const GROUP_DEFAULT_NAME = "Group dialog";
export const ATTACHMENT_PLACEHOLDER = "[attachment]";
/** The spec's default name for a chat user without one. */
const DEFAULT_CHAT_NAME = "BS";
export const DIALOG_TYPE = { public: 1, group: 2, oneToOne: 3 } as const;

/** The messages a page may show (CHAT_MESSAGES in chat.server.ts adds the image-size one). */
export const CHAT_TEXTS = {
  missing: "Some required parameters are missing.",
  tooLarge: "Image is too large. Max size is 2 mb.",
  // Ours: the spec says only image files can be attached, without a text.
  notImage: "Only images can be attached (png, jpeg, jpg, gif or tiff).",
  tooLong: `A message can be at most ${MAX_MESSAGE_LENGTH} characters.`,
  notContact: "You can only add your contacts to a conversation.",
  // Ours: New Message to someone who is not (or no longer) a contact, or a forged user id.
  notContactDirect: "You can only message your contacts (users who accepted sharing).",
  noMembers: "Choose at least one contact for the group.",
  cannotPost:
    "You can no longer post to this conversation: you no longer share a care site with its members.",
} as const;

export type Person = { id: string; firstName: string; lastName: string; photoId: string | null };

export function displayName(person: Pick<Person, "firstName" | "lastName"> | null | undefined) {
  const name = person ? `${person.firstName} ${person.lastName}`.trim() : "";
  return name || DEFAULT_CHAT_NAME;
}
