// A person's own passkeys over real HTTP: list (name, created, last used, device type, backed
// up), rename, delete, with the session rules of the other MFA endpoints (a session, its CSRF
// token) and the organization's require-MFA guarding the last second factor. Credentials come
// from Debian's Chromium with the DevTools virtual authenticator, as in passkeys.test.ts.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { chromium, type Browser, type CDPSession, type Page } from "playwright-core";
import { Api } from "../support/api.js";
import { addMember } from "../support/people.js";
import { startVerdict, type Verdict } from "../support/server.js";

const CHROMIUM = "/usr/bin/chromium";
const PASSWORD = "correct horse battery staple";
let v: Verdict;
let op: Api;
let browser: Browser;
let page: Page;
let cdp: CDPSession;
let authenticatorId: string;

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
  cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  ({ authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }));
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
        version: 1,
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
    expect(res.ok).toMatchObject({ status: 200, body: { id: patKey, name: "work laptop", version: 2 } });
    expect(res.bad.status).toBe(400);
    expect(res.bad.body.details.errors[0]).toMatchObject({ field: "name", code: "MIN_SIZE_REQUIRED" });
  });

  it("names a version, so two changes from the same read never overwrite each other (412)", async () => {
    type Out = Record<string, Res & { etag?: string | null }>;
    await asPerson("pat@example.test", `window.csrf = csrf;`);
    // One authenticator holds one credential per account (excludeCredentials): register the
    // second passkey with the first one set aside, then put it back.
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    await cdp.send("WebAuthn.clearCredentials", { authenticatorId });
    await page.evaluate(`(async () => { window.csrf2 = await addPasskey(window.csrf, "phone"); })()`);
    // As a non-discoverable credential: the authenticator keeps one discoverable one per account.
    for (const credential of credentials)
      await cdp.send("WebAuthn.addCredential", {
        authenticatorId,
        credential: { ...credential, isResidentCredential: false },
      });
    const res = (await page.evaluate(
      `(async () => {
       const csrf2 = window.csrf2;
       const send = async (method, path, body, headers) => {
         const r = await fetch(path, { method, headers: { "content-type": "application/json", "x-csrf-token": csrf2, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
         return { status: r.status, etag: r.headers.get("etag"), body: await r.json().catch(() => null) };
       };
       const read = await call("GET", "/auth/webauthn/credentials");
       const phone = read.body.passkeys.find((p) => p.name === "phone");
       const path = "/auth/webauthn/credentials/" + encodeURIComponent(phone.id);
       // Two tabs read version 1; the first rename wins, the second is told it is stale.
       const first = await send("PATCH", path, { name: "my phone" }, { "if-match": 'W/"' + phone.version + '"' });
       const second = await send("PATCH", path, { name: "old phone" }, { "if-match": 'W/"' + phone.version + '"' });
       const byBody = await send("PATCH", path, { name: "old phone", version: phone.version });
       const staleDelete = await send("DELETE", path, undefined, { "if-match": '"' + phone.version + '"' });
       const badHeader = await send("DELETE", path, undefined, { "if-match": "yesterday" });
       const contradiction = await send("PATCH", path, { name: "x", version: 1 }, { "if-match": 'W/"2"' });
       const after = await call("GET", "/auth/webauthn/credentials");
       // Without a version, a rename of one and a delete of the other at once both land.
       const laptopPath = "/auth/webauthn/credentials/" + encodeURIComponent(${JSON.stringify(patKey)});
       const [rename, del] = await Promise.all([
         send("PATCH", laptopPath, { name: "work laptop" }),
         send("DELETE", path, undefined, { "if-match": first.etag }),
       ]);
       const end = await call("GET", "/auth/webauthn/credentials");
       return { phone: { status: 200, body: phone }, first, second, byBody, staleDelete, badHeader, contradiction, after, rename, del, end };
      })()`,
    )) as Out;
    expect(res.phone!.body).toMatchObject({ name: "phone", version: 1 });
    expect(res.first).toMatchObject({ status: 200, etag: 'W/"2"', body: { name: "my phone", version: 2 } });
    for (const stale of [res.second, res.byBody, res.staleDelete])
      expect(stale).toMatchObject({
        status: 412,
        body: { error: "precondition_failed", code: "VERSION_MISMATCH", details: { current_version: 2 } },
      });
    expect(res.badHeader!.status).toBe(400);
    expect(res.badHeader!.body.details.errors[0]).toMatchObject({ field: "If-Match", code: "INVALID_FORMAT" });
    expect(res.contradiction!.status).toBe(400);
    expect(res.contradiction!.body.details.errors[0]).toMatchObject({ field: "version" });
    expect(res.after!.body.passkeys.map((p: { name: string }) => p.name)).toEqual(["work laptop", "my phone"]);
    expect(res.rename!.status).toBe(200);
    expect(res.del!.status).toBe(204);
    expect(res.end!.body.passkeys).toEqual([expect.objectContaining({ id: patKey, name: "work laptop", version: 3 })]);
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
      expect.objectContaining({ type: "mfa.passkey_deleted", data: { name: "my phone" } }),
    ]);
  });
});
