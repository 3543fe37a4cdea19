import { type BuiltinPolicy, builtinSettings, docs, EVERY_RULE, SECRET_FRAMEWORKS } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

// Values that stand for a password rather than being one: `user:password@`, `:****@`, `{pass}`.
const PLACEHOLDER_PASSWORDS = String.raw`(?i)^(?:pass(?:word)?|passwd|pwd|secret|token|pass123|user|username|login|\*+|\.\.\.|%s|%\(\w+\)s|\{\{?[^}]*\}\}?|<[^>]*>|\[[^\]]*\])$`;

// Passwords that say they are examples (`postgresrootpassword`, `knextest`, `randompassword`,
// `pass%20pass`).
const EXAMPLE_PASSWORD_WORDS = [
  "password",
  "passwd",
  "secret",
  "test",
  "example",
  "sample",
  "dummy",
  "random",
  "changeme",
  "placeholder",
  "demo",
  "pass",
];
// Documentation hosts (RFC 2606 / RFC 6761): example.com/.org/.net and the .example, .test,
// .invalid and .localhost domains; credentials for them are examples.
const DOCUMENTATION_HOST = String.raw`@(?:[\w-]+\.)*(?:example\.(?:com|org|net)|[\w-]+\.(?:example|test|invalid|localhost))(?:[:/?#"'\x60\s]|$)`;

export const credentialsInUrls: BuiltinPolicy = {
  id: "credentials-in-urls",
  name: "Credentials in URLs and connection strings",
  description:
    "Detects passwords embedded in URLs (scheme://user:password@host), in database connection strings (Server=…;Password=…) and secrets passed as URL query parameters.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS, "cwe:CWE-522", "owasp-api-top-10:API2"],
  patterns: [
    {
      id: "url-embedded-credentials",
      type: "regex",
      // Passwords of six characters or more: shorter ones in URLs are examples (`foo:bar@`, `val:psw@`).
      value: String.raw`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:@/?#'"\x60<>]*:([^\s@/?#'"\x60<>]{6,})@[A-Za-z0-9._-]+`,
      message: "Password embedded in a URL",
      redact_group: 1,
      keywords: ["://"],
      allowlist: [PLACEHOLDER_PASSWORDS],
      stopwords: EXAMPLE_PASSWORD_WORDS,
      match_allowlist: [DOCUMENTATION_HOST],
    },
    {
      id: "connection-string-password",
      type: "regex",
      // ADO.NET / ODBC / JDBC-style key=value connection strings.
      value: String.raw`(?i)\b(?:server|data source|host|user id|uid|username|user|database|initial catalog|dsn|driver)\s*=[^;"'\n]*;[^"'\n]*?\b(?:password|pwd)\s*=\s*([^;"'\s]{3,})`,
      message: "Password in a database connection string",
      redact_group: 1,
      keywords: ["password", "pwd"],
      allowlist: [PLACEHOLDER_PASSWORDS],
      stopwords: EXAMPLE_PASSWORD_WORDS,
    },
    {
      id: "url-secret-query-param",
      type: "regex",
      value: String.raw`(?i)[?&](?:access_token|api_?key|apikey|token|secret|client_secret|password|passwd|private_token)=([A-Za-z0-9._~%+/-]{16,})`,
      message: "Secret passed as a URL query parameter",
      redact_group: 1,
      keywords: ["token=", "key=", "secret=", "password=", "passwd="],
      min_entropy: 3.5,
    },
  ],
  suggestions: [
    "Rotate the password, then keep the URL or connection string without it and pass the credential separately (environment variable, secrets manager, managed identity); send tokens in an Authorization header, never in a query string, which ends up in logs.",
  ],
  claims: { cwe: { "CWE-798": EVERY_RULE, "CWE-522": EVERY_RULE }, languages: [] },
  documentation_url: docs("credentials-in-urls"),
  settings: builtinSettings(),
};
