// Enterprise SSO end to end: Verdict as OIDC relying party and SAML 2.0 service provider to a real
// Keycloak (started once for this suite), signed in through Debian's Chromium (playwright-core).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { Api } from "../support/api.js";
import { storedData } from "../support/atRest.js";
import { KeycloakAdmin, startKeycloak, type Keycloak } from "../support/keycloak.js";
import { addMember, invitationToken } from "../support/people.js";
import { ROOT, startVerdict, type Verdict } from "../support/server.js";

const CHROMIUM = "/usr/bin/chromium";
const PASSWORD = "correct horse battery staple";
const IDP_PASSWORD = "idp-password-123";
let kc: Keycloak;
let admin: KeycloakAdmin;
let v: Verdict;
let base: string;
let browser: Browser;
let op: Api;
const orgs: Record<string, { id: string; api: Api }> = {};
let acmeRealm = "";
let globexRealm = "";

async function createOrg(name: string, plan: string) {
  const res = await op.post("/v1/organizations", { name, plan });
  expect(res.status).toBe(201);
  orgs[name] = { id: res.body.organization.id, api: op.withKey(res.body.api_key.key) };
  return orgs[name]!;
}

const put = (api: Api, body: unknown) => api.request("PUT", "/v1/organization/sso", { body });

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: bash scripts/install-test-tools.sh`);
  // Both start at once; each is kept as soon as it runs, so afterAll stops it whatever fails.
  const keycloak = startKeycloak().then((k) => (kc = k));
  // Keycloak listens on 127.0.0.1: the only private address this instance may fetch an IdP at.
  v = await startVerdict({ env: { VERDICT_SSO_ALLOW_PRIVATE: "127.0.0.1/32" } });
  await keycloak;
  base = `http://localhost:${v.port}`;
  op = new Api(v.url, v.bootstrapKey);
  admin = new KeycloakAdmin(kc.url);
  await admin.login();
  const stamp = Date.now().toString(36);
  // OIDC: realm acme-<stamp> signs in people of acme.test.
  acmeRealm = `acme-${stamp}`;
  await admin.createRealm(acmeRealm);
  await admin.createOidcClient(acmeRealm, "verdict", "kc-client-secret", `${base}/auth/oidc/callback`);
  const users: [string, boolean][] = [
    ["alice@acme.test", true],
    ["eve@acme.test", false],
    ["mallory@outside.test", true],
    ["dave@acme.test", true],
  ];
  for (const [email, verified] of users)
    await admin.createUser(acmeRealm, {
      username: email.split("@")[0]!,
      email,
      emailVerified: verified,
      firstName: email.split("@")[0]!,
      lastName: "Tester",
      password: IDP_PASSWORD,
    });
  // SAML: realm globex-<stamp>; a second realm's key plays the wrong signer.
  globexRealm = `globex-${stamp}`;
  const rogueRealm = `rogue-${stamp}`;
  await admin.createRealm(globexRealm);
  await admin.createRealm(rogueRealm);
  for (const email of ["bob@globex.test", "carol@initech.test"])
    await admin.createUser(globexRealm, {
      username: email.split("@")[0]!,
      email,
      emailVerified: true,
      firstName: email.split("@")[0]!,
      lastName: "Saml",
      password: IDP_PASSWORD,
    });

  const acme = await createOrg("Acme", "team");
  const globex = await createOrg("Globex", "business");
  const initech = await createOrg("Initech", "enterprise");
  await createOrg("Freeloader", "free");
  await addMember(acme.api, "owner@acme.test", "owner", PASSWORD);
  await addMember(acme.api, "dave@acme.test", "member", PASSWORD);

  const acmeSso = await put(acme.api, {
    type: "oidc",
    issuer: `${kc.url}/realms/${acmeRealm}`,
    client_id: "verdict",
    client_secret: "kc-client-secret",
    domains: ["acme.test", "acme-pending.test"],
    default_role: "viewer",
    enforce: false,
  });
  expect(acmeSso.status).toBe(200);
  const globexSso = await put(globex.api, {
    type: "saml",
    idp_metadata_url: `${kc.url}/realms/${globexRealm}/protocol/saml/descriptor`,
    domains: ["globex.test"],
    default_role: "member",
  });
  expect(globexSso.status).toBe(200);
  // The browser is on http://localhost: the SP's addresses are built from the site it is on.
  const sp = (org: { id: string }) => [`${base}/auth/saml/metadata?org=${org.id}`, `${base}/auth/saml/acs`] as const;
  expect(globexSso.body.sp.saml_entity_id).toBe(`${v.url}/auth/saml/metadata?org=${globex.id}`);
  await admin.createSamlClient(globexRealm, ...sp(globex));
  // Initech: Keycloak's globex realm signs, but the connection trusts the rogue realm's key.
  const globexMeta = await admin.samlDescriptor(globexRealm);
  const rogueMeta = await admin.samlDescriptor(rogueRealm);
  const ssoUrl =
    /SingleSignOnService[^>]*HTTP-Redirect"[^>]*Location="([^"]+)"/.exec(globexMeta)?.[1] ??
    `${kc.url}/realms/${globexRealm}/protocol/saml`;
  const rogueCert = /<ds:X509Certificate>([^<]+)</.exec(rogueMeta)![1]!;
  const initechSso = await put(initech.api, {
    type: "saml",
    idp_entity_id: `${kc.url}/realms/${globexRealm}`,
    idp_sso_url: ssoUrl,
    idp_certificate: rogueCert,
    domains: ["initech.test"],
    default_role: "member",
  });
  expect(initechSso.status).toBe(200);
  await admin.createSamlClient(globexRealm, ...sp(initech));
  for (const [org, domain] of [
    [acme, "acme.test"],
    [globex, "globex.test"],
    [initech, "initech.test"],
  ] as const) {
    const res = await op.post(`/v1/organizations/${org.id}/sso/domains/${domain}/verify`);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await v?.destroy();
  await kc?.stop();
}, 60_000);

/** A fresh browser (no IdP session) that signs in at Keycloak's login form. */
async function idpSignIn(
  start: string,
  username: string,
): Promise<{ page: Page; context: BrowserContext; acsPosts: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const acsPosts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/auth/saml/acs")) acsPosts.push(r.postData() ?? "");
  });
  await page.goto(`${base}${start}`);
  await page
    .locator("#username")
    .fill(username, { timeout: 15_000 })
    .catch(async (e: Error) => {
      // Keycloak's own error page ("Invalid Request") says why: show it.
      throw new Error(`${e.message}\n${page.url()}\n${(await page.locator("body").innerText()).slice(0, 500)}`);
    });
  await page.locator("#password").fill(IDP_PASSWORD);
  await page.locator("#kc-login").click();
  return { page, context, acsPosts };
}

/** The SSO cookie a sign-in start set, as a Cookie header. */
const ssoCookie = (started: Response) =>
  started.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");

async function sessionIn(page: Page): Promise<{ status: number; body: any }> {
  return page.evaluate(async () => {
    const r = await fetch("/auth/session");
    return { status: r.status, body: await r.json() };
  });
}

describe("SSO connections", () => {
  it("are for the Team, Business and Enterprise plans only", async () => {
    const res = await put(orgs.Freeloader!.api, {
      type: "oidc",
      issuer: "https://idp.example",
      client_id: "x",
      client_secret: "y",
      domains: ["free.test"],
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("PLAN_FEATURE_UNAVAILABLE");
  });

  it("name the field that breaks a rule (422)", async () => {
    const res = await put(orgs.Acme!.api, {
      type: "oidc",
      issuer: "ftp://idp.example",
      client_id: "x",
      domains: ["not a domain"],
    });
    expect(res.status).toBe(422);
    const fields = res.body.details.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["issuer", "domains[0]"]));
  });

  it("never show the client secret, and show the domains with their verification state", async () => {
    const res = await orgs.Acme!.api.get("/v1/organization/sso");
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain("kc-client-secret");
    // Nor does the storage: the secret is kept encrypted.
    for (const { where, bytes } of await storedData(v))
      expect({ where, found: bytes.includes(Buffer.from("kc-client-secret")) }).toEqual({ where, found: false });
    expect(res.body).toMatchObject({ type: "oidc", client_secret_set: true, default_role: "viewer" });
    expect(res.body.domains).toEqual([
      expect.objectContaining({ domain: "acme-pending.test", verified: false }),
      expect.objectContaining({ domain: "acme.test", verified: true }),
    ]);
  });

  it("a verified domain belongs to one organization", async () => {
    const res = await put(orgs.Globex!.api, {
      type: "saml",
      idp_entity_id: "https://idp.example",
      idp_sso_url: "https://idp.example/sso",
      idp_certificate: (await orgs.Initech!.api.get("/v1/organization/sso")).body.idp_certificates[0],
      domains: ["globex.test", "acme.test"],
    });
    expect(res.status).toBe(422);
    expect(res.body.details.errors[0].field).toBe("domains[1]");
  });

  it("a domain that is not verified routes nobody", async () => {
    const res = await new Api(v.url).get("/auth/oidc/authorize", {
      query: { email: "x@acme-pending.test" },
      key: null,
    });
    expect(res.status).toBe(422);
    expect(res.body.details.errors[0]).toMatchObject({ field: "email" });
    expect(res.body.message).toContain("not verified");
  });
});

describe("OIDC sign-in with Keycloak", () => {
  it("a new person joins with the connection's default role (just in time) and gets a session", async () => {
    const { page, context } = await idpSignIn("/auth/oidc/authorize?email=alice@acme.test", "alice");
    await page.waitForURL(`${base}/`);
    const s = await sessionIn(page);
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({
      user: { email: "alice@acme.test" },
      role: "viewer",
      organization: { id: orgs.Acme!.id },
    });
    const members = await orgs.Acme!.api.get("/v1/members");
    expect(members.body.members).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: "alice@acme.test", role: "viewer" })]),
    );
    const audit = await orgs.Acme!.api.get("/v1/audit-events", { query: { type: "signin.succeeded" } });
    expect(audit.body.audit_events[0]).toMatchObject({ data: expect.objectContaining({ method: "sso_oidc" }) });
    await context.close();
  });

  it("an existing member is linked (keeps their role)", async () => {
    const { page, context } = await idpSignIn("/auth/oidc/authorize?email=dave@acme.test", "dave");
    await page.waitForURL(`${base}/`);
    expect((await sessionIn(page)).body).toMatchObject({ user: { email: "dave@acme.test" }, role: "member" });
    await context.close();
  });

  it("an email the IdP has not verified is refused", async () => {
    const { page, context } = await idpSignIn("/auth/oidc/authorize?email=eve@acme.test", "eve");
    await page.locator("#status[role=alert]").waitFor();
    expect(await page.locator("#status").textContent()).toContain("email_verified");
    expect((await sessionIn(page)).status).toBe(401);
    await context.close();
  });

  it("an email outside the connection's verified domains is refused", async () => {
    const { page, context } = await idpSignIn("/auth/oidc/authorize?email=alice@acme.test", "mallory");
    await page.locator("#status[role=alert]").waitFor();
    expect(await page.locator("#status").textContent()).toContain("not a verified domain");
    await context.close();
  });

  it("keeps the PKCE verifier, state and nonce on the server, and takes no return address from the caller", async () => {
    const evil = encodeURIComponent("https://evil.example/cb");
    const res = await fetch(
      `${base}/auth/oidc/authorize?email=alice@acme.test&redirect_uri=${evil}&return_to=${evil}&next=${evil}`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(302);
    // Nothing of the sign-in is handed to the browser but the IdP's query, and one random SSO
    // cookie that binds the sign-in to this browser (HttpOnly, SameSite=Lax, 10 minutes).
    const cookies = res.headers.getSetCookie();
    expect(cookies).toEqual([
      expect.stringMatching(/^verdict_sso=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/),
    ]);
    const to = new URL(res.headers.get("location")!);
    for (const name of ["state", "nonce", "code_challenge"])
      expect(cookies[0]).not.toContain(to.searchParams.get(name));
    expect(`${to.origin}${to.pathname}`).toBe(`${kc.url}/realms/${acmeRealm}/protocol/openid-connect/auth`);
    const b64url43 = expect.stringMatching(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "verdict",
      redirect_uri: `${base}/auth/oidc/callback`,
      code_challenge_method: "S256",
      code_challenge: b64url43,
      state: b64url43,
      nonce: b64url43,
      login_hint: "alice@acme.test",
    });
    expect(to.searchParams.has("code_verifier")).toBe(false);
  });

  it("completes a sign-in's state once: a replayed callback, another sign-in's state and a made-up one are refused", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    let callback = "";
    // The IdP's redirect back, as the browser follows it (its page then spends the state).
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/auth/oidc/callback") callback = r.url();
    });
    await page.goto(`${base}/auth/oidc/authorize?email=dave@acme.test`);
    await page.locator("#username").fill("dave");
    await page.locator("#password").fill(IDP_PASSWORD);
    await page.locator("#kc-login").click();
    await page.waitForURL(`${base}/`);
    expect((await sessionIn(page)).body).toMatchObject({ user: { email: "dave@acme.test" } });
    await context.close();
    const q = new URL(callback).searchParams;
    const exchange = (state: string, cookie = "") =>
      fetch(`${base}/auth/oidc/token`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ code: q.get("code"), state, ...(q.get("iss") ? { iss: q.get("iss") } : {}) }),
      });
    const refused = async (res: Response, code: string) => {
      expect({ status: res.status, code: ((await res.json()) as any).code }).toEqual({ status: 401, code });
      expect(res.headers.get("set-cookie")).toBeNull();
    };
    await refused(await exchange(q.get("state")!), "SSO_STATE_INVALID");
    // A state another sign-in started (from its browser), with this (spent) code: the IdP refuses the exchange.
    const other = await fetch(`${base}/auth/oidc/authorize?email=dave@acme.test`, { redirect: "manual" });
    await refused(
      await exchange(new URL(other.headers.get("location")!).searchParams.get("state")!, ssoCookie(other)),
      "SSO_IDP_RESPONSE_INVALID",
    );
    await refused(await exchange("a-state-nobody-issued"), "SSO_STATE_INVALID");
  });

  it("enforce refuses password sign-in for everyone but owners", async () => {
    const acme = orgs.Acme!.api;
    const current = (await acme.get("/v1/organization/sso")).body;
    const res = await put(acme, {
      type: "oidc",
      issuer: current.issuer,
      client_id: current.client_id,
      domains: ["acme.test", "acme-pending.test"],
      default_role: "viewer",
      enforce: true,
    });
    expect(res.status).toBe(200);
    const anon = new Api(v.url);
    const dave = await anon.post("/auth/login", { email: "dave@acme.test", password: PASSWORD }, { key: null });
    expect(dave.status).toBe(403);
    expect(dave.body.code).toBe("AUTH_SSO_REQUIRED");
    expect(dave.body.message).toContain("single sign-on");
    const owner = await anon.post("/auth/login", { email: "owner@acme.test", password: PASSWORD }, { key: null });
    expect(owner.status).toBe(200);
  });
});

describe("SAML sign-in with Keycloak", () => {
  let response = "";

  it("signs a new person in from the IdP metadata URL's connection", async () => {
    const { page, context, acsPosts } = await idpSignIn("/auth/saml/login?email=bob@globex.test", "bob");
    await page.waitForURL(`${base}/`);
    const s = await sessionIn(page);
    expect(s.body).toMatchObject({ user: { email: "bob@globex.test", name: "bob Saml" }, role: "member" });
    response = acsPosts[0]!;
    expect(response).toContain("SAMLResponse=");
    await context.close();
  });

  it("keeps an account a SAML first sign-in made bound: another tenant's invitation joins it only signed in (issue 25, defect 1)", async () => {
    // Bob exists only through Globex's IdP (no password). Acme's admin invites him and redeems the
    // link with a password of his own choosing: refused, and no password is set.
    const invited = await orgs.Acme!.api.post("/v1/members", { email: "bob@globex.test", role: "admin" });
    expect(invited.status).toBe(201);
    const token = invitationToken(invited.body.invitation_url);
    const taken = await op.post(
      "/auth/invitations/accept",
      { token, name: "Bob", password: "chosen by acme's admin" },
      { key: null },
    );
    expect({ status: taken.status, code: taken.body.code }).toEqual({ status: 403, code: "AUTH_SIGN_IN_REQUIRED" });
    expect(
      (await op.post("/auth/login", { email: "bob@globex.test", password: "chosen by acme's admin" }, { key: null }))
        .status,
    ).toBe(401);
    // Bob himself signs in through Globex's SSO, opens the link in the portal and joins.
    const { page, context } = await idpSignIn("/auth/saml/login?email=bob@globex.test", "bob");
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/invitations/accept#token=${token}`);
    await page.getByText("You are signed in as").waitFor();
    await page.getByRole("button", { name: "Join" }).click();
    await page.getByText("You are now a member").waitFor();
    await context.close();
    const members = (await orgs.Acme!.api.get("/v1/members")).body.members as { email: string; status: string }[];
    expect(members.find((m) => m.email === "bob@globex.test")?.status).toBe("active");
  });

  it("a replayed response is refused", async () => {
    const replay = await fetch(`${base}/auth/saml/finish`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: response,
      redirect: "manual",
    });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as any).code).toBe("SSO_STATE_INVALID");
    // Under a fresh RelayState the response answers another AuthnRequest (InResponseTo).
    const started = await fetch(`${base}/auth/saml/login?email=bob@globex.test`, { redirect: "manual" });
    const relay = new URL(started.headers.get("location")!).searchParams.get("RelayState")!;
    const params = new URLSearchParams(response);
    params.set("RelayState", relay);
    const again = await fetch(`${base}/auth/saml/finish`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: ssoCookie(started) },
      body: params.toString(),
      redirect: "manual",
    });
    expect(again.status).toBe(401);
    expect(((await again.json()) as any).code).toBe("SSO_IDP_RESPONSE_INVALID");
  });

  it("a response for another audience is refused", async () => {
    // The browser signs in on http://localhost, so Keycloak's assertion is for the SP entity id
    // http://localhost:…/auth/saml/metadata?org=…; the ACS at http://127.0.0.1:… is another SP
    // (its entity id is built from its own address): same RelayState, valid signature, wrong audience.
    const context = await browser.newContext();
    const page = await context.newPage();
    let posted = "";
    await page.route("**/auth/saml/acs", async (r) => {
      posted = r.request().postData() ?? "";
      await r.abort();
    });
    await page.goto(`${base}/auth/saml/login?email=bob@globex.test`);
    await page.locator("#username").fill("bob");
    await page.locator("#password").fill(IDP_PASSWORD);
    await page.locator("#kc-login").click();
    for (let i = 0; i < 200 && !posted; i++) await new Promise((r) => setTimeout(r, 100));
    expect(posted).toContain("SAMLResponse=");
    // The browser's SSO cookie goes along: this is the browser that started the sign-in.
    const cookie = (await context.cookies(base)).map((c) => `${c.name}=${c.value}`).join("; ");
    await context.close();
    const res = await fetch(`${v.url}/auth/saml/finish`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: posted,
      redirect: "manual",
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(401);
    expect(body.code).toBe("SSO_IDP_RESPONSE_INVALID");
    expect(body.message).toMatch(/audience/i);
  });

  it("a response signed with another key is refused", async () => {
    const { page, context } = await idpSignIn("/auth/saml/login?email=carol@initech.test", "carol");
    await page.waitForURL(`${base}/auth/saml/finish`);
    const body = JSON.parse((await page.locator("body").textContent()) ?? "{}");
    expect(body.code).toBe("SSO_IDP_RESPONSE_INVALID");
    expect(body.message).toMatch(/signature/i);
    await context.close();
  });

  // Last of the Globex sign-ins: the realm signs with another key from here on.
  it("picks up the IdP's new signing key from the metadata URL after a key rotation", async () => {
    const before = await orgs.Globex!.api.get("/v1/organization/sso");
    expect(before.body.idp_certificates).toHaveLength(1);
    await admin.login();
    await admin.rotateRealmKey(globexRealm);
    const { page, context } = await idpSignIn("/auth/saml/login?email=bob@globex.test", "bob");
    await page.waitForURL(`${base}/`);
    expect((await sessionIn(page)).body).toMatchObject({ user: { email: "bob@globex.test" }, role: "member" });
    await context.close();
    // The connection now trusts the certificates the metadata lists: the old key and the new one.
    const after = await orgs.Globex!.api.get("/v1/organization/sso");
    expect(after.body.idp_certificates).toHaveLength(2);
    expect(after.body.idp_certificates).toContain(before.body.idp_certificates[0]);
  });

  it("serves the SP metadata", async () => {
    const res = await fetch(`${base}/auth/saml/metadata?org=${orgs.Globex!.id}`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${base}/auth/saml/metadata?org=${orgs.Globex!.id}"`);
    expect(xml).toContain(`Location="${base}/auth/saml/acs"`);
  });
});

describe("docs/sso.md", () => {
  it("its setup commands work as written", () => {
    const doc = readFileSync(join(ROOT, "docs/sso.md"), "utf8");
    const from = doc.indexOf("\n## Set up a connection\n");
    expect(from).toBeGreaterThan(0);
    const script = /```sh\n([\s\S]*?)```/.exec(doc.slice(from))![1]!.replaceAll("http://localhost:8080", base);
    const out = execFileSync("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], {
      env: {
        PATH: process.env.PATH ?? "",
        VERDICT_API_KEY: v.bootstrapKey,
        OIDC_ISSUER: `${kc.url}/realms/${acmeRealm}`,
        OIDC_CLIENT_SECRET: "kc-client-secret",
      },
      encoding: "utf8",
    });
    const lines = out.trim().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({
      type: "oidc",
      client_secret_set: true,
      domains: [{ domain: "example.com", verified: false }],
      sp: { oidc_redirect_uri: `${base}/auth/oidc/callback` },
    });
    expect(JSON.parse(lines[1]!)).toEqual([expect.objectContaining({ domain: "example.com", verified: true })]);
    const [status, location] = lines[2]!.split(" ");
    expect(status).toBe("302");
    const to = new URL(location!);
    expect(`${to.origin}${to.pathname}`).toBe(`${kc.url}/realms/${acmeRealm}/protocol/openid-connect/auth`);
    expect(to.searchParams.get("code_challenge_method")).toBe("S256");
    expect(to.searchParams.get("redirect_uri")).toBe(`${base}/auth/oidc/callback`);
    expect(lines).toHaveLength(3);
  });
});
