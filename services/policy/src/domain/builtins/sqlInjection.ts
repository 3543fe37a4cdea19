import {
  type BuiltinPolicy,
  builtinSettings,
  CSHARP_BUILT_STRING,
  docs,
  EVERY_RULE,
  firstArgument,
  INJECTION_FRAMEWORKS,
  JS_REQUEST_KEYWORDS,
  JS_REQUEST_SOURCES,
  JS_SANITIZERS,
  paths,
  PY_REQUEST_KEYWORDS,
  PY_REQUEST_SOURCES,
  PY_SANITIZERS,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";
import { PY_ALLOWLIST_GUARDS } from "./pythonGuards.js";
import { JAVA_REQUEST_SOURCES, JAVA_SQL_SANITIZERS } from "./javaFlow.js";
import {
  INTERPOLATED,
  RUBY_NON_CONSTANT,
  RUBY_REQUEST_KEYWORDS,
  RUBY_REQUEST_SOURCES,
  RUBY_SQL_SANITIZERS,
  rubyCall,
} from "./rubyFlow.js";
import { RUBY_ALLOWLIST_GUARDS } from "./rubyGuards.js";
import { PHP_REQUEST_KEYWORDS, PHP_REQUEST_SOURCES, PHP_SQL_SANITIZERS, phpCall, phpMethodCall } from "./phpFlow.js";

// The start of a SQL statement inside a string literal.
/** The start of a SQL statement inside a literal whose closing delimiter is in `quote`. */
const sqlStart = (quote: string) =>
  String.raw`(?i:select\s[^${quote}]*?\bfrom\b|insert\s+into\b|update\s+[\w."\[\]]+\s+set\b|delete\s+from\b|(?:replace|merge)\s+into\b|with\s+\w+\s+as\s*\()`;

// Python string formatting applied right after a literal: % (not a binding tuple passed as an
// argument), .format() with arguments, .replace(x, value).
const PY_FORMAT = String.raw`(?:%\s*[\w(\[{"']|\.format\s*\(\s*[^)\s]|\.replace\s*\([^,\n]*,\s*[A-Za-z_])`;

// Java methods whose first argument is SQL or JPQL text: JDBC, Spring's JdbcTemplate, JPA and Hibernate.
const JAVA_SQL_METHODS = [
  "execute",
  "executeQuery",
  "executeUpdate",
  "executeLargeUpdate",
  "addBatch",
  "prepareStatement",
  "prepareCall",
  "nativeSQL",
  "createQuery",
  "createNativeQuery",
  "createSQLQuery",
  "query",
  "queryForObject",
  "queryForList",
  "queryForMap",
  "queryForRowSet",
  "queryForLong",
  "queryForInt",
  "update",
  "batchUpdate",
];

export const sqlInjection: BuiltinPolicy = {
  id: "sql-injection",
  name: "SQL injection",
  description:
    "Detects SQL statements built by concatenating or interpolating values instead of binding parameters: string concatenation in any language, SQL literals formatted with f-strings, %, .format() or .replace() in Python (and Django RawSQL/extra given such SQL), template literals in JavaScript query calls, fmt.Sprintf and query += in Go (not constants, pq.QuoteIdentifier, or queries that are only printed or logged), query text of JDBC/JdbcTemplate/JPA/Hibernate calls in Java that request input or a String parameter of the method reaches (through assignments, builders, collections, the file's own methods; not constants, not through a parse to a number), concatenation in JDBC/JPA calls in Kotlin, Groovy and Scala, concatenation or interpolation in ADO.NET commands (C#), request input reaching a query's text within the function (Python, JavaScript/TypeScript: through assignments, concatenation and formatting, not through int() or escaping), request input reaching PHP queries (mysqli, PDO, Laravel raw methods) and ActiveRecord SQL fragments (Ruby) within the function, and interpolation in PHP and Ruby/Rails queries.",
  severity: "error",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [...INJECTION_FRAMEWORKS, "owasp-asvs:V5.3.4", "owasp-top-10:A03", "cwe:CWE-89", "cwe-top-25:CWE-89"],
  patterns: [
    {
      id: "sql-string-concatenation",
      type: "regex",
      // "SELECT … FROM … " + x (JS, Java, C#, Go, Python, Ruby) or "…" . $x (PHP).
      value: String.raw`(?i)["'\x60]\s*(?:select\b[^\n]*?\bfrom\b|insert\s+into\b|update\s+[\w.\x60"\[\]]+\s+set\b|delete\s+from\b)[^\n]*?["'\x60]\s*(?:\+\s*[$A-Za-z_(*]|\.\s*\$)`,
      message: "SQL statement built by string concatenation",
      // Java: java-sql-from-request, which follows the value (on OWASP Benchmark for Java this
      // rule flagged 89% of the safe tests, the flow rule none).
      paths: paths("codeButJava"),
      // Go: a constant concatenated in (const table = "users") is no injection, nor a query that
      // is only printed.
      checks: ["go-splices-variable", "go-query-is-used"],
    },
    {
      id: "python-sql-format",
      type: "regex",
      // A SQL statement in a string literal formatted with values (f-string, %, .format(),
      // .replace()), wherever it is built, or any f-string passed to execute(). Concatenation is
      // sql-string-concatenation's; "… %s", (params) is binding, not formatting.
      value: String.raw`(?:^|[^\w"'])(?:[rRbBuU]?[fF][rR]?"{3}\s*${sqlStart('"')}[^"]*?\{|[rRbBuU]?[fF][rR]?'{3}\s*${sqlStart("'")}[^']*?\{|[rRbBuU]?[fF][rR]?"\s*${sqlStart('"\\n')}[^"\n]*\{[^}\n]*\}|[rRbBuU]?[fF][rR]?'\s*${sqlStart("'\\n")}[^'\n]*\{[^}\n]*\}|[rRbBuU]?"{3}\s*${sqlStart('"')}(?:[^"]|"[^"]|""[^"])*?"{3}\s*${PY_FORMAT}|[rRbBuU]?"\s*${sqlStart('"\\n')}[^"\n]*"\s*${PY_FORMAT}|[rRbBuU]?'\s*${sqlStart("'\\n")}[^'\n]*'\s*${PY_FORMAT})|\.(?:execute|executemany|executescript|raw|exec_driver_sql)\s*\(\s*[rRbBuU]?[fF][rR]?["']`,
      message: "SQL statement formatted with values (f-string, %, .format()) instead of bound parameters",
      paths: paths("python"),
    },
    {
      id: "python-django-raw-sql",
      type: "regex",
      // RawSQL(…) or QuerySet.extra(select=/where=/tables=…) given SQL from a variable or a
      // formatted literal: Django cannot escape SQL it is handed whole.
      value: String.raw`\bRawSQL\s*\((?:[^()]|\([^()]*\))*?(?:\bsql\s*=\s*)?(?:\(\s*)?(?:[A-Za-z_]\w*\s*[,)]|["'][^"'\n]*["']\s*${PY_FORMAT}|[fF]["'])|\.extra\s*\((?:[^()]|\([^()]*\))*?(?:\b(?:select|where|tables)\s*=\s*\[?\s*[A-Za-z_]\w*\s*[\],)]|:\s*[A-Za-z_]\w*\s*\}|["'][^"'\n]*["']\s*${PY_FORMAT}|\bdict\s*\()`,
      message: "Django RawSQL/extra() given SQL built from variables or formatting; Django cannot escape it",
      paths: paths("python"),
      match_allowlist: [String.raw`\bRawSQL\s*\(\s*(?:sql\s*=\s*)?["'][^"'\n]*["']\s*,\s*\[?\s*[A-Za-z_]\w*\s*[,)]$`],
    },
    {
      id: "js-sql-template-literal",
      type: "regex",
      value: String.raw`\.(?:query|execute|raw|run|all|get|prepare|exec|\$queryRawUnsafe|\$executeRawUnsafe|unsafe)\s*\(\s*\x60\s*${sqlStart("\\x60")}[^\x60]*\$\{`,
      message: "SQL query built with a template literal instead of bound parameters",
      paths: paths("js"),
    },
    {
      id: "go-sql-sprintf",
      type: "regex",
      value: String.raw`\bfmt\.Sprintf\s*\(\s*(?:"\s*${sqlStart(String.raw`"\n`)}[^"\n]*%[svq]|\x60\s*${sqlStart("\\x60")}[^\x60]*%[svq])`,
      message: "SQL query built with fmt.Sprintf from variables instead of placeholders",
      paths: paths("go"),
      // Constants and identifiers quoted with pq.QuoteIdentifier/QuoteLiteral are no injection,
      // nor a query that is only printed or logged.
      checks: ["go-splices-variable", "go-query-is-used"],
    },
    {
      id: "go-sql-append",
      type: "regex",
      // query += x, query = query + x: a variable appended to a SQL string being built up.
      value: String.raw`(?i)\b(\w*(?:query|sql|stmt|statement))\s*(?:\+=|=\s*\w*(?:query|sql|stmt|statement)\s*\+)\s*(?:[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?|"[^"\n]*"\s*\+\s*[A-Za-z_])`,
      message: "Variable appended to a SQL query string instead of passed as a placeholder argument",
      paths: paths("go"),
      file_requires: [
        String.raw`(?i)"[^"\n]*\b(?:select\b[^"\n]*\bfrom|insert\s+into|update\s+\w+\s+set|delete\s+from)\b`,
      ],
      // A query built on a name that nothing runs (only printed, or a shadowing name in an inner
      // block) is no injection.
      checks: ["go-splices-variable", "go-query-is-used"],
    },
    {
      id: "java-sql-concatenation",
      type: "regex",
      value: String.raw`\.(?:executeQuery|executeUpdate|executeLargeUpdate|execute|addBatch|prepareStatement|prepareCall|createQuery|createNativeQuery|createSQLQuery|queryForObject|queryForList|queryForMap|query|update)\s*\(\s*"[^"\n]*"\s*\+\s*[A-Za-z_(]`,
      message: "SQL/JPQL query built by concatenation in a JDBC/JPA call",
      // Java itself: java-sql-from-request.
      paths: paths("jvmOther"),
    },
    {
      id: "csharp-sql-command-built",
      type: "structural",
      // new SqlCommand(sql, …), or any ADO.NET command type, given SQL built by concatenation or
      // an interpolated string that reads a variable.
      value: structural(
        ["csharp"],
        {
          kind: "object_creation_expression",
          has: { field: "type", regex: String.raw`^(?:Sql|Npgsql|MySql|Sqlite|SQLite|OleDb|Odbc|Oracle)Command$` },
          all: [{ has: { kind: "argument_list", has: { nthChild: 1, kind: "argument", pattern: "$SQL" } } }],
        },
        { SQL: CSHARP_BUILT_STRING },
      ),
      message: "ADO.NET command built by concatenating or interpolating values instead of parameters",
      keywords: ["command"],
    },
    {
      id: "python-sql-from-request",
      type: "structural",
      // A query run with text that request input reaches within the function (assigned,
      // concatenated, formatted), not through int() or another sanitizer.
      value: structural(
        ["python"],
        { any: firstArgument(["$C.execute", "$C.executemany", "$C.executescript", "$C.raw"], "Q") },
        undefined,
        { sink: "Q", sources: PY_REQUEST_SOURCES, sanitizers: PY_SANITIZERS, guards: PY_ALLOWLIST_GUARDS },
      ),
      message: "SQL query built from request input (it reaches the query text within the function)",
      keywords: PY_REQUEST_KEYWORDS,
      // Parsed only where a sink is called at all.
      file_requires: [String.raw`\.(?:execute|executemany|executescript|raw)\s*\(`],
    },
    {
      id: "js-sql-from-request",
      type: "structural",
      value: structural(
        ["javascript", "typescript", "tsx"],
        { any: firstArgument(["$C.query", "$C.execute", "$C.raw", "$C.$queryRawUnsafe", "$C.$executeRawUnsafe"], "Q") },
        undefined,
        { sink: "Q", sources: JS_REQUEST_SOURCES, sanitizers: JS_SANITIZERS },
      ),
      message: "SQL query built from request input (it reaches the query text within the function)",
      keywords: JS_REQUEST_KEYWORDS,
      file_requires: [String.raw`\.(?:query|execute|raw|\$queryRawUnsafe|\$executeRawUnsafe)\s*\(`],
    },
    {
      id: "java-sql-from-request",
      type: "structural",
      // JDBC, Spring's JdbcTemplate and JPA/Hibernate given query text that servlet request input
      // or a String parameter of the method reaches (also through a method of the file it calls),
      // not through a parse to a number. Constant text concatenated is no finding.
      value: structural(
        ["java"],
        {
          // One rule of a node kind, not a pattern per method: a twentieth of the matching cost.
          kind: "method_invocation",
          has: { field: "name", regex: `^(?:${JAVA_SQL_METHODS.join("|")})$` },
          all: [{ has: { field: "arguments", has: { nthChild: 1, pattern: "$Q" } } }],
        },
        undefined,
        { sink: "Q", sources: JAVA_REQUEST_SOURCES, sanitizers: JAVA_SQL_SANITIZERS, parameters: ["String"] },
      ),
      message: "SQL query built from request input or a String parameter (it reaches the query text within the method)",
      file_requires: [String.raw`\.(?:${JAVA_SQL_METHODS.join("|")})\s*\(`],
    },
    {
      id: "php-sql-user-input",
      type: "structural",
      // A query function or method that request input reaches within the function, through
      // assignments and concatenation; not through escaping, quote() or intval.
      value: structural(
        ["php"],
        {
          any: [
            phpCall(
              "mysqli_query|mysqli_real_query|mysqli_multi_query|mysql_query|pg_query|pg_send_query|sqlite_query|mssql_query|odbc_exec",
            ),
            phpMethodCall("query|exec|prepare|real_query|multi_query|whereRaw|selectRaw|orderByRaw|havingRaw"),
          ],
        },
        undefined,
        { sink: "ARGS", sources: PHP_REQUEST_SOURCES, sanitizers: PHP_SQL_SANITIZERS },
      ),
      message: "SQL query built from request input ($_GET, $_POST…)",
      keywords: PHP_REQUEST_KEYWORDS,
    },
    {
      id: "php-sql-interpolation",
      type: "regex",
      value: String.raw`(?i)(?:\b(?:mysqli?_query|pg_query|sqlite_query)|->(?:query|exec|prepare|multi_query))\s*\([^;\n]*"\s*(?:select|insert|update|delete)\b[^"\n]*\$[A-Za-z_]`,
      message: "SQL query with PHP variables interpolated into the string",
      paths: paths("php"),
    },
    {
      id: "ruby-sql-from-request",
      type: "structural",
      // ActiveRecord calls whose SQL fragment (the first argument; not a hash of conditions, not
      // an interpolated string: ruby-sql-interpolation's) request input reaches within the method.
      // The aggregates (maximum, minimum, sum, average) and select / reselect take a column
      // expression that is SQL text too; calculate takes it second, after the operation.
      value: structural(
        ["ruby"],
        {
          any: [
            {
              ...rubyCall(
                "where|not|rewhere|find_by_sql|count_by_sql|execute|exec_query|exec_update|exec_delete|select_all|select_one|select_value|select_values|select_rows|order|reorder|group|having|joins|pluck|from|lock|delete_all|update_all|destroy_by|delete_by|destroy_all|find_or_initialize_by|find_or_create_by|maximum|minimum|sum|average|select|reselect",
              ),
              not: { has: { field: "arguments", has: { nthChild: 1, any: [{ kind: "pair" }, { kind: "hash" }] } } },
              has: { field: "arguments", has: { nthChild: 1, pattern: "$SINK" } },
            },
            { ...rubyCall("calculate"), has: { field: "arguments", has: { nthChild: 2, pattern: "$SINK" } } },
          ],
        },
        undefined,
        { sink: "SINK", sources: RUBY_REQUEST_SOURCES, sanitizers: RUBY_SQL_SANITIZERS, guards: RUBY_ALLOWLIST_GUARDS },
      ),
      message: "SQL fragment built from request input in an ActiveRecord call (it reaches the query within the method)",
      keywords: RUBY_REQUEST_KEYWORDS,
    },
    {
      id: "ruby-sql-interpolation",
      type: "structural",
      // An ActiveRecord call on a receiver whose SQL fragment (or the first element of an array:
      // `destroy_by(["id = '#{x}'"])`) interpolates a value the method did not build from
      // constants: a parameter, a variable, a call. A name checked against an allow list where
      // it decides the way (`if dir == "ASC"`), one assigned only constants, a constant and a
      // quoting or numeric call (`#{id.to_i}`, `#{quote(x)}`) are clean.
      value: structural(
        ["ruby"],
        {
          kind: "call",
          all: [
            { has: { field: "receiver", pattern: "$_" } },
            {
              has: {
                field: "method",
                regex:
                  "^(?:where|not|rewhere|find_by_sql|execute|exec_query|select_all|select_one|select_value|select_rows|order|reorder|group|having|joins|pluck|from|count_by_sql|delete_all|update_all|delete_by|destroy_by|destroy_all|find_or_initialize_by|find_or_create_by)$",
              },
            },
            {
              has: {
                field: "arguments",
                has: {
                  nthChild: 1,
                  pattern: "$SINK",
                  any: [INTERPOLATED, { kind: "array", has: { nthChild: 1, ...INTERPOLATED } }],
                },
              },
            },
          ],
        },
        undefined,
        {
          sink: "SINK",
          sources: RUBY_NON_CONSTANT,
          freeNames: true,
          sanitizers: RUBY_SQL_SANITIZERS,
          guards: RUBY_ALLOWLIST_GUARDS,
        },
      ),
      message: "SQL fragment built with string interpolation in an ActiveRecord call",
      keywords: ["#{"],
    },
  ],
  suggestions: [
    "Use bound parameters (placeholders such as ?, $1, %s or :name passed separately to the driver) or the query builder of your ORM; never build SQL text from input. Identifiers that cannot be bound must come from an allow list.",
  ],
  claims: {
    cwe: { "CWE-89": EVERY_RULE },
    languages: ["csharp", "go", "java", "javascript", "kotlin", "php", "python", "ruby", "typescript"],
  },
  documentation_url: docs("sql-injection"),
  settings: builtinSettings(),
};
