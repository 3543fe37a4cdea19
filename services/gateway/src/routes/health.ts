import { AppError } from "@verdict/kit";
import { route } from "../http/route.js";
import { AuthHealthSchema, HealthSchema, KeyVerificationSchema, ReadinessSchema } from "../http/schemas.js";
import { VERSION } from "./common.js";
import type { Clients } from "../clients.js";

/** How long one round of the services' health checks answers GET /v1/health/ready. */
export const READINESS_CACHE_MS = 1_000;
type Readiness = Awaited<ReturnType<Clients["readiness"]>>;
const lastReadiness = new WeakMap<Clients, { at: number; answer: Promise<Readiness> }>();

/**
 * The services' health, asked at most once per READINESS_CACHE_MS whoever asks (the route is not
 * rate-limited, so nobody can make the gateway fan out health checks in a loop); callers within
 * that time, or while a round is under way, share its answer.
 */
function readiness(clients: Clients): Promise<Readiness> {
  const now = Date.now();
  const last = lastReadiness.get(clients);
  if (last && now - last.at < READINESS_CACHE_MS) return last.answer;
  const answer = clients.readiness();
  lastReadiness.set(clients, { at: now, answer });
  // A failed round is not kept: the next probe asks again.
  answer.catch(() => lastReadiness.delete(clients));
  return answer;
}

export const healthRoutes = [
  route({
    method: "get",
    path: "/v1/health",
    operationId: "getHealth",
    summary: "API health",
    tag: "Health",
    access: { kind: "public" },
    responses: { 200: { description: "The API is up", schema: HealthSchema } },
    handler: async () => ({
      status: 200,
      body: { status: "healthy", version: VERSION, timestamp: new Date().toISOString() },
    }),
  }),
  route({
    method: "get",
    path: "/v1/health/ready",
    operationId: "getReadiness",
    summary: "Readiness: the gateway reaches every service it needs",
    tag: "Health",
    access: { kind: "public" },
    responses: {
      200: {
        description:
          "Every service answers the gateway's health check. Not counted against the anonymous rate limit (behind a NodePort the kubelet's probes share an address with clients), so it never answers 429; calls within a second share one round of health checks",
        schema: ReadinessSchema,
      },
    },
    errors: [503],
    errorNotes: { 503: "A service does not answer over the gateway's channel yet; `details.services` says which" },
    unmetered: true,
    // GET /v1/health stays liveness (the process answers HTTP); this one asks each service over
    // the channel requests use, so "ready" means a request would reach it (stack.sh, probes).
    handler: async ({ clients }) => {
      const services = await readiness(clients);
      if (Object.values(services).some((s) => s !== "SERVING"))
        throw new AppError("unavailable", "SERVICE_UNAVAILABLE", "Not every Verdict service answers yet", {
          services,
        });
      return { status: 200, body: { status: "ready", services } };
    },
  }),
  route({
    method: "get",
    path: "/v1/health/auth",
    operationId: "getAuthHealth",
    summary: "Authenticated health: verifies that the credentials work",
    tag: "Health",
    access: { kind: "authenticated" },
    rateClass: "reads",
    responses: { 200: { description: "Credentials work", schema: AuthHealthSchema } },
    handler: async ({ principal }) => ({
      status: 200,
      body: {
        status: "healthy",
        authenticated: true,
        organization: principal!.organizationId,
        scopes: principal!.scopes,
      },
    }),
  }),
  route({
    method: "get",
    path: "/v1/auth/verify",
    operationId: "verifyKey",
    summary: "Verify the presented API key",
    tag: "API keys",
    access: { kind: "authenticated" },
    rateClass: "reads",
    responses: { 200: { description: "The key is valid", schema: KeyVerificationSchema } },
    handler: async ({ principal }) => ({
      status: 200,
      body: {
        valid: true,
        key_id: principal!.keyId,
        scopes: principal!.scopes,
        expires_at: principal!.expiresAt,
        organization: principal!.organizationId,
      },
    }),
  }),
];
