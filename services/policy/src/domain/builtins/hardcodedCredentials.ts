import { z } from "zod";
import { ASSIGN, builtinSettings, docs, SECRET_FRAMEWORKS, type BuiltinPolicy } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const hardcodedCredentials: BuiltinPolicy = {
  id: "hardcoded-credentials",
  name: "Hardcoded credentials",
  description:
    "Detects passwords and secrets assigned to string literals. With detect_api_keys, also detects API keys and access tokens assigned to string literals.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS, "cwe:CWE-259"],
  patterns: [
    {
      id: "password-assignment",
      generic: true,
      type: "regex",
      // The value must be 4+ characters and not look like a placeholder (`${VAR}`, `<changeme>`,
      // `%s`, `****`); only the value (group 1) is masked so the key name stays readable.
      value: String.raw`(?i)(?:password|passwd|pwd|secret)[a-z0-9_-]*${ASSIGN}["']([^"'\s$<{%*][^"'\r\n]{3,})["']`,
      message: "Hardcoded password or secret",
      redact_group: 1,
      keywords: ["password", "passwd", "pwd", "secret"],
      // Values that name the field rather than fill it, and file paths (password_file = "/run/secrets/db").
      allowlist: [
        String.raw`(?i)^(?:password|passwd|pwd|secret|none|null|nil|undefined|true|false|required|optional|string|text|hidden)$`,
        String.raw`^(?:/|\./|~/)[\w./-]*$`,
        // Identifiers and paths that mention the field (user_password, emails/password_reset.html).
        String.raw`(?i)^(?:[a-z0-9]+[._/])*(?:password|passwd|pwd|secret)(?:[._/][a-z0-9]+)*$`,
        String.raw`^[a-z_]+(?:\.[a-z_]+){2,}$`,
      ],
    },
    {
      id: "generic-api-key-assignment",
      generic: true,
      type: "regex",
      value: String.raw`(?i)(?:api[_-]?key|access[_-]?token|auth[_-]?token)[a-z0-9_-]*${ASSIGN}["']([A-Za-z0-9_\-./+=]{16,})["']`,
      message: "Hardcoded API key or access token",
      redact_group: 1,
      keywords: ["api_key", "api-key", "apikey", "access_token", "access-token", "accesstoken", "auth_token", "auth-token", "authtoken"],
      enabled_by: "detect_api_keys",
    },
  ],
  suggestions: ["Read credentials from environment variables or a secrets manager at run time, and rotate any credential that was committed."],
  documentation_url: docs("hardcoded-credentials"),
  settings: builtinSettings({
    // Off by default: generic key/token names produce more false positives than passwords do.
    detect_api_keys: z.boolean().default(false),
  }),
};
