// Attacks on the gateway's HTTP surface, against the real all-in-one process over real HTTP on
// 127.0.0.1 (issue 13): malformed paths, hostile settings and query parameters, allowlists that
// say nothing, webhook URLs aimed at loopback through IPv6 forms, cacheable secrets, slow
// clients, public metrics and forged X-Forwarded-For chains. Each test reproduces the attack and
// asserts what the attacker (and everyone else) sees.
import { generateKeyPairSync } from "node:crypto";
import { connect, createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { startVerdict, type Verdict } from "../support/server.js";

/** A GitHub App's private key (the connection's shape is checked before its address). */
const GITHUB_APP_KEY = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
}).privateKey;

/** The server's log lines (JSON) at level error or above. */
const errorLines = (v: Verdict) =>
  v
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((l) => l.level >= 50);

describe("hostile requests get the spec's errors, never a 500", () => {
  let v: Verdict;
  let api: Api;

  beforeAll(async () => {
    // A low per-address limit, so that throttling of malformed requests shows in a few calls.
    v = await startVerdict({ env: { VERDICT_RATE_LIMIT_PER_MINUTE: "30", VERDICT_WEBHOOK_ALLOW_HTTP: "false" } });
    api = new Api(v.url, v.bootstrapKey);
  });
  afterAll(async () => v.destroy());

  it("answers a malformed percent-encoding in a path parameter with 400 on that parameter, throttled, with nothing logged as an error", async () => {
    const evaluation = await api.get("/v1/evaluations/%ZZ", { unchecked: true });
    expectFieldError(evaluation, 400, "evaluation_id", "INVALID_FORMAT");
    expect(evaluation.headers.get("x-ratelimit-limit")).toBe("30");
    expect(evaluation.headers.get("cache-control")).toBe("no-store");
    // The public report download route (no key) and a nested parameter
    expectFieldError(
      await api.get("/v1/compliance/reports/%E0%A4%A/download?expires=1&signature=x", { key: null, unchecked: true }),
      400,
      "report_id",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await api.request("POST", "/v1/webhooks/wh_1/deliveries/%ZZ/redeliver", { unchecked: true }),
      400,
      "delivery_id",
      "INVALID_FORMAT",
    );
    expectFieldError(await api.get("/%ZZ", { key: null, unchecked: true }), 400, "path", "INVALID_FORMAT");
    // Counted against the address: the limit runs out and the answer becomes 429.
    let last = evaluation;
    for (let i = 0; i < 40 && last.status !== 429; i++)
      last = await api.get("/v1/evaluations/%ZZ", { key: null, unchecked: true });
    expectError(last, 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
    expect(last.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(errorLines(v)).toEqual([]);
  });
});

describe("policy settings and query parameters", () => {
  let v: Verdict;
  let api: Api;

  beforeAll(async () => {
    v = await startVerdict();
    api = new Api(v.url, v.bootstrapKey);
  });
  afterAll(async () => v.destroy());

  it("refuses settings named after Object.prototype members with 422 on the setting", async () => {
    for (const key of ["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__"]) {
      const res = await api.request("PATCH", "/v1/policies/generic-secrets", { rawBody: `{"settings":{"${key}":1}}` });
      expectFieldError(res, 422, `settings.${key}`, "INVALID_FORMAT");
    }
    // The policy still works and its real setting is unchanged
    const policy = await api.get("/v1/policies/generic-secrets");
    expect(policy.status).toBe(200);
    expect(Object.keys(policy.body.settings)).not.toContain("constructor");
    expect(Object.hasOwn(policy.body.settings, "__proto__")).toBe(false);
    // Beside a real setting, `__proto__` is still refused, and the real setting is not applied
    const mixed = await api.request("PATCH", "/v1/policies/generic-secrets", {
      rawBody: `{"settings":{"min_entropy":4.2,"__proto__":{"min_entropy":1}}}`,
    });
    expectFieldError(mixed, 422, "settings.__proto__", "INVALID_FORMAT");
    expect((await api.get("/v1/policies/generic-secrets")).body.settings.min_entropy).toBe(
      policy.body.settings.min_entropy,
    );
  });

  it("refuses a setting nested 40 levels deep with 400 on the setting", async () => {
    let value: unknown = 1;
    for (let i = 0; i < 40; i++) value = { a: value };
    const res = await api.patch("/v1/policies/generic-secrets", { settings: { min_entropy: value } });
    expectFieldError(res, 400, "settings.min_entropy", "MAX_SIZE_EXCEEDED", { max: 8 });
    // Shallow nesting reaches the policy service's own check (422: not a number)
    expectFieldError(
      await api.patch("/v1/policies/generic-secrets", { settings: { min_entropy: { a: 1 } } }),
      422,
      "settings.min_entropy",
      "INVALID_FORMAT",
    );
    expect(errorLines(v)).toEqual([]);
  });

  it("refuses dates that do not exist in since and until", async () => {
    for (const [name, value] of [
      ["since", "2026-02-30"],
      ["until", "2025-02-29T00:00:00Z"],
      ["since", "2026-04-31"],
    ] as const) {
      expectFieldError(await api.get("/v1/evaluations", { query: { [name]: value } }), 422, name, "INVALID_FORMAT");
    }
    expect(
      (await api.get("/v1/evaluations", { query: { since: "2024-02-29", until: "2026-12-31T23:59:59Z" } })).status,
    ).toBe(200);
  });

  it("refuses a forged cursor with 422 on cursor", async () => {
    const forged = [
      // shaped like ours, naming an evaluation that does not exist (or is another organization's)
      Buffer.from(JSON.stringify({ v: 1, id: "eval_01jd0000000000000000000000" })).toString("base64url"),
      Buffer.from(JSON.stringify({ v: 1, id: "eval_../../etc" })).toString("base64url"),
      Buffer.from(JSON.stringify({ v: 2, id: "eval_01jd0000000000000000000000" })).toString("base64url"),
      Buffer.from("not json at all").toString("base64url"),
      "AAAA",
    ];
    for (const cursor of forged)
      expectFieldError(await api.get("/v1/evaluations", { query: { cursor } }), 422, "cursor", "INVALID_FORMAT");
    // A real cursor still pages
    for (let i = 0; i < 3; i++) {
      const created = await api.post("/v1/evaluations", {
        repository: "acme/pages",
        ref: "main",
        files: [{ path: "a.txt", content: `page ${i}` }],
      });
      expect(created.status).toBe(201);
    }
    const first = await api.get("/v1/evaluations", { query: { repository: "acme/pages", limit: 2 } });
    expect(first.body.pagination.has_more).toBe(true);
    const second = await api.get("/v1/evaluations", {
      query: { repository: "acme/pages", limit: 2, cursor: first.body.pagination.next_cursor },
    });
    expect(second.status).toBe(200);
    expect(second.body.evaluations).toHaveLength(1);
  });

  it("refuses an IP allowlist without any address instead of creating an unrestricted key", async () => {
    for (const allowlist of [",,,", " , ", "10.0.0.0/8,", ",127.0.0.1"]) {
      const res = await api.post("/v1/api-keys", {
        name: "hollow allowlist",
        scopes: ["read:org"],
        ip_allowlist: allowlist,
      });
      expectFieldError(res, 400, "ip_allowlist", "INVALID_FORMAT");
    }
    const keys = await api.get("/v1/api-keys");
    expect(keys.body.api_keys.filter((k: { name: string }) => k.name === "hollow allowlist")).toEqual([]);
  });

  it("refuses webhook URLs that reach loopback or metadata through IPv4-mapped or -translated IPv6", async () => {
    for (const url of [
      "https://[::ffff:0:127.0.0.1]/hook",
      "https://[::ffff:0:7f00:1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[::ffff:0:169.254.169.254]/hook",
      "https://[0:0:0:0:ffff:0:a00:1]/hook",
      "https://[64:ff9b::10.0.0.1]/hook",
    ]) {
      expectFieldError(
        await api.post("/v1/webhooks", { url, events: ["evaluation.completed"] }),
        422,
        "url",
        "INVALID_FORMAT",
      );
    }
    expect((await api.get("/v1/webhooks")).body.webhooks).toEqual([]);
  });

  it("refuses provider connections to loopback, private, link-local and metadata addresses, before calling them", async () => {
    // A listener on loopback that a refused connection must never reach.
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const { port } = listener.address() as { port: number };
    try {
      for (const baseUrl of [
        `http://127.0.0.1:${port}`,
        `http://localhost:${port}`,
        "http://169.254.169.254",
        "https://10.0.0.1",
        "https://192.168.1.10/api/v3",
      ]) {
        const res = await api.post("/v1/integrations/connections", {
          provider: baseUrl.endsWith("/api/v3") ? "github" : "gitea",
          base_url: baseUrl,
          ...(baseUrl.endsWith("/api/v3")
            ? { app_id: "1", private_key: GITHUB_APP_KEY }
            : { token: "a-gitea-token-0123456789" }),
          webhook_secret: "webhook-secret-0123456789",
        });
        expectError(res, 422, "validation_error", "PROVIDER_ADDRESS_NOT_ALLOWED");
        expect(res.body.details).toMatchObject({ field: "base_url" });
      }
      // An IP literal in brackets (IPv6, IPv4-mapped) is not a base URL the API takes at all.
      expectFieldError(
        await api.post("/v1/integrations/connections", {
          provider: "gitea",
          base_url: `http://[::ffff:127.0.0.1]:${port}`,
          token: "a-gitea-token-0123456789",
          webhook_secret: "webhook-secret-0123456789",
        }),
        400,
        "base_url",
        "INVALID_FORMAT",
      );
      expect(connections).toBe(0);
      expect((await api.get("/v1/integrations/connections")).body.connections).toEqual([]);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it("marks responses carrying keys, secrets, evaluations and reports Cache-Control: no-store", async () => {
    const key = await api.post("/v1/api-keys", { name: "cache probe", scopes: ["read:org"] });
    expect(key.status).toBe(201);
    expect(key.headers.get("cache-control")).toBe("no-store");
    expect((await api.get("/v1/api-keys")).headers.get("cache-control")).toBe("no-store");
    const evaluation = await api.post("/v1/evaluations", {
      repository: "acme/app",
      ref: "main",
      files: [{ path: "config.py", content: 'AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"\n' }],
    });
    expect(evaluation.status).toBe(201);
    expect(evaluation.headers.get("cache-control")).toBe("no-store");
    expect((await api.get(`/v1/evaluations/${evaluation.body.id}`)).headers.get("cache-control")).toBe("no-store");
    const webhook = await api.post("/v1/webhooks", {
      url: "https://hooks.example.com/verdict",
      events: ["evaluation.completed"],
    });
    expect(webhook.status).toBe(201);
    expect(webhook.headers.get("cache-control")).toBe("no-store");
    const report = await api.post("/v1/compliance/reports", {
      frameworks: ["soc2"],
      format: "oscal",
      date_range: "30d",
    });
    expect(report.headers.get("cache-control")).toBe("no-store");
    let status = report.body;
    for (let i = 0; i < 120 && status.status === "generating"; i++) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await api.get(`/v1/compliance/reports/${report.body.report_id}`)).body;
    }
    expect(status.status).toBe("completed");
    const download = await fetch(status.download_url.replace(/^https?:\/\/[^/]+/, v.url));
    expect(download.status).toBe(200);
    expect(download.headers.get("cache-control")).toBe("no-store");
    // errors too
    expect((await api.get("/v1/evaluations/eval_01jd0000000000000000000000")).headers.get("cache-control")).toBe(
      "no-store",
    );
  });
});

describe("slow clients", () => {
  let v: Verdict;

  beforeAll(async () => {
    v = await startVerdict({ env: { VERDICT_REQUEST_TIMEOUT_MS: "2000", VERDICT_HEADERS_TIMEOUT_MS: "1000" } });
  });
  afterAll(async () => v.destroy());

  /** Sends `head`, then one byte of `trickle` every `everyMs`, and resolves with what came back and when. */
  const slowLoris = (head: string, trickle: string, everyMs: number) =>
    new Promise<{ answer: string; afterMs: number }>((resolve, reject) => {
      const started = Date.now();
      const socket = connect(v.port, "127.0.0.1", () => socket.write(head));
      let answer = "";
      let i = 0;
      const timer = setInterval(() => {
        if (i < trickle.length && !socket.destroyed) socket.write(trickle[i++]!);
      }, everyMs);
      socket.on("data", (d) => (answer += d.toString("utf8")));
      socket.on("error", () => undefined);
      socket.on("close", () => {
        clearInterval(timer);
        resolve({ answer, afterMs: Date.now() - started });
      });
      setTimeout(() => {
        clearInterval(timer);
        socket.destroy();
        reject(new Error(`the server still held the slow connection after 20 s; it answered: ${answer}`));
      }, 20_000);
    });

  it("answers a request body that trickles in with 408 and closes, within the configured time", async () => {
    const body = JSON.stringify({
      repository: "acme/app",
      ref: "main",
      files: [{ path: "a.txt", content: "x".repeat(200) }],
    });
    const head =
      `POST /v1/evaluations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${v.bootstrapKey}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { answer, afterMs } = await slowLoris(head, body, 200);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeLessThan(8_000);
  });

  it("closes a connection whose headers trickle in", async () => {
    const { answer, afterMs } = await slowLoris(
      "GET /v1/health HTTP/1.1\r\n",
      "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      200,
    );
    expect(answer === "" || /^HTTP\/1\.1 408 /.test(answer)).toBe(true);
    expect(afterMs).toBeLessThan(8_000);
  });

  it("still serves clients that send at a normal pace", async () => {
    const res = await fetch(`${v.url}/v1/health`);
    expect(res.status).toBe(200);
  });
});

describe("metrics", () => {
  let v: Verdict;

  beforeAll(async () => {
    v = await startVerdict();
  });
  afterAll(async () => v.destroy());

  it("are not served on the API port", async () => {
    const api = new Api(v.url);
    expectError(await api.get("/metrics", { unchecked: true }), 404, "not_found", "RESOURCE_NOT_FOUND");
  });

  it("are served on the metrics port, and a client that scrapes in a loop is throttled there", async () => {
    const first = await fetch(v.metricsUrl);
    expect(first.status).toBe(200);
    expect(await first.text()).toMatch(/verdict_http_request_duration_seconds/);
    let last = first;
    for (let i = 0; i < 70 && last.status === 200; i++) {
      last = await fetch(v.metricsUrl);
      await last.arrayBuffer();
    }
    expect(last.status).toBe(429);
    expect(last.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("X-Forwarded-For behind a trusted proxy", () => {
  let v: Verdict;
  let api: Api;

  beforeAll(async () => {
    // One proxy in front of Verdict (the old `true`), and a low per-address limit.
    v = await startVerdict({ env: { VERDICT_TRUST_PROXY: "true", VERDICT_RATE_LIMIT_PER_MINUTE: "20" } });
    api = new Api(v.url, v.bootstrapKey);
  });
  afterAll(async () => v.destroy());

  it("does not let a client pick its address with a forged left-most entry: IP allowlists hold", async () => {
    const created = await api.post("/v1/api-keys", {
      name: "office only",
      scopes: ["read:org"],
      ip_allowlist: "10.1.0.0/16",
    });
    expect(created.status).toBe(201);
    const office = api.withKey(created.body.key);
    // The proxy appended the real client (203.0.113.9) to what the client sent (10.1.2.3).
    expectError(
      await office.get("/v1/organization", { headers: { "x-forwarded-for": "10.1.2.3, 203.0.113.9" } }),
      403,
      "forbidden",
      "AUTH_IP_NOT_ALLOWED",
    );
    // A client really inside the range, as the proxy reports it, gets in.
    expect(
      (await office.get("/v1/organization", { headers: { "x-forwarded-for": "198.51.100.7, 10.1.2.3" } })).status,
    ).toBe(200);
  });

  it("does not let a client escape its per-address limit by rotating the forged entry", async () => {
    let last;
    for (let i = 0; i < 30; i++) {
      last = await api.get("/v1/auth/verify", {
        key: "vdt_key_prod_guessing",
        headers: { "x-forwarded-for": `10.9.${i}.1, 203.0.113.50` },
      });
      if (last.status === 429) break;
    }
    expectError(last!, 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
    // Another real client behind the same proxy is not affected.
    const other = await api.get("/v1/auth/verify", {
      key: "vdt_key_prod_guessing",
      headers: { "x-forwarded-for": "203.0.113.51" },
    });
    expectError(other, 401, "unauthorized", "AUTH_INVALID_KEY");
  });
});
