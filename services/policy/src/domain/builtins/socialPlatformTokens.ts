import { assignment, builtinSettings, docs, SECRET_FRAMEWORKS, TOKEN_END, type BuiltinPolicy } from "./types.js";
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
    {
      id: "facebook-app-secret",
      type: "regex",
      value: assignment("facebook|\\bfb[_-]?app", "[a-f0-9]{32}"),
      message: "Facebook app secret found in source code",
      redact_group: 1,
      keywords: ["facebook", "fb_app", "fbapp", "fb-app"],
      min_entropy: 3,
    },
    {
      id: "facebook-app-access-token",
      type: "regex",
      // An app access token is `<app id>|<app secret or signature>` (the bar may be URL-encoded).
      value: String.raw`\b([0-9]{15,16}(?:\||%7[Cc])[A-Za-z0-9_-]{27,40})${TOKEN_END}`,
      message: "Facebook app access token found in source code",
      redact_group: 1,
      keywords: ["facebook"],
      min_entropy: 3,
    },
    {
      id: "facebook-page-access-token",
      type: "regex",
      // User and page access tokens start EAAC or EAAM (the app's token family) and run to 100+ characters.
      value: String.raw`\b(EAA[MC][A-Za-z0-9]{100,})${TOKEN_END}`,
      message: "Facebook (Meta) user or page access token found in source code",
      redact_group: 1,
      keywords: ["eaam", "eaac"],
      min_entropy: 4,
    },
    {
      id: "twitter-api-key",
      type: "regex",
      value: assignment(TWITTER, "[A-Za-z0-9]{25}"),
      message: "Twitter/X API key (consumer key) found in source code",
      redact_group: 1,
      keywords: ["twitter"],
      min_entropy: 3,
    },
    {
      id: "twitter-api-secret",
      type: "regex",
      value: assignment(TWITTER, "[A-Za-z0-9]{50}"),
      message: "Twitter/X API secret (consumer secret) found in source code",
      redact_group: 1,
      keywords: ["twitter"],
      min_entropy: 3,
    },
    {
      id: "twitter-access-token",
      type: "regex",
      // `<user id>-<random>`.
      value: assignment(TWITTER, "[0-9]{15,25}-[A-Za-z0-9]{20,40}"),
      message: "Twitter/X user access token found in source code",
      redact_group: 1,
      keywords: ["twitter"],
    },
    {
      id: "twitter-access-token-secret",
      type: "regex",
      value: assignment(TWITTER, "[A-Za-z0-9]{45}"),
      message: "Twitter/X access token secret found in source code",
      redact_group: 1,
      keywords: ["twitter"],
      min_entropy: 3,
    },
    {
      id: "twitter-bearer-token",
      type: "regex",
      // App-only bearer tokens begin with 22 'A's (a zero app-id prefix) and are URL-encoded.
      value: String.raw`\b(A{22}[A-Za-z0-9%]{80,100})${TOKEN_END}`,
      message: "Twitter/X app bearer token found in source code",
      redact_group: 1,
      // Long runs of 'A' also occur in base64 data (zero bytes): only where the file speaks of
      // Twitter or of a bearer token.
      keywords: ["twitter", "bearer_token", "bearertoken", "bearer-token"],
      min_entropy: 3,
    },
    {
      id: "linkedin-client-id",
      type: "regex",
      value: assignment(LINKEDIN, "[A-Za-z0-9]{14}"),
      message: "LinkedIn client id found next to LinkedIn credentials",
      redact_group: 1,
      keywords: ["linkedin", "linked_in", "linked-in"],
      min_entropy: 2.5,
      match_allowlist: [OTHER_OBJECT_ID],
    },
    {
      id: "linkedin-client-secret",
      type: "regex",
      value: assignment(LINKEDIN, "[A-Za-z0-9]{16}"),
      message: "LinkedIn client secret found in source code",
      redact_group: 1,
      keywords: ["linkedin", "linked_in", "linked-in"],
      min_entropy: 2.5,
    },
    {
      id: "twitch-api-token",
      type: "regex",
      value: assignment("twitch", "[A-Za-z0-9]{30}"),
      message: "Twitch client secret or OAuth token found in source code",
      redact_group: 1,
      keywords: ["twitch"],
      min_entropy: 3,
    },
    {
      id: "flickr-api-key",
      type: "regex",
      value: assignment("flickr", "[A-Za-z0-9]{32}"),
      message: "Flickr API key or secret found in source code",
      redact_group: 1,
      keywords: ["flickr"],
      min_entropy: 3,
    },
  ],
  suggestions: [
    "Reset the app secret or revoke the token in the platform's developer console now (a leaked token lets anyone post as the account), then load it from a secrets manager or CI secret.",
  ],
  documentation_url: docs("social-platform-tokens"),
  settings: builtinSettings(),
};
