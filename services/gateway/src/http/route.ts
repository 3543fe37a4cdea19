import type { z } from "zod";
import type { Clients } from "../clients.js";
import type { Principal } from "./auth.js";
import type { EncodedCreateEvaluation } from "./evaluationWire.js";
import type { CookieMode } from "./session.js";

/** Who may call a route: nobody needs a key, any valid key, a scope, or the instance operator. */
export type Access =
  { kind: "public" } | { kind: "authenticated" } | { kind: "scope"; scope: string } | { kind: "operator" };

/** Which endpoint-specific limit applies on top of the organization's overall limits. */
export type RateClass = "evaluations_create" | "evaluations_list" | "reports_create" | "reads" | "writes";

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /**
   * POST /v1/evaluations: the create request, validated and protobuf-encoded once from the body
   * (http/bodies.ts, on a body worker when the body is large; `body` then holds no contents). The
   * route sends it as it is. Undefined on every other route.
   */
  encodedEvaluation: EncodedCreateEvaluation | undefined;
  /**
   * The JSON body as parsed, before the schema: it still holds the keys a schema's output cannot
   * (an own `__proto__`, which zod drops rather than carry it as a prototype).
   */
  rawBody: unknown;
  principal: Principal | undefined;
  requestId: string;
  clients: Clients;
  /** Public base URL of the API (…/v1): configured, or from the request's host. */
  apiBaseUrl: string;
  /** Aborted when the client disconnects before its answer: long work for it can stop. */
  signal: AbortSignal;
  /** The caller's address (after trusted proxies) and user agent. */
  clientIp: string;
  userAgent: string;
  /** Whether a session cookie can be set on this request (https, or http://localhost). */
  cookieMode: CookieMode;
  /** The Cookie header as sent (the SSO routes read their cookie from it). */
  cookieHeader: string | undefined;
  /** The If-Match header as sent (routes with `ifMatch` read it); undefined when absent. */
  ifMatch: string | undefined;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Sets the session cookie (a new session) or clears it (signed out). */
  session?: { token: string; expiresAt: string } | "clear";
  /** Further Set-Cookie values (the SSO cookie). */
  setCookies?: string[];
  /** A file sent as an attachment instead of a JSON body. */
  file?: { content: Buffer; contentType: string; filename: string };
}

export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
  /** Sets the session cookie (a sign-in) or clears it (sign-out): documented as Set-Cookie. */
  session?: "set" | "clear";
  /** Binary responses: the media types it may have (instead of a JSON schema). */
  contentTypes?: string[];
}

export interface Route<P = any, Q = any, B = any> {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express-style path under the host root, e.g. /v1/evaluations/:evaluation_id */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  access: Access;
  rateClass?: RateClass;
  /**
   * A probe's route: not counted against the anonymous per-address limit (its X-RateLimit-*
   * headers show that limit's state without spending from it). Behind a NodePort or a load
   * balancer that rewrites the source address, the kubelet's probes arrive from the same address
   * as the clients; a probe refused with 429 would take a busy pod out of service. Only for
   * public routes whose answer is cheap or cached.
   */
  unmetered?: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q, any>;
  body?: z.ZodType<B, any>;
  responses: Record<number, RouteResponse>;
  /** Error statuses beyond the ones every route may answer with (documented in OpenAPI). */
  errors?: number[];
  /** What an error status means on this route beyond the general text (OpenAPI descriptions). */
  errorNotes?: Partial<Record<number, string>>;
  /**
   * The route takes an If-Match header naming the version it must still be at (412 otherwise):
   * what the header means here, for the OpenAPI document.
   */
  ifMatch?: string;
  /**
   * A public route that a signed-in person may also call as themselves: the session cookie, when
   * present and valid (with its CSRF token), gives the handler a principal.
   */
  sessionIfPresent?: boolean;
  /** Open to a signed-in person who must enrol MFA first (the organization requires it). */
  duringMfaEnrolment?: boolean;
  handler: (ctx: RouteContext<P, Q, B>) => Promise<RouteResult>;
}

/** Keeps the generic types of each route while building a heterogeneous table. */
export function route<P, Q, B>(r: Route<P, Q, B>): Route {
  return r as Route;
}
