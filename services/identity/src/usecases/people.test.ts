// The people use cases on the embedded store with a fake clock: what needs time to pass
// (invitation expiry, idle and absolute session timeouts) and what needs the bus (audit events).
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { InProcessBus, TOPICS, type CloudEvent } from "@verdict/bus";
import { AppError, createLogger, Egress, SecretBox } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import { SsoRepo } from "./sso/ssoRepo.js";
import { OidcDiscoveryCache } from "./sso/oidcDiscovery.js";
import type { IdentityDeps } from "../deps.js";
import { argon2Passwords } from "../passwords.js";
import { IdentityRepo, type AuditRecord } from "../repo.js";
import { acceptInvitation } from "./members/acceptInvitation.js";
import { inviteMember } from "./members/inviteMember.js";
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
  const repo = new IdentityRepo(store, outbox);
  await repo.init();
  deps = {
    repo,
    bus,
    outbox,
    clock: { now: () => now },
    logger: createLogger("t", "silent"),
    policy,
    passwords: argon2Passwords(),
    totpBox: new SecretBox(randomBytes(32)),
    oauthServerSecret: randomBytes(32),
    sso: new SsoRepo(store),
    oidcDiscovery: new OidcDiscoveryCache(0, egress),
    egress,
    sessions: { idleMs: 30 * 60_000, absoluteMs: 2 * 3_600_000 },
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
    const stored = JSON.stringify(await deps.repo.allMemberships());
    expect(stored).not.toContain(third.token);
    const user = await deps.repo.userByEmail("ada@acme.test");
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
    expect(JSON.stringify(await deps.repo.allSessions())).not.toContain(token);
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
