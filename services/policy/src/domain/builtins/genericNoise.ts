// What generic secret rules (a secret-sounding name and a random-looking value) must not take for
// a secret: the identifiers, words, paths, URLs, versions and ids that code assigns to names like
// `key`, `token` or `auth` every day. Shared by the generic rules of generic-secrets and
// hardcoded-credentials. All RE2.

/**
 * Lower-case words a generated secret practically never contains but identifiers, prose, file
 * names, model names and enum values do. A value containing one is not a finding. Mostly words of
 * five letters or more: in a random 40-character token (compared lower-cased, 36 symbols) a given
 * five-letter word appears with a chance of about 6e-7, a four-letter one (user, name, …) about
 * 2e-5; the whole list costs well under 1% of random secrets. Not `test`: test-mode keys
 * (`sk_test_…`, `duffel_test_…`) are secrets too.
 */
export const GENERIC_STOPWORDS = [
  // Code and configuration vocabulary.
  "abstract", "access", "account", "action", "adapter", "admin", "alias", "allow", "anchor", "application",
  "argument", "array", "assert", "async", "attribute", "audit", "author", "backend", "batch", "before",
  "begin", "binary", "block", "bool", "bucket", "buffer", "build", "bundle", "button", "cache",
  "callback", "cancel", "channel", "check", "child", "class", "clear", "click", "client", "close",
  "cluster", "column", "command", "comment", "commit", "common", "compile", "component", "config", "connect",
  "console", "constant", "content", "context", "control", "cookie", "count", "create", "current", "custom",
  "default", "define", "delete", "deploy", "detail", "device", "dialog", "digest", "disable", "display",
  "document", "domain", "double", "download", "driver", "dummy", "element", "email", "empty", "enable",
  "encode", "engine", "entity", "entry", "error", "event", "example", "exception", "expire", "export",
  "extension", "external", "factory", "false", "feature", "field", "filter", "first", "float", "folder",
  "format", "frame", "function", "gateway", "generate", "global", "google", "group", "handle", "header",
  "health", "hello", "helper", "hidden", "history", "image", "import", "index", "info", "input",
  "insert", "instance", "integer", "interface", "internal", "invalid", "issue", "item", "label", "layout",
  "length", "level", "library", "limit", "local", "logger", "login", "logout", "lookup", "manager",
  "master", "match", "member", "memory", "message", "method", "middleware", "migration", "mobile", "model",
  "module", "mount", "multi", "name", "native", "network", "number", "object", "option", "order",
  "output", "owner", "package", "param", "parent", "parse", "partial", "password", "pattern", "payload",
  "permission", "plugin", "policy", "prefix", "preview", "primary", "private", "process", "product", "profile",
  "project", "property", "provider", "proxy", "public", "query", "queue", "random", "range", "reader",
  "record", "redirect", "reference", "refresh", "region", "register", "release", "remote", "remove", "render",
  "replace", "report", "request", "require", "reset", "resolve", "resource", "response", "result", "return",
  "route", "runtime", "sample", "schema", "scope", "script", "search", "secret", "section", "select",
  "sensitive", "server", "service", "session", "setting", "shared", "signature", "simple", "source", "start",
  "state", "static", "status", "storage", "store", "stream", "string", "struct", "style", "subject", "submit",
  "success", "suffix", "support", "switch", "symbol", "system", "table", "target", "template", "tenant",
  "testing", "thread", "timeout", "title", "toggle", "token", "tracker", "transform", "true", "type",
  "update", "upload", "user", "utils", "valid", "value", "variable", "vendor", "version", "view",
  "visible", "widget", "window", "worker", "wrapper", "write",
  // Keyboard and alphabet runs that test values are made of (`xoxp-1234-1234-1234-…`).
  "1234-1234", "abcdef", "bcdefg", "cdefgh", "defghi", "efghij", "123456", "234567", "345678", "456789", "qwerty", "asdfgh",
  // Prose and placeholders.
  "about", "after", "again", "another", "because", "change", "could", "every", "fixture", "foobar",
  "invalid", "little", "mock", "never", "other", "please", "really", "should", "something", "there",
  "these", "thing", "this", "those", "under", "where", "which", "while", "without", "would", "your",
];

/** A version (`1.2.3`, `v2.0.0-rc.1`, `^4.0.2`, `~1.2`, `>=3`): never a secret. */
export const VERSION = String.raw`^[\^~<>=]*(?:v|rc)?\d+(?:\.\d+)+(?:[-+_][\w.-]+)?$`;
/** A UUID: an identifier, not a credential, when it is assigned to a key or id name. */
export const UUID = String.raw`[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`;

/** Secret values that are something else: checked against the secret alone. */
export const GENERIC_VALUE_ALLOWLIST = [
  // Letters, dots, dashes, underscores only: identifiers, words, dotted names (gitleaks makes the
  // same call: a generated secret contains a digit or a base64 symbol).
  String.raw`^[A-Za-z_./=+-]+$`,
  // Identifiers with digits only as a suffix (modifierFlags2, user_id_10), member expressions
  // (this.config.token1) and keyword arguments (algorithm=self.algorithm): code, not values.
  String.raw`^[A-Za-z_$][A-Za-z_$.-]*[0-9]{0,3}$`,
  String.raw`^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$`,
  String.raw`^[a-z_]+=[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$`,
  VERSION,
  // URLs (credentials in them are credentials-in-urls' business) and file paths.
  String.raw`(?i)^[a-z][a-z0-9+.-]*://`,
  String.raw`^(?:\.{0,2}/|~/|[A-Za-z]:\\)`,
  String.raw`^[\w.-]+(?:/[\w.-]+)+\.[A-Za-z]{1,5}$`,
  // Dotted names (Java packages, attribute names, event names).
  String.raw`^[a-z_]+(?:\.[a-z_][a-z0-9_]*){2,}$`,
  // Hex colours and CSS-like values, numbers.
  String.raw`^#?[0-9A-Fa-f]{3,8}$`,
  String.raw`^[0-9.,_+-]+$`,
  // Published example values that are public by design: Yarn's Algolia search-only key.
  String.raw`^6fe4476ee5a1832882e326b506d14126$`,
];

/**
 * Matches (name, operator and value) that assign something other than a secret: the name says
 * what it holds (an id, a length, a public key, a file), or the value is an id for a key name.
 */
export const GENERIC_MATCH_ALLOWLIST = [
  String.raw`(?i)(?:access(?:ibility|or|[_.-]?(?:id|level|mode|type|log))|random[_.-]?access|author|api[_.-]?(?:id|name|version|url|uri|endpoint|base|host|path|prefix|group)|rapid|capital)`,
  String.raw`(?i)(?:credentials?[_.-]?(?:id|name|type|provider|file|path|url)|withcredentials|authentication-results|x-ms-exchange-organization-auth)`,
  String.raw`(?i)(?:bucket|foreign|hot|idx|natural|primary|pub(?:lic)?|schema|sequence|sort|partition|cache|map|dict|lookup|object|react|item|row|list|i18n|translation|message|label|route|query|idempotency|dedup(?:e|lication)?|unique|composite|surrogate|shortcut)[_.-]?keys?`,
  String.raw`(?i)keys?[_.-]?(?:alias|board|code|frame|id|length|len|mesh|name|pair|press(?:ed)?|ring|selector|signature|size|stone|store(?:type)?|word|up|down|left|right|path|file|prefix|suffix|type|usage|spec|format|field|column|attr|fn|func|function|mapper|extractor|generator|by)`,
  String.raw`(?i)key[_.-]?vault[_.-]?(?:id|name)|keyvaulttostoresecrets|keystore|keytab|issuerkeyhash|monkey|donkey|turkey|keying|hotkey|passkey`,
  String.raw`(?i)secrets?[_.-]?(?:length|name|size|ref|key[_.-]?ref|arn|id|path|file|manager|store|provider|version)|usersecretsid`,
  String.raw`(?i)(?:csrf|xsrf|public|page|next|continuation|cancel(?:lation)?|cursor|pagination|sync|resume|lexer|parser|syntax|design|color|colour|style|theme)[_.-]?token|tokeni[sz]|token[_.-]?(?:type|url|uri|endpoint|file|path|name|id|count|limit|length|len|kind|usage|index|pos|position|start|end|list|stream)|io\.jsonwebtoken`,
  String.raw`(?i)(?:passw(?:or)?d|pwd)[_.-]?(?:field|label|input|name|hint|prompt|policy|rule|length|min|max|strength|reset|confirm(?:ation)?|hasher|hash|validator|validation|placeholder|type|file|path)`,
  // Names that say the value is made up: a test's nonMatchingToken, invalidKey, fake_secret,
  // dummyPassword, mockApiKey, wrongToken, exampleSecret (the name, not the value, is read here:
  // the match starts at the name).
  String.raw`(?i)^[\w.-]*?(?:non[_.-]?matching|mismatch(?:ed|ing)?|invalid|fake|dummy|mock|bogus|wrong|example|sample|placeholder)[\w.-]*?(?:access|auth|api|credential|creds|key|passw(?:or)?d|secret|token)`,
  // ORM lookups: password__startswith="…", token__isnull=….
  String.raw`(?i)(?:passw(?:or)?d|pwd|secret|token|key)\w*__\w+`,
  // An unquoted value after a comma is an argument, not a literal (fn(token, modifierFlags2)).
  String.raw`,[ \t]*[^"'\x60 \t]`,
  // A UUID for a name that ends in key, access, auth or credentials: an identifier.
  String.raw`(?i)(?:key|access|auth|credentials?|creds)[\w.-]{0,20}["'\x60]?\s*[:=,>]+\s*["'\x60]?\{?` + UUID + String.raw`\}?["'\x60]?\W*$`,
];

/**
 * Lines where a secret-sounding name is not assigned a secret: imports, Docker build secrets,
 * dependency manifests (`"@inquirer/password": "^4.0.2"`), lock-like integrity hashes.
 */
export const GENERIC_LINE_ALLOWLIST = [
  String.raw`^\s*import\s+\{[\w\s,]+\}\s+from\s+['"][^'"]+['"]`,
  String.raw`--mount=type=secret,`,
  String.raw`["'](?:@[\w.-]+/)?[\w.-]+["']\s*:\s*["'](?:[\^~<>=*]|workspace:|npm:|file:|link:|git\+|github:|latest|next)`,
  String.raw`(?i)\b(?:integrity|checksum|sha(?:1|256|384|512)sum)\b`,
];
