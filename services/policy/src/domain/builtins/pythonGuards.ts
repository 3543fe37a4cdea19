// Python allow-list checks, as the `guards` of flow conditions (the evaluation service's guards.ts
// reads the branches and early exits around a use): a use that runs only where the check held is
// clean. Each rule matches a test and binds `$V`, the name it checks; `safe` says which outcome
// of the test leaves the name safe. From OWASP's Input Validation cheat sheet (allow lists of
// known-good values, regular expressions anchored at both ends) and Python's documentation
// (`re.fullmatch` matches the whole string; `str.isdigit`, `isalnum`, … hold only when every
// character is of that class), and for redirects, Django's `url_has_allowed_host_and_scheme`.

/** A flow guard (FlowSpec's `guards`): the rule of a check, the name it binds to `$V`, and the outcome that makes it safe. */
export interface Guard {
  rule: Record<string, unknown>;
  value: "V";
  safe: boolean;
}
/** A check that leaves `$V` safe where it holds, or where it fails. */
export const holds = (rule: Record<string, unknown>): Guard => ({ rule, value: "V", safe: true });
export const fails = (rule: Record<string, unknown>): Guard => ({ rule, value: "V", safe: false });

/** A literal: a string with no f-string field, a number, a constant of the language. */
const LITERAL = {
  any: [
    { kind: "string", not: { has: { kind: "interpolation", stopBy: "end" } } },
    { kind: "integer" },
    { kind: "float" },
    { kind: "true" },
    { kind: "false" },
    { kind: "none" },
  ],
};

/** The text of a literal: a string without f-string fields or escapes, a number, True, False, None. */
const LITERAL_TEXT = String.raw`(?:[rRbBuU]{0,2}"[^"\\\n]*"|[rRbBuU]{0,2}'[^'\\\n]*'|-?\d+(?:\.\d+)?|True|False|None)`;

/** A collection of literals written out (`("a", "b")`, `["a"]`, `{"a"}`), or a module constant by PEP 8's naming (`ALLOWED`). */
const ALLOWED_VALUES = {
  any: [
    {
      any: [{ kind: "tuple" }, { kind: "list" }, { kind: "set" }],
      regex: `^[\\[({]\\s*(?:${LITERAL_TEXT}\\s*,\\s*)*(?:${LITERAL_TEXT}\\s*,?\\s*)?[\\])}]$`,
    },
    { kind: "identifier", regex: "^[A-Z][A-Z0-9_]*$" },
    { kind: "attribute", regex: String.raw`\.[A-Z][A-Z0-9_]*$` },
  ],
};

/** A regular expression anchored at both ends (`^…$`, `\A…\Z`) with no `.*` / `.+` wildcard in it. */
const ANCHORED_PATTERN = {
  kind: "string",
  regex: String.raw`^[rRbBuU]*["'](?:\^|\\A)[^"']*(?:\$|\\Z|\\z)["']$`,
  not: { regex: String.raw`\.[*+]` },
};

/** `name <operator> value` where name is a local name (not `urlparse(u).netloc`: a rule below) and the value one of `values`. */
const comparedWith = (operator: string, values: Record<string, unknown>) => ({
  kind: "comparison_operator",
  pattern: `$V ${operator} $C`,
  all: [{ has: { nthChild: 1, kind: "identifier" } }, { has: { nthChild: 2, ...values } }],
});

/** Checks that hold only for allowed values: equality with a literal, membership in literals, an anchored full match, str's class tests. */
export const PY_ALLOWLIST_GUARDS: Guard[] = [
  holds(comparedWith("==", LITERAL)),
  holds({
    kind: "comparison_operator",
    pattern: "$C == $V",
    all: [{ has: { nthChild: 1, ...LITERAL } }, { has: { nthChild: 2, kind: "identifier" } }],
  }),
  fails(comparedWith("!=", LITERAL)),
  holds(comparedWith("in", ALLOWED_VALUES)),
  fails(comparedWith("not in", ALLOWED_VALUES)),
  // re.fullmatch(pattern, v) and a compiled pattern's fullmatch(v): the whole string matched.
  holds({ pattern: "re.fullmatch($P, $V)" }),
  holds({ pattern: "re.fullmatch($P, $V, $$$)" }),
  holds({ pattern: "$R.fullmatch($V)" }),
  // re.match / re.search with a pattern anchored at both ends.
  ...["match", "search"].flatMap((f) =>
    [`re.${f}($P, $V)`, `re.${f}($P, $V, $$$)`].map((pattern) =>
      holds({ pattern, has: { field: "arguments", has: { nthChild: 1, ...ANCHORED_PATTERN } } }),
    ),
  ),
  holds({
    kind: "call",
    pattern: "$V.$M()",
    has: {
      field: "function",
      has: { field: "attribute", regex: "^(?:isdigit|isdecimal|isnumeric|isalnum|isalpha|isidentifier)$" },
    },
  }),
];

/**
 * A value whose backslashes were turned into slashes before the check (`u = u.replace("\\", "/")`):
 * browsers read `\` as `/` in an http(s) URL (the WHATWG URL Standard), so `/\evil.example` has no
 * host for urlparse and is another origin for the browser.
 */
const NORMALIZED = {
  inside: {
    kind: "if_statement",
    stopBy: "end",
    follows: {
      stopBy: "end",
      has: {
        kind: "assignment",
        all: [
          { has: { field: "left", pattern: "$V" } },
          { has: { field: "right", regex: String.raw`\.replace\(\s*(?:"\\\\"|'\\\\')\s*,\s*(?:"/"|'/')\s*\)$` } },
        ],
      },
    },
  },
};

/** `urlparse(u)` / `urlsplit(u)` (any module path): the call whose `.netloc` is the host. */
const PARSED = {
  has: {
    field: "object",
    kind: "call",
    pattern: "$F($V)",
    has: { field: "function", regex: String.raw`(?:^|\.)url(?:parse|split)$` },
  },
};

/**
 * Checks that make a redirect target local or allowed (OWASP's Unvalidated Redirects cheat
 * sheet: accept relative paths or allowed hosts only): Django's `url_has_allowed_host_and_scheme`
 * (and its older name `is_safe_url`); a URL whose parsed host is empty or in an allow list, or
 * that yarl does not call absolute, once its backslashes are slashes.
 */
export const PY_LOCAL_REDIRECT_GUARDS: Guard[] = [
  ...["url_has_allowed_host_and_scheme", "is_safe_url"].flatMap((f) =>
    [`${f}($V, $$$)`, `${f}(url=$V, $$$)`, `$M.${f}($V, $$$)`].map((pattern) => holds({ pattern })),
  ),
  // `not urlparse(u).netloc`: safe where the host is empty (the test fails).
  fails({ kind: "attribute", regex: String.raw`\.netloc$`, ...PARSED, ...NORMALIZED }),
  ...['$H == ""', "$H in $C"].map((pattern) =>
    holds({
      kind: "comparison_operator",
      pattern,
      has: { nthChild: 1, kind: "attribute", regex: String.raw`\.netloc$`, ...PARSED },
      ...NORMALIZED,
    }),
  ),
  fails({ pattern: "$U($V).is_absolute()", ...NORMALIZED }),
];
