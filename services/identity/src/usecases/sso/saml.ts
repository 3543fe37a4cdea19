// The SAML 2.0 service provider (@node-saml/node-saml 5.1): SP metadata, SP-initiated login over
// the Redirect binding, and the ACS. The library checks the signature (assertions must be
// signed by a configured IdP certificate), the audience, the time conditions (with
// SAML_CLOCK_SKEW_MS) and InResponseTo; we add the assertion's Issuer (the connection's IdP
// entity id), the Response's Destination and the assertion's Recipient (both must be this ACS:
// the library checks none of the three); the AuthnRequest's id is kept in the store under the
// RelayState handed to the browser, and deleted when the response comes back (one use), so a
// replayed response finds nothing. Only the profile the library returns is read, and the
// Destination through the library's own parser.
import { randomBytes } from "node:crypto";
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from "@node-saml/node-saml";
// The library's own parser and XPath helper, as it reads the Response's InResponseTo with them.
import { parseDomFromString, xpath } from "@node-saml/node-saml/lib/xml.js";
import { AppError, errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { isSamlSignatureFailure, SAML_CLOCK_SKEW_MS, SSO_STATE_TTL_MS } from "../../domain/sso.js";
import { hashToken } from "../../domain/secrets.js";
import type { SessionView } from "../sessions/sessionView.js";
import { finishSsoSignIn } from "./finishSsoSignIn.js";
import { invalidState, takePendingSignIn } from "./pendingSignIn.js";
import { refreshSamlCertificates } from "./refreshSamlCertificates.js";
import { connectionForEmail } from "./route.js";
import type { SsoConnectionRecord } from "../../repos/ssoRepo.js";

export interface SamlUrls {
  acsUrl: string;
  metadataUrl: string;
}

/** The SP's entity id for an organization: its metadata address. */
export function spEntityId(urls: SamlUrls, organizationId: string): string {
  return `${urls.metadataUrl}?org=${encodeURIComponent(organizationId)}`;
}

/** A cache that remembers the one AuthnRequest id this flow knows (saved to, or read from, the store). */
class OneRequestCache implements CacheProvider {
  constructor(
    public id: string | null = null,
    public instant: string | null = null,
  ) {}
  async saveAsync(key: string, value: string) {
    this.id = key;
    this.instant = value;
    return { value, createdAt: Date.now() };
  }
  async getAsync(key: string) {
    return key === this.id ? this.instant : null;
  }
  async removeAsync(key: string | null) {
    return key;
  }
}

function samlFor(c: SsoConnectionRecord, urls: SamlUrls, cache: CacheProvider): SAML {
  const s = c.saml!;
  const entityId = spEntityId(urls, c.organization_id);
  return new SAML({
    callbackUrl: urls.acsUrl,
    entryPoint: s.idp_sso_url,
    issuer: entityId,
    audience: entityId,
    idpIssuer: s.idp_entity_id,
    idpCert: s.idp_certificates,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SSO_STATE_TTL_MS,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    disableRequestedAuthnContext: true,
    cacheProvider: cache,
  });
}

export interface SamlMetadataQuery {
  organizationId: string;
  urls: SamlUrls;
}

export async function samlMetadata(deps: IdentityDeps, { organizationId, urls }: SamlMetadataQuery): Promise<string> {
  const connection = await deps.sso.connectionOf(organizationId);
  if (!connection || connection.type !== "saml") throw errors.notFound("saml_connection", organizationId);
  return samlFor(connection, urls, new OneRequestCache()).generateServiceProviderMetadata(null, null);
}

export interface StartSamlLoginCommand {
  email: string;
  urls: SamlUrls;
  /** The starting browser's SSO cookie (pendingSignIn.ts). */
  browserBinding: string;
}

export async function startSamlLogin(
  deps: IdentityDeps,
  { email, urls, browserBinding }: StartSamlLoginCommand,
): Promise<string> {
  const connection = await connectionForEmail(deps, { email, protocol: "saml" });
  const cache = new OneRequestCache();
  const relayState = randomBytes(32).toString("base64url");
  const url = await samlFor(connection, urls, cache).getAuthorizeUrlAsync(relayState, undefined, {});
  await deps.sso.startSignIn({
    id: hashToken(relayState),
    organization_id: connection.organization_id,
    protocol: "saml",
    code_verifier: null,
    nonce: null,
    request_id: cache.id,
    request_instant: cache.instant,
    ...(browserBinding ? { browser_hash: hashToken(browserBinding) } : {}),
    expires_at: new Date(deps.clock.now().getTime() + SSO_STATE_TTL_MS).toISOString(),
  });
  return url;
}

function first(v: unknown): string {
  if (Array.isArray(v)) return first(v[0]);
  return typeof v === "string" ? v : "";
}

/** The SubjectConfirmationData Recipient of the library's validated assertion (parsed by it). */
function recipients(profile: Profile): string[] {
  const assertion = profile.getAssertion?.() as Record<string, any> | undefined;
  const a = assertion?.Assertion ?? assertion;
  const out: string[] = [];
  for (const subject of a?.Subject ?? [])
    for (const sc of subject?.SubjectConfirmation ?? [])
      for (const data of sc?.SubjectConfirmationData ?? []) if (data?.$?.Recipient) out.push(data.$.Recipient);
  return out;
}

const SAMLP = "urn:oasis:names:tc:SAML:2.0:protocol";

/**
 * The Destination attribute of the posted samlp:Response ("" when it has none), read with the
 * library's own XML parser and the XPath it reads the Response's InResponseTo with (no parser of
 * ours sees the raw XML); null when the body is not a SAML Response at all.
 */
export async function responseDestination(samlResponse: string): Promise<string | null> {
  try {
    const doc = await parseDomFromString(Buffer.from(samlResponse, "base64").toString("utf8"));
    const root = doc.documentElement;
    if (!root || root.namespaceURI !== SAMLP || root.localName !== "Response") return null;
    const [destination] = xpath.selectAttributes(doc, "/*[local-name()='Response']/@Destination");
    return destination?.nodeValue ?? "";
  } catch {
    return null;
  }
}

export interface CompleteSamlLogin {
  samlResponse: string;
  relayState: string;
  urls: SamlUrls;
  clientIp: string;
  userAgent: string;
  browserBinding: string;
}

export async function completeSamlLogin(
  deps: IdentityDeps,
  cmd: CompleteSamlLogin,
): Promise<{ token: string; session: SessionView }> {
  const pending = await takePendingSignIn(deps, {
    secret: cmd.relayState,
    protocol: "saml",
    browserBinding: cmd.browserBinding,
  });
  const connection = await deps.sso.connectionOf(pending.organization_id);
  if (!connection || connection.type !== "saml") throw invalidState();
  const validate = async (c: SsoConnectionRecord) =>
    (
      await samlFor(
        c,
        cmd.urls,
        new OneRequestCache(pending.request_id, pending.request_instant),
      ).validatePostResponseAsync({ SAMLResponse: cmd.samlResponse })
    ).profile;
  let profile: Profile | null;
  try {
    try {
      profile = await validate(connection);
    } catch (err) {
      // The IdP may have rotated its signing key: read its metadata again (rate-limited) and
      // check the same response once more against the certificates it lists now.
      const refreshed = isSamlSignatureFailure((err as Error).message)
        ? await refreshSamlCertificates(deps, { connection })
        : null;
      if (!refreshed) throw err;
      profile = await validate(refreshed);
    }
  } catch (err) {
    deps.logger.warn(
      { organization_id: connection.organization_id, err: (err as Error).message },
      "SAML response refused",
    );
    throw new AppError(
      "unauthorized",
      "SSO_IDP_RESPONSE_INVALID",
      `The identity provider's SAML response was refused: ${(err as Error).message}`,
    );
  }
  if (!profile) throw new AppError("unauthorized", "SSO_IDP_RESPONSE_INVALID", "The SAML response signed nobody in");
  // SAML Core 2.3.3 / Profiles 4.1.4.2: the (signed) assertion's Issuer names the IdP. node-saml
  // checks idpIssuer only on logout messages: a key the connection trusts must not vouch for
  // assertions in another IdP's name.
  if (profile.issuer !== connection.saml!.idp_entity_id) {
    deps.logger.warn(
      { organization_id: connection.organization_id, issuer: profile.issuer ?? null },
      "SAML response refused: issued by another IdP",
    );
    throw new AppError(
      "unauthorized",
      "SSO_IDP_RESPONSE_INVALID",
      `The SAML assertion's Issuer is not this connection's IdP (${connection.saml!.idp_entity_id})`,
    );
  }
  // SAML Core 3.2.2: a Destination present must be where the response arrived. A response the
  // IdP addressed to another service provider's ACS is not ours to accept.
  const destination = await responseDestination(cmd.samlResponse);
  if (destination && destination !== cmd.urls.acsUrl) {
    deps.logger.warn(
      { organization_id: connection.organization_id, destination },
      "SAML response refused: addressed to another ACS",
    );
    throw new AppError(
      "unauthorized",
      "SSO_IDP_RESPONSE_INVALID",
      `The SAML response is addressed to ${destination}, not this service's ACS (${cmd.urls.acsUrl})`,
    );
  }
  const rcpt = recipients(profile);
  if (rcpt.length > 0 && !rcpt.every((r) => r === cmd.urls.acsUrl))
    throw new AppError(
      "unauthorized",
      "SSO_IDP_RESPONSE_INVALID",
      `The SAML assertion is meant for ${rcpt[0]}, not this service's ACS (${cmd.urls.acsUrl})`,
    );
  const email =
    first(profile.email) ||
    first(profile.mail) ||
    first(profile["urn:oid:0.9.2342.19200300.100.1.3"]) ||
    (profile.nameIDFormat?.endsWith("emailAddress") ? profile.nameID : "");
  if (!email)
    throw new AppError("forbidden", "SSO_EMAIL_MISSING", "The SAML assertion has no email (attribute email or NameID)");
  const given = first(profile.firstName) || first(profile.givenName);
  const family = first(profile.lastName) || first(profile.surname);
  const name = first(profile.name) || first(profile.displayName) || [given, family].filter(Boolean).join(" ");
  return finishSsoSignIn(deps, {
    connection,
    identity: { email, emailVerified: true, name, subject: profile.nameID, mfa: false },
    clientIp: cmd.clientIp,
    userAgent: cmd.userAgent,
  });
}
