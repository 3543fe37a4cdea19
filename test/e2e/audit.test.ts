// The audit log over real HTTP: every security event, newest first, with filters and cursor
// pagination, readable with read:org, and one organization's never shown to another.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { auditEventOfRequest } from "../support/audit.js";
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
  v = await startVerdict();
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
    const theirs = (await initech.get("/v1/audit-events", { query: { limit: 100 } })).body.audit_events;
    expect(theirs.map((e: { type: string }) => e.type)).toEqual(["api_key.created"]);
    expect(JSON.stringify(theirs)).not.toContain(owner.login.body.session.user.id);
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
