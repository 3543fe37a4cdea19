// Attacks on accounts over real HTTP (issue 25, defects 1, 4, 5, 14 and 15): an invitation that
// takes over another tenant's SCIM-made account, a SCIM token that attaches another tenant's
// owner, invitation answers that tell another tenant's details, TOTP lockout reset by the known
// password, concurrent guesses outrunning the lockout, and the password change and reset flows
// (which must not become the next takeover path).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError, expectFieldError, type ApiResponse } from "../support/api.js";
import { addMember, as, invitationToken, signIn, totpCode, type Person } from "../support/people.js";
import { startVerdict, type Verdict } from "../support/server.js";

const PASSWORD = "correct horse battery staple";
const ATTACKER_PASSWORD = "attacker chose this one";

let v: Verdict;
let hooli: Api; // the operator's (default) organization: the attacker is its admin
let globex: Api; // the victim organization, provisioned by its SCIM
let globexOrgId: string;
let scimToken: string;

async function scim(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${v.url}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${scimToken}`, "content-type": "application/scim+json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const scimUser = (email: string, name: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
  userName: email,
  displayName: name,
  emails: [{ value: email, primary: true }],
  active: true,
});

async function invite(by: Api, email: string, role = "member"): Promise<ApiResponse> {
  const res = await by.post("/v1/members", { email, role });
  expect(res.status).toBe(201);
  return res;
}

const accept = (
  token: string,
  body: Record<string, unknown>,
  opts: ReturnType<typeof as> | { key: null } = { key: null },
) => hooli.post("/auth/invitations/accept", { token, ...body }, opts);

const login = (email: string, password: string, organizationId?: string, headers: Record<string, string> = {}) =>
  hooli.post(
    "/auth/login",
    { email, password, ...(organizationId ? { organization_id: organizationId } : {}) },
    { key: null, headers },
  );

beforeAll(async () => {
  v = await startVerdict({ env: { VERDICT_TRUST_PROXY: "loopback" } });
  hooli = new Api(v.url, v.bootstrapKey);
  const g = await hooli.post("/v1/organizations", { name: "Globex", plan: "enterprise" });
  globexOrgId = g.body.organization.id;
  globex = hooli.withKey(g.body.api_key.key);
  scimToken = (await globex.post("/v1/scim-tokens", { name: "Entra ID" })).body.token;
});
afterAll(async () => v.destroy());

describe("defect 1: an invitation never sets a credential on an existing account", () => {
  it("refuses to give a SCIM-made account (no password) a password chosen by another tenant's admin", async () => {
    const created = await scim("POST", "/Users", scimUser("sam@globex.example", "Sam Globex"));
    expect(created.status).toBe(201);
    const inv = await invite(hooli, "sam@globex.example", "admin");
    const token = invitationToken(inv.body.invitation_url);
    const redeemed = await accept(token, { name: "Sam", password: ATTACKER_PASSWORD });
    expectError(redeemed, 403, "forbidden", "AUTH_SIGN_IN_REQUIRED");
    // No password was set: the attacker cannot sign in to Globex (nor anywhere).
    expectError(
      await login("sam@globex.example", ATTACKER_PASSWORD, globexOrgId),
      401,
      "unauthorized",
      "AUTH_INVALID_CREDENTIALS",
    );
    // The invitation is still open (the person can accept it signed in through their SSO).
    const listed = (await hooli.get("/v1/members")).body.members.find(
      (m: { email: string }) => m.email === "sam@globex.example",
    );
    expect(listed.status).toBe("invited");
  });

  it("keeps the account bound after SCIM deactivated it (no membership left anywhere)", async () => {
    const created = await scim("POST", "/Users", scimUser("dana@globex.example", "Dana"));
    expect(created.status).toBe(201);
    const off = await scim("PATCH", `/Users/${created.body.id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", path: "active", value: false }],
    });
    expect(off.status).toBe(200);
    const inv = await invite(hooli, "dana@globex.example");
    expectError(
      await accept(invitationToken(inv.body.invitation_url), { name: "Dana", password: ATTACKER_PASSWORD }),
      403,
      "forbidden",
      "AUTH_SIGN_IN_REQUIRED",
    );
    // Reactivated by Globex's IdP later: still no password anyone else chose.
    await scim("PATCH", `/Users/${created.body.id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", path: "active", value: true }],
    });
    expect((await login("dana@globex.example", ATTACKER_PASSWORD, globexOrgId)).status).toBe(401);
  });

  it("lets a brand-new account choose its password, and an existing one join signed in without giving it", async () => {
    await addMember(hooli, "newbie@hooli.example", "member", PASSWORD);
    const newbie = await signIn(hooli, "newbie@hooli.example", PASSWORD);
    const inv = await invite(globex, "newbie@hooli.example");
    // Signed in as another account: refused.
    await addMember(hooli, "other@hooli.example", "viewer", PASSWORD);
    const other = await signIn(hooli, "other@hooli.example", PASSWORD);
    const token = invitationToken(inv.body.invitation_url);
    expectError(await accept(token, {}, as(other)), 403, "forbidden", "AUTH_INVITATION_ACCOUNT_MISMATCH");
    // Without the CSRF token the cookie does not count.
    expectError(await accept(token, {}, as(newbie, null)), 403, "forbidden", "AUTH_CSRF_FAILED");
    const joined = await accept(token, {}, as(newbie));
    expect(joined.status).toBe(201);
    expect(joined.body.organization_id).toBe(globexOrgId);
    expect((await login("newbie@hooli.example", PASSWORD, globexOrgId)).status).toBe(200);
  });
});

describe("defect 14: another tenant's account details and consent", () => {
  let ceo: Person;
  let ceoId: string;

  beforeAll(async () => {
    ceoId = await addMember(hooli, "ceo@hooli.example", "owner", PASSWORD);
    ceo = await signIn(hooli, "ceo@hooli.example", PASSWORD);
  });

  it("answers an invitation without the existing account's name or MFA state", async () => {
    const enrol = await hooli.post("/auth/mfa/totp/enrolment", undefined, as(ceo));
    expect(enrol.status).toBe(201);
    const confirmed = await hooli.post(
      "/auth/mfa/totp/enrolment/confirm",
      { code: totpCode(enrol.body.secret) },
      as(ceo),
    );
    expect(confirmed.status).toBe(200);
    const inv = await invite(globex, "ceo@hooli.example");
    expect(inv.body).toMatchObject({ email: "ceo@hooli.example", status: "invited", name: "", mfa_enabled: false });
    const listed = (await globex.get("/v1/members")).body.members.find(
      (m: { email: string }) => m.email === "ceo@hooli.example",
    );
    expect(listed).toMatchObject({ name: "", mfa_enabled: false });
    // Withdrawn again: the next test provisions the same address through SCIM.
    expect((await globex.delete(`/v1/members/${ceoId}`)).status).toBe(204);
  });

  it("does not let a SCIM token attach another organization's owner without their consent", async () => {
    const created = await scim("POST", "/Users", scimUser("ceo@hooli.example", "Not Consulted"));
    expect(created.status).toBe(201);
    const members = (await globex.get("/v1/members")).body.members as { email: string }[];
    expect(members.map((m) => m.email)).not.toContain("ceo@hooli.example");
  });
});

describe("defect 5: concurrent guesses cannot outrun the lockout", () => {
  it("checks at most 5 of 40 concurrent wrong passwords from 40 addresses", async () => {
    await addMember(hooli, "race@hooli.example", "member", PASSWORD);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login("race@hooli.example", `wrong password ${i}`, undefined, { "x-forwarded-for": `198.51.100.${i + 1}` }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(35);
  });
});

describe("defect 4: the known password does not reset the second factor's lockout", () => {
  it("locks after wrong TOTP codes spread over several password rounds", async () => {
    await addMember(hooli, "totp@hooli.example", "member", PASSWORD);
    const p = await signIn(hooli, "totp@hooli.example", PASSWORD);
    const enrol = await hooli.post("/auth/mfa/totp/enrolment", undefined, as(p));
    const secret = enrol.body.secret as string;
    expect((await hooli.post("/auth/mfa/totp/enrolment/confirm", { code: totpCode(secret) }, as(p))).status).toBe(200);
    const wrong = totpCode(secret) === "000000" ? "111111" : "000000";
    const xff = { "x-forwarded-for": "203.0.113.77" };
    const seen: number[] = [];
    for (let round = 0; round < 6 && !seen.includes(429); round++) {
      const started = await login("totp@hooli.example", PASSWORD, undefined, xff);
      seen.push(started.status);
      if (started.status !== 200) break;
      expect(started.body.mfa_required).toBe(true);
      for (let i = 0; i < 4; i++) {
        const res = await hooli.post(
          "/auth/mfa/totp",
          { mfa_token: started.body.mfa_token, code: wrong },
          { key: null, headers: xff },
        );
        seen.push(res.status);
        if (res.status === 429) break;
      }
    }
    // 24 wrong codes in 6 rounds used to pass unlocked; the lock comes at the 5th wrong code.
    expect(seen).toContain(429);
    expect(seen.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
  });
});

describe("defect 4: nor does an invitation redeemed with the known password", () => {
  it("keeps wrong TOTP codes counted when the password joins another organization", async () => {
    await addMember(hooli, "totp2@hooli.example", "member", PASSWORD);
    const p = await signIn(hooli, "totp2@hooli.example", PASSWORD);
    const enrol = await hooli.post("/auth/mfa/totp/enrolment", undefined, as(p));
    const secret = enrol.body.secret as string;
    expect((await hooli.post("/auth/mfa/totp/enrolment/confirm", { code: totpCode(secret) }, as(p))).status).toBe(200);
    const wrong = totpCode(secret) === "000000" ? "111111" : "000000";
    const xff = { "x-forwarded-for": "203.0.113.78" };
    const started = await login("totp2@hooli.example", PASSWORD, undefined, xff);
    for (let i = 0; i < 4; i++)
      expect(
        (
          await hooli.post(
            "/auth/mfa/totp",
            { mfa_token: started.body.mfa_token, code: wrong },
            { key: null, headers: xff },
          )
        ).status,
      ).toBe(401);
    // The attacker (who knows the password) has his organization invite the victim and redeems it.
    const inv = await invite(globex, "totp2@hooli.example");
    expect((await accept(invitationToken(inv.body.invitation_url), { password: PASSWORD })).status).toBe(201);
    const again = await login("totp2@hooli.example", PASSWORD, undefined, xff);
    expect(again.status).toBe(200);
    const fifth = await hooli.post(
      "/auth/mfa/totp",
      { mfa_token: again.body.mfa_token, code: wrong },
      { key: null, headers: xff },
    );
    expect(fifth.status).toBe(401);
    const sixth = await hooli.post(
      "/auth/mfa/totp",
      { mfa_token: again.body.mfa_token, code: wrong },
      { key: null, headers: xff },
    );
    expectError(sixth, 429, "rate_limited", "AUTH_LOCKED_OUT");
  });
});

describe("defect 15: password change and reset", () => {
  it("changes a password signed in: the current one required, other sessions end", async () => {
    await addMember(hooli, "change@hooli.example", "member", PASSWORD);
    const here = await signIn(hooli, "change@hooli.example", PASSWORD);
    const elsewhere = await signIn(hooli, "change@hooli.example", PASSWORD);
    const NEW = "a new and longer passphrase";
    expectError(
      await hooli.post("/auth/password", { current_password: "not it at all", new_password: NEW }, as(here)),
      401,
      "unauthorized",
      "AUTH_INVALID_CREDENTIALS",
    );
    expectFieldError(
      await hooli.post("/auth/password", { current_password: PASSWORD, new_password: "short" }, as(here)),
      422,
      "new_password",
      "MIN_SIZE_REQUIRED",
    );
    expectError(
      await hooli.post("/auth/password", { current_password: PASSWORD, new_password: NEW }, as(here, null)),
      403,
      "forbidden",
      "AUTH_CSRF_FAILED",
    );
    expectError(
      await hooli.post("/auth/password", { current_password: PASSWORD, new_password: NEW }),
      403,
      "forbidden",
      "AUTH_SESSION_REQUIRED",
    );
    const changed = await hooli.post("/auth/password", { current_password: PASSWORD, new_password: NEW }, as(here));
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ sessions_ended: 1 });
    expect((await hooli.get("/auth/session", as(here))).status).toBe(200);
    expect((await hooli.get("/auth/session", as(elsewhere))).status).toBe(401);
    expect((await login("change@hooli.example", PASSWORD)).status).toBe(401);
    expect((await login("change@hooli.example", NEW)).status).toBe(200);
    const audit = await hooli.get("/v1/audit-events?type=password.changed");
    expect(audit.body.audit_events[0]).toMatchObject({ type: "password.changed", data: { sessions_ended: 1 } });
    expect(JSON.stringify(audit.body)).not.toContain(NEW);
  });

  it("resets by a single-use link an admin issues, ending every session", async () => {
    const id = await addMember(hooli, "forgot@hooli.example", "member", PASSWORD);
    const before = await signIn(hooli, "forgot@hooli.example", PASSWORD);
    const issued = await hooli.post(`/v1/members/${id}/password-reset`);
    expect(issued.status).toBe(201);
    const m = /\/password\/reset#token=(vdt_pwr_[0-9A-Za-z]{43})$/.exec(issued.body.reset_url);
    expect(m).not.toBeNull();
    const token = m![1]!;
    const NEW = "chosen by the person alone";
    expectFieldError(
      await hooli.post("/auth/password/reset", { token, new_password: "short" }, { key: null }),
      422,
      "new_password",
      "MIN_SIZE_REQUIRED",
    );
    expect((await hooli.post("/auth/password/reset", { token, new_password: NEW }, { key: null })).status).toBe(204);
    expectError(
      await hooli.post("/auth/password/reset", { token, new_password: NEW }, { key: null }),
      404,
      "not_found",
      "RESOURCE_NOT_FOUND",
    );
    expect((await hooli.get("/auth/session", as(before))).status).toBe(401);
    expect((await login("forgot@hooli.example", NEW)).status).toBe(200);
    const types = (await hooli.get("/v1/audit-events?limit=20")).body.audit_events.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(["password.reset_issued", "password.reset"]));
  });

  it("is refused for an account that also belongs to another organization, and for owners by admins", async () => {
    // Sam belongs to Globex (its SCIM made him): Hooli's admin cannot reset him into Hooli's hands.
    const sam = (await hooli.get("/v1/members")).body.members.find(
      (x: { email: string }) => x.email === "sam@globex.example",
    );
    expect((await hooli.post(`/v1/members/${sam.id}/password-reset`)).status).toBe(404);
    // newbie@hooli joined Globex: Globex's admin gets no reset link for a Hooli member.
    const newbie = (await globex.get("/v1/members")).body.members.find(
      (x: { email: string }) => x.email === "newbie@hooli.example",
    );
    expectError(
      await globex.post(`/v1/members/${newbie.id}/password-reset`),
      403,
      "forbidden",
      "AUTH_ACCOUNT_NOT_BOUND",
    );
    // An admin does not reset an owner's password.
    await addMember(hooli, "admin@hooli.example", "admin", PASSWORD);
    const admin = await signIn(hooli, "admin@hooli.example", PASSWORD);
    const owner = (await hooli.get("/v1/members")).body.members.find(
      (x: { email: string }) => x.email === "ceo@hooli.example",
    );
    expectError(
      await hooli.post(`/v1/members/${owner.id}/password-reset`, undefined, as(admin)),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_ROLE",
    );
  });
});
