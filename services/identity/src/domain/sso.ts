// Enterprise SSO: an organization's connection to its identity provider (OIDC or SAML 2.0), the
// email domains that route people to it, and the decisions taken when the IdP vouches for
// someone. Pure: the use cases (usecases/sso/) do the storing and the protocol work.
import { timingSafeEqual } from "node:crypto";
import type { FieldError } from "@verdict/kit";
import { hashToken } from "./secrets.js";
import type { Plan } from "./organization.js";
import type { Role } from "./member.js";

export const SSO_TYPES = ["oidc", "saml"] as const;
export type SsoType = (typeof SSO_TYPES)[number];

/** The plans with SSO (the spec's plan table: Team, Business, Enterprise). */
export const SSO_PLANS: readonly Plan[] = ["team", "business", "enterprise"];

export function planHasSso(plan: Plan): boolean {
  return SSO_PLANS.includes(plan);
}

/** Roles a connection may give on first sign-in: never owner (owners are made by owners). */
export const SSO_DEFAULT_ROLES: readonly Role[] = ["admin", "member", "viewer"];

/** How long a sign-in started at the IdP may take to come back (state, nonce, AuthnRequest id). */
export const SSO_STATE_TTL_MS = 10 * 60_000;

/**
 * A SAML connection saved from a metadata URL reads it again, when a signature fails with the
 * stored certificates, at most this often (the IdP may have rotated its key).
 */
export const SAML_CERT_REFRESH_INTERVAL_MS = 5 * 60_000;

/** node-saml's messages for a signature that none of the configured certificates verifies. */
export function isSamlSignatureFailure(message: string): boolean {
  return /^Invalid (document )?signature( from encrypted assertion| on documentElement)?$/.test(message);
}

/**
 * What Verdict fetches from an IdP (SAML metadata, the OIDC discovery document, token answers and
 * keys) must arrive within this, body included, and be at most this large.
 */
export const IDP_FETCH_TIMEOUT_MS = 10_000;
export const IDP_DOCUMENT_MAX_BYTES = 1024 * 1024;

/**
 * The one answer to a metadata URL that could not be fetched, whatever the reason (a refused
 * address, a closed port, a timeout, an error status, too large): a tenant learns nothing about
 * what listens where. The reason goes to the logs.
 */
export const IDP_FETCH_PROBLEM =
  "could not be fetched: it must be a public https address that answers 200 within 10 s with at most 1 MiB";

/** Clock skew accepted on SAML assertions' NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60_000;

/** amr values (RFC 8176) that say the IdP used more than one factor. */
const MFA_AMR = new Set(["mfa", "otp", "hwk", "swk", "sc", "fpt", "face", "iris", "retina", "vbm"]);

/** The IdP's authentication counts as multi-factor only when it says so in `amr` (or an MFA acr). */
export function idpSaysMfa(amr: unknown, acr: unknown): boolean {
  if (Array.isArray(amr) && amr.some((v) => typeof v === "string" && MFA_AMR.has(v.toLowerCase()))) return true;
  return typeof acr === "string" && /(^|[^a-z])mfa([^a-z]|$)|multi-?factor|aal[23]/i.test(acr);
}

const DOMAIN_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, "");
}

/** The domain part of an email address (lowercased), or undefined when it has none. */
export function emailDomain(email: string): string | undefined {
  const at = email.lastIndexOf("@");
  if (at <= 0 || at === email.length - 1) return undefined;
  const d = normalizeDomain(email.slice(at + 1));
  return DOMAIN_RE.test(d) ? d : undefined;
}

/** Field errors for the claimed domains (`domains[i]`): well-formed, no duplicates, at least one. */
export function domainErrors(domains: string[]): FieldError[] {
  const out: FieldError[] = [];
  if (domains.length === 0)
    out.push({ field: "domains", code: "REQUIRED", message: "Claim at least one email domain (e.g. example.com)" });
  const seen = new Set<string>();
  domains.forEach((raw, i) => {
    const d = normalizeDomain(raw);
    if (!DOMAIN_RE.test(d))
      out.push({ field: `domains[${i}]`, code: "INVALID_FORMAT", message: `'${raw}' is not a domain name` });
    else if (seen.has(d))
      out.push({ field: `domains[${i}]`, code: "INVALID_FORMAT", message: `'${raw}' is listed twice` });
    seen.add(d);
  });
  return out;
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

/**
 * An IdP address must be https; plain http only on a loopback host (an IdP on the same machine,
 * as in tests). Answers the problem, or undefined.
 */
export function idpUrlProblem(value: string): string | undefined {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return "is not an absolute URL";
  }
  if (u.protocol === "https:") return undefined;
  if (u.protocol === "http:" && isLoopback(u.hostname)) return undefined;
  return "must be an https URL (plain http only on localhost)";
}

export function allowsInsecureHttp(value: string): boolean {
  const u = new URL(value);
  return u.protocol === "http:" && isLoopback(u.hostname);
}

/** A PEM certificate or its bare base64 body, as one normalized PEM block. */
export function normalizeCertificate(cert: string): string | undefined {
  const body = cert
    .replace(/-----BEGIN CERTIFICATE-----/g, "")
    .replace(/-----END CERTIFICATE-----/g, "")
    .replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length < 100) return undefined;
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

/**
 * Whether the browser finishing a sign-in is the one that started it: the SSO cookie it presents
 * hashes to the hash kept with the sign-in (a sign-in kept without one, or no cookie: no).
 */
export function sameBrowser(storedHash: string | undefined, presented: string): boolean {
  if (!storedHash || !presented) return false;
  const a = Buffer.from(storedHash, "utf8");
  const b = Buffer.from(hashToken(presented), "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the IdP vouched for, whichever protocol it used. */
export interface SsoIdentity {
  email: string;
  /** OIDC: the `email_verified` claim; SAML: true (the organization's own IdP asserts it). */
  emailVerified: boolean;
  name: string;
  /** The IdP's stable id of the person (OIDC sub, SAML NameID). */
  subject: string;
  mfa: boolean;
}

export type LinkDecision =
  | { kind: "refuse"; code: SsoRefusal; message: string }
  | { kind: "sign_in" }
  | { kind: "activate_invitation" }
  | { kind: "join"; role: Role; newUser: boolean };

export type SsoRefusal = "SSO_EMAIL_NOT_VERIFIED" | "SSO_DOMAIN_NOT_VERIFIED";

/**
 * Who the IdP's person becomes in the organization. The email must be in one of the connection's
 * verified domains and the IdP must say it verified the address: only then is an existing
 * account linked, an open invitation accepted, or a new member made with the default role.
 */
export function decideLink(input: {
  identity: SsoIdentity;
  verifiedDomains: string[];
  defaultRole: Role;
  userExists: boolean;
  membership: { status: "active" | "invited" } | undefined;
}): LinkDecision {
  const domain = emailDomain(input.identity.email);
  if (!domain || !input.verifiedDomains.includes(domain))
    return {
      kind: "refuse",
      code: "SSO_DOMAIN_NOT_VERIFIED",
      message: `The identity provider signed in ${input.identity.email}, whose domain is not a verified domain of this organization's SSO connection`,
    };
  if (!input.identity.emailVerified)
    return {
      kind: "refuse",
      code: "SSO_EMAIL_NOT_VERIFIED",
      message: `The identity provider does not say ${input.identity.email} is verified (email_verified): an account is linked only to a verified address`,
    };
  if (input.membership?.status === "active") return { kind: "sign_in" };
  if (input.membership?.status === "invited") return { kind: "activate_invitation" };
  return { kind: "join", role: input.defaultRole, newUser: !input.userExists };
}

/** Password sign-in under `enforce`: refused for everyone but owners (their break-glass way in). */
export function passwordSignInAllowed(enforce: boolean, role: Role): boolean {
  return !enforce || role === "owner";
}
