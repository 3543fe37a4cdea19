// Attacks on single sign-on and on what Verdict fetches for it, over real HTTP against one
// all-in-one. The test plays the identity provider: an https server on 127.0.0.3 (its certificate
// made by openssl here and trusted by the instance through NODE_EXTRA_CA_CERTS), the only private
// address the instance may fetch from (VERDICT_SSO_ALLOW_PRIVATE); it answers OIDC discovery, keys
// and tokens (ID tokens signed with keys made here) and SAML metadata, and the SAML responses are
// signed with xml-crypto. The attacker's internal targets are other loopback addresses.
import { execFileSync } from "node:child_process";
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { SignedXml } from "xml-crypto";
import { Api } from "../support/api.js";
import { startVerdict, type Verdict } from "../support/server.js";

const IDP_HOST = "127.0.0.3";
const dir = mkdtempSync(join(tmpdir(), "verdict-sso-adv-"));
execFileSync(
  "openssl",
  [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    join(dir, "key.pem"),
    "-out",
    join(dir, "cert.pem"),
  ].concat(["-subj", "/CN=idp", "-days", "2", "-addext", `subjectAltName=IP:${IDP_HOST}`]),
  { stdio: "ignore" },
);
const TLS = { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };

const rsa = () => generateKeyPairSync("rsa", { modulusLength: 2048 });
const IDP_KEY = rsa();
const FOREIGN_KEY = rsa();
const b64url = (v: string | Buffer) => Buffer.from(v).toString("base64url");
const jwt = (claims: Record<string, unknown>, key: KeyObject) => {
  const head = `${b64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid: "idp-1" }))}.${b64url(JSON.stringify(claims))}`;
  return `${head}.${b64url(sign("sha256", Buffer.from(head), key))}`;
};

let v: Verdict;
let op: Api;
let idp: Server;
let issuer = "";
/** Which key signs the next ID tokens. */
let signer: KeyObject = IDP_KEY.privateKey;
/** The nonce of each code the IdP handed out. */
const codes = new Map<string, { nonce: string; email: string }>();
/** Bytes the IdP's endless metadata answer got written before its connection closed. */
const huge = { written: 0, closed: false };

beforeAll(async () => {
  idp = createHttpsServer(TLS, (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    if (url.pathname === "/.well-known/openid-configuration")
      return void res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
        }),
      );
    if (url.pathname === "/jwks")
      return void res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          keys: [{ ...IDP_KEY.publicKey.export({ format: "jwk" }), kid: "idp-1", alg: "RS256", use: "sig" }],
        }),
      );
    if (url.pathname === "/token") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const grant = codes.get(new URLSearchParams(body).get("code") ?? "");
        if (!grant)
          return void res.writeHead(400, { "content-type": "application/json" }).end('{"error":"invalid_grant"}');
        const now = Math.floor(Date.now() / 1000);
        const idToken = jwt(
          {
            iss: issuer,
            aud: "verdict",
            sub: grant.email,
            email: grant.email,
            email_verified: true,
            nonce: grant.nonce,
            iat: now,
            exp: now + 300,
          },
          signer,
        );
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(
          JSON.stringify({
            access_token: randomBytes(16).toString("hex"),
            token_type: "Bearer",
            expires_in: 300,
            id_token: idToken,
          }),
        );
      });
      return;
    }
    if (url.pathname === "/huge") {
      // A metadata document that never ends: 400 MiB, written as fast as the reader takes it.
      huge.written = 0;
      huge.closed = false;
      res.writeHead(200, { "content-type": "application/samlmetadata+xml" });
      const chunk = Buffer.alloc(64 * 1024, "<x/>");
      const pump = () => {
        while (huge.written < 400 * 1024 * 1024) {
          huge.written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (huge.closed = true));
      return pump();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => idp.listen(0, IDP_HOST, r));
  issuer = `https://${IDP_HOST}:${(idp.address() as AddressInfo).port}`;
  v = await startVerdict({
    env: { NODE_EXTRA_CA_CERTS: join(dir, "cert.pem"), VERDICT_SSO_ALLOW_PRIVATE: `${IDP_HOST}/32` },
  });
  op = new Api(v.url, v.bootstrapKey);
}, 120_000);

afterAll(async () => {
  await v?.destroy();
  await new Promise((r) => idp?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** A new organization on a plan with SSO, its admin key, and `domain` verified for its connection. */
async function ssoOrg(connection: Record<string, unknown>, domain: string) {
  const org = await op.post("/v1/organizations", { name: `sso-${domain}`, plan: "business" });
  expect(org.status).toBe(201);
  const admin = op.withKey(org.body.api_key.key);
  const put = await admin.request("PUT", "/v1/organization/sso", { body: { ...connection, domains: [domain] } });
  expect({ status: put.status, body: put.body }).toMatchObject({ status: 200 });
  expect((await op.post(`/v1/organizations/${org.body.organization.id}/sso/domains/${domain}/verify`)).status).toBe(
    200,
  );
  return { id: org.body.organization.id as string, admin };
}

/** GET a sign-in start as a browser does: the IdP address it redirects to, and the SSO cookie set. */
async function start(path: string): Promise<{ to: URL; cookie: string }> {
  const res = await fetch(`${v.url}${path}`, { redirect: "manual" });
  expect(res.status).toBe(302);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  return { to: new URL(res.headers.get("location")!), cookie };
}

describe("OIDC ID tokens", () => {
  beforeAll(async () => {
    await ssoOrg(
      { type: "oidc", issuer, client_id: "verdict", client_secret: "idp-secret", default_role: "member" },
      "oidc.test",
    );
  });

  /** Starts a sign-in, lets the IdP hand out a code for `email`, and posts it back from `cookie`'s browser. */
  async function signIn(email: string, browser?: (cookie: string) => string) {
    const { to, cookie } = await start(`/auth/oidc/authorize?email=${encodeURIComponent(email)}`);
    expect(`${to.origin}${to.pathname}`).toBe(`${issuer}/authorize`);
    const code = randomBytes(12).toString("hex");
    codes.set(code, { nonce: to.searchParams.get("nonce")!, email });
    return fetch(`${v.url}/auth/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: browser ? browser(cookie) : cookie },
      body: JSON.stringify({ code, state: to.searchParams.get("state") }),
    });
  }

  it("signs in with a token the IdP's key signed", async () => {
    signer = IDP_KEY.privateKey;
    const res = await signIn("ann@oidc.test");
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).session.user.email).toBe("ann@oidc.test");
  });

  it("refuses a token signed by a foreign key (same kid, every claim right)", async () => {
    signer = FOREIGN_KEY.privateKey;
    try {
      const res = await signIn("ann@oidc.test");
      const body = (await res.json()) as any;
      expect({ status: res.status, code: body.code }).toEqual({ status: 401, code: "SSO_IDP_RESPONSE_INVALID" });
      expect(res.headers.getSetCookie().some((c) => c.startsWith("verdict_session="))).toBe(false);
    } finally {
      signer = IDP_KEY.privateKey;
    }
  });

  it("binds the state to the browser that started the sign-in (login CSRF)", async () => {
    // The attacker starts a sign-in in their own browser and has the victim's browser post the
    // code and state: without the attacker's SSO cookie (or with the victim's own), refused.
    const { cookie: victims } = await start("/auth/oidc/authorize?email=vic@oidc.test");
    for (const browser of [() => "", () => victims]) {
      const res = await signIn("mallory@oidc.test", browser);
      const body = (await res.json()) as any;
      expect({ status: res.status, code: body.code }).toEqual({ status: 401, code: "SSO_STATE_INVALID" });
      expect(res.headers.getSetCookie().some((c) => c.startsWith("verdict_session="))).toBe(false);
    }
  });
});

describe("SAML assertions", () => {
  const ENTITY = "https://idp.saml.test";
  let org: { id: string };

  beforeAll(async () => {
    org = await ssoOrg(
      {
        type: "saml",
        idp_entity_id: ENTITY,
        idp_sso_url: `${ENTITY}/sso`,
        idp_certificate: TLS.cert,
        default_role: "member",
      },
      "saml.test",
    );
  });

  /** A response to the AuthnRequest `to` carries, its assertion signed with the IdP's key. */
  function response(to: URL, issuerName: string, email: string): string {
    const request = inflateRawSync(Buffer.from(to.searchParams.get("SAMLRequest")!, "base64")).toString("utf8");
    const inResponseTo = /ID="([^"]+)"/.exec(request)![1]!;
    const acs = `${v.url}/auth/saml/acs`;
    const audience = `${v.url}/auth/saml/metadata?org=${org.id}`.replaceAll("&", "&amp;");
    const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(8).toString("hex")}" Version="2.0" IssueInstant="${iso(0)}" Destination="${acs}" InResponseTo="${inResponseTo}">` +
      `<saml:Issuer>${issuerName}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `<saml:Assertion ID="_a${randomBytes(8).toString("hex")}" Version="2.0" IssueInstant="${iso(0)}">` +
      `<saml:Issuer>${issuerName}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${email}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${inResponseTo}" NotOnOrAfter="${iso(300_000)}" Recipient="${acs}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${iso(-60_000)}" NotOnOrAfter="${iso(300_000)}"><saml:AudienceRestriction><saml:Audience>${audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      `</saml:Assertion></samlp:Response>`;
    const sig = new SignedXml({
      privateKey: TLS.key,
      publicCert: TLS.cert,
      signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
      canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
    });
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
      transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    });
    sig.computeSignature(xml, {
      location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: "after" },
    });
    return Buffer.from(sig.getSignedXml(), "utf8").toString("base64");
  }

  /**
   * Posts the IdP's answer as the browser does: to the ACS, then (where the ACS answers a page
   * that posts it on) to the page's form action, with the browser's cookies. The final answer.
   */
  async function post(fields: Record<string, string>, cookie: string): Promise<Response> {
    const form = new URLSearchParams(fields).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded", cookie };
    const acs = await fetch(`${v.url}/auth/saml/acs`, { method: "POST", headers, body: form, redirect: "manual" });
    if (acs.status !== 200) return acs;
    const action = /<form[^>]*action="([^"]+)"/.exec(await acs.text())?.[1];
    expect(action).toBeDefined();
    return fetch(`${v.url}${action}`, { method: "POST", headers, body: form, redirect: "manual" });
  }

  async function signIn(issuerName: string, email: string, browser?: (cookie: string) => string) {
    const { to, cookie } = await start(`/auth/saml/login?email=${encodeURIComponent(email)}`);
    const fields = { SAMLResponse: response(to, issuerName, email), RelayState: to.searchParams.get("RelayState")! };
    return post(fields, browser ? browser(cookie) : cookie);
  }

  const refused = async (res: Response, code: string) => {
    // (A sign-in that went through answers 303 to the portal, with no JSON.)
    expect(res.status).toBe(401);
    const body = (await res.json()) as any;
    expect(body.code).toBe(code);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("verdict_session="))).toBe(false);
    return body;
  };

  it("signs in with an assertion the connection's IdP issued", async () => {
    const res = await signIn(ENTITY, "sam@saml.test");
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("verdict_session="))).toBe(true);
  });

  it("refuses an assertion signed with the connection's key but issued in another IdP's name", async () => {
    const body = await refused(await signIn("https://evil.example", "sam@saml.test"), "SSO_IDP_RESPONSE_INVALID");
    expect(body.message).toMatch(/issuer/i);
  });

  it("binds the RelayState to the browser that started the sign-in (login CSRF)", async () => {
    const { cookie: victims } = await start("/auth/saml/login?email=vic@saml.test");
    for (const browser of [() => "", () => victims])
      await refused(await signIn(ENTITY, "mallory@saml.test", browser), "SSO_STATE_INVALID");
  });
});

describe("what Verdict fetches for SSO", () => {
  let admin: Api;
  let live: Server;
  let silent: TcpServer;
  let hits = 0;
  let closedPort = 0;

  beforeAll(async () => {
    ({ admin } = await ssoOrg(
      {
        type: "saml",
        idp_entity_id: "https://idp.fetch.test",
        idp_sso_url: "https://idp.fetch.test/sso",
        idp_certificate: TLS.cert,
      },
      "fetch.test",
    ));
    // An internal web service, a port that accepts and never answers, and a closed port.
    live = createHttpServer((_req, res) => {
      hits++;
      res.writeHead(404).end("internal");
    });
    await new Promise<void>((r) => live.listen(0, "127.0.0.1", r));
    silent = createTcpServer((socket) => {
      hits++;
      socket.on("error", () => {});
    });
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const probe = createTcpServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
  });
  afterAll(async () => {
    await new Promise((r) => live.close(r));
    await new Promise((r) => silent.close(r));
  });

  const putMetadataUrl = (url: string) =>
    admin.request("PUT", "/v1/organization/sso", {
      body: { type: "saml", idp_metadata_url: url, domains: ["fetch.test"], default_role: "member" },
    });

  it("refuses private addresses with one answer that tells no port from another, and connects to none", async () => {
    const targets = [
      `http://127.0.0.1:${(live.address() as AddressInfo).port}/`,
      `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`,
      `http://127.0.0.1:${closedPort}/`,
      `http://localhost:${(live.address() as AddressInfo).port}/`,
      "https://169.254.169.254/latest/meta-data/",
      "https://10.0.0.1/metadata",
    ];
    const answers = [];
    for (const url of targets) {
      const res = await putMetadataUrl(url);
      answers.push({
        status: res.status,
        field: res.body.details?.errors?.[0]?.field,
        message: res.body.details?.errors?.[0]?.message,
      });
    }
    expect(answers.every((a) => a.status === 422 && a.field === "idp_metadata_url")).toBe(true);
    expect(new Set(answers.map((a) => a.message)).size).toBe(1);
    expect(hits).toBe(0);
  }, 60_000);

  it("cuts a 400 MiB metadata document off at the cap and stops reading it", async () => {
    const started = Date.now();
    const res = await putMetadataUrl(`${issuer}/huge`);
    expect(res.status).toBe(422);
    expect(res.body.details.errors[0].field).toBe("idp_metadata_url");
    // The reader let go: the connection closes and the IdP wrote a small part of the document.
    for (let i = 0; i < 50 && !huge.closed; i++) await new Promise((r) => setTimeout(r, 100));
    expect({ closed: huge.closed, underCap: huge.written < 32 * 1024 * 1024 }).toEqual({
      closed: true,
      underCap: true,
    });
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});

describe("request bodies on /auth", () => {
  it("refuses a 29 MiB JSON body unread with 413, before any parsing", async () => {
    const big = JSON.stringify({ email: "a@b.test", password: "x".repeat(29 * 1024 * 1024) });
    const res = await fetch(`${v.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: big,
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(413);
    expect(body).toMatchObject({
      error: "validation_error",
      code: "VALIDATION_FAILED",
      request_id: expect.any(String),
    });
    expect(body.details.errors[0]).toMatchObject({ field: "body", code: "MAX_SIZE_EXCEEDED", max: 64 * 1024 });
  }, 30_000);

  it("applies the same limit to a body sent without a length (chunked), and to SCIM", async () => {
    const chunks = new ReadableStream({
      start(c) {
        for (let i = 0; i < 64; i++) c.enqueue(new TextEncoder().encode(`{"email":"${"y".repeat(16 * 1024)}`));
        c.close();
      },
    });
    const res = await fetch(`${v.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    const scim = await fetch(`${v.url}/scim/v2/Users`, {
      method: "POST",
      headers: { "content-type": "application/scim+json", authorization: "Bearer nope" },
      body: "z".repeat(2 * 1024 * 1024),
    });
    expect(scim.status).toBe(413);
  }, 30_000);
});
