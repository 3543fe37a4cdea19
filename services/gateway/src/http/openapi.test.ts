import { describe, expect, it } from "@jest/globals";
import { API_SCOPES, createLogger, LIVE_VERIFICATION_PROVIDERS } from "@verdict/kit";
import { connectClients } from "../clients.js";
import { mountOutsideRouteTable } from "../main.js";
import { routes } from "../routes/index.js";
import { buildApp } from "./app.js";
import { Authenticator } from "./auth.js";
import { buildOpenApi } from "./openapi.js";
import { OAUTH_PROVIDER_PATHS } from "./openapiAuth.js";
import { RateLimiter, SPEC_DEFAULTS } from "./rateLimit.js";

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
  components: { schemas: Record<string, unknown> };
};

describe("OpenAPI document", () => {
  const doc = buildOpenApi(routes) as unknown as Doc;

  /** `method path` of every route the gateway's express app serves, as main.ts builds it. */
  function servedRoutes(): string[] {
    // Clients are created but never called: the app is only inspected.
    const clients = connectClients({
      identity: "127.0.0.1:1",
      policy: "127.0.0.1:1",
      evaluation: "127.0.0.1:1",
      compliance: "127.0.0.1:1",
      webhooks: "127.0.0.1:1",
      integrations: "127.0.0.1:1",
    });
    const logger = createLogger("test", "silent");
    const authenticator = new Authenticator(clients, logger, 0);
    const app = buildApp({
      routes,
      clients,
      authenticator,
      limiter: new RateLimiter(SPEC_DEFAULTS),
      logger,
      bodyLimitBytes: 1024,
      trustProxy: false,
      mount: (a, throttle) =>
        mountOutsideRouteTable(a, throttle, { clients, authenticator, logger, bodyLimitBytes: 1024 }),
    });
    clients.close();
    const served: string[] = [];
    type Layer = { route?: { path: string | string[]; methods: Record<string, boolean> } };
    for (const layer of (app as unknown as { router: { stack: Layer[] } }).router.stack) {
      if (!layer.route) continue;
      for (const path of [layer.route.path].flat()) {
        if (!/^\/(v1|auth|\.well-known)\//.test(path) || path === "/v1/openapi.json") continue;
        for (const m of Object.keys(layer.route.methods)) served.push(`${m} ${path.replace(/:([A-Za-z_]+)/g, "{$1}")}`);
      }
    }
    return served;
  }

  it("documents every /v1, /auth and /.well-known route the gateway's app really serves, and nothing else", () => {
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    const served = servedRoutes();
    expect(served.length).toBeGreaterThan(40);
    // The authorization server's own endpoints are oidc-provider's, behind one middleware on /auth.
    const provider = documented.filter((d) => OAUTH_PROVIDER_PATHS.some((p) => d.endsWith(` ${p}`)));
    expect(provider.sort()).toEqual(
      [
        "get /auth/oauth/authorize",
        "get /auth/oauth/authorize/{uid}",
        "post /auth/oauth/token",
        "post /auth/oauth/revoke",
        "post /auth/oauth/par",
        "get /auth/oauth/jwks",
        "get /auth/oauth/logout",
        "post /auth/oauth/logout/confirm",
        "get /auth/oauth/logout/success",
      ].sort(),
    );
    expect([...new Set(served)].sort()).toEqual(documented.filter((d) => !provider.includes(d)).sort());
    for (const path of [
      "/auth/login",
      "/auth/oauth/interaction/{uid}/confirm",
      "/auth/saml/acs",
      "/auth/oidc/callback",
      "/.well-known/oauth-authorization-server",
    ])
      expect(Object.keys(doc.paths)).toContain(path);
  });

  it("says where sessions are set and what the OAuth and SAML endpoints take and answer", () => {
    const headers = (path: string, method: string, status: string) =>
      Object.keys((doc.paths[path]![method]!.responses[status] as { headers?: Record<string, unknown> }).headers ?? {});
    expect(headers("/auth/login", "post", "200")).toContain("Set-Cookie");
    expect(headers("/auth/logout", "post", "204")).toContain("Set-Cookie");
    expect(headers("/auth/oidc/token", "post", "200")).toContain("Set-Cookie");
    // The ACS only answers the page that posts on to the same-site step, which signs in.
    expect(headers("/auth/saml/finish", "post", "303")).toContain("Set-Cookie");
    expect(headers("/v1/members", "get", "200")).not.toContain("Set-Cookie");
    const token = doc.paths["/auth/oauth/token"]!.post! as unknown as {
      requestBody: { content: Record<string, unknown> };
      responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
    };
    expect(Object.keys(token.requestBody.content).sort()).toEqual([
      "application/json",
      "application/x-www-form-urlencoded",
    ]);
    expect(Object.keys(token.responses["200"]!.content!["application/json"]!.schema.properties!)).toEqual(
      expect.arrayContaining(["access_token", "refresh_token", "expires_in", "scope"]),
    );
    expect(Object.keys(token.responses["400"]!.content!["application/json"]!.schema.properties!)).toEqual([
      "error",
      "error_description",
    ]);
    const metadata = doc.paths["/auth/saml/metadata"]!.get! as unknown as {
      responses: Record<string, { content?: object }>;
    };
    expect(Object.keys(metadata.responses["200"]!.content!)).toEqual(["application/samlmetadata+xml"]);
    expect((doc as unknown as { info: { description: string } }).info.description).toMatch(/X-CSRF-Token/);
  });

  it("is OpenAPI 3.1 with resolvable component references", () => {
    expect((doc as unknown as { openapi: string }).openapi).toBe("3.1.0");
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    for (const ref of new Set(refs)) expect(Object.keys(doc.components.schemas)).toContain(ref.split("/").pop());
  });

  it("documents error responses and request bodies", () => {
    const create = doc.paths["/v1/evaluations"]!.post!;
    for (const s of ["201", "400", "401", "403", "422", "429", "500"])
      expect(Object.keys(create.responses)).toContain(s);
    expect(create.requestBody).toBeDefined();
    expect(Object.keys(doc.paths["/v1/health"]!.get!.responses)).not.toContain("401");
  });

  it("lists the API's scopes as @verdict/kit grants them, where identity.proto lists them for OAuth clients", () => {
    // The proto cannot import the list: it repeats it, and this keeps the copies equal.
    type Scopes = { properties: { scopes: { items: { enum: string[] } } } };
    const scopes = (name: string) => (doc.components.schemas[name] as Scopes).properties.scopes.items.enum;
    for (const name of ["OAuthClient", "CreateOAuthClient", "CreateApiKey"])
      expect(scopes(name)).toEqual([...API_SCOPES]);
  });

  it("lists the live verification providers as @verdict/kit supports them, where identity.proto lists them", () => {
    type Org = {
      properties: {
        settings: { properties: { live_verification: { properties: { providers: { items: { enum: string[] } } } } } };
      };
    };
    const organization = doc.components.schemas.Organization as Org;
    expect(organization.properties.settings.properties.live_verification.properties.providers.items.enum).toEqual([
      ...LIVE_VERIFICATION_PROVIDERS,
    ]);
  });
});
