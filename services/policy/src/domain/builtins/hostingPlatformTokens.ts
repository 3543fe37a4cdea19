import { SECRETS_CATEGORY } from "../policy.js";
import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";

export const hostingPlatformTokens: BuiltinPolicy = {
  id: "hosting-platform-tokens",
  name: "Hosting and edge platform tokens",
  description:
    "Detects API tokens of application hosting and edge platforms: Cloudflare (API tokens, Global API keys, Origin CA keys), Fastly, Fly.io, Heroku, Netlify, Scalingo and SettleMint. With them anyone can redeploy your application, read its environment or reroute its traffic.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    namedSecret(
      "cloudflare-api-token",
      "Cloudflare API token found in source code",
      "cloudflare|cf[_.-]?api[_.-]?token",
      "[A-Za-z0-9_-]{40}",
      ["cloudflare", "cf_api", "cf-api", "cf.api"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "cloudflare-global-api-key",
      "Cloudflare Global API key found in source code",
      "cloudflare|cf[_.-]?api[_.-]?key",
      "[a-f0-9]{37}",
      ["cloudflare", "cf_api", "cf-api", "cf.api"],
      { min_entropy: 3 },
    ),
    formatToken(
      "cloudflare-origin-ca-key",
      "Cloudflare Origin CA key found in source code",
      String.raw`v1\.0-[a-f0-9]{24}-[a-f0-9]{146}`,
      ["v1.0-"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "fastly-api-token",
      "Fastly API token found in source code",
      "fastly",
      "[A-Za-z0-9_=-]{32}",
      ["fastly"],
      { min_entropy: 3 },
    ),
    // Macaroon tokens (fm1a_/fm1r_/fm2_, base64) and the older fo1_ personal tokens.
    formatToken(
      "flyio-access-token",
      "Fly.io access token found in source code",
      String.raw`fo1_[A-Za-z0-9_-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}|fm2_[A-Za-z0-9+/]{100,}={0,3}`,
      ["fo1_", "fm1a_", "fm1r_", "fm2_"],
      { min_entropy: 4 },
    ),
    namedSecret(
      "heroku-api-key",
      "Heroku API key (legacy UUID form) found in source code",
      "heroku",
      "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
      ["heroku"],
    ),
    formatToken("heroku-api-key-v2", "Heroku API key found in source code", "HRKU-AA[A-Za-z0-9_-]{58}", ["hrku-aa"], {
      min_entropy: 4,
    }),
    namedSecret(
      "netlify-access-token",
      "Netlify personal access token found in source code",
      "netlify",
      "[A-Za-z0-9_=-]{40,46}",
      ["netlify"],
      { min_entropy: 3 },
    ),
    formatToken(
      "scalingo-api-token",
      "Scalingo API token found in source code",
      "tk-us-[A-Za-z0-9_-]{48}",
      ["tk-us-"],
      { min_entropy: 2 },
    ),
    formatToken(
      "settlemint-personal-access-token",
      "SettleMint personal access token found in source code",
      "sm_pat_[A-Za-z0-9]{16}",
      ["sm_pat_"],
      { min_entropy: 3 },
    ),
    formatToken(
      "settlemint-application-access-token",
      "SettleMint application access token found in source code",
      "sm_aat_[A-Za-z0-9]{16}",
      ["sm_aat_"],
      { min_entropy: 3 },
    ),
    formatToken(
      "settlemint-service-access-token",
      "SettleMint service access token found in source code",
      "sm_sat_[A-Za-z0-9]{16}",
      ["sm_sat_"],
      { min_entropy: 3 },
    ),
  ],
  suggestions: [
    "Roll the token in the platform's dashboard now (Cloudflare API tokens, Fastly personal tokens, `fly tokens revoke`, `heroku authorizations:revoke`, Netlify applications, Scalingo and SettleMint access tokens) and give deployments a scoped token from the CI secret store.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("hosting-platform-tokens"),
  settings: builtinSettings(),
};
