// Ruby (Rails, Sinatra, Rack) request input and sanitizers, as the flow conditions of structural
// rules (the evaluation service's flow.ts follows local names through assignments, `+=`,
// concatenation and interpolation within the method).

/** Request input: `params`, `cookies`, `request.params`, `.query_parameters`, `.body`, `.headers`, … */
export const RUBY_REQUEST_SOURCES = [
  { kind: "identifier", regex: "^(?:params|cookies)$" },
  {
    kind: "call",
    regex: String.raw`^request\.(?:params|query_parameters|request_parameters|path_parameters|GET|POST|body|raw_post|headers|cookies|query_string|env|referer|referrer|user_agent|path|url|fullpath|original_url)$`,
  },
];

/** Words (lower-case) a file reading Ruby request input contains: the gate before it is parsed. */
export const RUBY_REQUEST_KEYWORDS = ["params", "cookies", "request."];

/** A call of a method named by `names` (RE2 alternation), with or without a receiver: a sanitizer. */
const calls = (names: string) => ({ kind: "call", has: { field: "method", regex: `^(?:${names})$` } });

// Numbers carry no injection.
const NUMERIC = "to_i|to_f|to_r|to_c|Integer|Float|size|length|count";

export const RUBY_COMMAND_SANITIZERS = [calls(`${NUMERIC}|shellescape|escape|shelljoin`)];
export const RUBY_SQL_SANITIZERS = [
  calls(
    `${NUMERIC}|permit|quote|quote_string|sanitize_sql|sanitize_sql_array|sanitize_sql_like|sanitize_sql_for_conditions`,
  ),
];

/** An interpolated string ("… #{x} …"): the interpolation rules' (ruby-shell-interpolation, ruby-sql-interpolation), not the flow rules'. */
export const INTERPOLATED = { kind: "string", has: { kind: "interpolation" } };

/**
 * What a value may be that the method did not build from constants, as flow sources with
 * `freeNames` (a name the method does not assign: a parameter, a block's, a method called bare):
 * instance, class and global variables, and methods called without a receiver (`sort_column()`).
 * A constant (`TABLE`), a literal and a name assigned only those are not.
 */
export const RUBY_NON_CONSTANT = [
  { kind: "instance_variable" },
  { kind: "class_variable" },
  { kind: "global_variable" },
  { kind: "call", not: { has: { field: "receiver", pattern: "$_" } } },
];

/**
 * A call of a method named by `names` (RE2 alternation), on a receiver named by `receiver` when
 * given, whose first argument is not an interpolated string; the metavariable `$FIRST` is that
 * argument, `$ARGS` the whole argument list.
 */
export const rubyCall = (names: string, receiver?: string) => ({
  kind: "call",
  all: [
    { has: { field: "method", regex: `^(?:${names})$` } },
    ...(receiver ? [{ has: { field: "receiver", regex: `^(?:${receiver})$` } }] : []),
    { has: { field: "arguments", pattern: "$ARGS", has: { nthChild: 1, pattern: "$FIRST", not: INTERPOLATED } } },
  ],
});
