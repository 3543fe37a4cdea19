// Schemas of enterprise SSO: the organization's connection to its identity provider.
import { z } from "zod";
import { SessionSchema } from "./peopleSchemas.js";

const ISO = z.string().meta({ format: "date-time" });

export const SsoDomainSchema = z
  .object({
    domain: z.string(),
    verified: z.boolean(),
    verification_token: z
      .string()
      .meta({ description: "Publish as DNS TXT `verdict-domain-verification=<token>`; the operator verifies it" }),
    verified_at: ISO.nullable(),
  })
  .meta({ id: "SsoDomain" });

export const SsoConnectionSchema = z
  .object({
    type: z.enum(["oidc", "saml"]),
    issuer: z.string().nullable(),
    client_id: z.string().nullable(),
    client_secret_set: z.boolean().meta({ description: "The secret is stored encrypted and never shown" }),
    idp_entity_id: z.string().nullable(),
    idp_sso_url: z.string().nullable(),
    idp_metadata_url: z.string().nullable(),
    idp_certificates: z.array(z.string()),
    domains: z.array(SsoDomainSchema),
    default_role: z.enum(["admin", "member", "viewer"]),
    enforce: z.boolean(),
    sp: z.object({
      oidc_redirect_uri: z.string(),
      saml_entity_id: z.string(),
      saml_acs_url: z.string(),
      saml_metadata_url: z.string(),
    }),
    created_at: ISO,
    updated_at: ISO,
  })
  .meta({
    id: "SsoConnection",
    description: "The organization's identity provider (OIDC or SAML 2.0) and the email domains it signs in",
  });

export const PutSsoConnectionSchema = z
  .object({
    type: z.enum(["oidc", "saml"]),
    issuer: z.string().max(2000).optional(),
    client_id: z.string().max(500).optional(),
    client_secret: z.string().max(2000).optional(),
    idp_metadata_xml: z.string().max(200_000).optional(),
    idp_metadata_url: z.string().max(2000).optional(),
    idp_entity_id: z.string().max(2000).optional(),
    idp_sso_url: z.string().max(2000).optional(),
    idp_certificate: z.string().max(20_000).optional(),
    domains: z.array(z.string().max(253)).max(50),
    default_role: z.enum(["admin", "member", "viewer"]).default("member"),
    enforce: z.boolean().default(false),
  })
  .strict()
  .meta({
    id: "PutSsoConnection",
    description:
      "OIDC: issuer, client_id, client_secret (kept when omitted on an update). SAML: idp_metadata_xml or " +
      "idp_metadata_url, or idp_entity_id + idp_sso_url + idp_certificate",
  });

export const SsoEmailQuery = z.object({ email: z.string().min(3).max(320) });

export const OidcTokenSchema = z
  .object({
    code: z.string().min(1).max(4000),
    state: z.string().min(1).max(500),
    iss: z.string().max(2000).optional(),
  })
  .strict()
  .meta({ id: "OidcToken", description: "What the IdP sent to {portal_url}/auth/oidc/callback" });

export const SsoSignedInSchema = z.object({ session: SessionSchema }).meta({ id: "SsoSignedIn" });

export const VerifyDomainParams = z.object({
  organization_id: z.string().min(1).max(100),
  domain: z.string().min(1).max(253),
});
