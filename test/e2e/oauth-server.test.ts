// The OAuth 2.0 authorization server at /auth, driven by an independent client library
// (openid-client) over real HTTP against the all-in-one process: code + PKCE, refresh with
// rotation and reuse detection, revocation, the tokens on /v1, and the attacks on each step.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import * as oidc from "openid-client";
import { Api, expectError } from "../support/api.js";
import { Browser, checksumHolds, csrfFieldOf } from "../support/oauth.js";
import { addMember, as, signIn, totpCode, type Person } from "../support/people.js";
import { ROOT, startVerdict, type Verdict } from "../support/server.js";

const REDIRECT = "http://localhost:8123/callback";
const PASSWORD = "correct horse battery staple";

let v: Verdict;
let op: Api;
let globex: Api;
let member: Person;
let memberId: string;
let confidential: { client_id: string; client_secret: string };
let publicClient: { client_id: string };
let config: oidc.Configuration;

async function configFor(clientId: string, secret?: string): Promise<oidc.Configuration> {
  return oidc.discovery(
    new URL(`${v.url}/auth`),
    clientId,
    undefined,
    secret ? oidc.ClientSecretPost(secret) : oidc.None(),
    { execute: [oidc.allowInsecureRequests], algorithm: "oauth2" },
  );
}

/** Runs the browser part: authorize, consent (allow), back to the redirect URI with a code. */
async function authorize(
  cfg: oidc.Configuration,
  person: Person,
  scope: string,
): Promise<{ callback: URL; verifier: string; state: string; consent: string }> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(cfg, {
    redirect_uri: REDIRECT,
    scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  });
  const browser = new Browser(person.cookie);
  const first = await browser.follow(url.href, REDIRECT);
  expect(first.page?.status).toBe(200);
  const consent = await first.page!.text();
  const uid = /\/auth\/oauth\/interaction\/([^/]+)\/confirm/.exec(consent)![1]!;
  const done = await browser.follow(`${v.url}/auth/oauth/interaction/${uid}/confirm`, REDIRECT, {
    method: "POST",
    form: { csrf_token: csrfFieldOf(consent) },
  });
  expect(done.redirectedTo).toBeDefined();
  return { callback: done.redirectedTo!, verifier, state, consent };
}

async function codeGrant(cfg: oidc.Configuration, a: { callback: URL; verifier: string; state: string }) {
  return oidc.authorizationCodeGrant(cfg, a.callback, { pkceCodeVerifier: a.verifier, expectedState: a.state });
}

beforeAll(async () => {
  v = await startVerdict();
  op = new Api(v.url, v.bootstrapKey);
  const org = await op.post("/v1/organizations", { name: "Globex", plan: "team" });
  globex = op.withKey(org.body.api_key.key);
  memberId = await addMember(globex, "dev@globex.test", "member", PASSWORD);
  member = await signIn(globex, "dev@globex.test", PASSWORD);
  const c = await globex.post("/v1/oauth-clients", {
    name: "Globex dashboard",
    redirect_uris: [REDIRECT],
    scopes: ["read:evaluations", "write:evaluations", "read:org", "admin"],
  });
  expect(c.status).toBe(201);
  confidential = c.body;
  const p = await globex.post("/v1/oauth-clients", {
    name: "Globex CLI",
    redirect_uris: [REDIRECT],
    scopes: ["read:evaluations"],
    public: true,
  });
  publicClient = p.body;
  config = await configFor(confidential.client_id, confidential.client_secret);
});
afterAll(async () => v.destroy());

describe("metadata (RFC 8414)", () => {
  it("publishes the endpoints, PKCE S256 and revocation", async () => {
    const res = await fetch(`${v.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const m = (await res.json()) as Record<string, unknown>;
    expect(m).toMatchObject({
      issuer: `${v.url}/auth`,
      authorization_endpoint: `${v.url}/auth/oauth/authorize`,
      token_endpoint: `${v.url}/auth/oauth/token`,
      revocation_endpoint: `${v.url}/auth/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
    });
    expect(m.scopes_supported).toEqual(expect.arrayContaining(["offline_access"]));
    // the OpenAPI document names the same endpoints and the scopes each operation needs
    const doc = (await (await fetch(`${v.url}/v1/openapi.json`)).json()) as {
      components: { securitySchemes: { oauth2: { flows: { authorizationCode: Record<string, unknown> } } } };
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    };
    const flow = doc.components.securitySchemes.oauth2.flows.authorizationCode;
    expect(new URL(String(flow.authorizationUrl), v.url).href).toBe(m.authorization_endpoint);
    expect(new URL(String(flow.tokenUrl), v.url).href).toBe(m.token_endpoint);
    expect(doc.paths["/v1/evaluations"]!.get!.security).toContainEqual({ oauth2: ["read:evaluations"] });
  });
});

describe("authorization code + PKCE with openid-client", () => {
  it("issues checksummed opaque tokens for the granted scopes within the member's role, usable on /v1", async () => {
    const a = await authorize(config, member, "read:evaluations read:org admin");
    // scope escalation: admin is beyond a member's role, so the consent page does not offer it
    expect(a.consent).toContain("Not granted (beyond your role)");
    const tokens = await codeGrant(config, a);
    expect(tokens.access_token).toMatch(/^vdt_oat_[0-9A-Za-z]{38}$/);
    expect(checksumHolds(tokens.access_token, "vdt_oat_")).toBe(true);
    expect(tokens.refresh_token).toMatch(/^vdt_ort_[0-9A-Za-z]{38}$/);
    expect(checksumHolds(tokens.refresh_token!, "vdt_ort_")).toBe(true);
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope?.split(" ").sort()).toEqual(["read:evaluations", "read:org"]);

    const app = globex.withKey(tokens.access_token);
    expect((await app.get("/v1/evaluations")).status).toBe(200);
    expect((await app.get("/v1/organization")).body.name).toBe("Globex");
    expectError(await app.get("/v1/api-keys"), 403, "forbidden", "AUTH_INSUFFICIENT_SCOPE");
    expectError(await app.get("/v1/policies"), 403, "forbidden", "AUTH_INSUFFICIENT_SCOPE");

    const granted = await globex.get("/v1/audit-events", { query: { type: "oauth.granted" } });
    expect(granted.body.audit_events[0]).toMatchObject({
      actor: { type: "user", id: memberId },
      target: { type: "oauth_client", id: confidential.client_id },
    });
    expect(granted.text).not.toContain(tokens.access_token);
  });

  it("holds an application to the member's own authority (an admin's token makes no owner)", async () => {
    await addMember(globex, "admin@globex.test", "admin", PASSWORD);
    const admin = await signIn(globex, "admin@globex.test", PASSWORD);
    const t = await codeGrant(config, await authorize(config, admin, "admin"));
    const app = globex.withKey(t.access_token);
    expect((await app.get("/v1/api-keys")).status).toBe(200);
    expectError(
      await app.post("/v1/members", { email: "boss@globex.test", role: "owner" }),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_ROLE",
    );
    const invited = await app.post("/v1/members", { email: "dev2@globex.test", role: "viewer" });
    expect(invited.status).toBe(201);
    const events = await globex.get("/v1/audit-events", { query: { type: "member.invited" } });
    expect(events.body.audit_events[0]).toMatchObject({ actor: { type: "user" } });
  });

  it("refuses a mistyped token before any lookup and an unknown one", async () => {
    const a = await authorize(config, member, "read:evaluations");
    const { access_token } = await codeGrant(config, a);
    const typo = access_token.slice(0, -1) + (access_token.endsWith("a") ? "b" : "a");
    expectError(await globex.withKey(typo).get("/v1/evaluations"), 401, "unauthorized", "AUTH_INVALID_KEY");
  });

  it("requires PKCE of a public client and refuses a wrong verifier", async () => {
    const cfg = await configFor(publicClient.client_id);
    const noPkce = oidc.buildAuthorizationUrl(cfg, { redirect_uri: REDIRECT, scope: "read:evaluations" });
    const refused = await new Browser(member.cookie).follow(noPkce.href, REDIRECT);
    expect(refused.redirectedTo?.searchParams.get("error")).toBe("invalid_request");

    const a = await authorize(cfg, member, "read:evaluations");
    await expect(codeGrant(cfg, { ...a, verifier: oidc.randomPKCECodeVerifier() })).rejects.toMatchObject({
      error: "invalid_grant",
    });
    // the failed attempt spent the code? either way, the right verifier alone cannot replay it
    const b = await authorize(cfg, member, "read:evaluations");
    const tokens = await codeGrant(cfg, b);
    expect(tokens.access_token).toMatch(/^vdt_oat_/);
  });

  it("refuses a replayed code and revokes what the first use issued", async () => {
    const a = await authorize(config, member, "read:evaluations");
    const first = await codeGrant(config, a);
    await expect(codeGrant(config, a)).rejects.toMatchObject({ error: "invalid_grant" });
    expectError(
      await globex.withKey(first.access_token).get("/v1/evaluations"),
      401,
      "unauthorized",
      "AUTH_REVOKED_KEY",
    );
    const events = await globex.get("/v1/audit-events", { query: { type: "oauth.grant_revoked" } });
    expect(events.body.audit_events[0]).toMatchObject({ data: { reason: "code_replayed" } });
  });

  it("stops an application's tokens when it is deleted", async () => {
    const c = await globex.post("/v1/oauth-clients", {
      name: "Short-lived app",
      redirect_uris: [REDIRECT],
      scopes: ["read:evaluations"],
    });
    const cfg = await configFor(c.body.client_id, c.body.client_secret);
    const t = await codeGrant(cfg, await authorize(cfg, member, "read:evaluations"));
    expect((await globex.withKey(t.access_token).get("/v1/evaluations")).status).toBe(200);
    expect((await globex.delete(`/v1/oauth-clients/${c.body.client_id}`)).status).toBe(204);
    expectError(await globex.withKey(t.access_token).get("/v1/evaluations"), 401, "unauthorized", "AUTH_REVOKED_KEY");
    await expect(oidc.refreshTokenGrant(cfg, t.refresh_token!)).rejects.toMatchObject({ error: "invalid_client" });
  });

  it("refuses a wrong client secret", async () => {
    const a = await authorize(config, member, "read:evaluations");
    const wrong = await configFor(confidential.client_id, "vdt_ocs_" + "A".repeat(38));
    await expect(codeGrant(wrong, a)).rejects.toMatchObject({ error: "invalid_client" });
  });

  it("never redirects to an unregistered redirect URI (open redirect)", async () => {
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: "https://evil.test/steal",
      scope: "read:evaluations",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const res = await new Browser(member.cookie).request(url.href);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("redirect_uri");
  });

  it("refuses a member of another organization", async () => {
    const otherClient = await op.post("/v1/oauth-clients", {
      name: "Initech app",
      redirect_uris: [REDIRECT],
      scopes: ["read:evaluations"],
    });
    const cfg = await configFor(otherClient.body.client_id, otherClient.body.client_secret);
    const url = oidc.buildAuthorizationUrl(cfg, {
      redirect_uri: REDIRECT,
      scope: "read:evaluations",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const out = await new Browser(member.cookie).follow(url.href, REDIRECT);
    expect(out.redirectedTo?.searchParams.get("error")).toBe("access_denied");
  });

  it("never lets the server's own session stand in for a Verdict sign-in", async () => {
    const url = async () =>
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: "read:evaluations",
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: "S256",
      }).href;
    const browser = new Browser(member.cookie);
    const consent = await (await browser.follow(await url(), REDIRECT)).page!.text();
    const uid = /\/auth\/oauth\/interaction\/([^/]+)\/confirm/.exec(consent)![1]!;
    const done = await browser.follow(`${v.url}/auth/oauth/interaction/${uid}/confirm`, REDIRECT, {
      method: "POST",
      form: { csrf_token: csrfFieldOf(consent) },
    });
    expect(done.redirectedTo?.searchParams.get("code")).toBeTruthy();
    // signed out of Verdict (the cookie gone), the provider's cookies still there: no code
    browser.forget("verdict_session");
    const again = await browser.follow(await url(), REDIRECT);
    expect(again.redirectedTo).toBeUndefined();
    expect(await again.page!.text()).toContain("Sign in to Verdict");
  });

  it("sends a signed-out person to sign in and back to the consent", async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "read:evaluations",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const browser = new Browser();
    const signInPage = await browser.follow(url.href, REDIRECT);
    const html = await signInPage.page!.text();
    const action = /action="([^"]+\/login)"/.exec(html)![1]!;
    const back = await browser.follow(`${v.url}${action}`, REDIRECT, {
      method: "POST",
      form: { email: "dev@globex.test", password: PASSWORD },
    });
    expect(back.page?.status).toBe(200);
    expect(await back.page!.text()).toContain("Allow Globex dashboard?");
  });
});

describe("sign-in with a second factor on the way", () => {
  it("asks a TOTP user for a code (here a recovery code) and comes back to the consent", async () => {
    await addMember(globex, "mfa@globex.test", "member", PASSWORD);
    const p = await signIn(globex, "mfa@globex.test", PASSWORD);
    const started = await globex.post("/auth/mfa/totp/enrolment", undefined, as(p));
    const confirmed = await globex.post(
      "/auth/mfa/totp/enrolment/confirm",
      { code: totpCode(started.body.secret) },
      as(p),
    );
    expect(confirmed.status).toBe(200);
    const recovery: string = confirmed.body.recovery_codes[0];

    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "read:evaluations",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const browser = new Browser();
    const html = await (await browser.follow(url.href, REDIRECT)).page!.text();
    const action = /action="([^"]+\/login)"/.exec(html)![1]!;
    const second = await browser.follow(`${v.url}${action}`, REDIRECT, {
      method: "POST",
      form: { email: "mfa@globex.test", password: PASSWORD },
    });
    const totpForm = await second.page!.text();
    expect(totpForm).toContain("Second factor");
    const mfaToken = /name="mfa_token" value="([^"]+)"/.exec(totpForm)![1]!;
    const totpAction = /action="([^"]+\/totp)"/.exec(totpForm)![1]!;
    const wrong = await browser.follow(`${v.url}${totpAction}`, REDIRECT, {
      method: "POST",
      form: { mfa_token: mfaToken, code: "not-a-code" },
    });
    expect(wrong.page?.status).toBe(401);
    const back = await browser.follow(`${v.url}${totpAction}`, REDIRECT, {
      method: "POST",
      form: { mfa_token: mfaToken, code: recovery },
    });
    expect(back.page?.status).toBe(200);
    expect(await back.page!.text()).toContain("Allow Globex dashboard?");
  });
});

describe("an organization that requires MFA", () => {
  it("grants nothing to a member who has not enrolled a second factor yet", async () => {
    const org = await op.post("/v1/organizations", { name: "Hooli", plan: "team" });
    const hooli = op.withKey(org.body.api_key.key);
    expect((await hooli.patch("/v1/organization", { settings: { require_mfa: true } })).status).toBe(200);
    await addMember(hooli, "gavin@hooli.test", "member", PASSWORD);
    const gavin = await signIn(hooli, "gavin@hooli.test", PASSWORD);
    const c = await hooli.post("/v1/oauth-clients", {
      name: "Hooli app",
      redirect_uris: [REDIRECT],
      scopes: ["read:evaluations"],
    });
    const cfg = await configFor(c.body.client_id, c.body.client_secret);
    const url = oidc.buildAuthorizationUrl(cfg, {
      redirect_uri: REDIRECT,
      scope: "read:evaluations",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const browser = new Browser(gavin.cookie);
    const out = await browser.follow(url.href, REDIRECT);
    expect(out.page?.status).toBe(403);
    expect(await out.page!.text()).toContain("requires multi-factor authentication");
    const uid = /interaction\/([^/?#]+)$/.exec(out.hops.at(-1)!)![1]!;
    const forced = await browser.follow(`${v.url}/auth/oauth/interaction/${uid}/confirm`, REDIRECT, {
      method: "POST",
      form: { csrf_token: gavin.csrf },
    });
    expect(forced.page?.status).toBe(403);
    expect(forced.redirectedTo).toBeUndefined();
  });
});

describe("refresh tokens and revocation", () => {
  it("rotates refresh tokens, and a reused one revokes the whole family", async () => {
    const a = await authorize(config, member, "read:evaluations");
    const t1 = await codeGrant(config, a);
    const t2 = await oidc.refreshTokenGrant(config, t1.refresh_token!);
    expect(t2.refresh_token).not.toBe(t1.refresh_token);
    expect(t2.access_token).toMatch(/^vdt_oat_/);
    expect((await globex.withKey(t2.access_token).get("/v1/evaluations")).status).toBe(200);

    await expect(oidc.refreshTokenGrant(config, t1.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    await expect(oidc.refreshTokenGrant(config, t2.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expectError(await globex.withKey(t2.access_token).get("/v1/evaluations"), 401, "unauthorized", "AUTH_REVOKED_KEY");
    const revoked = await globex.get("/v1/audit-events", { query: { type: "oauth.grant_revoked" } });
    expect(revoked.body.audit_events[0]).toMatchObject({ data: { reason: "refresh_token_reused" } });
  });

  it("takes JSON as well as form bodies at the token endpoint", async () => {
    const a = await authorize(config, member, "read:evaluations");
    const t1 = await codeGrant(config, a);
    const res = await fetch(`${v.url}/auth/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "refresh_token",
        refresh_token: t1.refresh_token,
        client_id: confidential.client_id,
        client_secret: confidential.client_secret,
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; refresh_token: string };
    expect(body.access_token).toMatch(/^vdt_oat_/);
    const bad = await fetch(`${v.url}/auth/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: ["refresh_token"] }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_request" });
  });

  it("revokes an access token (RFC 7009)", async () => {
    const a = await authorize(config, member, "read:evaluations");
    const t = await codeGrant(config, a);
    await oidc.tokenRevocation(config, t.access_token);
    expectError(await globex.withKey(t.access_token).get("/v1/evaluations"), 401, "unauthorized", "AUTH_REVOKED_KEY");
    const events = await globex.get("/v1/audit-events", { query: { type: "oauth.token_revoked" } });
    expect(events.body.audit_events[0]).toMatchObject({
      target: { type: "oauth_client", id: confidential.client_id },
      data: { reason: "revoked", scopes: ["read:evaluations"] },
    });
    expect(events.text).not.toContain(t.access_token);
  });

  it("narrows a token at once when the member's role is lowered", async () => {
    const id = await addMember(globex, "lead@globex.test", "admin", PASSWORD);
    const lead = await signIn(globex, "lead@globex.test", PASSWORD);
    const t = await codeGrant(config, await authorize(config, lead, "admin"));
    const app = globex.withKey(t.access_token);
    expect((await app.get("/v1/api-keys")).status).toBe(200);
    expect((await globex.patch(`/v1/members/${id}`, { role: "member" })).status).toBe(200);
    expectError(await app.get("/v1/api-keys"), 403, "forbidden", "AUTH_INSUFFICIENT_SCOPE");
    expect((await app.get("/v1/evaluations")).status).toBe(200);
  });

  it("ends a member's tokens when they are removed from the organization", async () => {
    await addMember(globex, "temp@globex.test", "viewer", PASSWORD);
    const temp = await signIn(globex, "temp@globex.test", PASSWORD);
    const a = await authorize(config, temp, "read:evaluations");
    const t = await codeGrant(config, a);
    expect((await globex.withKey(t.access_token).get("/v1/evaluations")).status).toBe(200);
    const id = (await globex.get("/v1/members")).body.members.find(
      (m: { email: string }) => m.email === "temp@globex.test",
    ).id;
    expect((await globex.delete(`/v1/members/${id}`)).status).toBe(204);
    expectError(await globex.withKey(t.access_token).get("/v1/evaluations"), 401, "unauthorized", "AUTH_REVOKED_KEY");
    await expect(oidc.refreshTokenGrant(config, t.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });
});

describe("Authlib (Python) as the client", () => {
  it("completes code + PKCE, calls /v1, refreshes with rotation and revokes", () => {
    const python = join(ROOT, ".tools/authlib/bin/python");
    const out = execFileSync(
      python,
      [
        join(ROOT, "test/support/authlib_client.py"),
        v.url,
        confidential.client_id,
        confidential.client_secret,
        REDIRECT,
        member.cookie,
      ],
      { encoding: "utf8", env: { PATH: process.env.PATH ?? "" }, timeout: 60_000 },
    );
    const r = JSON.parse(out) as Record<string, unknown>;
    expect(r).toMatchObject({
      token_type: "Bearer",
      rotated: true,
      first_call: 200,
      after_refresh: 200,
      revoke_status: 200,
      after_revoke: 401,
    });
    expect(String(r.scope).split(" ").sort()).toEqual(["read:evaluations", "read:org"]);
    expect(checksumHolds(String(r.access_token), "vdt_oat_")).toBe(true);
    expect(checksumHolds(String(r.refresh_token), "vdt_ort_")).toBe(true);
  });
});
