// The SAML ACS on real signed responses: an IdP key and certificate made by openssl, responses
// built as an IdP builds them and their assertion signed with xml-crypto (the library
// @node-saml/node-saml verifies with), checked by completeSamlLogin against a connection in the
// in-memory store; a real metadata server on 127.0.0.1 for the certificate refresh.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignedXml } from "xml-crypto";
import { InProcessBus } from "@verdict/bus";
import { AppError, createLogger, Egress, SecretBox } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import type { IdentityDeps } from "../../deps.js";
import { SAML_CLOCK_SKEW_MS } from "../../domain/sso.js";
import { hashToken } from "../../domain/secrets.js";
import { argon2Passwords } from "../../passwords.js";
import { createOrganization } from "../organizations/createOrganization.js";
import { putSsoConnection } from "./putSsoConnection.js";
import { OidcDiscoveryCache } from "./oidcDiscovery.js";
import { completeSamlLogin, responseDestination, spEntityId, startSamlLogin, type SamlUrls } from "./saml.js";
import { openIdentityRepos } from "../../repos/index.js";

// The IdP servers of these tests listen on 127.0.0.1.
const egress = new Egress({ allowPrivate: true });

const IDP = "https://idp.example.com";
const URLS: SamlUrls = {
  acsUrl: "https://verdict.example.com/auth/saml/acs",
  metadataUrl: "https://verdict.example.com/auth/saml/metadata",
};

/** An RSA key and its self-signed certificate, as an IdP has. */
function idpKey(cn: string): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "verdict-saml-"));
  try {
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
      ].concat(["-subj", `/CN=${cn}`, "-days", "2"]),
      { stdio: "ignore" },
    );
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const OLD = idpKey("old-key");
const NEW = idpKey("new-key");
const body = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");

/** A samlp:Response whose assertion the given key signs, as the IdP posts it (base64). */
function signedResponse(opts: {
  key: { key: string; cert: string };
  inResponseTo: string;
  audience: string;
  destination?: string;
  recipient?: string;
  email?: string;
  /** Moves every time in the response by this much (an IdP whose clock is off, or an old response). */
  shiftMs?: number;
  /** Leaves the assertion unsigned. */
  unsigned?: boolean;
  /** saml:Attribute name → value, as an IdP's attribute mapping sends them. */
  attributes?: Record<string, string>;
}): string {
  const now = new Date(Date.now() + (opts.shiftMs ?? 0));
  const iso = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const destination = opts.destination === undefined ? "" : ` Destination="${opts.destination}"`;
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(8).toString("hex")}" Version="2.0" IssueInstant="${iso(0)}"${destination} InResponseTo="${opts.inResponseTo}">` +
    `<saml:Issuer>${IDP}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="_a${randomBytes(8).toString("hex")}" Version="2.0" IssueInstant="${iso(0)}">` +
    `<saml:Issuer>${IDP}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${opts.email ?? "ada@acme.example"}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${opts.inResponseTo}" NotOnOrAfter="${iso(300_000)}" Recipient="${opts.recipient ?? URLS.acsUrl}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(-60_000)}" NotOnOrAfter="${iso(300_000)}"><saml:AudienceRestriction><saml:Audience>${opts.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    (opts.attributes
      ? `<saml:AttributeStatement>${Object.entries(opts.attributes)
          .map(
            ([k, v]) => `<saml:Attribute Name="${k}"><saml:AttributeValue>${v}</saml:AttributeValue></saml:Attribute>`,
          )
          .join("")}</saml:AttributeStatement>`
      : "") +
    `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `</saml:Assertion></samlp:Response>`;
  if (opts.unsigned) return Buffer.from(xml, "utf8").toString("base64");
  const sig = new SignedXml({
    privateKey: opts.key.key,
    publicCert: opts.key.cert,
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

// The IdP's metadata server: publishes whichever certificate the test says.
let server: Server;
let metadataUrl: string;
let published = OLD.cert;
let fetches = 0;
beforeAll(async () => {
  server = createServer((_req, res) => {
    fetches++;
    res
      .writeHead(200, { "content-type": "application/samlmetadata+xml" })
      .end(
        `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${IDP}">` +
          `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
          `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body(published)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
          `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${IDP}/sso"/>` +
          `</md:IDPSSODescriptor></md:EntityDescriptor>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  metadataUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metadata`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let store: SqliteStore;
let bus: InProcessBus;
let deps: IdentityDeps;
let orgId: string;
beforeEach(async () => {
  published = OLD.cert;
  fetches = 0;
  store = new SqliteStore(":memory:");
  bus = new InProcessBus(createLogger("t", "silent"), 5);
  const outbox = new Outbox({ bus, logger: createLogger("t", "silent") });
  const repos = await openIdentityRepos(store, outbox);
  deps = {
    ...repos,
    bus,
    outbox,
    // The real clock: the library checks the assertion's times against it.
    clock: { now: () => new Date() },
    logger: createLogger("t", "silent"),
    policy: { countRepositories: async () => ({ count: 0 }) },
    passwords: argon2Passwords(),
    totpBox: new SecretBox(randomBytes(32)),
    oauthServerSecret: randomBytes(32),
    oidcDiscovery: new OidcDiscoveryCache(0, egress),
    egress,
    sessionPolicy: { idleMs: 30 * 60_000, absoluteMs: 2 * 3_600_000 },
  };
  orgId = (await createOrganization(deps, { name: "Acme", plan: "team" })).org.id;
});
afterEach(async () => {
  await bus.close();
  await store.close();
});

/** Saves the organization's SAML connection as an admin would, and verifies its domain. */
async function connect(
  fields: { idpMetadataUrl?: string; idpCertificate?: string },
  org = orgId,
  domainName = "acme.example",
) {
  await putSsoConnection(deps, {
    organizationId: org,
    actor: { type: "user", id: "user_admin", ip: "" },
    type: "saml",
    issuer: "",
    clientId: "",
    clientSecret: "",
    idpMetadataXml: "",
    idpMetadataUrl: fields.idpMetadataUrl ?? "",
    idpEntityId: fields.idpMetadataUrl ? "" : IDP,
    idpSsoUrl: fields.idpMetadataUrl ? "" : `${IDP}/sso`,
    idpCertificate: fields.idpCertificate ?? "",
    domains: [domainName],
    defaultRole: "member",
    enforce: false,
  });
  const [domain] = await deps.sso.domainsOf(org);
  await deps.sso.markDomainVerified(domain!.id, new Date().toISOString());
}

/** The SSO cookie of the browser these sign-ins start in. */
const BROWSER = randomBytes(32).toString("base64url");

/** Starts a sign-in: the RelayState the browser carries and the AuthnRequest id to answer. */
async function start(
  email = "ada@acme.example",
  org = orgId,
  on: IdentityDeps = deps,
): Promise<{ relayState: string; requestId: string; url: URL }> {
  const url = new URL(await startSamlLogin(on, { email, urls: URLS, browserBinding: BROWSER }));
  const id = hashToken(url.searchParams.get("RelayState")!);
  const pending = (await on.sso.signInsUnderWay(org)).find((s) => s.id === id);
  expect(pending).toMatchObject({ organization_id: org, protocol: "saml" });
  return { relayState: url.searchParams.get("RelayState")!, requestId: pending!.request_id!, url };
}

const complete = (relayState: string, samlResponse: string, on: IdentityDeps = deps, browserBinding = BROWSER) =>
  completeSamlLogin(on, {
    samlResponse,
    relayState,
    urls: URLS,
    clientIp: "203.0.113.9",
    userAgent: "test",
    browserBinding,
  });

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error("the sign-in was accepted");
}

describe("completeSamlLogin: Destination", () => {
  it("signs in with a signed response addressed to this ACS", async () => {
    await connect({ idpCertificate: OLD.cert });
    const { relayState, requestId } = await start();
    const audience = spEntityId(URLS, orgId);
    const res = await complete(
      relayState,
      signedResponse({ key: OLD, inResponseTo: requestId, audience, destination: URLS.acsUrl }),
    );
    expect(res.session).toMatchObject({ email: "ada@acme.example" });
    expect(res.token).toEqual(expect.any(String));
  });

  it("refuses a validly signed response the IdP addressed to another service provider's ACS", async () => {
    await connect({ idpCertificate: OLD.cert });
    const { relayState, requestId } = await start();
    const audience = spEntityId(URLS, orgId);
    const elsewhere = "https://other-sp.example.net/saml/acs";
    expect(
      await refusal(
        complete(relayState, signedResponse({ key: OLD, inResponseTo: requestId, audience, destination: elsewhere })),
      ),
    ).toEqual({
      code: "SSO_IDP_RESPONSE_INVALID",
      message: `The SAML response is addressed to ${elsewhere}, not this service's ACS (${URLS.acsUrl})`,
    });
    // Nobody was signed in: no session exists.
    expect(await deps.sessions.all()).toEqual([]);
  });

  it("reads the Destination of a Response (and nothing from what is not one)", async () => {
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    expect(
      await responseDestination(
        b64(`<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" Destination="https://a/acs"/>`),
      ),
    ).toBe("https://a/acs");
    expect(await responseDestination(b64(`<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>`))).toBe(
      "",
    );
    expect(await responseDestination(b64(`<Response Destination="https://a/acs"/>`))).toBeNull();
    expect(await responseDestination(b64("not xml at all"))).toBeNull();
  });
});

describe("completeSamlLogin: certificates", () => {
  it("follows the metadata URL when the IdP rotated its key and no certificate was pinned", async () => {
    await connect({ idpMetadataUrl: metadataUrl });
    expect(fetches).toBe(1);
    published = NEW.cert;
    const { relayState, requestId } = await start();
    const audience = spEntityId(URLS, orgId);
    const res = await complete(
      relayState,
      signedResponse({ key: NEW, inResponseTo: requestId, audience, destination: URLS.acsUrl }),
    );
    expect(res.session).toMatchObject({ email: "ada@acme.example" });
    expect(fetches).toBe(2);
  });

  it("never replaces a certificate an admin pinned, even beside a metadata URL that lists another", async () => {
    // Saved with the metadata URL (entity id and SSO address from it) and a pinned certificate.
    await connect({ idpMetadataUrl: metadataUrl, idpCertificate: OLD.cert });
    const saved = (await deps.sso.connectionOf(orgId))!.saml!;
    expect(saved).toMatchObject({ idp_metadata_url: metadataUrl, idp_certificate_pinned: true });
    // Whoever controls the metadata now publishes their own key and signs with it.
    published = NEW.cert;
    const { relayState, requestId } = await start();
    const audience = spEntityId(URLS, orgId);
    expect(
      (
        await refusal(
          complete(
            relayState,
            signedResponse({ key: NEW, inResponseTo: requestId, audience, destination: URLS.acsUrl }),
          ),
        )
      ).code,
    ).toBe("SSO_IDP_RESPONSE_INVALID");
    expect(fetches).toBe(1); // only when it was saved
    expect((await deps.sso.connectionOf(orgId))!.saml!.idp_certificates).toEqual(saved.idp_certificates);
    // The pinned key still signs people in.
    const again = await start();
    const res = await complete(
      again.relayState,
      signedResponse({ key: OLD, inResponseTo: again.requestId, audience, destination: URLS.acsUrl }),
    );
    expect(res.session).toMatchObject({ email: "ada@acme.example" });
  });
});

describe("completeSamlLogin: what the library checks, on real signatures", () => {
  const audience = () => spEntityId(URLS, orgId);
  const ok = (r: { session?: unknown }) => expect(r.session).toMatchObject({ email: "ada@acme.example" });

  it("sends the AuthnRequest over the Redirect binding (deflated SAMLRequest, RelayState) to the IdP", async () => {
    await connect({ idpCertificate: OLD.cert });
    const { url, requestId } = await start();
    expect(`${url.origin}${url.pathname}`).toBe(`${IDP}/sso`);
    const request = inflateRawSync(Buffer.from(url.searchParams.get("SAMLRequest")!, "base64")).toString("utf8");
    expect(request).toContain(`ID="${requestId}"`);
    expect(request).toContain(`AssertionConsumerServiceURL="${URLS.acsUrl}"`);
    expect(request).toContain(
      `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${audience()}</saml:Issuer>`,
    );
  });

  it("refuses an assertion nobody signed", async () => {
    await connect({ idpCertificate: OLD.cert });
    const { relayState, requestId } = await start();
    const unsigned = signedResponse({ key: OLD, inResponseTo: requestId, audience: audience(), unsigned: true });
    expect((await refusal(complete(relayState, unsigned))).code).toBe("SSO_IDP_RESPONSE_INVALID");
    expect(await deps.sessions.all()).toEqual([]);
  });

  it("refuses an assertion whose Recipient is another ACS", async () => {
    await connect({ idpCertificate: OLD.cert });
    const { relayState, requestId } = await start();
    const r = signedResponse({
      key: OLD,
      inResponseTo: requestId,
      audience: audience(),
      recipient: "https://other-sp.example.net/saml/acs",
    });
    expect(await refusal(complete(relayState, r))).toEqual({
      code: "SSO_IDP_RESPONSE_INVALID",
      message: expect.stringContaining("meant for https://other-sp.example.net/saml/acs"),
    });
  });

  it("refuses a response to another AuthnRequest (InResponseTo), even under a live RelayState", async () => {
    await connect({ idpCertificate: OLD.cert });
    const first = await start();
    const second = await start();
    const forFirst = signedResponse({ key: OLD, inResponseTo: first.requestId, audience: audience() });
    expect((await refusal(complete(second.relayState, forFirst))).message).toMatch(/InResponseTo/i);
    // The RelayState was spent by the refused attempt: the first one still works, once.
    ok(await complete(first.relayState, forFirst));
    expect((await refusal(complete(first.relayState, forFirst))).code).toBe("SSO_STATE_INVALID");
  });

  it(`accepts an IdP clock off by less than the skew (${SAML_CLOCK_SKEW_MS} ms) and refuses one off by more`, async () => {
    await connect({ idpCertificate: OLD.cert });
    // NotBefore is 60 s before the IdP's "now"; NotOnOrAfter 300 s after it.
    const ahead = async (shiftMs: number) => {
      const { relayState, requestId } = await start();
      return complete(relayState, signedResponse({ key: OLD, inResponseTo: requestId, audience: audience(), shiftMs }));
    };
    ok(await ahead(60_000 + SAML_CLOCK_SKEW_MS / 2));
    expect((await refusal(ahead(60_000 + SAML_CLOCK_SKEW_MS + 30_000))).message).toMatch(/not yet valid|NotBefore/i);
    // An old response: its NotOnOrAfter passed longer ago than the skew (the library reads the
    // subject confirmation's first, and finds none still valid).
    expect((await refusal(ahead(-(300_000 + SAML_CLOCK_SKEW_MS + 30_000)))).message).toMatch(
      /expired|NotOnOrAfter|No valid subject confirmation/i,
    );
    ok(await ahead(-(300_000 + SAML_CLOCK_SKEW_MS / 2)));
  });

  it("maps the IdP's attributes: email over NameID, the name from givenName and surname", async () => {
    await connect({ idpCertificate: OLD.cert });
    const { relayState, requestId } = await start();
    const res = await complete(
      relayState,
      signedResponse({
        key: OLD,
        inResponseTo: requestId,
        audience: audience(),
        email: "a.lovelace-persistent-id",
        attributes: { email: "Ada@Acme.example", givenName: "Ada", surname: "Lovelace" },
      }),
    );
    expect(res.session).toMatchObject({ email: "ada@acme.example" });
    expect(await deps.accounts.byEmail("ada@acme.example")).toMatchObject({ name: "Ada Lovelace" });
  });

  it("refuses a response the IdP signed for another organization's connection (same IdP key)", async () => {
    // Two tenants of one IdP: both trust its key. Globex's user gets a response for Globex and
    // posts it under a sign-in started for Acme, or the other way round.
    const globexId = (await createOrganization(deps, { name: "Globex", plan: "business" })).org.id;
    await connect({ idpCertificate: OLD.cert });
    await connect({ idpCertificate: OLD.cert }, globexId, "globex.example");
    const acme = await start();
    const globex = await start("eve@globex.example", globexId);
    const forGlobex = signedResponse({
      key: OLD,
      inResponseTo: globex.requestId,
      audience: spEntityId(URLS, globexId),
      email: "eve@globex.example",
    });
    expect((await refusal(complete(acme.relayState, forGlobex))).code).toBe("SSO_IDP_RESPONSE_INVALID");
    // Even naming Acme's request: the audience is Globex's entity id, not Acme's.
    const acme2 = await start();
    const crafted = signedResponse({
      key: OLD,
      inResponseTo: acme2.requestId,
      audience: spEntityId(URLS, globexId),
      email: "eve@globex.example",
    });
    expect((await refusal(complete(acme2.relayState, crafted))).message).toMatch(/audience/i);
    expect(await deps.members.membersOf(orgId)).toEqual([]);
    // The response still signs Eve into Globex, where it belongs.
    const res = await complete(globex.relayState, forGlobex);
    expect(res.session).toMatchObject({ email: "eve@globex.example", organization_id: globexId });
  });

  it("shares the sign-ins under way between identity replicas through the store (one use across them)", async () => {
    await connect({ idpCertificate: OLD.cert });
    // A second identity instance over the same store: its own repositories, caches and SAML objects.
    const replica: IdentityDeps = {
      ...deps,
      ...(await openIdentityRepos(store, deps.outbox)),
      oidcDiscovery: new OidcDiscoveryCache(0, egress),
    };
    const { relayState, requestId } = await start("ada@acme.example", orgId, deps);
    const response = signedResponse({ key: OLD, inResponseTo: requestId, audience: audience() });
    ok(await complete(relayState, response, replica));
    // The replayed response finds nothing on either instance.
    expect((await refusal(complete(relayState, response, deps))).code).toBe("SSO_STATE_INVALID");
    expect((await refusal(complete(relayState, response, replica))).code).toBe("SSO_STATE_INVALID");
  });

  it("signs nobody in once the organization's plan no longer includes SSO (Team, Business, Enterprise)", async () => {
    await connect({ idpCertificate: OLD.cert });
    const { relayState, requestId } = await start();
    await deps.orgs.update(orgId, { plan: "free" });
    const response = signedResponse({ key: OLD, inResponseTo: requestId, audience: audience() });
    expect((await refusal(complete(relayState, response))).code).toBe("PLAN_FEATURE_UNAVAILABLE");
    expect(
      (await refusal(startSamlLogin(deps, { email: "ada@acme.example", urls: URLS, browserBinding: BROWSER }))).code,
    ).toBe("PLAN_FEATURE_UNAVAILABLE");
    expect(await deps.sessions.all()).toEqual([]);
  });
});
