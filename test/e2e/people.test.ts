// People: members and invitations, sign-in with sessions, and the attacks on them (brute force,
// session fixation, CSRF, cookie flags, cross-organization access, invitation reuse), over real
// HTTP against the all-in-one process. The gateway trusts a loopback proxy here, so a test can
// pose as an https front end (X-Forwarded-Proto) or as another client address (X-Forwarded-For).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { addMember, as, cookieOf, invitationToken, rawRequest, signIn, type Person } from "../support/people.js";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let op: Api;
let globexKey: Api;
let globexId: string;
let owner: Person;
const PASSWORD = "correct horse battery staple";
const secrets: string[] = [PASSWORD];

beforeAll(async () => {
  v = await startVerdict({ env: { VERDICT_TRUST_PROXY: "loopback" } });
  op = new Api(v.url, v.bootstrapKey);
  const org = await op.post("/v1/organizations", { name: "Globex", plan: "team" });
  expect(org.status).toBe(201);
  globexId = org.body.organization.id;
  globexKey = op.withKey(org.body.api_key.key);
});
afterAll(async () => v.destroy());

describe("members and invitations", () => {
  it("lets the operator invite the first owner of any organization, once, by a link that works once", async () => {
    const invited = await op.post(`/v1/organizations/${globexId}/members`, {
      email: "Owner@Globex.test",
      role: "owner",
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      id: expect.stringMatching(/^user_/),
      email: "owner@globex.test",
      role: "owner",
      status: "invited",
      name: "",
    });
    expect(invited.body.invitation_url).toMatch(/\/invitations\/accept#token=vdt_inv_[0-9A-Za-z]{43}$/);
    const token = invitationToken(invited.body.invitation_url);
    secrets.push(token);
    expect((await globexKey.get("/v1/organization")).body.members_count).toBe(0);
    // the list never shows the link again
    const listed = await globexKey.get("/v1/members");
    expect(listed.body.members).toEqual([expect.objectContaining({ id: invited.body.id, status: "invited" })]);
    expect(listed.text).not.toContain(token);

    expectFieldError(
      await op.post("/auth/invitations/accept", { token, name: "Olivia", password: "short" }, { key: null }),
      422,
      "password",
      "MIN_SIZE_REQUIRED",
    );
    const accepted = await op.post(
      "/auth/invitations/accept",
      { token, name: "Olivia", password: PASSWORD },
      { key: null },
    );
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({
      organization_id: globexId,
      member: { status: "active", name: "Olivia", role: "owner" },
    });
    expect((await globexKey.get("/v1/organization")).body.members_count).toBe(1);
    // reuse
    expectError(
      await op.post(
        "/auth/invitations/accept",
        { token, name: "Mallory", password: "mallory's password" },
        { key: null },
      ),
      404,
      "not_found",
      "RESOURCE_NOT_FOUND",
    );
    // an organization's own admin key is no instance operator
    expectError(
      await globexKey.post(`/v1/organizations/${globexId}/members`, { email: "x@globex.test", role: "owner" }),
      403,
      "forbidden",
      "AUTH_ORG_ACCESS_DENIED",
    );
    owner = await signIn(op, "owner@globex.test", PASSWORD);
    secrets.push(owner.token, owner.csrf);
  });

  it("validates invitations with the exact field and code", async () => {
    expectFieldError(
      await globexKey.post("/v1/members", { email: "not-an-email", role: "owner" }),
      400,
      "email",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await globexKey.post("/v1/members", { email: "a@b.test", role: "king" }),
      400,
      "role",
      "INVALID_ENUM",
    );
    expectFieldError(await globexKey.post("/v1/members", { role: "viewer" }), 400, "email", "REQUIRED");
    expectError(
      await globexKey.post("/v1/members", { email: "owner@globex.test", role: "viewer" }),
      409,
      "conflict",
      "RESOURCE_ALREADY_EXISTS",
    );
    expectError(
      await op.post("/auth/invitations/accept", { token: "vdt_inv_forged", password: PASSWORD }, { key: null }),
      404,
      "not_found",
      "RESOURCE_NOT_FOUND",
    );
  });

  it("gives each role its scopes, applies role changes at once, and keeps the last owner", async () => {
    const viewerId = await addMember(globexKey, "viewer@globex.test", "viewer", PASSWORD);
    const viewer = await signIn(op, "viewer@globex.test", PASSWORD);
    expect(viewer.login.body.session).toMatchObject({
      role: "viewer",
      scopes: ["read:evaluations", "read:policies", "read:org"],
    });
    expect((await op.get("/v1/evaluations", as(viewer))).status).toBe(200);
    expectError(
      await op.post(
        "/v1/evaluations",
        { repository: "globex/app", ref: "main", files: [{ path: "a", content: "x" }] },
        as(viewer),
      ),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_SCOPE",
    );
    expectError(await op.get("/v1/api-keys", as(viewer)), 403, "forbidden", "AUTH_INSUFFICIENT_SCOPE");

    const promoted = await op.patch(`/v1/members/${viewerId}`, { role: "admin" }, as(owner));
    expect(promoted.body).toMatchObject({ id: viewerId, role: "admin" });
    expect((await op.get("/v1/api-keys", as(viewer))).status).toBe(200);
    // an admin cannot make or unmake owners
    expectError(
      await op.post("/v1/members", { email: "boss@globex.test", role: "owner" }, as(viewer)),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_ROLE",
    );
    const ownerId = owner.login.body.session.user.id;
    expectError(
      await op.patch(`/v1/members/${ownerId}`, { role: "viewer" }, as(viewer)),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_ROLE",
    );
    // the last owner stays
    expectFieldError(
      await op.patch(`/v1/members/${ownerId}`, { role: "admin" }, as(owner)),
      422,
      "role",
      "INVALID_ENUM",
    );
    expectFieldError(await globexKey.delete(`/v1/members/${ownerId}`), 422, "member_id", "INVALID_ENUM");

    // removal ends the member's sessions at once
    expect((await op.delete(`/v1/members/${viewerId}`, as(owner))).status).toBe(204);
    expectError(await op.get("/v1/organization", as(viewer)), 401, "unauthorized", "AUTH_INVALID_SESSION");
    expect((await globexKey.get("/v1/organization")).body.members_count).toBe(1);
    expectError(await op.delete(`/v1/members/${viewerId}`, as(owner)), 404, "not_found", "RESOURCE_NOT_FOUND");
  });

  it("lets a member create keys only within their role's scopes", async () => {
    await addMember(globexKey, "dev@globex.test", "member", PASSWORD);
    const dev = await signIn(op, "dev@globex.test", PASSWORD);
    // members lack admin, so cannot manage keys at all; an admin's session can
    expectError(
      await op.post("/v1/api-keys", { name: "ci", scopes: ["read:org"] }, as(dev)),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_SCOPE",
    );
    const created = await op.post(
      "/v1/api-keys",
      { name: "owner's ci", scopes: ["read:evaluations", "write:evaluations"] },
      as(owner),
    );
    expect(created.status).toBe(201);
    const key = op.withKey(created.body.key);
    expect((await key.get("/v1/evaluations")).status).toBe(200);
    expect(
      (
        await op.post(
          "/v1/evaluations",
          { repository: "globex/app", ref: "main", files: [{ path: "a.txt", content: "hello" }] },
          as(dev),
        )
      ).status,
    ).toBe(201);
  });
});

describe("sessions", () => {
  it("sets an HttpOnly, SameSite=Lax, host-only cookie: verdict_session on http://localhost, __Host- and Secure on https", async () => {
    const local = cookieOf(owner.login)!;
    expect(local.name).toBe("verdict_session");
    expect(local.value).toMatch(/^vdt_ses_[0-9A-Za-z]{43}$/);
    expect(local.attributes).toMatch(/HttpOnly/);
    expect(local.attributes).toMatch(/SameSite=Lax/);
    expect(local.attributes).toMatch(/Path=\//);
    expect(local.attributes).not.toMatch(/Domain=/i);
    expect(local.attributes).not.toMatch(/Secure/);

    const https = await op.post(
      "/auth/login",
      { email: "owner@globex.test", password: PASSWORD },
      { key: null, headers: { "x-forwarded-proto": "https" } },
    );
    const secure = cookieOf(https)!;
    expect(secure.name).toBe("__Host-verdict_session");
    expect(secure.attributes).toMatch(/Secure/);
    expect(secure.attributes).toMatch(/HttpOnly/);
    // the plain name is not honoured over https, nor the __Host- one over http
    expect(
      (
        await op.get("/v1/organization", {
          key: null,
          headers: { cookie: `__Host-verdict_session=${secure.value}`, "x-forwarded-proto": "https" },
        })
      ).status,
    ).toBe(200);
    expectError(
      await op.get("/v1/organization", {
        key: null,
        headers: { cookie: `verdict_session=${secure.value}`, "x-forwarded-proto": "https" },
      }),
      401,
      "unauthorized",
      "AUTH_MISSING_KEY",
    );
  });

  it("refuses to sign in over plain http to a host other than localhost", async () => {
    const res = await rawRequest(
      v.url,
      "POST",
      "/auth/login",
      { host: "verdict.example.com", "content-type": "application/json" },
      JSON.stringify({ email: "owner@globex.test", password: PASSWORD }),
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toMatchObject({ error: "forbidden", code: "AUTH_HTTPS_REQUIRED" });
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("is accepted wherever a key is, and says who is signed in", async () => {
    const org = await op.get("/v1/organization", as(owner));
    expect(org.body).toMatchObject({ id: globexId, name: "Globex" });
    const me = await op.get("/auth/session", as(owner));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user: { email: "owner@globex.test", name: "Olivia", mfa_enabled: false },
      organization: { id: globexId },
      role: "owner",
      scopes: ["admin"],
      csrf_token: owner.csrf,
    });
    expectError(await globexKey.get("/auth/session"), 403, "forbidden", "AUTH_SESSION_REQUIRED");
  });

  it("requires the session's CSRF token on unsafe methods", async () => {
    const body = { name: "csrf probe", scopes: ["read:org"] };
    expectError(await op.post("/v1/api-keys", body, as(owner, null)), 403, "forbidden", "AUTH_CSRF_FAILED");
    const other = await signIn(op, "owner@globex.test", PASSWORD);
    expectError(await op.post("/v1/api-keys", body, as(owner, other.csrf)), 403, "forbidden", "AUTH_CSRF_FAILED");
    expectError(
      await op.post("/v1/api-keys", body, as(owner, owner.csrf.slice(0, -1))),
      403,
      "forbidden",
      "AUTH_CSRF_FAILED",
    );
    expectError(await op.post("/auth/logout", undefined, as(owner, null)), 403, "forbidden", "AUTH_CSRF_FAILED");
    // safe methods need none
    expect((await op.get("/v1/members", as(owner, null))).status).toBe(200);
    expect((await op.post("/v1/api-keys", body, as(owner))).status).toBe(201);
  });

  it("issues a new session id at every sign-in and ignores one planted beforehand (fixation)", async () => {
    const planted = "vdt_ses_" + "A".repeat(43);
    const first = await signIn(op, "owner@globex.test", PASSWORD, { cookie: `verdict_session=${planted}` });
    const second = await signIn(op, "owner@globex.test", PASSWORD);
    expect(first.token).not.toBe(planted);
    expect(first.token).not.toBe(second.token);
    expect(first.login.body.session.id).not.toBe(second.login.body.session.id);
    expectError(
      await op.get("/v1/organization", { key: null, headers: { cookie: `verdict_session=${planted}` } }),
      401,
      "unauthorized",
      "AUTH_INVALID_SESSION",
    );
  });

  it("ends at sign-out: the cookie is cleared and the token works no more", async () => {
    const p = await signIn(op, "owner@globex.test", PASSWORD);
    const out = await op.post("/auth/logout", undefined, as(p));
    expect(out.status).toBe(204);
    const cleared = cookieOf(out)!;
    expect(cleared.name).toBe("verdict_session");
    expect(cleared.value).toBe("");
    expect(cleared.attributes).toMatch(/Expires=Thu, 01 Jan 1970/);
    expectError(await op.get("/v1/organization", as(p)), 401, "unauthorized", "AUTH_INVALID_SESSION");
  });
});

describe("sign-in abuse", () => {
  it("answers unknown emails exactly like wrong passwords, after the same password-hashing work", async () => {
    const headers = { "x-forwarded-for": "10.1.0.1" };
    const unknown = await op.post(
      "/auth/login",
      { email: "nobody@globex.test", password: PASSWORD },
      { key: null, headers },
    );
    const wrong = await op.post(
      "/auth/login",
      { email: "owner@globex.test", password: "wrong password!" },
      { key: null, headers },
    );
    expectError(unknown, 401, "unauthorized", "AUTH_INVALID_CREDENTIALS");
    expectError(wrong, 401, "unauthorized", "AUTH_INVALID_CREDENTIALS");
    expect(unknown.body.message).toBe(wrong.body.message);
    // Timing: both run one argon2id verification (tens of ms); without it an unknown email
    // would answer in about a millisecond. Medians of a few tries, compared as a ratio. A known
    // address also records its failure (lockout counters, audit event): on the distributed stack
    // those writes to MongoDB weigh as much as the hash, so the ratio is ~0.2 there, ~1 embedded,
    // and ~0.02 without the hash.
    const time = async (email: string) => {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        await op.post(
          "/auth/login",
          { email, password: "wrong password!" },
          { key: null, headers: { "x-forwarded-for": `10.1.1.${i}` } },
        );
        runs.push(performance.now() - t);
      }
      return runs.sort((a, b) => a - b)[1]!;
    };
    const ratio = (await time("nobody-else@globex.test")) / (await time("dev@globex.test"));
    expect(ratio).toBeGreaterThan(0.08);
  });

  it("locks an account out progressively after repeated failures, whatever the address", async () => {
    await addMember(globexKey, "target@globex.test", "viewer", PASSWORD);
    for (let i = 0; i < 5; i++) {
      expectError(
        await op.post(
          "/auth/login",
          { email: "target@globex.test", password: `guess ${i} guess` },
          { key: null, headers: { "x-forwarded-for": `10.2.0.${i}` } },
        ),
        401,
        "unauthorized",
        "AUTH_INVALID_CREDENTIALS",
      );
    }
    // now even the right password is refused for a while
    const locked = await op.post(
      "/auth/login",
      { email: "target@globex.test", password: PASSWORD },
      { key: null, headers: { "x-forwarded-for": "10.2.1.1" } },
    );
    expectError(locked, 429, "rate_limited", "AUTH_LOCKED_OUT");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThanOrEqual(29);
    expect(locked.headers.get("set-cookie")).toBeNull();
    // other accounts are unaffected
    expect(
      (
        await op.post(
          "/auth/login",
          { email: "owner@globex.test", password: PASSWORD },
          { key: null, headers: { "x-forwarded-for": "10.2.1.2" } },
        )
      ).status,
    ).toBe(200);
  });

  it("locks an address out after many failures across accounts", async () => {
    const headers = { "x-forwarded-for": "10.3.0.1" };
    for (let i = 0; i < 20; i++) {
      expect(
        (
          await op.post(
            "/auth/login",
            { email: `spray${i}@globex.test`, password: "Winter2026!!" },
            { key: null, headers },
          )
        ).status,
      ).toBe(401);
    }
    expectError(
      await op.post("/auth/login", { email: "owner@globex.test", password: PASSWORD }, { key: null, headers }),
      429,
      "rate_limited",
      "AUTH_LOCKED_OUT",
    );
    expect(
      (
        await op.post(
          "/auth/login",
          { email: "owner@globex.test", password: PASSWORD },
          { key: null, headers: { "x-forwarded-for": "10.3.0.2" } },
        )
      ).status,
    ).toBe(200);
  });
});

describe("organizations apart", () => {
  it("shows a member of one organization nothing of another", async () => {
    await addMember(op, "acme-admin@acme.test", "admin", PASSWORD);
    const acme = await signIn(op, "acme-admin@acme.test", PASSWORD);
    const acmeMembers = (await op.get("/v1/members", as(acme))).body.members.map((m: { email: string }) => m.email);
    expect(acmeMembers).toEqual(["acme-admin@acme.test"]);
    const globexMembers = (await op.get("/v1/members", as(owner))).body.members.map((m: { email: string }) => m.email);
    expect(globexMembers).not.toContain("acme-admin@acme.test");
    const ownerId = owner.login.body.session.user.id;
    expectError(
      await op.patch(`/v1/members/${ownerId}`, { role: "viewer" }, as(acme)),
      404,
      "not_found",
      "RESOURCE_NOT_FOUND",
    );
    expectError(await op.delete(`/v1/members/${ownerId}`, as(acme)), 404, "not_found", "RESOURCE_NOT_FOUND");
    // a member of Acme cannot sign in to Globex
    expectError(
      await op.post(
        "/auth/login",
        { email: "acme-admin@acme.test", password: PASSWORD, organization_id: globexId },
        { key: null, headers: { "x-forwarded-for": "10.4.0.1" } },
      ),
      401,
      "unauthorized",
      "AUTH_INVALID_CREDENTIALS",
    );
  });

  it("lets one person belong to two organizations, proving their password to join the second", async () => {
    const invited = await globexKey.post("/v1/members", { email: "acme-admin@acme.test", role: "viewer" });
    const token = invitationToken(invited.body.invitation_url);
    expectError(
      await op.post("/auth/invitations/accept", { token, password: "not my password" }, { key: null }),
      401,
      "unauthorized",
      "AUTH_INVALID_CREDENTIALS",
    );
    expect((await op.post("/auth/invitations/accept", { token, password: PASSWORD }, { key: null })).status).toBe(201);
    // by default, the first organization joined; or the one asked for
    const byDefault = await signIn(op, "acme-admin@acme.test", PASSWORD);
    expect(byDefault.login.body.session.organization.name).toBe("Default organization");
    const chosen = await op.post(
      "/auth/login",
      { email: "acme-admin@acme.test", password: PASSWORD, organization_id: globexId },
      { key: null },
    );
    expect(chosen.body.session).toMatchObject({ organization: { id: globexId }, role: "viewer" });
  });
});

describe("secrets", () => {
  it("never writes passwords, session tokens, CSRF tokens or invitation tokens to the logs", async () => {
    const output = v.output();
    expect(output.length).toBeGreaterThan(0);
    for (const s of secrets) expect(output).not.toContain(s);
    expect(output).not.toMatch(/vdt_(ses|inv|mfa)_[0-9A-Za-z]{43}/);
  });
});
