// The people use cases on the embedded store with a fake clock: what needs time to pass
// (invitation expiry, idle and absolute session timeouts) and what needs the bus (audit events).
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { InProcessBus, TOPICS, type CloudEvent } from "@verdict/bus";
import { AppError, createLogger, Egress, SecretBox } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import { openIdentityRepos } from "../repos/index.js";
import { OidcDiscoveryCache } from "./sso/oidcDiscovery.js";
import type { IdentityDeps } from "../deps.js";
import { argon2Passwords } from "../passwords.js";
import type { AuditRecord } from "../repos/auditRepo.js";
import { createApiKey } from "./apiKeys/createApiKey.js";
import { findOrCreateAccount } from "./accounts/findOrCreateAccount.js";
import { acceptInvitation } from "./members/acceptInvitation.js";
import { issuePasswordReset } from "./passwords/issuePasswordReset.js";
import { resetPassword } from "./passwords/resetPassword.js";
import { inviteMember } from "./members/inviteMember.js";
import { removeMember } from "./members/removeMember.js";
import { updateMemberRole } from "./members/updateMemberRole.js";
import { verifyKey } from "./apiKeys/verifyKey.js";
import { createOrganization } from "./organizations/createOrganization.js";
import { login } from "./sessions/login.js";
import { logout } from "./sessions/logout.js";
import { verifySession } from "./sessions/verifySession.js";

// Nothing here reaches an IdP: a guard that lets no private address through.
const egress = new Egress({ allowPrivate: false });

let now = new Date("2026-06-01T12:00:00.000Z");
let store: SqliteStore;
let bus: InProcessBus;
let deps: IdentityDeps;
const actor = { type: "system" as const, id: "test", ip: "" };
const PASSWORD = "correct horse battery staple";

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
    sessionPolicy: { idleMs: 30 * 60_000, absoluteMs: 2 * 3_600_000 },
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

async function member(orgId: string, email: string): Promise<void> {
  const { token } = await inviteMember(deps, { organizationId: orgId, email, role: "member", actor });
  await acceptInvitation(deps, { token, name: "Ada", password: PASSWORD, clientIp: "127.0.0.1" });
}

async function sessionToken(email: string): Promise<string> {
  const res = await login(deps, { email, password: PASSWORD, clientIp: "127.0.0.1", userAgent: "jest" });
  if (res.kind !== "session") throw new Error("expected a session");
  return res.token;
}

describe("invitations", () => {
  it("expire after 7 days, and a newer invitation replaces the older link", async () => {
    const { org } = await createOrganization(deps, { name: "Acme", plan: "team" });
    const first = await inviteMember(deps, { organizationId: org.id, email: "ada@acme.test", role: "viewer", actor });
    const second = await inviteMember(deps, { organizationId: org.id, email: "ada@acme.test", role: "member", actor });
    expect(
      await codeOf(acceptInvitation(deps, { token: first.token, name: "Ada", password: PASSWORD, clientIp: "" })),
    ).toBe("RESOURCE_NOT_FOUND");
    now = new Date(now.getTime() + 7 * 86_400_000);
    expect(
      await codeOf(acceptInvitation(deps, { token: second.token, name: "Ada", password: PASSWORD, clientIp: "" })),
    ).toBe("INVITATION_EXPIRED");
    const third = await inviteMember(deps, { organizationId: org.id, email: "ada@acme.test", role: "member", actor });
    const joined = await acceptInvitation(deps, { token: third.token, name: "Ada", password: PASSWORD, clientIp: "" });
    expect(joined.member).toMatchObject({ role: "member", status: "active" });
    // only a hash of the token was ever stored
    const stored = JSON.stringify(await deps.members.all());
    expect(stored).not.toContain(third.token);
    const user = await deps.accounts.byEmail("ada@acme.test");
    expect(user!.password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe("sessions", () => {
  it("end after the idle timeout, and use keeps them alive until the absolute one", async () => {
    const { org } = await createOrganization(deps, { name: "Acme", plan: "team" });
    await member(org.id, "ada@acme.test");
    const idle = await sessionToken("ada@acme.test");
    const busy = await sessionToken("ada@acme.test");
    for (let i = 0; i < 5; i++) {
      now = new Date(now.getTime() + 20 * 60_000);
      expect((await verifySession(deps, { token: busy })).email).toBe("ada@acme.test");
    }
    expect(await codeOf(verifySession(deps, { token: idle }))).toBe("AUTH_SESSION_EXPIRED");
    // 100 minutes in; the absolute timeout is 2 hours
    now = new Date(now.getTime() + 20 * 60_000);
    expect(await codeOf(verifySession(deps, { token: busy }))).toBe("AUTH_SESSION_EXPIRED");
  });

  it("are revoked by sign-out, and stored only as hashes", async () => {
    const { org } = await createOrganization(deps, { name: "Acme", plan: "team" });
    await member(org.id, "ada@acme.test");
    const token = await sessionToken("ada@acme.test");
    expect(JSON.stringify(await deps.sessions.all())).not.toContain(token);
    await logout(deps, { token, clientIp: "127.0.0.1" });
    expect(await codeOf(verifySession(deps, { token: token }))).toBe("AUTH_INVALID_SESSION");
    await logout(deps, { token, clientIp: "127.0.0.1" });
  });

  it("unlock after the lockout has run out", async () => {
    const { org } = await createOrganization(deps, { name: "Acme", plan: "team" });
    await member(org.id, "ada@acme.test");
    for (let i = 0; i < 5; i++)
      expect(
        await codeOf(
          login(deps, { email: "ada@acme.test", password: "wrong", clientIp: `10.0.0.${i}`, userAgent: "" }),
        ),
      ).toBe("AUTH_INVALID_CREDENTIALS");
    expect(await codeOf(sessionToken("ada@acme.test"))).toBe("AUTH_LOCKED_OUT");
    now = new Date(now.getTime() + 30_001);
    expect(await sessionToken("ada@acme.test")).toMatch(/^vdt_ses_/);
  });
});

describe("audit events", () => {
  it("are published on the bus as they are recorded", async () => {
    const seen: CloudEvent<AuditRecord>[] = [];
    await bus.subscribe<AuditRecord>(TOPICS.auditRecorded, "t", async (e) => void seen.push(e));
    const { org } = await createOrganization(deps, { name: "Acme", plan: "team" });
    await member(org.id, "ada@acme.test");
    await sessionToken("ada@acme.test");
    await deps.outbox.stop();
    await bus.close();
    expect(seen.map((e) => e.data.type).sort()).toEqual([
      "api_key.created",
      "member.invited",
      "member.joined",
      "signin.succeeded",
    ]);
    expect(seen.every((e) => e.data.organization_id === org.id)).toBe(true);
  });
});

describe("the role ceiling on API keys", () => {
  async function joined(orgId: string, email: string, role: string): Promise<string> {
    const { token } = await inviteMember(deps, { organizationId: orgId, email, role, actor });
    await acceptInvitation(deps, { token, name: "Ada", password: PASSWORD, clientIp: "127.0.0.1" });
    return (await deps.accounts.byEmail(email))!.id;
  }

  it("makes a person's keys, and the keys those create, act with the person's current role", async () => {
    const { org, keyRecord: first } = await createOrganization(deps, { name: "Acme", plan: "team" });
    const ownerId = await joined(org.id, "owner@acme.test", "owner");
    const adminId = await joined(org.id, "admin@acme.test", "admin");
    const made = await createApiKey(deps, {
      organizationId: org.id,
      name: "laptop",
      scopes: ["admin"],
      expiration: "never",
      ipAllowlist: [],
      creatorUserId: adminId,
    });
    const child = await createApiKey(deps, {
      organizationId: org.id,
      name: "child",
      scopes: ["admin"],
      expiration: "never",
      ipAllowlist: [],
      creatorKeyId: made.record.id,
    });
    expect([made.record.created_by_user_id, child.record.created_by_user_id]).toEqual([adminId, adminId]);
    // A key made by a person-less key has no person behind it.
    const ci = await createApiKey(deps, {
      organizationId: org.id,
      name: "ci",
      scopes: ["admin"],
      expiration: "never",
      ipAllowlist: [],
      creatorKeyId: first.id,
    });
    expect(ci.record.created_by_user_id).toBeNull();

    // Only owners touch owners, whichever of the admin's keys acts.
    for (const k of [made.record, child.record]) {
      const keyActor = { type: "api_key" as const, id: k.id, ip: "" };
      expect(
        await codeOf(
          updateMemberRole(deps, { organizationId: org.id, userId: ownerId, role: "admin", actor: keyActor }),
        ),
      ).toBe("AUTH_INSUFFICIENT_ROLE");
      expect(await codeOf(removeMember(deps, { organizationId: org.id, userId: ownerId, actor: keyActor }))).toBe(
        "AUTH_INSUFFICIENT_ROLE",
      );
      expect(
        await codeOf(
          inviteMember(deps, { organizationId: org.id, email: "eve@acme.test", role: "owner", actor: keyActor }),
        ),
      ).toBe("AUTH_INSUFFICIENT_ROLE");
    }
    const ciActor = { type: "api_key" as const, id: ci.record.id, ip: "" };
    const invited = await inviteMember(deps, {
      organizationId: org.id,
      email: "o2@acme.test",
      role: "owner",
      actor: ciActor,
    });
    expect(invited.member.role).toBe("owner");

    // Demoted: the keys narrow at the next verification, and gateways are told to forget them.
    const announced: string[] = [];
    await bus.subscribe<{ key_id: string; reason?: string }>(TOPICS.keyRevoked, "t", async (e) => {
      if (e.data.reason === "creator_role_changed") announced.push(e.data.key_id);
    });
    expect((await verifyKey(deps, { key: made.key, clientIp: "127.0.0.1" })).scopes).toContain("admin");
    await updateMemberRole(deps, { organizationId: org.id, userId: adminId, role: "viewer", actor });
    const narrowed = await verifyKey(deps, { key: child.key, clientIp: "127.0.0.1" });
    expect(narrowed.scopes.sort()).toEqual(["read:evaluations", "read:org", "read:policies"]);
    expect(
      await codeOf(
        createApiKey(deps, {
          organizationId: org.id,
          name: "again",
          scopes: ["admin"],
          expiration: "never",
          ipAllowlist: [],
          creatorKeyId: made.record.id,
        }),
      ),
    ).toBe("VALIDATION_FAILED");
    await deps.outbox.stop();
    await bus.close();
    expect(announced.sort()).toEqual([made.record.id, child.record.id].sort());

    // Removed: every key they made is revoked.
    await removeMember(deps, { organizationId: org.id, userId: adminId, actor });
    for (const k of [made.key, child.key])
      expect(await codeOf(verifyKey(deps, { key: k, clientIp: "127.0.0.1" }))).toBe("AUTH_REVOKED_KEY");
    expect((await verifyKey(deps, { key: ci.key, clientIp: "127.0.0.1" })).scopes).toEqual(["admin"]);
  });
});

describe("accounts across organizations", () => {
  it("count each password check before it is made: 40 concurrent guesses get at most 5 checks", async () => {
    const { org } = await createOrganization(deps, { name: "Acme", plan: "team" });
    await member(org.id, "ada@acme.test");
    let checks = 0;
    const real = deps.passwords;
    deps = {
      ...deps,
      passwords: { ...real, verify: (stored, p) => (checks++, real.verify(stored, p)) },
    };
    const codes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        codeOf(login(deps, { email: "ada@acme.test", password: `wrong ${i}`, clientIp: `10.1.0.${i}`, userAgent: "" })),
      ),
    );
    expect(checks).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === "AUTH_INVALID_CREDENTIALS")).toHaveLength(checks);
    expect(codes.filter((c) => c === "AUTH_LOCKED_OUT")).toHaveLength(40 - checks);
  });

  it("keep an account an SSO sign-in made bound: an invitation elsewhere joins it only signed in", async () => {
    const { org: b } = await createOrganization(deps, { name: "Globex", plan: "enterprise" });
    const { org: h } = await createOrganization(deps, { name: "Hooli", plan: "team" });
    const sam = await findOrCreateAccount(deps, {
      email: "sam@globex.test",
      name: "Sam",
      id: "user_sam",
      boundTo: b.id,
    });
    const { token } = await inviteMember(deps, {
      organizationId: h.id,
      email: "sam@globex.test",
      role: "admin",
      actor,
    });
    expect(
      await codeOf(acceptInvitation(deps, { token, name: "Sam", password: "chosen by hooli's admin", clientIp: "" })),
    ).toBe("AUTH_SIGN_IN_REQUIRED");
    expect((await deps.accounts.byId(sam.id))!.password_hash).toBeNull();
    expect(
      await codeOf(
        acceptInvitation(deps, { token, name: "", password: "", clientIp: "", sessionUserId: "user_other" }),
      ),
    ).toBe("AUTH_INVITATION_ACCOUNT_MISMATCH");
    const joined = await acceptInvitation(deps, { token, name: "", password: "", clientIp: "", sessionUserId: sam.id });
    expect(joined.member).toMatchObject({ status: "active", role: "admin", name: "Sam" });
    expect((await deps.accounts.byId(sam.id))!.password_hash).toBeNull();
  });

  it("let a reset link work once, for an hour, and stop when the account came to belong elsewhere", async () => {
    const { org: h } = await createOrganization(deps, { name: "Hooli", plan: "team" });
    const { org: g } = await createOrganization(deps, { name: "Globex", plan: "team" });
    await member(h.id, "ada@hooli.test");
    const ada = (await deps.accounts.byEmail("ada@hooli.test"))!;
    const NEW = "a brand new passphrase";
    const late = await issuePasswordReset(deps, { organizationId: h.id, userId: ada.id, actor });
    now = new Date(now.getTime() + 3_600_000);
    expect(await codeOf(resetPassword(deps, { token: late.token, newPassword: NEW, clientIp: "" }))).toBe(
      "PASSWORD_RESET_EXPIRED",
    );
    const stale = await issuePasswordReset(deps, { organizationId: h.id, userId: ada.id, actor });
    expect(JSON.stringify(await deps.accounts.byId(ada.id))).not.toContain(stale.token);
    // Ada joins Globex herself (with her password): Hooli's link no longer works.
    const { token } = await inviteMember(deps, {
      organizationId: g.id,
      email: "ada@hooli.test",
      role: "member",
      actor,
    });
    await acceptInvitation(deps, { token, name: "", password: PASSWORD, clientIp: "" });
    expect(await codeOf(resetPassword(deps, { token: stale.token, newPassword: NEW, clientIp: "" }))).toBe(
      "RESOURCE_NOT_FOUND",
    );
    expect(await codeOf(issuePasswordReset(deps, { organizationId: h.id, userId: ada.id, actor }))).toBe(
      "AUTH_ACCOUNT_NOT_BOUND",
    );
    expect(await sessionToken("ada@hooli.test")).toMatch(/^vdt_ses_/);
  });
});
