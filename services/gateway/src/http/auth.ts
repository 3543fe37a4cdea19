// Authentication: the key comes from `Authorization: Bearer` (or the legacy, discouraged
// `?api_key=`), is verified by the identity service, and the verdict is cached briefly per key
// and client address. Revocation events drop cache entries at once. Past its TTL an entry still
// answers, for a bounded time, when identity cannot (stale-if-error): a rolling upgrade or a
// restart of identity does not fail the requests of keys it verified a moment ago.
import { createHash } from "node:crypto";
import type { Request } from "express";
import { AppError, errors, type Logger } from "@verdict/kit";
import type { auditV1, identityV1 } from "@verdict/proto";
import type { Clients } from "../clients.js";

export interface Principal {
  /** The API key's id; empty for a signed-in person. */
  keyId: string;
  /** Set when a signed-in person (session cookie) makes the request. */
  session?: SignedIn;
  /** Set when an application acts for a member with an OAuth access token. */
  oauth?: { clientId: string; userId: string };
  organizationId: string;
  organizationName: string;
  scopes: string[];
  expiresAt: string | null;
  operator: boolean;
  rateLimits: identityV1.RateLimits;
}

/** Who is signed in, as the identity service verified it (the OAuth server builds on this). */
export interface SignedIn {
  token: string;
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  role: string;
  mfaEnabled: boolean;
  mfaEnrolmentRequired: boolean;
  createdAt: string;
  idleExpiresAt: string;
  expiresAt: string;
}

/**
 * The member acting, signed in or through an application's OAuth token; empty for an API key.
 * Rules on people (only owners make owners) and containment of new keys apply to them.
 */
export function actingUserId(principal: Principal): string {
  return principal.session?.userId ?? principal.oauth?.userId ?? "";
}

/** Who acted, for the audit log. */
export function actorOf(principal: Principal, ip: string): identityV1.Actor {
  if (principal.session) return { type: "user", id: principal.session.userId, ip };
  if (principal.oauth) return { type: "user", id: principal.oauth.userId, ip };
  return { type: "api_key", id: principal.keyId, ip };
}

/**
 * Who asks for a change, with the credential it came with and the request's id: what the owning
 * service records in the audit event it writes with the change (proto verdict.audit.v1).
 */
export function auditContext(principal: Principal, requestId: string, ip: string): auditV1.AuditContext {
  const actor = actorOf(principal, ip);
  const credential = principal.session
    ? { credential_type: "session", credential_id: principal.session.sessionId }
    : principal.oauth
      ? { credential_type: "oauth_client", credential_id: principal.oauth.clientId }
      : { credential_type: "api_key", credential_id: principal.keyId };
  return { actor_type: actor.type, actor_id: actor.id, ip, ...credential, request_id: requestId };
}

/** The same for a request that carries no credential (a signed download link): only where it came from. */
export function anonymousAuditContext(requestId: string, ip: string): auditV1.AuditContext {
  return { actor_type: "anonymous", actor_id: "", ip, credential_type: "", credential_id: "", request_id: requestId };
}

export function principalFromSession(token: string, s: identityV1.Session): Principal {
  return {
    keyId: "",
    organizationId: s.organization_id,
    organizationName: s.organization_name,
    scopes: s.scopes,
    expiresAt: s.expires_at,
    operator: false,
    rateLimits: s.rate_limits ?? {},
    session: {
      token,
      sessionId: s.id,
      userId: s.user_id,
      email: s.email,
      name: s.name,
      role: s.role,
      mfaEnabled: s.mfa_enabled,
      mfaEnrolmentRequired: s.mfa_enrolment_required,
      createdAt: s.created_at,
      idleExpiresAt: s.idle_expires_at,
      expiresAt: s.expires_at,
    },
  };
}

export interface PresentedKey {
  key: string;
  legacyQuery: boolean;
}

/** Finds the presented credential, or throws AUTH_MISSING_KEY / AUTH_INVALID_KEY. */
export function presentedKey(req: Request): PresentedKey {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw errors.unauthorized("AUTH_INVALID_KEY", "Authorization header must be 'Bearer <API_KEY>'");
    return { key: m[1]!, legacyQuery: false };
  }
  const q = req.query.api_key;
  if (typeof q === "string" && q.length) return { key: q, legacyQuery: true };
  if (q !== undefined) throw errors.unauthorized("AUTH_INVALID_KEY", "api_key query parameter must be a single value");
  throw errors.unauthorized("AUTH_MISSING_KEY", "No API key provided: send 'Authorization: Bearer <API_KEY>'");
}

interface CacheEntry {
  principal: Principal;
  /** Trusted without asking until then. */
  until: number;
  /** Then, trusted only when identity cannot answer, until then (never past the key's expiry). */
  staleUntil: number;
}

/** After identity gave no verdict, how long a key's stale verification answers before identity is asked again. */
const NO_VERDICT_PAUSE_MS = 5_000;

/** Identity could not be reached, or did not answer in time: no verdict on the key. */
function noVerdict(err: unknown): boolean {
  return err instanceof AppError && err.kind === "unavailable";
}

export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly clients: Clients,
    private readonly logger: Logger,
    private readonly ttlMs: number,
    private readonly staleIfErrorMs = 0,
  ) {}

  async authenticate(key: string, clientIp: string): Promise<Principal> {
    const cacheKey = createHash("sha256").update(key).update("\0").update(clientIp).digest("hex");
    const now = Date.now();
    const hit = this.cache.get(cacheKey);
    if (hit && hit.until > now) return hit.principal;
    // An OAuth access token: verified on every request (never cached), so revocation, removal
    // from the organization and role changes apply to the very next one.
    if (key.startsWith("vdt_oat_")) {
      const t = await this.clients.identity.verifyAccessToken({ token: key });
      return {
        keyId: "",
        oauth: { clientId: t.client_id, userId: t.user_id },
        organizationId: t.organization_id,
        organizationName: t.organization_name,
        scopes: t.scopes,
        expiresAt: t.expires_at,
        operator: false,
        rateLimits: t.rate_limits ?? {},
      };
    }
    let res: identityV1.VerifyKeyResponse;
    try {
      res = await this.clients.identity.verifyKey({ key, client_ip: clientIp });
    } catch (err) {
      const failedAt = Date.now();
      if (hit && noVerdict(err) && failedAt < hit.staleUntil) {
        // Not asked again for a few seconds: the key's other requests meanwhile do not each wait
        // out identity's deadline.
        hit.until = Math.min(failedAt + Math.min(this.ttlMs, NO_VERDICT_PAUSE_MS), hit.staleUntil);
        this.logger.warn(
          { key_id: hit.principal.keyId, reason: (err as AppError).message },
          "identity gave no verdict on a key: its verification of a moment ago answers",
        );
        return hit.principal;
      }
      // Identity's verdict (revoked, expired, narrowed...) ends what was cached for the key.
      if (hit && !noVerdict(err)) this.cache.delete(cacheKey);
      throw err;
    }
    const principal: Principal = {
      keyId: res.key_id,
      organizationId: res.organization_id,
      organizationName: res.organization_name,
      scopes: res.scopes,
      expiresAt: res.expires_at ?? null,
      operator: res.operator,
      rateLimits: res.rate_limits ?? {},
    };
    // Never cache past the key's own expiry.
    const expiry = principal.expiresAt ? Date.parse(principal.expiresAt) : Infinity;
    if (this.ttlMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(cacheKey, {
        principal,
        until: Math.min(now + this.ttlMs, expiry),
        staleUntil: Math.min(now + this.ttlMs + this.staleIfErrorMs, expiry),
      });
    }
    return principal;
  }

  /**
   * A session is verified on every request (never cached): signing out, removal from the
   * organization and role changes apply to the very next request.
   */
  async authenticateSession(token: string, clientIp: string): Promise<Principal> {
    const res = await this.clients.identity.verifySession({ session_token: token, client_ip: clientIp });
    return principalFromSession(token, res.session!);
  }

  /** Called for identity.key_revoked events. */
  forgetKey(keyId: string): void {
    for (const [k, v] of this.cache) if (v.principal.keyId === keyId) this.cache.delete(k);
    this.logger.debug({ key_id: keyId }, "dropped cached credentials of revoked key");
  }
}

export function hasScope(principal: Principal, scope: string): boolean {
  return principal.scopes.includes("admin") || principal.scopes.includes(scope);
}
