// The SAML ACS on real signed responses: an IdP key and certificate made by openssl, responses
// built as an IdP builds them and their assertion signed with xml-crypto (the library
// @node-saml/node-saml verifies with), checked by completeSamlLogin against a connection in the
// in-memory store; a real metadata server on 127.0.0.1 for the certificate refresh.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignedXml } from "xml-crypto";
import { InProcessBus } from "@verdict/bus";
import { AppError, createLogger, SecretBox } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import type { IdentityDeps } from "../../deps.js";
import { argon2Passwords } from "../../passwords.js";
import { IdentityRepo } from "../../repo.js";
import { createOrganization } from "../organizations/createOrganization.js";
import { putSsoConnection } from "./putSsoConnection.js";
import { OidcDiscoveryCache } from "./oidcDiscovery.js";
import { completeSamlLogin, responseDestination, spEntityId, startSamlLogin, type SamlUrls } from "./saml.js";
import { SsoRepo } from "./ssoRepo.js";

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
}): string {
  const now = new Date();
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
    `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `</saml:Assertion></samlp:Response>`;
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
  const repo = new IdentityRepo(store);
  await repo.init();
  const sso = new SsoRepo(store);
  await sso.init();
  deps = {
    repo,
    bus,
    outbox: new Outbox({ bus, logger: createLogger("t", "silent") }),
    // The real clock: the library checks the assertion's times against it.
    clock: { now: () => new Date() },
    logger: createLogger("t", "silent"),
    policy: { countRepositories: async () => ({ count: 0 }) },
    passwords: argon2Passwords(),
    totpBox: new SecretBox(randomBytes(32)),
    oauthServerSecret: randomBytes(32),
    sso,
    oidcDiscovery: new OidcDiscoveryCache(0),
    sessions: { idleMs: 30 * 60_000, absoluteMs: 2 * 3_600_000 },
  };
  orgId = (await createOrganization(deps, { name: "Acme", plan: "team" })).org.id;
});
afterEach(async () => {
  await bus.close();
  await store.close();
});

/** Saves the organization's SAML connection as an admin would, and verifies its domain. */
async function connect(fields: { idpMetadataUrl?: string; idpCertificate?: string }) {
  await putSsoConnection(deps, {
    organizationId: orgId,
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
    domains: ["acme.example"],
    defaultRole: "member",
    enforce: false,
  });
  const [domain] = await deps.sso.domainsOf(orgId);
  await deps.sso.markDomainVerified(domain!.id, new Date().toISOString());
}

/** Starts a sign-in: the RelayState the browser carries and the AuthnRequest id to answer. */
async function start(): Promise<{ relayState: string; requestId: string }> {
  const url = new URL(await startSamlLogin(deps, "ada@acme.example", URLS));
  const [pending] = await deps.sso.signInsUnderWay(orgId);
  return { relayState: url.searchParams.get("RelayState")!, requestId: pending!.request_id! };
}

const complete = (relayState: string, samlResponse: string) =>
  completeSamlLogin(deps, { samlResponse, relayState, urls: URLS, clientIp: "203.0.113.9", userAgent: "test" });

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
    expect(await deps.repo.sessions.find({})).toEqual([]);
  });

  it("reads the Destination of a Response (and nothing from what is not one)", () => {
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    expect(
      responseDestination(
        b64(`<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" Destination="https://a/acs"/>`),
      ),
    ).toBe("https://a/acs");
    expect(responseDestination(b64(`<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>`))).toBe("");
    expect(responseDestination(b64(`<Response Destination="https://a/acs"/>`))).toBeNull();
    expect(responseDestination(b64("not xml at all"))).toBeNull();
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
