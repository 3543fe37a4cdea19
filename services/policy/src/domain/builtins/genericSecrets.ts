import { z } from "zod";
import { ASSIGN, builtinSettings, docs, SECRET_FRAMEWORKS, type BuiltinPolicy } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

/** Default for the min_entropy setting: random secrets score 4 to 6 bits per character, words about 3. */
export const DEFAULT_MIN_ENTROPY = 3.5;

export const genericSecrets: BuiltinPolicy = {
  id: "generic-secrets",
  name: "Generic secrets",
  description:
    "Detects secrets without a provider-specific format: high-entropy tokens and keys assigned to secret-sounding names, JSON Web Tokens, credentials in Authorization headers and secrets in committed .env files. Weaker signals than provider formats, hence warnings; tune the entropy threshold with min_entropy.",
  severity: "warning",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    {
      id: "generic-secret-assignment",
      generic: true,
      type: "regex",
      // The name must end with the secret-sounding word (tokenizer = "…" is no token).
      value: String.raw`(?i)(?:token|credentials?|(?:private|signing|encryption|master|session|hmac|jwt|app)[_-]?(?:key|secret))${ASSIGN}["'\x60]([A-Za-z0-9_\-./+=~]{20,})["'\x60]`,
      message: "High-entropy secret assigned to a secret-sounding name",
      redact_group: 1,
      keywords: ["token", "credential", "key", "secret"],
      min_entropy: DEFAULT_MIN_ENTROPY,
      // Identifiers rather than values: remove_authentication_token, gen_ai.server.time_per_output_token.
      allowlist: [String.raw`(?i)^(?:[a-z0-9]+[._-])*(?:token|secret|key|credentials?)(?:[._-][a-z0-9]+)*$`, String.raw`^[a-z_]+(?:\.[a-z_]+){2,}$`],
    },
    {
      id: "jwt",
      type: "regex",
      value: String.raw`\b(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})(?:[^A-Za-z0-9_-]|$)`,
      message: "JSON Web Token found in source code",
      redact_group: 1,
      keywords: ["eyj"],
    },
    {
      id: "basic-auth-header",
      generic: true,
      type: "regex",
      value: String.raw`(?i)\bauthorization["']?\s*[:=,]\s*["'\x60]?basic\s+([A-Za-z0-9+/]{12,}={0,2})`,
      message: "Credentials in an HTTP Basic Authorization header",
      redact_group: 1,
      keywords: ["basic "],
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
      // Committed .env files (not .env.example / .env.sample / .env.template).
      value: String.raw`^[ \t]*(?:export[ \t]+)?[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|PRIVATE_KEY|ACCESS_KEY)[A-Z0-9_]*[ \t]*=[ \t]*["']?([^\s"'#$]{8,})`,
      message: "Secret in a committed .env file",
      redact_group: 1,
      keywords: ["password", "passwd", "secret", "token", "api_key", "apikey", "private_key", "access_key"],
      paths: [String.raw`(?:^|/)\.env(?:\.(?:local|prod|production|staging|dev|development|test|ci))?$`],
    },
  ],
  suggestions: [
    "If this is a real secret, revoke and rotate it, then load it from the environment or a secrets manager; keep .env files out of the repository (.gitignore) and commit a .env.example with empty values instead.",
  ],
  documentation_url: docs("generic-secrets"),
  settings: builtinSettings({
    min_entropy: z.number().min(0).max(8).default(DEFAULT_MIN_ENTROPY),
  }),
};
