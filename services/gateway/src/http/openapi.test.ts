import { describe, expect, it } from "@jest/globals";
import { createLogger } from "@verdict/kit";
import { connectClients } from "../clients.js";
import { REQUEST_SCHEMA_IDS } from "../main.js";
import { routes } from "../routes/index.js";
import { buildApp } from "./app.js";
import { Authenticator } from "./auth.js";
import { buildOpenApi } from "./openapi.js";
import { RateLimiter, SPEC_DEFAULTS } from "./rateLimit.js";

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
  components: { schemas: Record<string, unknown> };
};

describe("OpenAPI document", () => {
  const doc = buildOpenApi(routes, REQUEST_SCHEMA_IDS) as unknown as Doc;

  it("documents every /v1 and /auth route the express app really serves", () => {
    // Clients are created but never called: the app is only inspected.
    const clients = connectClients({
      identity: "127.0.0.1:1",
      policy: "127.0.0.1:1",
      evaluation: "127.0.0.1:1",
      compliance: "127.0.0.1:1",
      webhooks: "127.0.0.1:1",
    });
    const logger = createLogger("test", "silent");
    const app = buildApp({
      routes,
      clients,
      authenticator: new Authenticator(clients, logger, 0),
      limiter: new RateLimiter(SPEC_DEFAULTS),
      logger,
      bodyLimitBytes: 1024,
      trustProxy: false,
      requestSchemaIds: REQUEST_SCHEMA_IDS,
    });
    clients.close();
    const served: string[] = [];
    for (const layer of (
      app as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }
    ).router.stack) {
      if (!layer.route || !/^\/(v1|auth)\//.test(layer.route.path) || layer.route.path === "/v1/openapi.json") continue;
      for (const m of Object.keys(layer.route.methods))
        served.push(`${m} ${layer.route.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`);
    }
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    expect(served.length).toBeGreaterThan(20);
    expect(served.sort()).toEqual(documented.sort());
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
});
