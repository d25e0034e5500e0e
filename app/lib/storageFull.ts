// The words for "the server's storage is full" (a 503), shared by the error page and the server
// (storage.server.ts), so the page a person sees and the text a call gets are the same.
export const STORAGE_FULL_TITLE = "The server's storage is full.";
export const STORAGE_FULL_TEXT = "Your change was not saved; please try again later.";
export const STORAGE_FULL_MESSAGE = `${STORAGE_FULL_TITLE} ${STORAGE_FULL_TEXT}`;
