// Schemas of OAuth clients: applications registered to act for members.
import { z } from "zod";
import { SCOPE } from "./schemas.js";

const ISO = z.string().meta({ format: "date-time" });

export const OAuthClientSchema = z
  .object({
    client_id: z.string().regex(/^oac_/),
    name: z.string(),
    redirect_uris: z.array(z.string()),
    scopes: z.array(SCOPE),
    public: z.boolean(),
    created_at: ISO,
  })
  .meta({
    id: "OAuthClient",
    description:
      "An application that acts for members through the OAuth 2.0 authorization server at /auth. " +
      "A token it obtains carries the scopes it was granted, limited to the member's role",
  });

export const OAuthClientListSchema = z
  .object({ oauth_clients: z.array(OAuthClientSchema) })
  .meta({ id: "OAuthClientList" });

export const CreateOAuthClientSchema = z
  .object({
    name: z.string().min(1).max(100),
    redirect_uris: z
      .array(z.string().min(1).max(2000))
      .min(1)
      .max(10)
      .meta({
        description:
          "Exact redirect URIs: https, or http on localhost, 127.0.0.1 or [::1] only; no fragment, no wildcard. " +
          "A refused one answers 422 VALIDATION_FAILED naming it (`redirect_uris[1]`, INVALID_FORMAT)",
      }),
    scopes: z.array(SCOPE).min(1).max(7).meta({ description: "The most the application may ask for" }),
    public: z
      .boolean()
      .default(false)
      .meta({ description: "A public client (native or single-page application) has no secret and must use PKCE" }),
  })
  .strict()
  .meta({ id: "CreateOAuthClient" });

export const CreatedOAuthClientSchema = OAuthClientSchema.extend({
  client_secret: z
    .string()
    .nullable()
    .meta({ description: "vdt_ocs_…: shown once, store it now. null for a public client" }),
}).meta({ id: "CreatedOAuthClient" });
