// A person's own passkeys over real HTTP: list (name, created, last used, device type, backed
// up), rename, delete, with the session rules of the other MFA endpoints (a session, its CSRF
// token) and the organization's require-MFA guarding the last second factor. Credentials come
// from Debian's Chromium with the DevTools virtual authenticator, as in passkeys.test.ts.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { chromium, type Browser, type Page } from "playwright-core";
import { Api } from "../support/api.js";
import { addMember } from "../support/people.js";
import { startVerdict, type Verdict } from "../support/server.js";

const CHROMIUM = "/usr/bin/chromium";
const PASSWORD = "correct horse battery staple";
let v: Verdict;
let op: Api;
let browser: Browser;
let page: Page;

type Res = { status: number; body: any };

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium`);
  v = await startVerdict();
  op = new Api(v.url, v.bootstrapKey);
  await addMember(op, "pat@example.test", "owner", PASSWORD);
  // Someone of another organization, with a passkey of their own.
  const other = await op.post("/v1/organizations", { name: "Initech" });
  await addMember(op.withKey(other.body.api_key.key), "sam@initech.test", "owner", PASSWORD);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await page.goto(`http://localhost:${v.port}/v1/health`);
  await page.evaluate(`
    window.call = async (method, path, body, csrf) => {
      const r = await fetch(path, { method, headers: { "content-type": "application/json", ...(csrf ? { "x-csrf-token": csrf } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, body: await r.json().catch(() => null) };
    };
    // Signs in (with the passkey when the person has one) and answers the CSRF token.
    window.signIn = async (email, password) => {
      const login = await call("POST", "/auth/login", { email, password });
      if (!login.body.mfa_required) return login.body.session.csrf_token;
      const options = await call("POST", "/auth/webauthn/login/options", { mfa_token: login.body.mfa_token });
      const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options.body.options) });
      const done = await call("POST", "/auth/webauthn/login/verify", { mfa_token: login.body.mfa_token, response: credential.toJSON() });
      return done.body.session.csrf_token;
    };
    window.addPasskey = async (csrf, name) => {
      const options = await call("POST", "/auth/webauthn/registration/options", undefined, csrf);
      const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options.body.options) });
      const done = await call("POST", "/auth/webauthn/registration/verify", { response: credential.toJSON(), name }, csrf);
      return done.body.session.csrf_token;
    };
  `);
});
afterAll(async () => {
  await browser?.close();
  await v?.destroy();
});

/** Runs in the page, signed in as `email`: the script gets `csrf` and `call`. */
async function asPerson<T>(email: string, script: string): Promise<T> {
  return page.evaluate(
    `(async () => { const csrf = await signIn(${JSON.stringify(email)}, ${JSON.stringify(PASSWORD)}); ${script} })()`,
  ) as Promise<T>;
}

describe("a person's passkeys", () => {
  let patKey: string;
  let samKey: string;

  it("lists the person's own passkeys with name, created, last used, device type and backed up", async () => {
    const res = await asPerson<{ list: Res }>(
      "pat@example.test",
      `await addPasskey(csrf, "laptop");
       const list = await call("GET", "/auth/webauthn/credentials");
       return { list };`,
    );
    expect(res.list.status).toBe(200);
    expect(res.list.body.passkeys).toEqual([
      {
        id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
        name: "laptop",
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        last_used_at: null,
        device_type: "singleDevice",
        backed_up: false,
        transports: expect.any(Array),
      },
    ]);
    patKey = res.list.body.passkeys[0].id;
    // Signing in with it (signIn uses the passkey now) records when it was last used.
    const after = await asPerson<Res>("pat@example.test", `return call("GET", "/auth/webauthn/credentials");`);
    expect(after.body.passkeys[0].last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(after.body.passkeys[0].public_key).toBeUndefined();
  });

  it("shows nobody else's passkeys and refuses to touch them", async () => {
    const res = await asPerson<{ list: Res; del: Res; rename: Res }>(
      "sam@initech.test",
      `await addPasskey(csrf, "sam's key");
       const again = await signIn("sam@initech.test", ${JSON.stringify(PASSWORD)});
       const list = await call("GET", "/auth/webauthn/credentials");
       const path = ${JSON.stringify(`/auth/webauthn/credentials/${encodeURIComponent(patKey)}`)};
       const del = await call("DELETE", path, undefined, again);
       const rename = await call("PATCH", path, { name: "mine" }, again);
       return { list, del, rename };`,
    );
    expect(res.list.body.passkeys.map((p: { name: string }) => p.name)).toEqual(["sam's key"]);
    samKey = res.list.body.passkeys[0].id;
    expect(samKey).not.toBe(patKey);
    expect(res.del).toMatchObject({ status: 404, body: { error: "not_found" } });
    expect(res.rename).toMatchObject({ status: 404, body: { error: "not_found" } });
    const pat = await asPerson<Res>("pat@example.test", `return call("GET", "/auth/webauthn/credentials");`);
    expect(pat.body.passkeys.map((p: { id: string; name: string }) => [p.id, p.name])).toEqual([[patKey, "laptop"]]);
  });

  it("needs a session and its CSRF token, not an API key", async () => {
    const list = await op.get("/auth/webauthn/credentials");
    expect(list.status).toBe(403);
    expect(list.body.code).toBe("AUTH_SESSION_REQUIRED");
    const noCsrf = await asPerson<Res>(
      "pat@example.test",
      `return call("DELETE", "/auth/webauthn/credentials/${encodeURIComponent(patKey)}");`,
    );
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe("AUTH_CSRF_FAILED");
  });

  it("renames a passkey, with the field's error for a bad name", async () => {
    const res = await asPerson<{ ok: Res; bad: Res }>(
      "pat@example.test",
      `const path = "/auth/webauthn/credentials/${encodeURIComponent(patKey)}";
       const ok = await call("PATCH", path, { name: "work laptop" }, csrf);
       const bad = await call("PATCH", path, { name: "" }, csrf);
       return { ok, bad };`,
    );
    expect(res.ok).toMatchObject({ status: 200, body: { id: patKey, name: "work laptop" } });
    expect(res.bad.status).toBe(400);
    expect(res.bad.body.details.errors[0]).toMatchObject({ field: "name", code: "MIN_SIZE_REQUIRED" });
  });

  it("refuses to delete the last second factor while the organization requires MFA, then deletes it", async () => {
    expect((await op.patch("/v1/organization", { settings: { require_mfa: true } })).status).toBe(200);
    const path = `/auth/webauthn/credentials/${encodeURIComponent(patKey)}`;
    const refused = await asPerson<Res>("pat@example.test", `return call("DELETE", "${path}", undefined, csrf);`);
    expect(refused.status).toBe(422);
    expect(refused.body.details.errors[0]).toMatchObject({ field: "credential_id" });
    expect(refused.body.message).toMatch(/last second factor.*requires MFA/);

    expect((await op.patch("/v1/organization", { settings: { require_mfa: false } })).status).toBe(200);
    const res = await asPerson<{ del: Res; list: Res; login: Res }>(
      "pat@example.test",
      `const del = await call("DELETE", "${path}", undefined, csrf);
       const list = await call("GET", "/auth/webauthn/credentials");
       const login = await call("POST", "/auth/login", { email: "pat@example.test", password: ${JSON.stringify(PASSWORD)} });
       return { del, list, login };`,
    );
    expect(res.del.status).toBe(204);
    expect(res.list.body.passkeys).toEqual([]);
    // No second factor left: the password alone signs in again.
    expect(res.login.body.mfa_required).toBe(false);
    const audit = await op.get("/v1/audit-events", { query: { type: "mfa.passkey_deleted" } });
    expect(audit.body.audit_events).toEqual([
      expect.objectContaining({ type: "mfa.passkey_deleted", data: { name: "work laptop" } }),
    ]);
  });
});
