// Schemas of SCIM tokens: what an identity provider provisions people with at /scim/v2.
import { z } from "zod";

const ISO = z.string().meta({ format: "date-time" });

export const ScimTokenSchema = z
  .object({
    id: z.string().regex(/^sct_/),
    name: z.string(),
    prefix: z.string().meta({ description: "The token's first characters (`vdt_scim_AbCd`), enough to recognise it" }),
    created_at: ISO,
    expires_at: ISO.nullable(),
    last_used_at: ISO.nullable(),
  })
  .meta({
    id: "ScimToken",
    description:
      "A bearer token for {api_root}/scim/v2 (RFC 7644), scoped to the organization. " +
      "SCIM provisioning is on the Business and Enterprise plans; see docs/scim.md",
  });

export const ScimTokenListSchema = z.object({ scim_tokens: z.array(ScimTokenSchema) }).meta({ id: "ScimTokenList" });

export const CreateScimTokenSchema = z
  .object({
    name: z.string().min(1).max(100),
    expiration: z
      .enum(["30m", "24h", "7d", "90d", "never"])
      .default("never")
      .meta({ description: "When the token stops working; identity providers keep one for long, so never by default" }),
  })
  .strict()
  .meta({ id: "CreateScimToken" });

export const CreatedScimTokenSchema = ScimTokenSchema.extend({
  token: z.string().meta({ description: "vdt_scim_…: shown once; paste it into the identity provider now" }),
}).meta({ id: "CreatedScimToken" });
