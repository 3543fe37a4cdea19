import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";
import { OTHER_OBJECT_ID } from "./identifiers.js";
import { SECRETS_CATEGORY } from "../policy.js";

const TWITTER = "twitter";
const LINKEDIN = "linked[_-]?in";

export const socialPlatformTokens: BuiltinPolicy = {
  id: "social-platform-tokens",
  name: "Social platform API tokens",
  description:
    "Detects app secrets and access tokens of social platforms: Facebook (Meta), Twitter/X, LinkedIn, Twitch and Flickr.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    namedSecret(
      "facebook-app-secret",
      "Facebook app secret found in source code",
      "facebook|\\bfb[_-]?app",
      "[a-f0-9]{32}",
      ["facebook", "fb_app", "fbapp", "fb-app"],
      { min_entropy: 3 },
    ),
    // An app access token is `<app id>|<app secret or signature>` (the bar may be URL-encoded).
    formatToken(
      "facebook-app-access-token",
      "Facebook app access token found in source code",
      String.raw`[0-9]{15,16}(?:\||%7[Cc])[A-Za-z0-9_-]{27,40}`,
      ["facebook"],
      { min_entropy: 3 },
    ),
    // User and page access tokens start EAAC or EAAM (the app's token family) and run to 100+ characters.
    formatToken(
      "facebook-page-access-token",
      "Facebook (Meta) user or page access token found in source code",
      "EAA[MC][A-Za-z0-9]{100,}",
      ["eaam", "eaac"],
      { min_entropy: 4 },
    ),
    namedSecret(
      "twitter-api-key",
      "Twitter/X API key (consumer key) found in source code",
      TWITTER,
      "[A-Za-z0-9]{25}",
      ["twitter"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "twitter-api-secret",
      "Twitter/X API secret (consumer secret) found in source code",
      TWITTER,
      "[A-Za-z0-9]{50}",
      ["twitter"],
      { min_entropy: 3 },
    ),
    // `<user id>-<random>`.
    namedSecret(
      "twitter-access-token",
      "Twitter/X user access token found in source code",
      TWITTER,
      "[0-9]{15,25}-[A-Za-z0-9]{20,40}",
      ["twitter"],
    ),
    namedSecret(
      "twitter-access-token-secret",
      "Twitter/X access token secret found in source code",
      TWITTER,
      "[A-Za-z0-9]{45}",
      ["twitter"],
      { min_entropy: 3 },
    ),
    // App-only bearer tokens begin with 22 'A's (a zero app-id prefix) and are URL-encoded.
    // Long runs of 'A' also occur in base64 data (zero bytes): only where the file speaks of
    // Twitter or of a bearer token.
    formatToken(
      "twitter-bearer-token",
      "Twitter/X app bearer token found in source code",
      "A{22}[A-Za-z0-9%]{80,100}",
      ["twitter", "bearer_token", "bearertoken", "bearer-token"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "linkedin-client-id",
      "LinkedIn client id found next to LinkedIn credentials",
      LINKEDIN,
      "[A-Za-z0-9]{14}",
      ["linkedin", "linked_in", "linked-in"],
      { min_entropy: 2.5, match_allowlist: [OTHER_OBJECT_ID] },
    ),
    namedSecret(
      "linkedin-client-secret",
      "LinkedIn client secret found in source code",
      LINKEDIN,
      "[A-Za-z0-9]{16}",
      ["linkedin", "linked_in", "linked-in"],
      { min_entropy: 2.5 },
    ),
    namedSecret(
      "twitch-api-token",
      "Twitch client secret or OAuth token found in source code",
      "twitch",
      "[A-Za-z0-9]{30}",
      ["twitch"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "flickr-api-key",
      "Flickr API key or secret found in source code",
      "flickr",
      "[A-Za-z0-9]{32}",
      ["flickr"],
      { min_entropy: 3 },
    ),
  ],
  suggestions: [
    "Reset the app secret or revoke the token in the platform's developer console now (a leaked token lets anyone post as the account), then load it from a secrets manager or CI secret.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("social-platform-tokens"),
  settings: builtinSettings(),
};
