// The SDK against a running Verdict: typed calls, the pagination iterator, and the spec's retry
// guidance as the server sees it: a 4xx is sent once, a 429 whose Retry-After is longer than the
// caller will wait is answered at once with the rate-limit error instead of hanging.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { invitationToken, VerdictApiError, VerdictClient } from "@verdict/sdk";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let operator: VerdictClient;

beforeAll(async () => {
  v = await startVerdict();
  operator = new VerdictClient({ baseUrl: `${v.url}/v1`, apiKey: v.bootstrapKey });
});
afterAll(async () => v.destroy());

/** A new organization whose reads are limited to `reads` a minute, and a client with its key. */
async function limitedOrg(reads: number, retry = {}) {
  const { api_key } = await operator.createOrganization({
    name: `sdk ${Math.random()}`,
    rate_limits: { reads_per_minute: reads },
  });
  return { key: api_key.key, client: new VerdictClient({ baseUrl: v.url, apiKey: api_key.key, retry }) };
}

/** What the server says is left of the reads window, from one more read. */
async function readsLeft(key: string): Promise<number> {
  const res = await fetch(`${v.url}/v1/policies`, { headers: { authorization: `Bearer ${key}` } });
  return Number(res.headers.get("x-ratelimit-remaining"));
}

describe("typed calls", () => {
  it("creates, reads and pages through evaluations", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.unshift(
        (
          await operator.createEvaluation({
            repository: "acme/sdk",
            ref: "main",
            files: [{ path: "a.txt", content: `n${i}` }],
          })
        ).id,
      );
    const seen: string[] = [];
    for await (const e of operator.evaluations({ repository: "acme/sdk", limit: 2 })) seen.push(e.id);
    expect(seen).toEqual(ids); // newest first, across three pages of at most 2
    const one = await operator.getEvaluation(ids[0]!);
    expect(one).toMatchObject({ id: ids[0], repository: "acme/sdk", status: "completed", passed: true });
    // Any operation of the generated module, as docs/cli.md shows it: the path parameter filled in.
    const same = await operator.call("get", "/v1/evaluations/{evaluation_id}", { path: { evaluation_id: ids[0]! } });
    expect(same).toEqual(one);
  });

  it("throws the API's error with its status, code and request id", async () => {
    const err = (await operator
      .getEvaluation("eval_01jd0000000000000000000000")
      .catch((e: unknown) => e)) as VerdictApiError;
    expect(err).toBeInstanceOf(VerdictApiError);
    expect(err).toMatchObject({
      status: 404,
      error: "not_found",
      code: "RESOURCE_NOT_FOUND",
      requestId: expect.stringMatching(/^req_/),
    });
    expect(err.details).toMatchObject({ resource_type: "evaluation" });
  });
});

describe("retry guidance", () => {
  it("sends a 4xx once", async () => {
    const { key, client } = await limitedOrg(10);
    const before = await readsLeft(key);
    await expect(client.getEvaluation("eval_01jd0000000000000000000000")).rejects.toMatchObject({ status: 404 });
    await expect(client.getPolicy("no-such-policy")).rejects.toMatchObject({ status: 404 });
    expect(await readsLeft(key)).toBe(before - 3); // the two failed calls and this check: no retries
  });

  it("answers a 429 it will not wait for with the rate-limit error", async () => {
    const { key, client } = await limitedOrg(2, { maxDelayMs: 2000 });
    while ((await readsLeft(key)) > 0); // use up the window
    const started = Date.now();
    const err = (await client.listPolicies().catch((e: unknown) => e)) as VerdictApiError;
    expect(err).toMatchObject({ status: 429, code: "RATE_LIMIT_EXCEEDED" });
    expect(err.details).toMatchObject({ limit: 2, window: "1m", retry_after: expect.any(Number) });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("people and access", () => {
  it("invites, lists, changes and removes members; typed errors name the field and code", async () => {
    const invited = await operator.inviteMember({ email: "sdk-member@example.com", role: "member" });
    expect(invited).toMatchObject({
      id: expect.stringMatching(/^user_/),
      status: "invited",
      invitation_url: expect.stringContaining("vdt_inv_"),
    });
    expect((await operator.listMembers()).members.find((m) => m.id === invited.id)).not.toHaveProperty(
      "invitation_url",
    );
    expect(await operator.updateMember(invited.id, { role: "viewer" })).toMatchObject({ role: "viewer" });
    await operator.removeMember(invited.id);
    expect((await operator.listMembers()).members.map((m) => m.id)).not.toContain(invited.id);
    const err = (await operator
      .inviteMember({ email: "nope", role: "member" })
      .catch((e: unknown) => e)) as VerdictApiError;
    expect(err).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
    expect(err.details?.errors).toEqual([expect.objectContaining({ field: "email", code: "INVALID_FORMAT" })]);
  });

  it("iterates the audit log across cursor pages, newest first, as one listing shows it", async () => {
    for (let i = 0; i < 5; i++) await operator.inviteMember({ email: `sdk-audit${i}@example.com`, role: "viewer" });
    const paged: string[] = [];
    for await (const e of operator.auditEvents({ type: "member.invited", limit: 2 })) paged.push(e.id);
    const whole = await operator.listAuditEvents({ type: "member.invited", limit: 100 });
    expect(paged.length).toBeGreaterThanOrEqual(5);
    expect(paged).toEqual(whole.audit_events.map((e) => e.id));
    const first = await operator.listAuditEvents({ type: "member.invited", limit: 2 });
    expect(first.pagination).toEqual({ has_more: true, next_cursor: expect.any(String) });
  });

  it("creates, lists and deletes OAuth clients and SCIM tokens, whose secrets come once", async () => {
    const client = await operator.createOAuthClient({
      name: "sdk app",
      redirect_uris: ["https://app.example.com/cb"],
      scopes: ["read:evaluations"],
      public: false,
    });
    expect(client.client_secret).toMatch(/^vdt_ocs_/);
    const listed = await operator.listOAuthClients();
    expect(listed.oauth_clients.map((o) => o.client_id)).toContain(client.client_id);
    expect(JSON.stringify(listed)).not.toContain(client.client_secret!);
    await operator.deleteOAuthClient(client.client_id);
    expect((await operator.listOAuthClients()).oauth_clients.map((o) => o.client_id)).not.toContain(client.client_id);

    const token = await operator.createScimToken({ name: "sdk idp", expiration: "24h" });
    expect(token.token).toMatch(/^vdt_scim_/);
    const scim = () =>
      fetch(`${v.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token.token}` } }).then((r) => r.status);
    expect(await scim()).toBe(200);
    expect((await operator.listScimTokens()).scim_tokens.find((t) => t.id === token.id)).toMatchObject({
      name: "sdk idp",
      prefix: token.token.slice(0, token.prefix.length),
    });
    await operator.deleteScimToken(token.id);
    expect(await scim()).toBe(401);
  });

  it("puts, reads and deletes the SSO connection without ever answering the client secret", async () => {
    const put = await operator.putSsoConnection({
      type: "oidc",
      issuer: "https://idp.example.com",
      client_id: "verdict",
      client_secret: "sdk-secret-value",
      domains: ["sdk.example"],
    });
    expect(put).toMatchObject({ type: "oidc", client_secret_set: true, default_role: "member", enforce: false });
    const got = await operator.getSsoConnection();
    expect(got.domains).toEqual([expect.objectContaining({ domain: "sdk.example", verified: false })]);
    expect(JSON.stringify(got)).not.toContain("sdk-secret-value");
    await operator.deleteSsoConnection();
    await expect(operator.getSsoConnection()).rejects.toMatchObject({ status: 404, code: "RESOURCE_NOT_FOUND" });
  });

  it("accepts an invitation with its link (no API key), after which the person signs in, and only once", async () => {
    const invited = await operator.inviteMember({ email: "sdk-joiner@example.com", role: "viewer" });
    expect(invitationToken(invited.invitation_url)).toMatch(/^vdt_inv_/);
    const anonymous = new VerdictClient({ baseUrl: v.url });
    const joined = await anonymous.acceptInvitation({
      token: invited.invitation_url,
      name: "Sam Joiner",
      password: "correct horse battery staple",
    });
    expect(joined).toMatchObject({
      member: { id: invited.id, email: "sdk-joiner@example.com", role: "viewer", status: "active" },
      organization_id: expect.stringMatching(/^org_/),
    });
    const login = await fetch(`${v.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "sdk-joiner@example.com", password: "correct horse battery staple" }),
    });
    expect(login.status).toBe(200);
    // The link works once; a short password is the field's error.
    const again = (await anonymous
      .acceptInvitation({ token: invitationToken(invited.invitation_url), password: "correct horse battery staple" })
      .catch((e: unknown) => e)) as VerdictApiError;
    expect(again).toMatchObject({ status: 404, code: "RESOURCE_NOT_FOUND" });
    const other = await operator.inviteMember({ email: "sdk-short@example.com", role: "viewer" });
    const short = (await anonymous
      .acceptInvitation({ token: other.invitation_url, name: "Short", password: "short" })
      .catch((e: unknown) => e)) as VerdictApiError;
    expect(short.status).toBe(422);
    expect(short.details?.errors).toEqual([expect.objectContaining({ field: "password" })]);
  });

  it("lets the instance operator verify a domain an organization claimed for SSO, and nobody else", async () => {
    const { organization, api_key } = await operator.createOrganization({ name: "sdk sso", plan: "team" });
    const admin = new VerdictClient({ baseUrl: v.url, apiKey: api_key.key });
    const claimed = await admin.putSsoConnection({
      type: "oidc",
      issuer: "https://idp.example.com",
      client_id: "verdict",
      client_secret: "sdk-secret-value",
      domains: ["sdk-verify.example"],
    });
    expect(claimed.domains).toEqual([
      expect.objectContaining({
        domain: "sdk-verify.example",
        verified: false,
        verification_token: expect.any(String),
      }),
    ]);
    const refused = (await admin
      .verifySsoDomain(organization.id, "sdk-verify.example")
      .catch((e: unknown) => e)) as VerdictApiError;
    expect(refused.status).toBe(403);
    const verified = await operator.verifySsoDomain(organization.id, "sdk-verify.example");
    expect(verified.domains).toEqual([expect.objectContaining({ domain: "sdk-verify.example", verified: true })]);
    expect((await admin.getSsoConnection()).domains[0]).toMatchObject({ verified: true });
    await expect(operator.verifySsoDomain(organization.id, "unclaimed.example")).rejects.toMatchObject({
      status: 404,
    });
  });
});
