// The process as an operator meets it: configuration checks, first start, restarts, SIGTERM
// draining, logs without secrets, security headers, body limits, metrics, gRPC health and
// reflection on every service.
import { spawnSync } from "node:child_process";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { makeKey } from "../support/keys.js";
import { MAIN, ROOT, startVerdict, type Verdict } from "../support/server.js";
import { grpcHealth, grpcListServices } from "../support/grpc.js";

const running: Verdict[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const v of running) await v.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const start = async (...args: Parameters<typeof startVerdict>) => {
  const v = await startVerdict(...args);
  running.push(v);
  return v;
};
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "verdict-life-"));
  dirs.push(d);
  return d;
};

describe("configuration", () => {
  it("refuses to start with invalid settings and names each one", () => {
    const res = spawnSync(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        VERDICT_HTTP_PORT: "eighty",
        VERDICT_BOOTSTRAP_API_KEY: "vdt_key_prod_short",
        VERDICT_DATA_DIR: tempDir(),
      },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain("VERDICT_HTTP_PORT");
    expect(res.stderr).toContain("VERDICT_BOOTSTRAP_API_KEY");
    expect(res.stderr).not.toContain("at ");
  });

  it("exits 1 with the reason when the HTTP port is taken, leaving nothing running", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const started = Date.now();
      const res = spawnSync(process.execPath, [MAIN], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          VERDICT_HTTP_PORT: String(port),
          VERDICT_HTTP_HOST: "127.0.0.1",
          VERDICT_DATA_DIR: tempDir(),
        },
        encoding: "utf8",
        timeout: 30_000,
      });
      // spawnSync returns once the process has exited: services, threads and all.
      expect(res.signal).toBeNull();
      expect(res.status).toBe(1);
      expect(res.stderr).toContain("EADDRINUSE");
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      taken.close();
    }
  });
});

describe("first start without a configured key", () => {
  it("prints a generated operator key once, which works, and not again on restart", async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir, env: { VERDICT_BOOTSTRAP_API_KEY: "" } });
    // In distributed mode the banner (identity's stderr) and the ready lines (stdout) are two
    // pipes, so the banner may reach us a moment after the gateway's ready line.
    const keyPattern = /(vdt_key_prod_[0-9A-Za-z]{38})/;
    for (const until = Date.now() + 5_000; !keyPattern.test(first.output()) && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    const printed = keyPattern.exec(first.output());
    expect(printed).not.toBeNull();
    const key = printed![1]!;
    const api = new Api(first.url, key);
    expect((await api.get("/v1/auth/verify")).status).toBe(200);
    // the structured logs never carry it: only the one banner line does
    expect(first.output().split(key).length - 1).toBe(1);
    expect(await first.stop()).toBe(0);

    const second = await start({ dataDir, env: { VERDICT_BOOTSTRAP_API_KEY: "" } });
    expect(second.output()).not.toMatch(/vdt_key_prod_[0-9A-Za-z]{38}/);
    expect((await new Api(second.url, key).get("/v1/auth/verify")).status).toBe(200);
  });
});

describe("restart", () => {
  it("keeps everything in the data directory", async () => {
    const dataDir = tempDir();
    const key = makeKey();
    const first = await start({ dataDir, bootstrapKey: key });
    const api = new Api(first.url, key);
    const e = await api.post("/v1/evaluations", {
      repository: "acme/durable",
      ref: "main",
      files: [{ path: "a", content: "AKIAZ7VQ3X4M2N8P5R6T" }],
    });
    await api.post("/v1/policies", {
      id: "durable-rule",
      name: "Durable",
      severity: "error",
      patterns: [{ type: "regex", value: "DURABLE", message: "d" }],
    });
    const extra = await api.post("/v1/api-keys", { name: "kept", scopes: ["read:evaluations"] });
    expect(await first.stop()).toBe(0);

    const second = await start({ dataDir, bootstrapKey: key });
    const api2 = new Api(second.url, key);
    const again = await api2.get(`/v1/evaluations/${e.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(e.body);
    expect((await api2.get("/v1/policies/durable-rule")).status).toBe(200);
    expect((await api2.get("/v1/evaluations", { key: extra.body.key })).status).toBe(200);
  });
});

describe("SIGTERM", () => {
  it("lets an in-flight request finish, then exits 0", async () => {
    const v = await start();
    const body = JSON.stringify({
      repository: "acme/slow",
      ref: "main",
      files: [{ path: "a.js", content: `const k = "AKIAZ7VQ3X4M2N8P5R6T";\n`.repeat(1000) }],
    });
    const half = Math.floor(body.length / 2);
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${v.url}/v1/evaluations`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${v.bootstrapKey}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      });
      req.on("response", (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      req.write(body.slice(0, half));
      // The request is now in flight: stop the server, then finish sending.
      setTimeout(() => {
        v.proc.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(half)), 300);
      }, 200);
    });
    const res = await response;
    // The whole answer on a mismatch (once a 503 here, whose reason was not shown).
    expect(res.status === 201 ? res.status : res).toBe(201);
    expect(JSON.parse(res.text).summary.total_violations).toBe(1000);
    expect(await v.stop()).toBe(0);
    expect(v.output()).toContain("shutting down");
  });
});

describe("a running instance", () => {
  let v: Verdict;
  let api: Api;
  it("starts with a small body limit and a low anonymous limit", async () => {
    v = await start({ env: { VERDICT_MAX_BODY_BYTES: "4096", VERDICT_RATE_LIMIT_PER_MINUTE: "60" } });
    api = new Api(v.url, v.bootstrapKey);
  });

  it("sends security headers and a request id on every response", async () => {
    const res = await api.get("/v1/health", { key: null });
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("default-src");
    expect(res.headers.get("strict-transport-security")).toBeTruthy();
    expect(res.headers.get("x-powered-by")).toBeNull();
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
  });

  it("answers an oversized body with 413 MAX_SIZE_EXCEEDED on `body`", async () => {
    const res = await api.post("/v1/evaluations", {
      repository: "acme/x",
      ref: "main",
      files: [{ path: "a", content: "x".repeat(5000) }],
    });
    expectFieldError(res, 413, "body", "MAX_SIZE_EXCEEDED", { max: 4096 });
  });

  it("answers unknown routes with 404 in the error format", async () => {
    const res = await api.get("/v1/nope");
    expectError(res, 404, "not_found", "RESOURCE_NOT_FOUND");
    expect(res.body.details.resource_type).toBe("route");
    const wrongMethod = await api.request("PUT", "/v1/evaluations");
    expectError(wrongMethod, 405, "method_not_allowed", "METHOD_NOT_ALLOWED");
    expect(wrongMethod.headers.get("allow")).toBe("POST, GET, HEAD");
    // A literal route beside a templated one (/v1/policies/{policy_id}) names its own methods.
    const literal = await api.request("PUT", "/v1/policies/pattern-tests");
    expectError(literal, 405, "method_not_allowed", "METHOD_NOT_ALLOWED");
    expect(literal.headers.get("allow")).toBe("POST");
  });

  it("answers a wrong method on the OAuth server's endpoints and SSO's pages with 405 and Allow too", async () => {
    const cases: [string, string, string][] = [
      ["PUT", "/auth/oauth/token", "POST"],
      ["GET", "/auth/oauth/revoke", "POST"],
      ["DELETE", "/auth/oauth/authorize", "GET, HEAD"],
      ["PATCH", "/auth/oauth/interaction/some-uid", "GET, HEAD"],
      ["PUT", "/.well-known/oauth-authorization-server", "GET, HEAD"],
      ["POST", "/auth/oidc/callback", "GET, HEAD"],
      ["GET", "/auth/saml/acs", "POST"],
      ["OPTIONS", "/auth/oauth/token", "POST"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await api.request(method, path, { key: null });
      expect({ method, path, status: res.status, allow: res.headers.get("allow") }).toEqual({
        method,
        path,
        status: 405,
        allow,
      });
      expectError(res, 405, "method_not_allowed", "METHOD_NOT_ALLOWED");
    }
    // A browser's CORS preflight of the token endpoint is still the authorization server's.
    const preflight = await fetch(`${v.url}/auth/oauth/token`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
  });

  it("logs requests as JSON with their request id, never the key", async () => {
    const legacy = await api.get("/v1/auth/verify", { key: null, query: { api_key: v.bootstrapKey } });
    expect(legacy.status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    const lines = v
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    const logged = lines.find((l) => l.request_id === legacy.headers.get("x-request-id") && l.msg === "request");
    expect(logged).toMatchObject({
      msg: "request",
      method: "GET",
      path: "/v1/auth/verify",
      status: 200,
      route: "/v1/auth/verify",
    });
    expect(lines.some((l) => l.level === 40 && /api_key/.test(l.msg))).toBe(true);
    expect(v.output()).not.toContain(v.bootstrapKey);
  });

  it("throttles unauthenticated callers by address", async () => {
    let last;
    for (let i = 0; i < 70; i++) {
      last = await api.get("/v1/auth/verify", { key: "vdt_key_prod_guessing" });
      if (last.status === 429) break;
    }
    expectError(last!, 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
    expect(last!.body.details).toMatchObject({ limit: 60, window: "1m" });
  });

  it("exposes Prometheus metrics for HTTP and gRPC on the metrics port", async () => {
    const res = await fetch(v.metricsUrl);
    const text = await res.text();
    // the address is throttled on the API by now (previous test), yet metrics still answer
    expect(res.status).toBe(200);
    expect(text).toMatch(/verdict_http_request_duration_seconds_count\{[^}]*route="\/v1\/auth\/verify"/);
    // Distributed: each service process serves its own metrics (VERDICT_METRICS_PORT).
    const identityPort = v.stack?.services.identity.ready.metrics_port;
    const served = identityPort ? await (await fetch(`http://127.0.0.1:${identityPort}/metrics`)).text() : text;
    expect(served).toMatch(
      /verdict_grpc_server_handling_seconds_count\{[^}]*service="verdict.identity.v1.IdentityService",method="verifyKey"/,
    );
    expect(text).toMatch(/verdict_grpc_client_handling_seconds_count/);
  });

  it("serves gRPC health checking and reflection on every service port", async () => {
    const expected = {
      identity: "verdict.identity.v1.IdentityService",
      policy: "verdict.policy.v1.PolicyService",
      evaluation: "verdict.evaluation.v1.EvaluationService",
      webhooks: "verdict.webhooks.v1.WebhookService",
    } as const;
    for (const [name, service] of Object.entries(expected)) {
      const port = v.grpcPorts[name as keyof typeof expected];
      expect(await grpcHealth(port, service)).toBe("SERVING");
      expect(await grpcHealth(port, "")).toBe("SERVING");
      expect(await grpcListServices(port)).toEqual(expect.arrayContaining([service]));
    }
  });
});
