/**
 * The key a username or an email is unique by (issue 20 item 3), as the database computes
 * User.usernameKey and User.emailKey: lower(), which in SQLite folds the letters A–Z only. A
 * username or an email that passed its pattern holds no other letters, so this is their
 * lower-case form; folding only A–Z keeps a lookup finding exactly what the unique index compares.
 */
export const accountKey = (value: string) =>
  value.trim().replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
