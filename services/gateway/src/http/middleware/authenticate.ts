// Who calls a route, and whether they may: a session (with its CSRF token for unsafe methods)
// or an API key, then the organization's rate limits, the route's scope or operator check, and
// the evaluations-in-flight cap. A public route is metered against the caller's address (or only
// peeked at, for unmetered ones). Failed authentication counts against the address too
// (guessing keys is throttled).
import type { Request, Response } from "express";
import { AppError, errors, type Logger } from "@verdict/kit";
import { hasScope, presentedKey, type Authenticator, type Principal } from "../auth.js";
import { rateHeaders, type RateLimiter } from "../rateLimit.js";
import type { Route } from "../route.js";
import { csrfValid, sessionTokenFrom, UNSAFE_METHODS } from "../session.js";
import type { EvaluationAdmission } from "./evaluationAdmission.js";
import { locals } from "./locals.js";
import type { Throttle } from "./throttle.js";

export interface AuthenticateDeps {
  authenticator: Authenticator;
  limiter: RateLimiter;
  throttle: Throttle;
  admission: EvaluationAdmission;
  logger: Logger;
}

export type Authenticate = (r: Route, req: Request, res: Response) => Promise<Principal | undefined>;

export function authenticator(deps: AuthenticateDeps): Authenticate {
  const { authenticator: auth, limiter, throttle } = deps;

  /**
   * The signed-in person on a public route that also serves them (an invitation accepted while
   * signed in): a valid session with its CSRF token, else nobody (a stale cookie is ignored).
   */
  const sessionIfPresent = async (req: Request): Promise<Principal | undefined> => {
    const token = req.headers.authorization === undefined ? sessionTokenFrom(req) : undefined;
    if (token === undefined) return undefined;
    const principal = await auth.authenticateSession(token, req.ip ?? "").catch(() => undefined);
    if (principal && UNSAFE_METHODS.has(req.method) && !csrfValid(req, token)) throw csrfFailed();
    return principal;
  };

  const signIn = async (r: Route, req: Request, res: Response): Promise<Principal> => {
    const sessionToken =
      req.headers.authorization === undefined && req.query.api_key === undefined ? sessionTokenFrom(req) : undefined;
    if (sessionToken !== undefined) {
      const principal = await auth.authenticateSession(sessionToken, req.ip ?? "");
      // A browser sends the cookie with any request a page makes: unsafe ones must also prove
      // they come from our pages (the token a cross-site page cannot read).
      if (UNSAFE_METHODS.has(req.method) && !csrfValid(req, sessionToken)) throw csrfFailed();
      if (principal.session!.mfaEnrolmentRequired && !r.duringMfaEnrolment) {
        throw new AppError(
          "forbidden",
          "AUTH_MFA_ENROLMENT_REQUIRED",
          "Your organization requires multi-factor authentication: enrol with POST /auth/mfa/totp/enrolment before anything else",
        );
      }
      return principal;
    }
    const presented = presentedKey(req);
    const principal = await auth.authenticate(presented.key, req.ip ?? "");
    if (presented.legacyQuery) {
      res.setHeader("Deprecation", "true");
      deps.logger.warn(
        { request_id: locals(res).requestId, key_id: principal.keyId },
        "API key sent as ?api_key= query parameter: discouraged, use Authorization: Bearer",
      );
    }
    return principal;
  };

  return async (r, req, res) => {
    if (r.access.kind === "public" && r.unmetered) {
      res.set(rateHeaders(await limiter.peek(`ip:${req.ip}`, limiter.bucketsForAnonymous())));
      return undefined;
    }
    if (r.access.kind === "public") {
      await throttle(req, res);
      return r.sessionIfPresent ? sessionIfPresent(req) : undefined;
    }
    let principal: Principal;
    try {
      principal = await signIn(r, req, res);
    } catch (err) {
      await throttle(req, res);
      throw err;
    }
    locals(res).principal = principal;
    res.set(
      rateHeaders(
        await limiter.consume(
          `org:${principal.organizationId}`,
          limiter.bucketsForOrg(principal.rateLimits, r.rateClass),
        ),
      ),
    );
    if (r.access.kind === "scope" && !hasScope(principal, r.access.scope))
      throw errors.insufficientScope(r.access.scope, principal.scopes);
    if (r.access.kind === "operator" && !principal.operator) {
      throw errors.forbidden(
        "AUTH_ORG_ACCESS_DENIED",
        "Only the instance operator (the bootstrap key) may manage organizations",
      );
    }
    if (r.rateClass === "evaluations_create") deps.admission.admit(principal.organizationId, res);
    return principal;
  };
}

const csrfFailed = () =>
  new AppError(
    "forbidden",
    "AUTH_CSRF_FAILED",
    "Send the session's CSRF token in the X-CSRF-Token header (GET /auth/session answers it)",
  );
