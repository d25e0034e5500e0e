/**
 * A row of a raw statement, typed from the model it reads (`K`, its columns): SQLite hands
 * DateTime and Boolean columns back as numbers, so those (`Untyped`) stay unknown and are read
 * through toMs / Number; a column the statement's WHERE or JOIN makes present (`Present`) loses
 * its null.
 */
export type RawRow<M, K extends keyof M, Untyped extends K = never, Present extends K = never> = {
  [P in K]: P extends Untyped ? unknown : P extends Present ? NonNullable<M[P]> : M[P];
};

/** An instant as a raw statement or the client returns it: epoch ms (number, bigint) or a Date. */
export const toMs = (v: unknown) => (v instanceof Date ? v.getTime() : Number(v));
