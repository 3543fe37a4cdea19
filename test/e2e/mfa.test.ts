// MFA over real HTTP: TOTP enrolment with codes from an independent RFC 6238 implementation,
// the two-step sign-in, replay of a used time step, one-time recovery codes, and the
// organization setting require_mfa.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError } from "../support/api.js";
import { storedData } from "../support/atRest.js";
import { addMember, as, cookieOf, signIn, totpCode, type Person } from "../support/people.js";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let op: Api;
const PASSWORD = "correct horse battery staple";
let secret = "";
let recoveryCodes: string[] = [];
/** When enrolment was confirmed: codes are computed for its time step, so a step boundary passing mid-test changes nothing. */
let enrolledAt = 0;

beforeAll(async () => {
  v = await startVerdict();
  op = new Api(v.url, v.bootstrapKey);
  await addMember(op, "ada@example.test", "owner", PASSWORD);
});
afterAll(async () => v.destroy());

async function mfaChallenge(email = "ada@example.test"): Promise<string> {
  const res = await op.post("/auth/login", { email, password: PASSWORD }, { key: null });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    mfa_required: true,
    methods: ["totp", "recovery_code"],
    mfa_token: expect.stringMatching(/^vdt_mfa_/),
  });
  // no session before the second factor
  expect(res.headers.getSetCookie()).toEqual([]);
  return res.body.mfa_token;
}

describe("TOTP", () => {
  let ada: Person;

  it("enrols with a first code, answers recovery codes once, and replaces the session", async () => {
    ada = await signIn(op, "ada@example.test", PASSWORD);
    expectError(
      await op.post("/auth/mfa/totp/enrolment/confirm", { code: "123456" }, as(ada)),
      422,
      "validation_error",
      "VALIDATION_FAILED",
    );
    const started = await op.post("/auth/mfa/totp/enrolment", undefined, as(ada));
    expect(started.status).toBe(201);
    secret = started.body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Verdict:ada%40example\.test\?.*secret=/);
    expectError(
      await op.post(
        "/auth/mfa/totp/enrolment/confirm",
        { code: "000000" === totpCode(secret) ? "111111" : "000000" },
        as(ada),
      ),
      401,
      "unauthorized",
      "AUTH_INVALID_MFA_CODE",
    );
    enrolledAt = Date.now();
    const confirmed = await op.post(
      "/auth/mfa/totp/enrolment/confirm",
      { code: totpCode(secret, 0, enrolledAt) },
      as(ada),
    );
    expect(confirmed.status).toBe(200);
    recoveryCodes = confirmed.body.recovery_codes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const rotated = cookieOf(confirmed)!;
    expect(rotated.value).not.toBe(ada.token);
    expect(confirmed.body.session.user.mfa_enabled).toBe(true);
    // the session before the privilege change is over
    expectError(await op.get("/v1/organization", as(ada)), 401, "unauthorized", "AUTH_INVALID_SESSION");
    const fresh = { cookie: `${rotated.name}=${rotated.value}`, csrf: confirmed.body.session.csrf_token };
    expect((await op.get("/v1/organization", as(fresh))).status).toBe(200);
    expectError(
      await op.post("/auth/mfa/totp/enrolment", undefined, as(fresh)),
      409,
      "conflict",
      "RESOURCE_ALREADY_EXISTS",
    );
    const listed = await op.get("/v1/members");
    expect(listed.body.members[0]).toMatchObject({ email: "ada@example.test", mfa_enabled: true });
  });

  it("signs in in two steps and refuses a code of a time step already used", async () => {
    // The enrolment used the current step: its code is spent.
    const replay = await op.post(
      "/auth/mfa/totp",
      { mfa_token: await mfaChallenge(), code: totpCode(secret, 0, enrolledAt) },
      { key: null },
    );
    expectError(replay, 401, "unauthorized", "AUTH_INVALID_MFA_CODE");
    // the next step's code is within the accepted drift, and new
    const token = await mfaChallenge();
    const ok = await op.post(
      "/auth/mfa/totp",
      { mfa_token: token, code: totpCode(secret, 1, enrolledAt) },
      { key: null },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.session.user.mfa_enabled).toBe(true);
    expect(cookieOf(ok)!.value).toMatch(/^vdt_ses_/);
    // the challenge is spent, and so is that step
    expectError(
      await op.post("/auth/mfa/totp", { mfa_token: token, code: totpCode(secret, 1, enrolledAt) }, { key: null }),
      401,
      "unauthorized",
      "AUTH_INVALID_SESSION",
    );
    expectError(
      await op.post(
        "/auth/mfa/totp",
        { mfa_token: await mfaChallenge(), code: totpCode(secret, 1, enrolledAt) },
        { key: null },
      ),
      401,
      "unauthorized",
      "AUTH_INVALID_MFA_CODE",
    );
  });

  it("accepts each recovery code once", async () => {
    const code = recoveryCodes[0]!;
    const ok = await op.post(
      "/auth/mfa/totp",
      { mfa_token: await mfaChallenge(), code: code.toUpperCase() },
      { key: null },
    );
    expect(ok.status).toBe(200);
    expectError(
      await op.post("/auth/mfa/totp", { mfa_token: await mfaChallenge(), code }, { key: null }),
      401,
      "unauthorized",
      "AUTH_INVALID_MFA_CODE",
    );
  });

  it("does not let a challenge token stand in for a session", async () => {
    const token = await mfaChallenge();
    expectError(
      await op.get("/v1/organization", { key: null, headers: { cookie: `verdict_session=${token}` } }),
      401,
      "unauthorized",
      "AUTH_INVALID_SESSION",
    );
  });
});

describe("require_mfa", () => {
  it("sends members without MFA to enrol before anything else", async () => {
    await addMember(op, "bob@example.test", "member", PASSWORD);
    expect((await op.patch("/v1/organization", { settings: { require_mfa: true } })).body.settings.require_mfa).toBe(
      true,
    );
    const bob = await signIn(op, "bob@example.test", PASSWORD);
    expect(bob.login.body.session.mfa_enrolment_required).toBe(true);
    expectError(await op.get("/v1/evaluations", as(bob)), 403, "forbidden", "AUTH_MFA_ENROLMENT_REQUIRED");
    expect((await op.get("/auth/session", as(bob))).body.mfa_enrolment_required).toBe(true);
    const started = await op.post("/auth/mfa/totp/enrolment", undefined, as(bob));
    const confirmed = await op.post(
      "/auth/mfa/totp/enrolment/confirm",
      { code: totpCode(started.body.secret) },
      as(bob),
    );
    expect(confirmed.body.session.mfa_enrolment_required).toBe(false);
    const c = cookieOf(confirmed)!;
    expect(
      (await op.get("/v1/evaluations", as({ cookie: `${c.name}=${c.value}`, csrf: confirmed.body.session.csrf_token })))
        .status,
    ).toBe(200);
    // API keys are not people: the setting does not apply to them
    expect((await op.get("/v1/evaluations")).status).toBe(200);
  });
});

describe("secrets", () => {
  it("keeps TOTP secrets and recovery codes out of the logs and sealed at rest", async () => {
    const output = v.output();
    expect(output).not.toContain(secret);
    for (const c of recoveryCodes) expect(output).not.toContain(c);
    // What someone with the instance's storage (a backup of the data directory, a dump of its
    // MongoDB database) finds: no secret, code or password.
    const stored = await storedData(v);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.some((s) => s.bytes.includes(Buffer.from("bob@example.test")))).toBe(true); // the member is in there
    for (const { where, bytes } of stored) {
      for (const needle of [secret, PASSWORD, ...recoveryCodes])
        expect({ where, found: bytes.includes(Buffer.from(needle)) }).toEqual({ where, found: false });
    }
  });
});
