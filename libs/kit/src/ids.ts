import { monotonicFactory } from "ulid";

// Prefix + ULID: time-sortable (lexicographic order is creation order) and random, so a list
// cursor can be the opaque encoding of the last id seen.
export type IdPrefix = "eval" | "viol" | "repo" | "org" | "key" | "report" | "wh" | "msg" | "req" | "evt";

const ulid = monotonicFactory();

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${ulid(now).toLowerCase()}`;
}

export function isId(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`).test(value);
}
