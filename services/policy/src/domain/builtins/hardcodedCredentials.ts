import { z } from "zod";
import { assignment, type BuiltinPolicy, builtinSettings, docs, EVERY_RULE, SECRET_FRAMEWORKS } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";
import {
  GENERIC_LINE_ALLOWLIST,
  GENERIC_MATCH_ALLOWLIST,
  GENERIC_STOPWORDS,
  GENERIC_VALUE_ALLOWLIST,
} from "./genericNoise.js";

/** Lower than generic-secrets' 3.5: chosen passwords are less random than generated tokens. */
export const PASSWORD_MIN_ENTROPY = 3.2;

// Values a password field holds that are not a password.
const PASSWORD_VALUE_ALLOWLIST = [
  // Words and the names of fields, types and settings.
  String.raw`(?i)^(?:none|null|nil|undefined|true|false|required|optional|string|text|hidden)$`,
  // Password hashes (Django, bcrypt, argon2): what a user table stores, not the password.
  String.raw`^(?:pbkdf2_sha\d+|sha1|md5|bcrypt(?:_sha256)?|argon2|scrypt)\$|^\$(?:2[abxy]|argon2i?d?|scrypt|pbkdf2[\w-]*|[156])\$|^!`,
  // Member expressions and calls written without quotes (password = user.password).
  String.raw`^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$`,
];

// A password-like value: 8 to 128 characters, no white space or quotes, not starting like a
// template or expression.
const PASSWORD_VALUE = String.raw`[^\s"'\x60;,<>(){}\[\]$%*#][^\s"'\x60;,<>(){}\[\]]{7,127}`;
// A password compared with a literal (if password == "…"): the literal is the password.
const PASSWORD_NAME = String.raw`[\w.]*(?i:password|passwd|pwd|secret)\w*`;
const COMPARED = String.raw`\s*(?:[!=]==?|\.equals\(|\.Equals\()\s*`;
const passwordComparison = (value: string) => ({
  generic: true,
  type: "regex" as const,
  value,
  message: "Password compared with a hardcoded value",
  redact_group: 1,
  keywords: ["password", "passwd", "pwd", "secret"],
  min_entropy: PASSWORD_MIN_ENTROPY,
  allowlist: [...PASSWORD_VALUE_ALLOWLIST, ...GENERIC_VALUE_ALLOWLIST],
  stopwords: GENERIC_STOPWORDS,
});

export const hardcodedCredentials: BuiltinPolicy = {
  id: "hardcoded-credentials",
  name: "Hardcoded credentials",
  description:
    'Detects passwords and secrets assigned to string literals in any syntax (code, JSON, YAML, ini, .env, XML), and passwords and tokens passed to curl on the command line (-u user:password, -H "Authorization: …"). With detect_api_keys, also detects API keys and access tokens assigned to string literals without an entropy threshold of their own.',
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS, "cwe:CWE-259"],
  patterns: [
    {
      id: "password-assignment",
      generic: true,
      type: "regex",
      // A password-like value (8+ characters, not a word or an identifier) assigned to a password
      // or secret name in any syntax; only the value (group 1) is masked so the name stays
      // readable. The identifier before the keyword is part of the match for the match allowlist.
      value: String.raw`[\w.-]{0,50}?` + assignment(String.raw`password|passwd|pwd|pw|secret`, PASSWORD_VALUE),
      message: "Hardcoded password or secret",
      redact_group: 1,
      keywords: ["password", "passwd", "pwd", "pw", "secret"],
      // Passwords people pick are less random than tokens, but more than the examples documents
      // and tests use: Tr0ub4dor&3 scores 3.28, P@ssw0rd!2024 3.24; superS3cret 3.10, rapunz3l 3.0.
      min_entropy: PASSWORD_MIN_ENTROPY,
      allowlist: [...PASSWORD_VALUE_ALLOWLIST, ...GENERIC_VALUE_ALLOWLIST],
      match_allowlist: GENERIC_MATCH_ALLOWLIST,
      line_allowlist: GENERIC_LINE_ALLOWLIST,
      stopwords: GENERIC_STOPWORDS,
    },
    {
      id: "password-comparison",
      ...passwordComparison(String.raw`${PASSWORD_NAME}${COMPARED}["'\x60](${PASSWORD_VALUE})["'\x60]`),
    },
    {
      id: "password-comparison-literal-first",
      ...passwordComparison(String.raw`["'\x60](${PASSWORD_VALUE})["'\x60]${COMPARED}${PASSWORD_NAME}`),
    },
    {
      id: "curl-basic-auth",
      type: "regex",
      // `curl -u user:password` / `--user 'user:password'`, on the command's line or up to five
      // continuation lines after it (a line ending in \ or followed by an indented one).
      value:
        String.raw`\bcurl\b(?:[^\r\n]*(?:\\\r?\n|\r?\n[ \t]+)){0,5}?[^\r\n]*?(?:^|[ \t])(?:-u|--user)(?:=|[ \t]{1,5})` +
        String.raw`("(?::[^"\r\n]{3,}|[^:"\r\n]{3,}:[^"\r\n]*)"|'[^:'\r\n]{3,}:[^'\r\n]{3,}'|(?:"[^"\r\n]{3,}"|'[^'\r\n]{3,}'|[\w$@.{}-]+):(?:"[^"\r\n]{3,}"|'[^'\r\n]{3,}'|[^\s"']{3,}))` +
        String.raw`(?:\s|$)`,
      message: "Password passed to curl with -u/--user",
      redact_group: 1,
      keywords: ["curl"],
      min_entropy: 2,
      allowlist: [
        // user:password, user:pass, test:test, xxx:yyy, <user:password>, neo4j:[PASSWORD].
        String.raw`(?i)^["']?[^:]*["']?:["']?(?:change(?:it|me)|pass(?:word)?|passwd|pwd|secret|test|token|\*+|x+|y+|\.\.\.)["']?$`,
        String.raw`^["']?<[^>]*>["']?(?::|$)|:["']?<[^>]*>["']?$|:\[[^\]]*\]$`,
        // A variable, command substitution or template where the password goes.
        String.raw`:["']?(?:\$|\{\{|%)`,
      ],
    },
    {
      id: "curl-auth-header",
      type: "regex",
      // `curl … -H "Authorization: Bearer …"` / `--header 'X-Api-Key: …'`, on the command's line or
      // up to five continuation lines after it.
      value:
        String.raw`\bcurl\b(?:[^\r\n]*(?:\\\r?\n|\r?\n[ \t]+)){0,5}?[^\r\n]*?(?:^|[ \t])(?:-H|--header)(?:=|[ \t]{0,5})["']` +
        String.raw`(?i:authorization:[ \t]{0,5}(?:(?:basic|bearer|(?:api-)?token)[ \t]+)?|(?:x-(?:[a-z]+-)?)?(?:api-?)?(?:key|token):[ \t]{0,5})` +
        String.raw`([\w=~@.+/-]{8,})`,
      message: "Credential in the Authorization or API-key header of a curl command",
      redact_group: 1,
      keywords: ["curl"],
      min_entropy: 2.75,
      // The scheme word alone (`Authorization: Api-Token $TOKEN`).
      allowlist: [String.raw`(?i)^(?:basic|bearer|(?:api-)?token)$`],
    },
    {
      id: "generic-api-key-assignment",
      generic: true,
      type: "regex",
      value:
        String.raw`[\w.-]{0,50}?` +
        assignment(String.raw`api[_.-]?key|access[_.-]?token|auth[_.-]?token`, String.raw`[A-Za-z0-9_\-./+=]{16,}`),
      message: "Hardcoded API key or access token",
      redact_group: 1,
      keywords: [
        "api_key",
        "api-key",
        "apikey",
        "access_token",
        "access-token",
        "accesstoken",
        "auth_token",
        "auth-token",
        "authtoken",
      ],
      min_entropy: 3,
      allowlist: GENERIC_VALUE_ALLOWLIST,
      match_allowlist: GENERIC_MATCH_ALLOWLIST,
      line_allowlist: GENERIC_LINE_ALLOWLIST,
      enabled_by: "detect_api_keys",
    },
  ],
  suggestions: [
    "Read credentials from environment variables or a secrets manager at run time, and rotate any credential that was committed.",
  ],
  claims: {
    cwe: {
      "CWE-798": EVERY_RULE,
      "CWE-259": ["password-assignment", "password-comparison", "password-comparison-literal-first", "curl-basic-auth"],
    },
    languages: [],
  },
  documentation_url: docs("hardcoded-credentials"),
  settings: builtinSettings({
    // Off by default: generic key/token names produce more false positives than passwords do.
    detect_api_keys: z.boolean().default(false),
  }),
};
