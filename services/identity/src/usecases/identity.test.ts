import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { InProcessBus, TOPICS, type CloudEvent } from "@verdict/bus";
import { randomBytes } from "node:crypto";
import { AppError, createLogger, Egress, LIVE_VERIFICATION_PROVIDERS, SecretBox } from "@verdict/kit";
import { argon2Passwords } from "../passwords.js";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import { openIdentityRepos } from "../repos/index.js";
import { OidcDiscoveryCache } from "./sso/oidcDiscovery.js";
import { generateKey, hashKey } from "../domain/apiKey.js";
import type { IdentityDeps } from "../deps.js";
import type { OrgRecord } from "../repos/organizationRepo.js";
import { IDENTITY_COLLECTIONS } from "../repos/collections.js";
import { createApiKey } from "./apiKeys/createApiKey.js";
import { revokeApiKey } from "./apiKeys/revokeApiKey.js";
import { ensureBootstrap } from "./bootstrap.js";
import { createOrganization } from "./organizations/createOrganization.js";
import { getOrganizationSettings } from "./organizations/getOrganizationSettings.js";
import { updateOrganization } from "./organizations/updateOrganization.js";
import { verifyKey } from "./apiKeys/verifyKey.js";

// Nothing here reaches an IdP: a guard that lets no private address through.
const egress = new Egress({ allowPrivate: false });

let now = new Date("2026-06-01T12:00:00.000Z");
let store: SqliteStore;
let bus: InProcessBus;
let deps: IdentityDeps;

beforeEach(async () => {
  store = new SqliteStore(":memory:");
  bus = new InProcessBus(createLogger("t", "silent"), 5);
  // These use cases never reach the policy service: a fake that fails the test if one does.
  const policy: IdentityDeps["policy"] = {
    countRepositories: () => Promise.reject(new Error("the policy service is not part of these tests")),
  };
  const outbox = new Outbox({ bus, logger: createLogger("t", "silent") });
  const repos = await openIdentityRepos(store, outbox);
  deps = {
    ...repos,
    bus,
    outbox,
    clock: { now: () => now },
    logger: createLogger("t", "silent"),
    policy,
    passwords: argon2Passwords(),
    totpBox: new SecretBox(randomBytes(32)),
    oauthServerSecret: randomBytes(32),
    oidcDiscovery: new OidcDiscoveryCache(0, egress),
    egress,
    sessionPolicy: { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 },
  };
});
afterEach(async () => {
  await deps.outbox.stop();
  await bus.close();
  await store.close();
});

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return (err as AppError).code;
  }
  return "OK";
};

describe("verifyKey", () => {
  it("checks presence, format, existence, revocation, expiry and allowlist in that order", async () => {
    const { org } = await createOrganization(deps, { name: "Acme", plan: "team" });
    const { record, key } = await createApiKey(deps, {
      organizationId: org.id,
      name: "k",
      scopes: ["read:org"],
      expiration: "30m",
      environment: "prod",
      ipAllowlist: ["10.0.0.0/8"],
    });
    expect(await codeOf(verifyKey(deps, { key: "", clientIp: "10.0.0.1" }))).toBe("AUTH_MISSING_KEY");
    expect(await codeOf(verifyKey(deps, { key: "vdt_key_prod_nope", clientIp: "10.0.0.1" }))).toBe("AUTH_INVALID_KEY");
    expect(await codeOf(verifyKey(deps, { key: generateKey("prod"), clientIp: "10.0.0.1" }))).toBe("AUTH_INVALID_KEY");
    expect(await codeOf(verifyKey(deps, { key, clientIp: "192.168.0.1" }))).toBe("AUTH_IP_NOT_ALLOWED");
    const ok = await verifyKey(deps, { key, clientIp: "10.1.1.1" });
    expect(ok.key.id).toBe(record.id);
    expect(ok.org.id).toBe(org.id);
    now = new Date(now.getTime() + 31 * 60_000);
    expect(await codeOf(verifyKey(deps, { key, clientIp: "10.1.1.1" }))).toBe("AUTH_EXPIRED_KEY");
  });

  it("records last use at most once a minute", async () => {
    const { key, keyRecord } = await createOrganization(deps, { name: "Acme", plan: "free" });
    await verifyKey(deps, { key, clientIp: "127.0.0.1" });
    const first = (await deps.keys.find(keyRecord.organization_id, keyRecord.id))!.last_used_at;
    expect(first).toBe(now.toISOString());
    now = new Date(now.getTime() + 30_000);
    await verifyKey(deps, { key, clientIp: "127.0.0.1" });
    expect((await deps.keys.find(keyRecord.organization_id, keyRecord.id))!.last_used_at).toBe(first);
  });

  it("writes a key's last use once while its write is under way, and the next verification does not wait for it", async () => {
    const { keyRecord } = await createOrganization(deps, { name: "Acme", plan: "free" });
    const lastUsed = async () => (await deps.keys.find(keyRecord.organization_id, keyRecord.id))!.last_used_at;
    const writing = deps.keys.touch(keyRecord.id, "2026-06-01T12:01:00.000Z").then(() => "first");
    const skipped = deps.keys.touch(keyRecord.id, "2026-06-01T12:01:00.500Z").then(() => "second");
    expect(await Promise.race([writing, skipped])).toBe("second");
    await Promise.all([writing, skipped]);
    expect(await lastUsed()).toBe("2026-06-01T12:01:00.000Z");
    // Once that write is done, the key's next use is written again.
    await deps.keys.touch(keyRecord.id, "2026-06-01T12:02:30.000Z");
    expect(await lastUsed()).toBe("2026-06-01T12:02:30.000Z");
  });
});

describe("revokeApiKey", () => {
  it("revokes once, announces it on the bus, and then answers RESOURCE_DELETED", async () => {
    const events: CloudEvent<{ key_id: string }>[] = [];
    await bus.subscribe<{ key_id: string }>(TOPICS.keyRevoked, "t", async (e) => void events.push(e));
    const { org } = await createOrganization(deps, { name: "Acme", plan: "free" });
    const { record, key } = await createApiKey(deps, {
      organizationId: org.id,
      name: "k",
      scopes: ["admin"],
      expiration: "never",
      environment: "test",
      ipAllowlist: [],
    });
    await revokeApiKey(deps, { organizationId: org.id, keyId: record.id });
    expect(await codeOf(verifyKey(deps, { key, clientIp: "127.0.0.1" }))).toBe("AUTH_REVOKED_KEY");
    expect(await codeOf(revokeApiKey(deps, { organizationId: org.id, keyId: record.id }))).toBe("RESOURCE_DELETED");
    expect(await codeOf(revokeApiKey(deps, { organizationId: "org_other", keyId: record.id }))).toBe(
      "RESOURCE_NOT_FOUND",
    );
    await bus.close();
    expect(events.map((e) => e.data.key_id)).toEqual([record.id]);
  });
});

describe("ensureBootstrap", () => {
  it("generates an operator key on the first start only", async () => {
    const first = await ensureBootstrap(deps, { configuredKey: undefined });
    expect(first.generatedKey).toMatch(/^vdt_key_prod_/);
    const verified = await verifyKey(deps, { key: first.generatedKey!, clientIp: "127.0.0.1" });
    expect(verified.key.operator).toBe(true);
    expect(verified.key.scopes).toEqual(["admin"]);
    expect(await ensureBootstrap(deps, { configuredKey: undefined })).toEqual({});
  });

  it("adopts a configured key idempotently, in the configured environment", async () => {
    const configured = generateKey("test");
    await ensureBootstrap(deps, { configuredKey: configured });
    await ensureBootstrap(deps, { configuredKey: configured });
    expect(await deps.keys.count()).toBe(1);
    expect(await deps.orgs.count()).toBe(1);
    const v = await verifyKey(deps, { key: configured, clientIp: "::1" });
    expect(v.key).toMatchObject({ operator: true, environment: "test" });
    // a changed configured key joins the same default organization
    const next = generateKey("prod");
    await ensureBootstrap(deps, { configuredKey: next });
    expect((await verifyKey(deps, { key: next, clientIp: "::1" })).org.id).toBe(v.org.id);
  });

  it("retires the previous operator key when another one is configured, and refuses the old one back", async () => {
    const first = generateKey("prod");
    await ensureBootstrap(deps, { configuredKey: first });
    const second = generateKey("prod");
    await ensureBootstrap(deps, { configuredKey: second });
    expect(await codeOf(verifyKey(deps, { key: first, clientIp: "::1" }))).toBe("AUTH_REVOKED_KEY");
    const old = await deps.keys.byHash(hashKey(first));
    expect(old).toMatchObject({ operator: false, retired_at: expect.any(String), revoked_at: null });
    expect((await verifyKey(deps, { key: second, clientIp: "::1" })).key.operator).toBe(true);
    await revokeApiKey(deps, { organizationId: old!.organization_id, keyId: old!.id });
    await expect(ensureBootstrap(deps, { configuredKey: first })).rejects.toThrow(
      "VERDICT_BOOTSTRAP_API_KEY names a key that was revoked",
    );
  });
});

describe("organization settings", () => {
  it("allow inline suppression by default, for organizations stored before the setting existed too", async () => {
    const { org } = await createOrganization(deps, { name: "Acme", plan: "free" });
    expect(await getOrganizationSettings(deps, { organizationId: org.id })).toEqual({
      default_severity: "error",
      require_evaluation_pass: true,
      allow_inline_suppression: true,
      require_mfa: false,
      require_connected_repository: false,
      audit_retention_days: null,
      live_verification: { enabled: false, providers: [] },
    });
    // a document written by an earlier version, without the setting (past the repository, which
    // keeps records in today's shape)
    await store
      .collection<OrgRecord>(IDENTITY_COLLECTIONS.orgs)
      .updateOne({ id: org.id }, {}, ["settings.allow_inline_suppression", "settings.require_connected_repository"]);
    expect(await getOrganizationSettings(deps, { organizationId: org.id })).toMatchObject({
      allow_inline_suppression: true,
      require_connected_repository: false,
    });
    await deps.orgs.update(org.id, {
      settings: {
        default_severity: "error",
        require_evaluation_pass: true,
        allow_inline_suppression: false,
        require_mfa: false,
        require_connected_repository: false,
      },
    });
    expect((await getOrganizationSettings(deps, { organizationId: org.id })).allow_inline_suppression).toBe(false);
    expect(await codeOf(getOrganizationSettings(deps, { organizationId: "org_missing" }))).toBe("RESOURCE_NOT_FOUND");
  });

  it("refuses an audit retention under 90 days, whoever calls (the gateway refuses it first)", async () => {
    const { org } = await createOrganization(deps, { name: "Acme", plan: "free" });
    expect(await codeOf(updateOrganization(deps, { organizationId: org.id, auditRetentionDays: 89 }))).toBe(
      "VALIDATION_FAILED",
    );
    expect((await getOrganizationSettings(deps, { organizationId: org.id })).audit_retention_days).toBeNull();
  });

  it("live verification: off by default; on with no provider named, every supported one; what is not given stays", async () => {
    const { org } = await createOrganization(deps, { name: "Acme", plan: "free" });
    // The answer counts the organization's repositories (the policy service's): none here.
    const withPolicy: IdentityDeps = { ...deps, policy: { countRepositories: async () => ({ count: 0 }) } };
    const update = (liveVerification: { enabled?: boolean; providers?: string[] }) =>
      updateOrganization(withPolicy, { organizationId: org.id, liveVerification });
    const setting = async () => (await getOrganizationSettings(deps, { organizationId: org.id })).live_verification;
    expect(await setting()).toEqual({ enabled: false, providers: [] });
    await update({ enabled: true });
    expect(await setting()).toEqual({ enabled: true, providers: [...LIVE_VERIFICATION_PROVIDERS] });
    await update({ enabled: false });
    expect(await setting()).toEqual({ enabled: false, providers: [...LIVE_VERIFICATION_PROVIDERS] });
    await update({ providers: ["aws", "aws"] });
    expect(await setting()).toEqual({ enabled: false, providers: ["aws"] });
    // A provider it cannot ask, whoever calls (the gateway refuses it first): the field named, nothing changed.
    const refused = await update({ enabled: true, providers: ["aws", "example"] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).details).toMatchObject({
      errors: [{ field: "settings.live_verification.providers[1]", code: "INVALID_ENUM" }],
    });
    expect(await setting()).toEqual({ enabled: false, providers: ["aws"] });
  });
});
