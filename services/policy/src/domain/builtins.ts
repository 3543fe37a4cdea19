// Built-in policies: defined in code, identical for every organization. Organizations toggle and
// tune them (enabled, severity, settings) through overrides; they cannot delete them.
// Patterns are RE2 syntax (linear-time: no lookaround, no backreferences).
import { z } from "zod";
import { NO_SETTINGS, type SettingsSchema } from "./settings.js";
import { SECRETS_CATEGORY, type PatternDef, type Severity } from "./policy.js";

export interface BuiltinPattern extends PatternDef {
  /** Name of the boolean setting that switches this pattern on; always on when absent. */
  enabled_by?: string;
}

export interface BuiltinPolicy {
  id: string;
  name: string;
  description: string;
  severity: Severity;
  enabled: boolean;
  category: string;
  frameworks: string[];
  patterns: BuiltinPattern[];
  suggestions: string[];
  documentation_url: string;
  settings: SettingsSchema;
}

const docs = (id: string) => `https://verdict.dev/docs/policies/${id}`;

// An assignment operator as written in most languages and config formats: `=`, `:`, `:=`, `=>`,
// optionally after the closing quote of a quoted key (`"password": "..."`).
const ASSIGN = String.raw`["']?\s*(?::=|=>|[:=])\s*`;

const awsCredentials: BuiltinPolicy = {
  id: "aws-credentials",
  name: "AWS credentials",
  description: "Detects AWS access key ids (long-term AKIA, temporary ASIA and other key id prefixes) committed to source.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: ["nist-ssdf:PW.5.1", "soc2:CC6.1", "owasp-asvs:V2.10.4", "owasp-asvs:V6.4.1"],
  patterns: [
    {
      type: "regex",
      value: String.raw`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`,
      message: "AWS access key id found in source code",
    },
  ],
  suggestions: [
    "Deactivate and rotate this key in AWS IAM now, then load credentials from the environment, an instance role or a secrets manager instead of source code.",
  ],
  documentation_url: docs("aws-credentials"),
  settings: NO_SETTINGS,
};

const privateKeys: BuiltinPolicy = {
  id: "private-keys",
  name: "Private keys",
  description: "Detects PEM, OpenSSH and PGP private key blocks committed to source.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: ["nist-ssdf:PW.5.1", "soc2:CC6.1", "owasp-asvs:V2.10.4", "owasp-asvs:V6.4.2"],
  patterns: [
    {
      type: "regex",
      // The header itself is not secret; group 1 captures key material that follows it on the
      // same line (keys embedded in one-line strings with escaped newlines), which is masked.
      value: String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[ \t]*((?:\\[rn]|[A-Za-z0-9+/=])*)`,
      message: "Private key found in source code",
      redact_group: 1,
    },
  ],
  suggestions: [
    "Revoke this key and issue a new one; keep private keys in a secrets manager or key vault and out of the repository.",
  ],
  documentation_url: docs("private-keys"),
  settings: NO_SETTINGS,
};

const hardcodedCredentials: BuiltinPolicy = {
  id: "hardcoded-credentials",
  name: "Hardcoded credentials",
  description:
    "Detects passwords and secrets assigned to string literals. With detect_api_keys, also detects API keys and access tokens assigned to string literals.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: ["nist-ssdf:PW.5.1", "soc2:CC6.1", "owasp-asvs:V2.10.4"],
  patterns: [
    {
      type: "regex",
      // The value must be 4+ characters and not look like a placeholder (`${VAR}`, `<changeme>`,
      // `%s`, `****`); only the value (group 1) is masked so the key name stays readable.
      value: String.raw`(?i)(?:password|passwd|pwd|secret)[a-z0-9_-]*${ASSIGN}["']([^"'\s$<{%*][^"'\r\n]{3,})["']`,
      message: "Hardcoded password or secret",
      redact_group: 1,
    },
    {
      type: "regex",
      value: String.raw`(?i)(?:api[_-]?key|access[_-]?token|auth[_-]?token)[a-z0-9_-]*${ASSIGN}["']([A-Za-z0-9_\-./+=]{16,})["']`,
      message: "Hardcoded API key or access token",
      redact_group: 1,
      enabled_by: "detect_api_keys",
    },
  ],
  suggestions: ["Read credentials from environment variables or a secrets manager at run time, and rotate any credential that was committed."],
  documentation_url: docs("hardcoded-credentials"),
  settings: z.strictObject({
    // Off by default: generic key/token names produce more false positives than passwords do.
    detect_api_keys: z.boolean().default(false),
  }),
};

const dangerousEval: BuiltinPolicy = {
  id: "dangerous-eval",
  name: "Dangerous dynamic code execution",
  description: "Detects eval() and new Function(), which execute strings as code and enable code injection.",
  severity: "warning",
  enabled: true,
  category: "security",
  frameworks: ["nist-ssdf:PW.5.1", "soc2:CC8.1", "owasp-asvs:V5.2.4"],
  patterns: [
    { type: "regex", value: String.raw`\beval\s*\(`, message: "Use of eval() executes arbitrary code" },
    { type: "regex", value: String.raw`\bnew\s+Function\s*\(`, message: "Use of new Function() executes arbitrary code" },
  ],
  suggestions: ["Replace dynamic code execution with explicit logic, a lookup table, or JSON.parse for data."],
  documentation_url: docs("dangerous-eval"),
  settings: NO_SETTINGS,
};

export const BUILTIN_POLICIES: readonly BuiltinPolicy[] = [awsCredentials, privateKeys, hardcodedCredentials, dangerousEval].sort((a, b) =>
  a.id < b.id ? -1 : 1,
);

const BY_ID = new Map(BUILTIN_POLICIES.map((p) => [p.id, p]));

export function findBuiltin(id: string): BuiltinPolicy | undefined {
  return BY_ID.get(id);
}
