// PHP request input, sinks and sanitizers, as the flow conditions of structural rules (the
// evaluation service's flow.ts follows `$name` through assignments, `.=` and concatenation
// within the function). ast-grep's PHP metavariables share PHP's `$`, so sinks are written as
// kinds whose arguments (or whole node) a lone `$ARGS` pattern captures.

/** The request superglobals: `$_GET`, `$_POST`, `$_REQUEST`, `$_COOKIE`, `$_FILES`, `$_SERVER`. */
export const PHP_REQUEST_SOURCES = [
  { kind: "variable_name", regex: String.raw`^\$_(?:GET|POST|REQUEST|COOKIE|FILES|SERVER)$` },
];

/** Words (lower-case) a file reading PHP request input contains: the gate before it is parsed. */
export const PHP_REQUEST_KEYWORDS = ["$_get", "$_post", "$_request", "$_cookie", "$_files", "$_server"];

// Numbers carry no injection; casts to a number neither.
const NUMERIC = "intval|floatval|boolval|abs|count|strlen|is_numeric|ctype_digit";
const calls = (names: string) => ({
  kind: "function_call_expression",
  has: { field: "function", regex: String.raw`(?i)^\\?(?:${names})$` },
});
const NUMBER_CAST = {
  kind: "cast_expression",
  regex: String.raw`(?i)^\(\s*(?:int|integer|float|double|bool|boolean)\s*\)`,
};

export const PHP_COMMAND_SANITIZERS = [calls(`${NUMERIC}|escapeshellarg|escapeshellcmd`), NUMBER_CAST];
export const PHP_SQL_SANITIZERS = [
  calls(
    `${NUMERIC}|mysqli_real_escape_string|mysql_real_escape_string|pg_escape_string|pg_escape_literal|sqlite_escape_string`,
  ),
  { kind: "member_call_expression", has: { field: "name", regex: "^(?:quote|real_escape_string|escape_string)$" } },
  NUMBER_CAST,
];
export const PHP_HTML_SANITIZERS = [
  calls(
    `${NUMERIC}|htmlspecialchars|htmlentities|strip_tags|urlencode|rawurlencode|json_encode|esc_html|esc_attr|esc_url`,
  ),
  NUMBER_CAST,
];

/** A call of a function named by `names` (RE2 alternation, case-insensitive as PHP's are), its arguments node the metavariable `$ARGS`. */
export const phpCall = (names: string) => ({
  kind: "function_call_expression",
  all: [
    { has: { field: "function", regex: String.raw`(?i)^\\?(?:${names})$` } },
    { has: { field: "arguments", pattern: "$ARGS" } },
  ],
});

/** A method call `$x->name(…)` of a method named by `names`, its arguments node the metavariable `$ARGS`. */
export const phpMethodCall = (names: string) => ({
  kind: "member_call_expression",
  all: [
    { has: { field: "name", regex: String.raw`(?i)^(?:${names})$` } },
    { has: { field: "arguments", pattern: "$ARGS" } },
  ],
});
