// What a built-in policy is made of, and the building blocks its definitions share.
// Patterns are RE2 syntax (linear-time: no lookaround, no backreferences); the engine runs them
// with the flags "gmu", so `^` and `$` anchor at line boundaries.
import { z } from "zod";
import type { PatternDef, PolicyDescription } from "../policy.js";
import type { SettingsSchema } from "../settings.js";
import type { Language } from "../languages.js";

export interface BuiltinPattern extends PatternDef {
  /** Every built-in rule has a stable kebab-case id, unique across all built-ins. */
  id: string;
  /** Name of the boolean setting that switches this pattern on; always on when absent. */
  enabled_by?: string;
  /** The provider's own documentation of the token format (provider families). */
  documentation_url?: string;
}

export { LANGUAGES, languagePaths, type Language } from "../languages.js";

/** A CWE claim backed by every rule of the policy (secret policies: each rule finds a credential). */
export const EVERY_RULE = ["*"] as const;

export interface BuiltinPolicy extends PolicyDescription {
  patterns: BuiltinPattern[];
  suggestions: string[];
  settings: SettingsSchema;
  /**
   * What the policy claims to check, each claim backed by rules with true-positive fixtures
   * (services/evaluation/src/builtins.fixtures.test.ts fails on a claim none backs).
   * `cwe`: each weakness (`CWE-N`) with the ids of the rules that check it; these are exactly the
   * `cwe:` and `cwe-top-25:` references in `frameworks`, from which compliance coverage is
   * computed. `languages`: what it runs on (none for secret policies: they read any text file).
   */
  claims: { cwe: Readonly<Record<string, readonly string[]>>; languages: readonly Language[] };
}

export const SECURITY_CATEGORY = "security";
export const CONFIGURATION_CATEGORY = "configuration";

export const docs = (id: string) => `https://verdict.dev/docs/policies/${id}`;

/** Files a policy does not check: glob patterns, as the exclude_paths setting of every built-in. */
export const EXCLUDE_PATHS = z
  .array(z.string().min(1).max(500))
  .max(100)
  .default(() => []);

/** The settings every built-in has (exclude_paths), plus the policy's own. */
export function builtinSettings(shape: z.ZodRawShape = {}): SettingsSchema {
  return z.strictObject({ ...shape, exclude_paths: EXCLUDE_PATHS });
}

// An assignment operator as written in most languages and config formats: `=`, `:`, `:=`, `=>`,
// optionally after the closing quote of a quoted key (`"password": "..."`).
export const ASSIGN = String.raw`["']?\s*(?::=|=>|[:=])\s*`;

/**
 * A secret assigned to a name, in every syntax code and configuration write it in, as one RE2
 * pattern whose capture group 1 is the secret (set `redact_group: 1`). `names` is an RE2
 * alternation matched case-insensitively (`api[_.-]?key|apikey`); `secret` is the value's own
 * pattern, matched as written (wrap it in `(?i:…)` where the format is case-insensitive).
 *
 * Covered forms, quoted or not: `name = v`, `name: v`, `name := v`, `name => v`, `name ?= v`
 * (Make), `name ||= v`, `"name": "v"` (JSON), `NAME=v` (env, ini), `<name>v</name>` (XML),
 * `setProperty("name", "v")`, `define('NAME', 'v')`, `put("name", "v")` (property setters),
 * `var name string = "v"` (Go), `$name = 'v'` (PHP, Perl), `name['x'] = "v"`, `<name>\n  v\n</name>`
 * (XML, value on its own line). Up to 20 characters of name suffix or type may stand between the
 * name and the operator (`api_key_prod`, `apiKey string`). The value ends at a quote, white space, `;`, `,`, `<`, a
 * closing bracket, an escaped newline or the end of the line, so a longer token that merely
 * starts like a secret is not cut short into one.
 */
export function assignment(names: string, secret: string): string {
  return (
    String.raw`(?i:${names})` +
    String.raw`[\w.\- \t]{0,20}?` +
    String.raw`["'\x60\])]{0,3}[ \t]*` +
    // An XML element's value may sit on a line of its own: `<name>\n    v\n</name>`.
    String.raw`(?:=>|:{1,3}=|\?=|\|\|=|>[ \t]*\r?\n|[=:>,])` +
    String.raw`[ \t]*["'\x60=]{0,2}[ \t]*` +
    `(${secret})` +
    String.raw`(?:["'\x60;,<)\]}\s]|\\[nrt]|$)`
  );
}

/**
 * The start of a Python argument that is not a constant: a name (not a keyword argument), a call,
 * an f-string, or a literal that is formatted (% or .format() with something other than a
 * literal) or concatenated.
 */
export const PY_DYNAMIC_ARG = String.raw`(?:[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?\s*[,)%+]|[A-Za-z_][\w.]*\s*\(|[rRbBuU]?[fF][rR]?["']|[rRbBuU]?["'][^"'\n]*["']\s*(?:%\s*[^"'\s]|\.format\s*\(\s*[^"'\s)]|\+))`;

/**
 * The value of a syntax-aware rule (`type: "structural"`): the languages it runs on and an
 * ast-grep rule (https://ast-grep.github.io/reference/rule.html) with its metavariable
 * constraints, as the JSON the evaluation engine reads (services/evaluation/src/domain/structural.ts).
 */
export function structural(
  languages: readonly string[],
  rule: Record<string, unknown>,
  constraints?: Record<string, Record<string, unknown>>,
  flow?: {
    sink: string;
    sources: Record<string, unknown>[];
    sanitizers?: Record<string, unknown>[];
    parameters?: string[];
    freeNames?: boolean;
    guards?: {
      rule: Record<string, unknown>;
      constraints?: Record<string, Record<string, unknown>>;
      value: string;
      safe: boolean;
      normalized?: Record<string, unknown>[];
    }[];
    safeReceivers?: { rule: Record<string, unknown>; receiver: string; made: Record<string, unknown>[] }[];
  },
): string {
  return JSON.stringify({ languages, rule, ...(constraints ? { constraints } : {}), ...(flow ? { flow } : {}) });
}

/** A C# expression that reads a name somewhere (a variable, a member, a call, an interpolation): not a constant literal. */
export const CSHARP_READS_NAME = { has: { kind: "identifier", stopBy: "end" } };

/** A C# string built at run time: a concatenation or an interpolated string that reads a name. */
export const CSHARP_BUILT_STRING = {
  has: {
    any: [{ kind: "binary_expression" }, { kind: "interpolated_string_expression" }],
    has: { kind: "identifier", stopBy: "end" },
  },
};

/** A Kotlin string template with `$name` or `${expression}` in it. */
export const KOTLIN_TEMPLATE = {
  has: {
    kind: "string_literal",
    has: { any: [{ kind: "interpolated_expression" }, { kind: "interpolated_identifier" }] },
  },
};

/** A Kotlin expression that reads a name somewhere (a variable, a call, a template field): not a constant literal. */
export const KOTLIN_READS_NAME = {
  has: { any: [{ kind: "simple_identifier" }, { kind: "interpolated_identifier" }], stopBy: "end" },
};

/**
 * Python request input, as flow sources of structural rules: Flask's `request.args`, `.form`,
 * `.values`, `.files`, `.cookies`, `.headers`, `.json`, `.data`, `.get_json()`, Django's
 * `request.GET`, `.POST`, `.COOKIES`, `.META`, `.body`, `.FILES`, DRF's `request.query_params`,
 * `.data`; Flask's `.query_string`, `.path`, `.full_path`, `.url`; and the request passed whole to
 * a helper (`wrapper(request)`).
 */
export const PY_REQUEST_SOURCES = [
  {
    kind: "attribute",
    regex: String.raw`^request\.(?:args|form|values|files|cookies|headers|json|data|get_json|get_data|GET|POST|COOKIES|META|body|FILES|query_params|stream|query_string|path|full_path|url)$`,
  },
  // The request handed whole to a helper (`wrapper(request)`): what it gives back carries input.
  { kind: "call", has: { field: "arguments", regex: String.raw`^\(\s*request\s*\)$` } },
];

/** Words (lower-case) a file reading Python request input contains: the gate before it is parsed. */
export const PY_REQUEST_KEYWORDS = [
  "request.args",
  "request.form",
  "request.values",
  "request.files",
  "request.cookies",
  "request.headers",
  "request.json",
  "request.data",
  "request.get",
  "request.post",
  "request.meta",
  "request.body",
  "request.query_params",
  "request.stream",
  "request.query_string",
  "request.path",
  "request.full_path",
  "request.url",
  // The request handed whole to a helper (a source above). Costly on Django's own tests (each
  // passes the request to a view), but without it the views that read input only through such a
  // helper are not parsed: OWASP Benchmark for Python's sqli fell below Semgrep's (docs/detection.md).
  "(request)",
];

/** Python calls whose result carries no injection whatever their input: numbers, quoting, escaping. */
export const PY_SANITIZERS = [
  {
    kind: "call",
    has: {
      field: "function",
      regex: String.raw`^(?:int|float|bool|len|abs|round|shlex\.quote|pipes\.quote|html\.escape|escape|markupsafe\.escape|bleach\.clean|uuid\.UUID)$`,
    },
  },
];

/** Express/Koa request input, as flow sources: `req.query`, `.body`, `.params`, `.cookies`, `.headers`, `req.param()`, `req.get()`. */
export const JS_REQUEST_SOURCES = [
  {
    kind: "member_expression",
    regex: String.raw`^(?:req|request|ctx\.request)\.(?:query|body|params|cookies|signedCookies|headers|files)$`,
  },
  { kind: "call_expression", has: { field: "function", regex: String.raw`^(?:req|request)\.(?:param|get|header)$` } },
];

/** Words (lower-case) a file reading Express/Koa request input contains: the gate before it is parsed. */
export const JS_REQUEST_KEYWORDS = [
  "req.",
  "request.query",
  "request.body",
  "request.params",
  "request.cookies",
  "request.headers",
];

/** JavaScript calls whose result carries no injection whatever their input: numbers, escaping. */
export const JS_SANITIZERS = [
  {
    kind: "call_expression",
    has: {
      field: "function",
      regex: String.raw`^(?:parseInt|parseFloat|Number|Boolean|encodeURIComponent|escape|escapeHtml|validator\.escape|he\.encode|DOMPurify\.sanitize|sanitizeHtml|(?:mysql|connection|pool|db|sqlstring|SqlString)\.escape|shellescape|shellEscape)$`,
    },
  },
];

/** ast-grep rules for calls of `callee` whose first argument is the metavariable `first`, alone or followed by more. */
export const firstArgument = (callees: readonly string[], first: string) =>
  callees.flatMap((callee) => [{ pattern: `${callee}($${first})` }, { pattern: `${callee}($${first}, $$$)` }]);

/** After a token: the end of the token alphabet (or of the line), so longer look-alikes do not match. */
export const TOKEN_END = String.raw`(?:[^A-Za-z0-9_-]|$)`;

/** Where Go handlers read HTTP request input (RE2, for `file_requires`): query, form, headers, router variables. */
export const GO_REQUEST_INPUT = String.raw`\.URL\.Query\(\)|\.(?:Post)?FormValue\(|\.Header\.Get\(|\bmux\.Vars\(|\.(?:Param|Query|PostForm)\(\s*"`;

// File path filters (RE2, on the path as given to the evaluation, `/`-separated).
export const PATHS = {
  js: [String.raw`(?i)\.(?:[cm]?jsx?|[cm]?tsx?)$`],
  /** JavaScript plus the markup formats that embed it. */
  web: [String.raw`(?i)\.(?:[cm]?jsx?|[cm]?tsx?|vue|svelte|astro|html?|ejs|hbs)$`],
  python: [String.raw`(?i)\.pyw?$`],
  go: [String.raw`(?i)\.go$`],
  java: [String.raw`(?i)\.(?:java|kt|kts|groovy|scala)$`],
  /** The JVM languages other than Java, whose flow rules are not written yet. */
  jvmOther: [String.raw`(?i)\.(?:kt|kts|groovy|scala)$`],
  ruby: [String.raw`(?i)\.(?:rb|rake|erb|ru)$`, String.raw`(?:^|/)(?:Gemfile|Rakefile)$`],
  php: [String.raw`(?i)\.(?:php[0-9]?|phtml|inc)$`],
  dockerfile: [String.raw`(?i)(?:^|/)(?:Dockerfile|Containerfile)[^/]*$`, String.raw`(?i)\.dockerfile$`],
  yaml: [String.raw`(?i)\.ya?ml$`],
  shell: [
    String.raw`(?i)\.(?:sh|bash|zsh|ksh)$`,
    String.raw`(?:^|/)(?:Makefile|makefile|GNUmakefile)$`,
    String.raw`(?i)\.mk$`,
  ],
  dotenv: [String.raw`(?i)(?:^|/)\.env(?:\.[^/]*)?$`, String.raw`(?i)\.env$`],
  /** Source code in the languages the security rules know. */
  code: [
    String.raw`(?i)\.(?:[cm]?jsx?|[cm]?tsx?|vue|svelte|pyw?|go|java|kt|kts|groovy|scala|rb|rake|php[0-9]?|cs|rs|swift|c|cc|cpp|h|hpp|m|dart|lua|pl|ex|exs|clj)$`,
  ],
  /** `code` but Java, where flow rules decide (java-sql-from-request). */
  codeButJava: [
    String.raw`(?i)\.(?:[cm]?jsx?|[cm]?tsx?|vue|svelte|pyw?|go|kt|kts|groovy|scala|rb|rake|php[0-9]?|cs|rs|swift|c|cc|cpp|h|hpp|m|dart|lua|pl|ex|exs|clj)$`,
  ],
} as const;

export const paths = (...groups: (keyof typeof PATHS)[]): string[] => groups.flatMap((g) => [...PATHS[g]]);

// Framework references shared by several policies.
export {
  CODE_REVIEW_FRAMEWORKS,
  CONFIGURATION_FRAMEWORKS,
  CRYPTO_FRAMEWORKS,
  INJECTION_FRAMEWORKS,
  SECRET_FRAMEWORKS,
  TRANSPORT_FRAMEWORKS,
  WORKLOAD_PRIVILEGE_FRAMEWORKS,
} from "./frameworks.js";

/** A secret policy's claims: every rule finds a hard-coded credential (CWE-798), in any file. */
export const SECRET_CLAIMS: BuiltinPolicy["claims"] = { cwe: { "CWE-798": EVERY_RULE }, languages: [] };
