// Ruby allow-list checks, as the `guards` of flow conditions (the evaluation service's guards.ts
// reads the if / elsif / else / unless branches, statement modifiers and early exits around a
// use), and the arguments of a command given as an argument list. From OWASP's Input Validation
// cheat sheet (allow lists of known-good values, patterns anchored at both ends) and Ruby's
// documentation (`\A` and `\z` anchor a Regexp at the start and end of the string, `^` and `$` at
// a line's, so only `\A…\z` matches the whole value).
import { fails, holds, type Guard } from "./pythonGuards.js";

/** A literal: a string without interpolation, a symbol, a number, true, false, nil. */
const LITERAL = {
  any: [
    { kind: "string", not: { has: { kind: "interpolation" } } },
    { kind: "simple_symbol" },
    { kind: "integer" },
    { kind: "float" },
    { kind: "true" },
    { kind: "false" },
    { kind: "nil" },
  ],
};

/** The text of a literal: a string without interpolation or escapes, a symbol, a number, true, false, nil. */
const LITERAL_TEXT = String.raw`(?:"[^"#\\\n]*"|'[^'\\\n]*'|:\w+|-?\d+(?:\.\d+)?|true|false|nil)`;

/** Literal values written out (`%w[a b]`, `%i[a b]`, `["a", "b"]`) or a constant (`ALLOWED`, `Report::FORMATS`). */
const ALLOWED_VALUES = {
  any: [
    { kind: "string_array" },
    { kind: "symbol_array" },
    { kind: "array", regex: String.raw`^\[\s*(?:${LITERAL_TEXT}\s*,\s*)*(?:${LITERAL_TEXT}\s*,?\s*)?\]$` },
    { kind: "constant" },
    { kind: "scope_resolution" },
  ],
};

/** A Regexp literal anchored at the start and end of the string, without `.*` / `.+`. */
const ANCHORED = { kind: "regex", regex: String.raw`^/\\A.*\\z/[a-z]*$`, not: { regex: String.raw`\.[*+]` } };

/** `name <operator> value`, the name a local (an identifier) and the value one of `values`. */
const compared = (operator: string, values: Record<string, unknown>) => ({
  kind: "binary",
  all: [
    { has: { field: "left", kind: "identifier", pattern: "$V" } },
    { has: { field: "operator", regex: `^${operator}$` } },
    { has: { field: "right", ...values } },
  ],
});

/** Checks that hold only for allowed values. */
export const RUBY_ALLOWLIST_GUARDS: Guard[] = [
  holds(compared("==", LITERAL)),
  fails(compared("!=", LITERAL)),
  holds(compared("=~", ANCHORED)),
  // %w[a b].include?(x), ALLOWED.include?(x), and member?.
  holds({
    kind: "call",
    all: [
      { has: { field: "receiver", ...ALLOWED_VALUES } },
      { has: { field: "method", regex: String.raw`^(?:include\?|member\?)$` } },
      { has: { field: "arguments", has: { nthChild: 1, kind: "identifier", pattern: "$V" } } },
    ],
  }),
  // x.match?(/\A[a-z]+\z/) and /\A…\z/.match?(x).
  holds({ kind: "call", pattern: "$V.match?($R)", has: { field: "arguments", has: { nthChild: 1, ...ANCHORED } } }),
  holds({ kind: "call", pattern: "$R.match?($V)", has: { field: "receiver", ...ANCHORED } }),
];

/**
 * The arguments after the program in an argument list (`Open3.pipeline(["echo", x], "tail")`,
 * `IO.popen(["ls", dir])`): Process.spawn's documentation, which Open3 and IO.popen follow, runs
 * an array `[cmdname, arg1, …]` without a shell, so only its first element names a program.
 */
export const RUBY_ARGV_ARGUMENTS = {
  all: [
    {
      inside: {
        kind: "array",
        inside: {
          kind: "argument_list",
          inside: { kind: "call", has: { field: "receiver", regex: "^(?:Open3|IO|Process|Kernel)$" } },
        },
      },
    },
    { nthChild: { position: "n+2" } },
  ],
};
