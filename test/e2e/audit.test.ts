// The audit log over real HTTP: every security event, newest first, with filters and cursor
// pagination, readable with read:org, and one organization's never shown to another.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { verifyAuditChain, type ChainedAuditEvent } from "@verdict/sdk";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { auditEventMatching, auditEventOfRequest } from "../support/audit.js";
import { addMember, as, signIn, type Person } from "../support/people.js";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let op: Api;
let owner: Person;
let viewerId: string;
let keyId: string;
const PASSWORD = "correct horse battery staple";
const started = new Date(Date.now() - 1000).toISOString();

beforeAll(async () => {
  // A webhook to a local address, for its audit events (nothing is delivered to it).
  v = await startVerdict({ env: { VERDICT_WEBHOOK_ALLOW_HTTP: "true", VERDICT_WEBHOOK_ALLOW_PRIVATE: "true" } });
  op = new Api(v.url, v.bootstrapKey);
  await addMember(op, "olivia@example.test", "owner", PASSWORD);
  owner = await signIn(op, "olivia@example.test", PASSWORD);
  viewerId = await addMember(op, "vic@example.test", "viewer", PASSWORD, { as: as(owner) });
  expect(
    (await op.post("/auth/login", { email: "vic@example.test", password: "wrong password!" }, { key: null })).status,
  ).toBe(401);
  await op.patch(`/v1/members/${viewerId}`, { role: "member" }, as(owner));
  keyId = (await op.post("/v1/api-keys", { name: "ci", scopes: ["read:org"] }, as(owner))).body.id;
  await op.delete(`/v1/api-keys/${keyId}`, as(owner));
  await op.delete(`/v1/members/${viewerId}`, as(owner));
});
afterAll(async () => v.destroy());

describe("GET /v1/audit-events", () => {
  it("records every security event, newest first, with who did it from where", async () => {
    const res = await op.get("/v1/audit-events", { query: { limit: 100 } });
    expect(res.status).toBe(200);
    const events = res.body.audit_events as {
      id: string;
      type: string;
      actor: { type: string; id: string; ip: string | null };
      target: { type: string; id: string };
      data: Record<string, unknown>;
    }[];
    const ids = events.map((e) => e.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    const types = events.map((e) => e.type).reverse();
    expect(types).toEqual(
      expect.arrayContaining([
        "member.invited",
        "member.joined",
        "signin.succeeded",
        "signin.failed",
        "member.role_changed",
        "api_key.created",
        "api_key.revoked",
        "member.removed",
      ]),
    );
    const ownerId = owner.login.body.session.user.id;
    const roleChange = events.find((e) => e.type === "member.role_changed")!;
    expect(roleChange).toMatchObject({
      actor: { type: "user", id: ownerId, ip: expect.stringMatching(/127\.0\.0\.1/) },
      target: { type: "user", id: viewerId },
      data: { from: "viewer", to: "member" },
    });
    expect(events.find((e) => e.type === "api_key.revoked")).toMatchObject({
      target: { type: "api_key", id: keyId },
      actor: { id: ownerId },
    });
    expect(events.find((e) => e.type === "signin.failed")).toMatchObject({
      target: { id: viewerId },
      data: { reason: "password" },
    });
    // never a secret
    expect(res.text).not.toMatch(/vdt_(key|ses|inv)_[0-9A-Za-z]{20,}/);
    expect(res.text).not.toContain(PASSWORD);
  });

  it("filters by type, actor and time, and pages with a cursor", async () => {
    const ownerId = owner.login.body.session.user.id;
    const byType = await op.get("/v1/audit-events", { query: { type: "member.invited" } });
    expect(byType.body.audit_events.map((e: { type: string }) => e.type)).toEqual(["member.invited", "member.invited"]);
    const byActor = await op.get("/v1/audit-events", { query: { actor: ownerId, limit: 100 } });
    expect(byActor.body.audit_events.length).toBeGreaterThan(3);
    expect(byActor.body.audit_events.every((e: { actor: { id: string } }) => e.actor.id === ownerId)).toBe(true);
    expect((await op.get("/v1/audit-events", { query: { until: started } })).body.audit_events).toEqual([]);
    const all = (await op.get("/v1/audit-events", { query: { since: started, limit: 100 } })).body.audit_events.map(
      (e: { id: string }) => e.id,
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await op.get("/v1/audit-events", { query: { since: started, limit: 3, cursor } });
      seen.push(...page.body.audit_events.map((e: { id: string }) => e.id));
      cursor = page.body.pagination.next_cursor ?? undefined;
      expect(page.body.pagination.has_more).toBe(cursor !== undefined);
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it("rejects bad filters with the exact field", async () => {
    expectFieldError(
      await op.get("/v1/audit-events", { query: { type: "coffee.brewed" } }),
      400,
      "type",
      "INVALID_ENUM",
    );
    expectFieldError(
      await op.get("/v1/audit-events", { query: { since: "yesterday" } }),
      400,
      "since",
      "INVALID_FORMAT",
    );
    expectFieldError(await op.get("/v1/audit-events", { query: { limit: 0 } }), 400, "limit", "MIN_SIZE_REQUIRED");
    expectFieldError(
      await op.get("/v1/audit-events", { query: { cursor: "bm90LW91cnM" } }),
      422,
      "cursor",
      "INVALID_FORMAT",
    );
  });

  it("needs read:org, and shows another organization none of these", async () => {
    const readEvals = await op.post("/v1/api-keys", { name: "evals", scopes: ["read:evaluations"] });
    expectError(
      await op.withKey(readEvals.body.key).get("/v1/audit-events"),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_SCOPE",
    );
    const other = await op.post("/v1/organizations", { name: "Initech" });
    const initech = op.withKey(other.body.api_key.key);
    await auditEventMatching(initech, (e) => e.type === "api_key.created");
    const theirs = (await initech.get("/v1/audit-events", { query: { limit: 100 } })).body.audit_events;
    // Its own creation and its first key, nothing of the operator's organization.
    expect(theirs.map((e: { type: string }) => e.type).sort()).toEqual(["api_key.created", "organization.created"]);
    expect(JSON.stringify(theirs)).not.toContain(owner.login.body.session.user.id);
  });
});

describe("the instance operator's changes in the organization's own log", () => {
  it("records an organization's creation and each change of its rate limits, with the operator's key and request", async () => {
    const created = await op.post("/v1/organizations", {
      name: "Umbrella",
      plan: "team",
      rate_limits: { per_minute: 600 },
    });
    expect(created.status).toBe(201);
    const orgId = created.body.organization.id as string;
    const umbrella = op.withKey(created.body.api_key.key);
    const operatorKey = (await op.get("/v1/api-keys")).body.api_keys.find(
      (k: { name: string }) => k.name === "Bootstrap (instance operator)",
    ).id as string;

    const birth = await auditEventOfRequest(umbrella, created.headers.get("x-request-id"));
    expect(birth).toMatchObject({
      type: "organization.created",
      actor: { type: "api_key", id: operatorKey, ip: expect.stringMatching(/127\.0\.0\.1/) },
      credential: { type: "api_key", id: operatorKey },
      target: { type: "organization", id: orgId },
    });
    expect(birth.data.changes).toEqual({
      name: { before: null, after: "Umbrella" },
      plan: { before: null, after: "team" },
      "rate_limits.per_minute": { before: null, after: 600 },
    });

    const raised = await op.patch(`/v1/organizations/${orgId}`, { rate_limits: { per_minute: 1200, per_day: 50_000 } });
    expect(raised.status).toBe(200);
    const change = await auditEventOfRequest(umbrella, raised.headers.get("x-request-id"));
    expect(change).toMatchObject({
      type: "organization.limits_updated",
      actor: { type: "api_key", id: operatorKey },
      target: { type: "organization", id: orgId },
    });
    expect(change.data.changes).toEqual({
      "rate_limits.per_day": { before: null, after: 50_000 },
      "rate_limits.per_minute": { before: 600, after: 1200 },
    });

    // Back to the plan's defaults: every override shown as removed.
    const reset = await op.patch(`/v1/organizations/${orgId}`, { rate_limits: {} });
    expect((await auditEventOfRequest(umbrella, reset.headers.get("x-request-id"))).data.changes).toEqual({
      "rate_limits.per_day": { before: 50_000, after: null },
      "rate_limits.per_minute": { before: 1200, after: null },
    });

    // The chain still verifies with these events in it, and the operator's own log has none of them.
    const exported = await fetch(`${v.url}/v1/audit-events/export`, {
      headers: { authorization: `Bearer ${created.body.api_key.key}` },
    });
    expect(exported.status).toBe(200);
    const chain = (await exported.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as ChainedAuditEvent);
    expect(chain.map((e) => e.type)).toEqual(
      expect.arrayContaining(["organization.created", "organization.limits_updated"]),
    );
    expect(verifyAuditChain(chain)).toMatchObject({ ok: true, checked: chain.length });
    const mine = (await op.get("/v1/audit-events", { query: { limit: 100 } })).body.audit_events;
    expect(JSON.stringify(mine)).not.toContain(orgId);
  });
});

// Configuration changes are written by the service that owns them, with the change (its outbox),
// and reach the audit log over the bus: the event of a request is found by its X-Request-Id.
describe("configuration changes in the audit log", () => {
  it("records a policy's disable, severity and settings change with the before/after, key and request", async () => {
    const before = (await op.get("/v1/policies/hardcoded-credentials")).body;
    const res = await op.patch("/v1/policies/hardcoded-credentials", {
      enabled: false,
      severity: "warning",
      settings: { detect_api_keys: true },
    });
    expect(res.status).toBe(200);
    const event = await auditEventOfRequest(op, res.headers.get("x-request-id"));
    expect(event).toMatchObject({
      type: "policy.disabled",
      actor: { type: "api_key", id: expect.stringMatching(/^key_/), ip: expect.stringMatching(/127\.0\.0\.1/) },
      credential: { type: "api_key" },
      target: { type: "policy", id: "hardcoded-credentials" },
    });
    expect(event.credential!.id).toBe(event.actor.id);
    expect(event.data.changes).toEqual({
      enabled: { before: true, after: false },
      severity: { before: before.severity, after: "warning" },
      "settings.detect_api_keys": { before: false, after: true },
    });

    // A reset to the default (null) and turning it back on: policy.enabled, only what changed.
    const back = await op.patch("/v1/policies/hardcoded-credentials", {
      enabled: true,
      settings: { detect_api_keys: null },
    });
    const enabled = await auditEventOfRequest(op, back.headers.get("x-request-id"));
    expect(enabled.type).toBe("policy.enabled");
    expect(enabled.data.changes).toEqual({
      enabled: { before: false, after: true },
      "settings.detect_api_keys": { before: true, after: false },
    });
  });

  it("records require_evaluation_pass turned off by a signed-in owner, with the session", async () => {
    const res = await op.patch("/v1/organization", { settings: { require_evaluation_pass: false } }, as(owner));
    expect(res.status).toBe(200);
    const event = await auditEventOfRequest(op, res.headers.get("x-request-id"));
    expect(event).toMatchObject({
      type: "organization.updated",
      actor: { type: "user", id: owner.login.body.session.user.id },
      credential: { type: "session", id: owner.login.body.session.id },
      target: { type: "organization", id: res.body.id },
      data: { changes: { "settings.require_evaluation_pass": { before: true, after: false } } },
    });
    expect(Object.keys(event.data.changes!)).toEqual(["settings.require_evaluation_pass"]);
    await op.patch("/v1/organization", { settings: { require_evaluation_pass: true } });
  });

  it("records custom policies created and deleted, and repositories connected and disconnected", async () => {
    const created = await op.post("/v1/policies", {
      id: "no-todo-audit",
      name: "No TODO",
      severity: "warning",
      patterns: [{ type: "regex", value: "TODO", message: "A TODO" }],
    });
    expect(created.status).toBe(201);
    expect(await auditEventOfRequest(op, created.headers.get("x-request-id"))).toMatchObject({
      type: "policy.created",
      target: { type: "policy", id: "no-todo-audit" },
      data: {
        name: "No TODO",
        changes: { enabled: { before: null, after: true }, severity: { before: null, after: "warning" } },
      },
    });
    const deleted = await op.delete("/v1/policies/no-todo-audit");
    expect(deleted.status).toBe(204);
    expect(await auditEventOfRequest(op, deleted.headers.get("x-request-id"))).toMatchObject({
      type: "policy.deleted",
      target: { id: "no-todo-audit" },
      data: { changes: { enabled: { before: true, after: null } } },
    });

    const repo = await op.post("/v1/repositories", { provider: "github", name: "acme/audited" });
    expect(repo.status).toBe(201);
    expect(await auditEventOfRequest(op, repo.headers.get("x-request-id"))).toMatchObject({
      type: "repository.connected",
      target: { type: "repository", id: repo.body.id },
      data: {
        changes: {
          provider: { before: null, after: "github" },
          name: { before: null, after: "acme/audited" },
          default_branch: { before: null, after: "main" },
        },
      },
    });
    const gone = await op.delete(`/v1/repositories/${repo.body.id}`);
    expect(gone.status).toBe(204);
    expect(await auditEventOfRequest(op, gone.headers.get("x-request-id"))).toMatchObject({
      type: "repository.disconnected",
      target: { type: "repository", id: repo.body.id },
      data: { changes: { name: { before: "acme/audited", after: null } } },
    });
    // A refused change records nothing: the built-in cannot be deleted.
    const refused = await op.delete("/v1/policies/hardcoded-credentials");
    expect(refused.status).toBe(422);
    const types = (await op.get("/v1/audit-events", { query: { type: "policy.deleted", limit: 100 } })).body
      .audit_events as { target: { id: string } }[];
    expect(types.map((e) => e.target.id)).toEqual(["no-todo-audit"]);
  });
});

describe("webhook, evaluation and report events in the audit log", () => {
  it("records webhooks created, updated and deleted, never the secret nor the URL's path", async () => {
    const url = "http://127.0.0.1:9/hooks/verdict?token=receiver-own-token";
    const created = await op.post("/v1/webhooks", { url, events: ["evaluation.completed"] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const made = await auditEventOfRequest(op, created.headers.get("x-request-id"));
    expect(made).toMatchObject({
      type: "webhook.created",
      target: { type: "webhook", id },
      data: {
        secret: "generated",
        changes: {
          url_origin: { before: null, after: "http://127.0.0.1:9" },
          url_sha256: { before: null, after: expect.stringMatching(/^[0-9a-f]{64}$/) },
          events: { before: null, after: ["evaluation.completed"] },
          status: { before: null, after: "active" },
        },
      },
    });
    const updated = await op.patch(`/v1/webhooks/${id}`, { status: "disabled", events: ["policy.violation"] });
    expect(updated.status).toBe(200);
    expect((await auditEventOfRequest(op, updated.headers.get("x-request-id"))).data.changes).toEqual({
      events: { before: ["evaluation.completed"], after: ["policy.violation"] },
      status: { before: "active", after: "disabled" },
    });
    const deleted = await op.delete(`/v1/webhooks/${id}`);
    expect(deleted.status).toBe(204);
    expect(await auditEventOfRequest(op, deleted.headers.get("x-request-id"))).toMatchObject({
      type: "webhook.deleted",
      data: { changes: { status: { before: "disabled", after: null } } },
    });
    const log = (await op.get("/v1/audit-events", { query: { limit: 100 } })).text;
    expect(log).not.toContain(created.body.secret);
    expect(log).not.toContain("receiver-own-token");
    expect(log).not.toContain("/hooks/verdict");
  });

  it("records an evaluation deleted, with what it was", async () => {
    const ev = await op.post("/v1/evaluations", {
      repository: "acme/audited",
      ref: "main",
      files: [{ path: "a.txt", content: "nothing to see" }],
    });
    expect(ev.status).toBe(201);
    const gone = await op.delete(`/v1/evaluations/${ev.body.id}`);
    expect(gone.status).toBe(204);
    expect(await auditEventOfRequest(op, gone.headers.get("x-request-id"))).toMatchObject({
      type: "evaluation.deleted",
      target: { type: "evaluation", id: ev.body.id },
      data: {
        violations: 0,
        changes: {
          status: { before: "completed", after: null },
          repository: { before: "acme/audited", after: null },
          passed: { before: true, after: null },
        },
      },
    });
  });

  it("records a report requested and each download of its file, by address", async () => {
    const day = new Date().toISOString().slice(0, 10);
    const res = await op.post("/v1/compliance/reports", {
      frameworks: ["soc2"],
      format: "oscal",
      date_range: { start: day, end: day },
    });
    expect(res.status).toBe(202);
    const id = res.body.report_id as string;
    expect(await auditEventOfRequest(op, res.headers.get("x-request-id"))).toMatchObject({
      type: "report.created",
      actor: { type: "api_key" },
      target: { type: "report", id },
      data: { changes: { format: { before: null, after: "oscal" }, frameworks: { before: null, after: ["soc2"] } } },
    });
    let report = res.body;
    for (let i = 0; i < 240 && report.status === "generating"; i++) {
      await new Promise((r) => setTimeout(r, 250));
      report = (await op.get(`/v1/compliance/reports/${id}`)).body;
    }
    expect(report.status).toBe("completed");
    const file = await fetch(report.download_url);
    expect(file.status).toBe(200);
    await file.arrayBuffer();
    const downloaded = await auditEventOfRequest(op, file.headers.get("x-request-id"));
    expect(downloaded).toMatchObject({
      type: "report.downloaded",
      actor: { type: "anonymous", id: "", ip: expect.stringMatching(/127\.0\.0\.1/) },
      credential: null,
      target: { type: "report", id },
      data: { format: "oscal", size_bytes: report.size_bytes },
    });
    // A refused download (a bad signature) records nothing.
    const bad = new URL(report.download_url);
    bad.searchParams.set("signature", "0".repeat(64));
    expect((await fetch(bad)).status).toBe(403);
    await auditEventMatching(op, (e) => e.type === "report.downloaded");
    const downloads = (await op.get("/v1/audit-events", { query: { type: "report.downloaded" } })).body.audit_events;
    expect(downloads).toHaveLength(1);
  });
});
