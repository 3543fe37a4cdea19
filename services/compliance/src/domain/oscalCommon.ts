// What every OSCAL document of Verdict's shares: its props' namespace, its stable uuids, and
// strings as OSCAL takes them.
import { v5 as uuidv5 } from "uuid";

export type Json = Record<string, unknown>;

/** Namespace of Verdict's own props (OSCAL constrains only props in its own namespace). */
export const VERDICT_NS = "https://verdict.dev/ns/oscal";
/** The namespace every v5 uuid of Verdict's OSCAL objects is derived in. */
const UUID_NAMESPACE = "6c1f2f8e-5b0a-5f0e-9d3c-0b7e6a1d4c21";

export function stableUuid(...parts: string[]): string {
  return uuidv5(parts.join("\u0000"), UUID_NAMESPACE);
}

/** A prop in Verdict's namespace. */
export const prop = (name: string, value: string, extra: Json = {}): Json => ({
  name,
  ns: VERDICT_NS,
  value: clean(value),
  ...extra,
});
/** OSCAL strings may not start or end with white space, nor be empty. */
export const clean = (s: string) => s.trim().replace(/\s+/g, " ") || "-";
