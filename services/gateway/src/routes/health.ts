import { route } from "../http/route.js";
import { AuthHealthSchema, HealthSchema, KeyVerificationSchema } from "../http/schemas.js";
import { VERSION } from "./common.js";

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
