import { z } from "zod";
import { assignment, type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";
import {
  GENERIC_LINE_ALLOWLIST,
  GENERIC_MATCH_ALLOWLIST,
  GENERIC_STOPWORDS,
  GENERIC_VALUE_ALLOWLIST,
} from "./genericNoise.js";

/** Default for the min_entropy setting: random secrets score 4 to 6 bits per character, words about 3. */
export const DEFAULT_MIN_ENTROPY = 3.5;

export const genericSecrets: BuiltinPolicy = {
  id: "generic-secrets",
  name: "Generic secrets",
  description:
    "Detects secrets without a provider-specific format: high-entropy values assigned to names that say key, token, secret, password, credential, auth or API (in any syntax, quiet on identifiers, words, paths, URLs, versions, ids, encoded prose and names that say the value is made up, such as fakeApiKey or nonMatchingToken), JSON Web Tokens (also base64-encoded), credentials in Authorization headers and secrets in committed .env files. Weaker signals than provider formats, hence warnings; tune the entropy threshold with min_entropy.",
  severity: "warning",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    {
      id: "jwt",
      type: "regex",
      // header.payload.signature; an unsigned token (`alg: none`) ends at the second dot.
      value: String.raw`\b(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.(?:[A-Za-z0-9_-]{10,}={0,2})?)(?:[^A-Za-z0-9_.=-]|$)`,
      message: "JSON Web Token found in source code",
      redact_group: 1,
      keywords: ["eyj"],
      checks: ["jwt-header"],
    },
    {
      id: "jwt-base64",
      type: "regex",
      // `ZXlK` is base64 of `eyJ`: a token encoded once more (Kubernetes secrets, config blobs).
      value: String.raw`\b(ZXlK[A-Za-z0-9+/_-]{40,}={0,2})(?:[^A-Za-z0-9+/_=-]|$)`,
      message: "Base64-encoded JSON Web Token found in source code",
      redact_group: 1,
      keywords: ["zxlk"],
      checks: ["jwt-base64"],
    },
    {
      id: "basic-auth-header",
      generic: true,
      type: "regex",
      value: String.raw`(?i)\bauthorization["']?\s*[:=,]\s*["'\x60]?basic\s+([A-Za-z0-9+/]{12,}={0,2})`,
      message: "Credentials in an HTTP Basic Authorization header",
      redact_group: 1,
      keywords: ["basic "],
      checks: ["basic-credentials"],
    },
    {
      id: "bearer-token-header",
      generic: true,
      type: "regex",
      value: String.raw`(?i)\bauthorization["']?\s*[:=,]\s*["'\x60]?bearer\s+([A-Za-z0-9._~+/-]{20,}=*)`,
      message: "Token in an HTTP Bearer Authorization header",
      redact_group: 1,
      keywords: ["bearer"],
      min_entropy: DEFAULT_MIN_ENTROPY,
    },
    {
      id: "dotenv-secret",
      generic: true,
      type: "regex",
      // Committed .env files and their variants: per environment (`.env.production`), local
      // overrides of them (`.env.production.local`, as Next.js and Vite read them), direnv's
      // `.envrc`, Flask's `.flaskenv`, `production.env` (Compose env_file); not .env.example /
      // .env.sample / .env.template.
      value: String.raw`^[ \t]*(?:export[ \t]+)?[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|PRIVATE_KEY|ACCESS_KEY)[A-Z0-9_]*[ \t]*=[ \t]*["']?([^\s"'#$]{8,})`,
      message: "Secret in a committed .env file",
      redact_group: 1,
      keywords: ["password", "passwd", "secret", "token", "api_key", "apikey", "private_key", "access_key"],
      paths: [
        String.raw`(?:^|/)(?:\.env(?:\.(?:local|prod|production|staging|stage|dev|development|test|testing|qa|uat|ci|preview|docker)(?:\.local)?)?|\.envrc|\.flaskenv|(?:prod|production|staging|dev|development|local|secrets?)\.env)$`,
      ],
    },
    // Last: of two generic rules on one secret, the more specific one above reports it.
    {
      id: "generic-secret-assignment",
      generic: true,
      type: "regex",
      // A random-looking value assigned to a name that says access, auth, API, credential, key,
      // password, secret or token, in any syntax (assignment()): gitleaks' generic-api-key idea.
      // The identifier before the keyword is part of the match, so the match allowlist reads it
      // (public_key, csrf_token, api_version are not secrets).
      value:
        String.raw`[\w.-]{0,50}?` +
        assignment(
          String.raw`access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token`,
          String.raw`[\w.=-]{10,150}|[A-Za-z0-9][A-Za-z0-9+/]{11,}={0,3}`,
        ),
      message: "High-entropy secret assigned to a secret-sounding name (API key, token, password or credential)",
      redact_group: 1,
      keywords: ["access", "api", "auth", "key", "credential", "creds", "passwd", "password", "secret", "token"],
      min_entropy: DEFAULT_MIN_ENTROPY,
      allowlist: GENERIC_VALUE_ALLOWLIST,
      match_allowlist: GENERIC_MATCH_ALLOWLIST,
      line_allowlist: GENERIC_LINE_ALLOWLIST,
      stopwords: GENERIC_STOPWORDS,
      checks: ["not-encoded-text"],
    },
  ],
  suggestions: [
    "If this is a real secret, revoke and rotate it, then load it from the environment or a secrets manager; keep .env files out of the repository (.gitignore) and commit a .env.example with empty values instead.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("generic-secrets"),
  settings: builtinSettings({
    min_entropy: z.number().min(0).max(8).default(DEFAULT_MIN_ENTROPY),
  }),
};
