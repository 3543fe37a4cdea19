// Passkeys (WebAuthn) through a real browser: Debian's Chromium driven by playwright-core, with
// the DevTools virtual authenticator (CTAP2, internal, resident keys, user verification). The
// page is served by Verdict on http://localhost (a secure context, so WebAuthn works), and the
// browser's own WebAuthn JSON helpers build the requests: nothing of the ceremony is simulated.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { chromium, type Browser, type Page } from "playwright-core";
import { Api } from "../support/api.js";
import { addMember } from "../support/people.js";
import { startVerdict, type Verdict } from "../support/server.js";

const CHROMIUM = "/usr/bin/chromium";
const PASSWORD = "correct horse battery staple";
let v: Verdict;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  // apt-get install -y --no-install-recommends chromium fonts-liberation
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium`);
  v = await startVerdict();
  await addMember(new Api(v.url, v.bootstrapKey), "pat@example.test", "owner", PASSWORD);
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
});
afterAll(async () => {
  await browser?.close();
  await v?.destroy();
});

type Res = { status: number; body: any };

/** Runs in the page: JSON POSTs with the page's cookies, optionally with the CSRF header. */
const helpers = `
  window.post = async (path, body, csrf) => {
    const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json", ...(csrf ? { "x-csrf-token": csrf } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: await r.json().catch(() => null) };
  };
`;

describe("passkeys", () => {
  let assertion: unknown;

  it("registers a passkey created by the browser as a second factor", async () => {
    await page.evaluate(helpers);
    const res = (await page.evaluate(
      async ([email, password]) => {
        const w = globalThis as any; // the page's window (no DOM types in the test build)
        const login = await w.post("/auth/login", { email, password });
        const csrf = login.body.session.csrf_token;
        const options = await w.post("/auth/webauthn/registration/options", undefined, csrf);
        const credential = await w.navigator.credentials.create({
          publicKey: w.PublicKeyCredential.parseCreationOptionsFromJSON(options.body.options),
        });
        const verified = await w.post(
          "/auth/webauthn/registration/verify",
          { response: credential.toJSON(), name: "virtual authenticator" },
          csrf,
        );
        const oldSession = await w.fetch("/v1/organization").then((r: { status: number }) => r.status);
        return { options, verified, oldSession };
      },
      ["pat@example.test", PASSWORD],
    )) as { options: Res; verified: Res; oldSession: number };
    expect(res.options.status).toBe(200);
    expect(res.options.body.options).toMatchObject({
      rp: { id: "localhost", name: "Verdict" },
      user: { name: "pat@example.test" },
      attestation: "none",
    });
    expect(res.verified.status).toBe(200);
    expect(res.verified.body.recovery_codes).toHaveLength(10);
    expect(res.verified.body.session.user.mfa_enabled).toBe(true);
    // the new cookie replaced the old one in the browser, so the page is still signed in
    expect(res.oldSession).toBe(200);
  });

  it("signs in with the password, then the passkey's signature", async () => {
    const res = (await page.evaluate(
      async ([email, password]) => {
        const w = globalThis as any; // the page's window (no DOM types in the test build)
        const login = await w.post("/auth/login", { email, password });
        const options = await w.post("/auth/webauthn/login/options", { mfa_token: login.body.mfa_token });
        const credential = await w.navigator.credentials.get({
          publicKey: w.PublicKeyCredential.parseRequestOptionsFromJSON(options.body.options),
        });
        const response = credential.toJSON();
        const verified = await w.post("/auth/webauthn/login/verify", { mfa_token: login.body.mfa_token, response });
        const members = await w.fetch("/v1/members").then((r: { status: number }) => r.status);
        return { login, verified, members, response };
      },
      ["pat@example.test", PASSWORD],
    )) as { login: Res; verified: Res; members: number; response: unknown };
    expect(res.login.body).toMatchObject({ mfa_required: true, methods: ["webauthn", "recovery_code"] });
    expect(res.verified.status).toBe(200);
    expect(res.verified.body.session).toMatchObject({
      role: "owner",
      user: { email: "pat@example.test", mfa_enabled: true },
    });
    expect(res.members).toBe(200);
    assertion = res.response;
  });

  it("refuses a replayed signature: each sign-in has its own challenge", async () => {
    const res = (await page.evaluate(
      async ([email, password, replayed]) => {
        const w = globalThis as any; // the page's window (no DOM types in the test build)
        const login = await w.post("/auth/login", { email, password });
        await w.post("/auth/webauthn/login/options", { mfa_token: login.body.mfa_token });
        return w.post("/auth/webauthn/login/verify", { mfa_token: login.body.mfa_token, response: replayed });
      },
      ["pat@example.test", PASSWORD, assertion] as const,
    )) as Res;
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: "unauthorized", code: "AUTH_INVALID_MFA_CODE" });
  });

  it("answers a malformed answer with the exact field, never a 500", async () => {
    const api = new Api(v.url);
    const login = await api.post("/auth/login", { email: "pat@example.test", password: PASSWORD }, { key: null });
    await api.post("/auth/webauthn/login/options", { mfa_token: login.body.mfa_token }, { key: null });
    const res = await api.post(
      "/auth/webauthn/login/verify",
      { mfa_token: login.body.mfa_token, response: { id: "nope" } },
      { key: null },
    );
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("AUTH_INVALID_MFA_CODE");
    const bad = await api.post(
      "/auth/webauthn/login/verify",
      { mfa_token: login.body.mfa_token, response: "nope" },
      { key: null },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors[0]).toMatchObject({ field: "response", code: "INVALID_FORMAT" });
  });
});
