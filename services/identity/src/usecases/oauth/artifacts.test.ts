// The authorization server's storage on the Store (embedded SQLite here): what oidc-provider's
// adapter contract asks for, expiry, consumption, grant families and the sweep.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { InProcessBus } from "@verdict/bus";
import { createLogger, Egress, SecretBox } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import { openIdentityRepos } from "../../repos/index.js";
import { OidcDiscoveryCache } from "../sso/oidcDiscovery.js";
import type { IdentityDeps } from "../../deps.js";
import { argon2Passwords } from "../../passwords.js";
import { consumeArtifact } from "./consumeArtifact.js";
import { destroyArtifact } from "./destroyArtifact.js";
import { findArtifact } from "./findArtifact.js";
import { upsertArtifact } from "./upsertArtifact.js";
import { sweepExpiredArtifacts } from "./sweepExpiredArtifacts.js";

// Nothing here reaches an IdP: a guard that lets no private address through.
const egress = new Egress({ allowPrivate: false });

let now = new Date("2026-06-01T12:00:00.000Z");
let store: SqliteStore;
let bus: InProcessBus;
let deps: IdentityDeps;

beforeEach(async () => {
  now = new Date("2026-06-01T12:00:00.000Z");
  store = new SqliteStore(":memory:");
  bus = new InProcessBus(createLogger("t", "silent"), 5);
  const outbox = new Outbox({ bus, logger: createLogger("t", "silent") });
  const repos = await openIdentityRepos(store, outbox);
  // These use cases never reach the policy service: a fake that fails the test if one does.
  const policy: IdentityDeps["policy"] = {
    countRepositories: () => Promise.reject(new Error("the policy service is not part of these tests")),
  };
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
  await bus.close();
  await store.close();
});

const put = (model: string, id: string, payload: Record<string, unknown>, expiresIn = 60) =>
  upsertArtifact(deps, { model, id, payloadJson: JSON.stringify(payload), expiresIn });

describe("OAuth artifacts", () => {
  it("stores, overwrites and finds by id, uid or user code, per model", async () => {
    await put("Interaction", "i1", { uid: "u1", v: 1 });
    await put("Interaction", "i1", { uid: "u1", v: 2 });
    await put("Session", "i1", { v: "other model" });
    expect(JSON.parse((await findArtifact(deps, { model: "Interaction", id: "i1" }))!)).toEqual({ uid: "u1", v: 2 });
    expect(JSON.parse((await findArtifact(deps, { model: "Interaction", uid: "u1" }))!)).toMatchObject({ v: 2 });
    expect(JSON.parse((await findArtifact(deps, { model: "Session", id: "i1" }))!)).toEqual({ v: "other model" });
    await put("DeviceCode", "d1", { userCode: "ABCD" });
    expect(await findArtifact(deps, { model: "DeviceCode", userCode: "ABCD" })).not.toBeNull();
    await destroyArtifact(deps, { model: "Interaction", id: "i1" });
    expect(await findArtifact(deps, { model: "Interaction", id: "i1" })).toBeNull();
  });

  it("answers nothing once expired, and the sweep deletes it", async () => {
    await put("AuthorizationCode", "c1", { grantId: "g1" }, 60);
    await put("Grant", "g1", {}, 0);
    now = new Date(now.getTime() + 61_000);
    expect(await findArtifact(deps, { model: "AuthorizationCode", id: "c1" })).toBeNull();
    expect(await sweepExpiredArtifacts(deps)).toBe(1);
    expect(await deps.oauth.artifactsCount()).toBe(1); // the grant has no expiry
  });

  it("marks a consumed artifact with the time it was consumed", async () => {
    await put("RefreshToken", "r1", { grantId: "g1" });
    await consumeArtifact(deps, { model: "RefreshToken", id: "r1" });
    const found = JSON.parse((await findArtifact(deps, { model: "RefreshToken", id: "r1" }))!);
    expect(found.consumed).toBe(Math.floor(now.getTime() / 1000));
  });

  it("revokes a grant's whole family and a member's artifacts", async () => {
    await put("AccessToken", "a1", { grantId: "g1", accountId: "org_1.user_1" });
    await put("RefreshToken", "r1", { grantId: "g1", accountId: "org_1.user_1" });
    await put("AccessToken", "a2", { grantId: "g2", accountId: "org_1.user_2" });
    await put("AccessToken", "a3", { grantId: "g3", accountId: "org_1.user_1" });
    expect(await deps.oauth.revokeGrant("g1")).toBe(2);
    expect(await findArtifact(deps, { model: "AccessToken", id: "a2" })).not.toBeNull();
    expect(await deps.oauth.revokeArtifactsOf("org_1.user_1")).toBe(1);
    expect(await deps.oauth.artifactsCount()).toBe(1);
  });
});
