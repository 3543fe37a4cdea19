// Rate limits: per endpoint and per organization, headers on every response, the spec's 429.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError } from "../support/api.js";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let operator: Api;

const newOrg = async (rate_limits?: Record<string, number>) => {
  const res = await operator.post("/v1/organizations", {
    name: `org ${Math.random()}`,
    ...(rate_limits ? { rate_limits } : {}),
  });
  expect(res.status).toBe(201);
  return { api: operator.withKey(res.body.api_key.key), id: res.body.organization.id as string };
};

const expectRateHeaders = (res: { headers: Headers }) => {
  for (const h of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-window"]) {
    expect({ h, v: Number.isInteger(Number(res.headers.get(h))) && res.headers.get(h) !== null }).toEqual({
      h,
      v: true,
    });
  }
};

beforeAll(async () => {
  v = await startVerdict();
  operator = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => v.destroy());

describe("headers", () => {
  it("are on successes, errors, unauthenticated and unknown routes alike", async () => {
    const org = await newOrg();
    expectRateHeaders(await org.api.get("/v1/policies"));
    expectRateHeaders(await org.api.get("/v1/health", { key: null }));
    expectRateHeaders(await org.api.get("/v1/evaluations", { key: null }));
    expectRateHeaders(await org.api.get("/v1/nothing-here"));
    expectRateHeaders(await org.api.post("/v1/evaluations", { nope: 1 }));
  });

  it("count down per endpoint class", async () => {
    const org = await newOrg();
    const first = await org.api.get("/v1/evaluations");
    const second = await org.api.get("/v1/evaluations");
    expect(first.headers.get("x-ratelimit-limit")).toBe("100");
    expect(first.headers.get("x-ratelimit-window")).toBe("60");
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(
      Number(first.headers.get("x-ratelimit-remaining")) - 1,
    );
    const reset = Number(first.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
  });
});

describe("limits", () => {
  it("POST /v1/evaluations allows 60 a minute, then answers the spec's 429", async () => {
    const org = await newOrg();
    const body = { repository: "acme/x", ref: "main", files: [{ path: "a", content: "b" }] };
    for (let i = 0; i < 60; i++) expect((await org.api.post("/v1/evaluations", body)).status).toBe(201);
    const res = await org.api.post("/v1/evaluations", body);
    expectError(res, 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
    expect(res.body.details).toEqual({ limit: 60, window: "1m", retry_after: expect.any(Number) });
    expect(res.body.details.retry_after).toBeGreaterThan(0);
    expect(res.body.details.retry_after).toBeLessThanOrEqual(60);
    expect(res.headers.get("retry-after")).toBe(String(res.body.details.retry_after));
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    // other endpoints of the same organization still work
    expect((await org.api.get("/v1/evaluations")).status).toBe(200);
  });

  it("GET /v1/evaluations allows 100 a minute and other reads 200", async () => {
    const org = await newOrg();
    for (let i = 0; i < 100; i++) expect((await org.api.get("/v1/evaluations")).status).toBe(200);
    expectError(await org.api.get("/v1/evaluations"), 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
    for (let i = 0; i < 200; i++) expect((await org.api.get("/v1/policies")).status).toBe(200);
    const res = await org.api.get("/v1/repositories");
    expectError(res, 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
    expect(res.body.details).toMatchObject({ limit: 200, window: "1m" });
  });

  it("applies an organization's own limits, set by the instance operator", async () => {
    const org = await newOrg({ per_minute: 5 });
    for (let i = 0; i < 5; i++) expect((await org.api.get("/v1/policies")).status).toBe(200);
    const res = await org.api.get("/v1/organization");
    expectError(res, 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
    expect(res.body.details).toMatchObject({ limit: 5, window: "1m" });
    // another organization is not affected
    expect((await operator.get("/v1/policies")).status).toBe(200);

    const patched = await operator.patch(`/v1/organizations/${org.id}`, {
      rate_limits: { per_minute: 50, evaluations_create_per_minute: 7 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.rate_limits).toEqual({ per_minute: 50, evaluations_create_per_minute: 7 });
    // an organization's own admin cannot raise its limits
    const other = await newOrg();
    expectError(
      await other.api.patch(`/v1/organizations/${other.id}`, { rate_limits: { per_minute: 1e6 } }),
      403,
      "forbidden",
      "AUTH_ORG_ACCESS_DENIED",
    );
  });

  it("validates limit overrides", async () => {
    const res = await operator.post("/v1/organizations", { name: "x", rate_limits: { per_minute: 0, per_week: 3 } });
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "rate_limits.per_minute", code: "MIN_SIZE_REQUIRED" }),
        expect.objectContaining({ field: "rate_limits.per_week", code: "INVALID_FORMAT" }),
      ]),
    );
    expectError(
      await operator.patch("/v1/organizations/org_00000000000000000000000000", { rate_limits: { per_minute: 5 } }),
      404,
      "not_found",
      "RESOURCE_NOT_FOUND",
    );
  });
});

describe("the readiness probe", () => {
  let small: Verdict;
  beforeAll(async () => {
    small = await startVerdict({ env: { VERDICT_RATE_LIMIT_PER_MINUTE: "5" } });
  });
  afterAll(async () => small.destroy());

  it("stays 200 while its address is rate limited (behind a NodePort the kubelet shares the clients' address)", async () => {
    const anonymous = new Api(small.url);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await anonymous.get("/v1/health", { key: null })).status);
    // (startVerdict spent some of the five on its own checks.)
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(429);
    expectError(await anonymous.get("/v1/health", { key: null }), 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
    for (let i = 0; i < 20; i++) {
      const ready = await anonymous.get("/v1/health/ready", { key: null });
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe("ready");
      // The headers show the address's exhausted limit; the probe spends nothing from it.
      expectRateHeaders(ready);
      expect(ready.headers.get("x-ratelimit-remaining")).toBe("0");
    }
    // Still limited for everything else from that address.
    expectError(await anonymous.get("/v1/health", { key: null }), 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
  });
});
