// The sweep of SSO sign-ins that never came back from the IdP, on the in-memory store.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { SqliteStore } from "@verdict/store";
import { SSO_STATE_TTL_MS } from "../../domain/sso.js";
import { SsoRepo, type SsoStateRecord } from "../../repos/ssoRepo.js";
import { sweepExpiredSsoStates } from "./sweepExpiredSsoStates.js";

let now: Date;
let store: SqliteStore;
let sso: SsoRepo;
const deps = () => ({ sso, clock: { now: () => now } });

beforeEach(async () => {
  now = new Date("2026-06-01T12:00:00.000Z");
  store = new SqliteStore(":memory:");
  sso = new SsoRepo(store);
  await sso.init();
});
afterEach(async () => {
  await store.close();
});

const state = (id: string, protocol: "oidc" | "saml", startedAt: Date): SsoStateRecord => ({
  id,
  organization_id: "org_a",
  protocol,
  code_verifier: protocol === "oidc" ? "verifier" : null,
  nonce: protocol === "oidc" ? "nonce" : null,
  request_id: protocol === "saml" ? "_req" : null,
  request_instant: protocol === "saml" ? startedAt.toISOString() : null,
  expires_at: new Date(startedAt.getTime() + SSO_STATE_TTL_MS).toISOString(),
});

describe("sweepExpiredSsoStates", () => {
  it("deletes the OIDC and SAML sign-ins past their expiry and keeps those still under way", async () => {
    const earlier = new Date(now.getTime() - SSO_STATE_TTL_MS - 1_000);
    await sso.startSignIn(state("old-oidc", "oidc", earlier));
    await sso.startSignIn(state("old-saml", "saml", earlier));
    await sso.startSignIn(state("live-oidc", "oidc", new Date(now.getTime() - 60_000)));
    await sso.startSignIn(state("live-saml", "saml", now));

    expect(await sweepExpiredSsoStates(deps())).toBe(2);
    const left = await sso.signInsUnderWay("org_a");
    expect(left.map((s) => s.id).sort()).toEqual(["live-oidc", "live-saml"]);

    // Ten minutes on, the rest have expired too.
    now = new Date(now.getTime() + SSO_STATE_TTL_MS + 1_000);
    expect(await sweepExpiredSsoStates(deps())).toBe(2);
    expect(await sso.signInsUnderWay("org_a")).toHaveLength(0);
  });

  it("deletes nothing when nothing has expired", async () => {
    await sso.startSignIn(state("live", "oidc", now));
    expect(await sweepExpiredSsoStates(deps())).toBe(0);
    expect(await sso.signInsUnderWay("org_a")).toHaveLength(1);
  });
});
