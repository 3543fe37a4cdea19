// How large a request body each class of route takes, checked before anything parses it: the
// declared Content-Length first (a larger one is answered at once, unread), then the bytes as
// they stream in (the read stops at the limit). Only evaluations carry large bodies (files, up to
// VERDICT_MAX_BODY_BYTES); sign-in and the rest of /auth, reachable without a credential, take
// small ones, so nobody can make the gateway buffer and parse megabytes on the thread that
// answers every organization before a schema refuses them. No class exceeds
// VERDICT_MAX_BODY_BYTES.
import type { Route } from "./route.js";
import { WORKER_BODIES } from "./bodies.js";

export type BodyClass = "evaluation" | "auth" | "saml" | "scim" | "api";

const LIMITS: Record<Exclude<BodyClass, "evaluation">, number> = {
  // Sign-in, MFA, passkeys, SSO and the OAuth server: a few fields (a passkey's attestation is
  // the largest, a few KiB).
  auth: 64 * 1024,
  // The IdP's signed SAML response (certificates and attributes inside), form-encoded.
  saml: 256 * 1024,
  // A SCIM group with its members, or a bulk of attribute changes.
  scim: 1024 * 1024,
  // Everything else under /v1: policies with their patterns, pasted IdP metadata, settings.
  api: 2 * 1024 * 1024,
};

/** The class of a route of the table. */
export function bodyClassOf(route: Pick<Route, "path" | "operationId">): BodyClass {
  if (WORKER_BODIES[route.operationId]) return "evaluation";
  if (route.path.startsWith("/auth/")) return "auth";
  return "api";
}

/** The largest body a class takes, in bytes. */
export function bodyLimit(cls: BodyClass, maxBodyBytes: number): number {
  return cls === "evaluation" ? maxBodyBytes : Math.min(LIMITS[cls], maxBodyBytes);
}
