// A SAML connection saved from a metadata URL reads its IdP's certificates again after a
// signature failure: a real metadata server on 127.0.0.1 (two certificates made by openssl, as
// an IdP rotating its key would publish them), the connection in the in-memory store.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { InProcessBus } from "@verdict/bus";
import { createLogger, Egress, SecretBox } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import type { IdentityDeps } from "../../deps.js";
import { isSamlSignatureFailure, normalizeCertificate, SAML_CERT_REFRESH_INTERVAL_MS } from "../../domain/sso.js";
import { argon2Passwords } from "../../passwords.js";
import { OidcDiscoveryCache } from "./oidcDiscovery.js";
import { refreshSamlCertificates } from "./refreshSamlCertificates.js";
import { openIdentityRepos } from "../../repos/index.js";
import type { SsoConnectionRecord } from "../../repos/ssoRepo.js";

// The IdP servers of these tests listen on 127.0.0.1.
const egress = new Egress({ allowPrivate: true });

const certificate = (cn: string) =>
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      "/dev/null",
    ].concat(["-subj", `/CN=${cn}`, "-days", "2"]),
    { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  );
const OLD = normalizeCertificate(certificate("old-key"))!;
const NEW = normalizeCertificate(certificate("new-key"))!;
const body = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");

let server: Server;
let metadataUrl: string;
let published = OLD;
let fetches = 0;
const metadata = (cert: string) => `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.example.com">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body(cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

beforeAll(async () => {
  server = createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(metadata(published));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  metadataUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metadata`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let now: Date;
let store: SqliteStore;
let bus: InProcessBus;
let deps: IdentityDeps;
beforeEach(async () => {
  now = new Date("2026-06-01T12:00:00.000Z");
  published = OLD;
  fetches = 0;
  store = new SqliteStore(":memory:");
  bus = new InProcessBus(createLogger("t", "silent"), 5);
  const outbox = new Outbox({ bus, logger: createLogger("t", "silent") });
  const repos = await openIdentityRepos(store, outbox);
  deps = {
    ...repos,
    bus,
    outbox,
    clock: { now: () => now },
    logger: createLogger("t", "silent"),
    policy: { countRepositories: () => Promise.reject(new Error("the policy service is not part of these tests")) },
    passwords: argon2Passwords(),
    totpBox: new SecretBox(randomBytes(32)),
    oauthServerSecret: randomBytes(32),
    oidcDiscovery: new OidcDiscoveryCache(0, egress),
    egress,
    sessionPolicy: { idleMs: 30 * 60_000, absoluteMs: 2 * 3_600_000 },
  };
});
afterEach(async () => {
  await bus.close();
  await store.close();
});

async function saveConnection(url: string, pinned = false): Promise<SsoConnectionRecord> {
  const record: SsoConnectionRecord = {
    id: "org_a",
    organization_id: "org_a",
    type: "saml",
    oidc: null,
    saml: {
      idp_entity_id: "https://idp.example.com",
      idp_sso_url: "https://idp.example.com/sso",
      idp_certificates: [OLD],
      idp_metadata_url: url,
      ...(pinned ? { idp_certificate_pinned: true } : {}),
    },
    default_role: "member",
    enforce: false,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await deps.sso.saveConnection(record, false);
  return record;
}
const stored = async () => (await deps.sso.connectionOf("org_a"))!;

describe("refreshSamlCertificates", () => {
  it("takes the certificates the IdP's metadata lists after it rotated its key, and stores them", async () => {
    const connection = await saveConnection(metadataUrl);
    published = NEW;
    const refreshed = await refreshSamlCertificates(deps, { connection });
    expect(refreshed?.saml?.idp_certificates).toEqual([NEW]);
    expect((await stored()).saml).toMatchObject({
      idp_certificates: [NEW],
      certificates_refreshed_at: now.toISOString(),
    });
    expect(fetches).toBe(1);
  });

  it("never reads the metadata again for a certificate an admin pinned beside the URL", async () => {
    const connection = await saveConnection(metadataUrl, true);
    published = NEW;
    expect(await refreshSamlCertificates(deps, { connection })).toBeNull();
    expect((await stored()).saml).toMatchObject({ idp_certificates: [OLD], idp_certificate_pinned: true });
    expect((await stored()).saml?.certificates_refreshed_at).toBeUndefined();
    expect(fetches).toBe(0);
  });

  it("answers null when the metadata lists the same certificates (the signature was simply wrong)", async () => {
    const connection = await saveConnection(metadataUrl);
    expect(await refreshSamlCertificates(deps, { connection })).toBeNull();
    expect((await stored()).saml?.idp_certificates).toEqual([OLD]);
    expect(fetches).toBe(1);
  });

  it("reads the metadata at most once per interval per connection, whatever the failures", async () => {
    await saveConnection(metadataUrl);
    expect(await refreshSamlCertificates(deps, { connection: await stored() })).toBeNull();
    published = NEW;
    now = new Date(now.getTime() + SAML_CERT_REFRESH_INTERVAL_MS - 1_000);
    expect(await refreshSamlCertificates(deps, { connection: await stored() })).toBeNull();
    expect(fetches).toBe(1);
    now = new Date(now.getTime() + 1_000);
    expect((await refreshSamlCertificates(deps, { connection: await stored() }))?.saml?.idp_certificates).toEqual([
      NEW,
    ]);
    expect(fetches).toBe(2);
  });

  it("never overwrites a connection an admin saved meanwhile", async () => {
    const connection = await saveConnection(metadataUrl);
    published = NEW;
    // An admin saves the connection meanwhile.
    await deps.sso.saveConnection({ ...(await stored()), updated_at: new Date(now.getTime() + 1).toISOString() }, true);
    expect(await refreshSamlCertificates(deps, { connection })).toBeNull();
    expect((await stored()).saml?.idp_certificates).toEqual([OLD]);
  });

  it("leaves a connection without a metadata URL alone", async () => {
    const connection = await saveConnection("");
    expect(await refreshSamlCertificates(deps, { connection })).toBeNull();
    expect(fetches).toBe(0);
  });

  it("is asked for node-saml's signature failures only", () => {
    expect(isSamlSignatureFailure("Invalid signature")).toBe(true);
    expect(isSamlSignatureFailure("Invalid document signature")).toBe(true);
    expect(isSamlSignatureFailure("Invalid signature: multiple assertions")).toBe(false);
    expect(isSamlSignatureFailure("SAML assertion expired: clocks skewed too much")).toBe(false);
  });
});
