// Python request input reaching a command or code sink within the function (the evaluation
// service's flow.ts follows it through assignments, f-strings, formatting, concatenation, lists
// and dicts filled with constant keys, configparser, and the branches a constant condition takes).
// In a file that reads request input these judge the sinks instead of the RE2 rules, which flag
// any command or code that is not a constant string (`PY_READS_REQUEST`): there the value's origin
// is known, and a branch never taken or a constant key read back is not an injection.
import {
  type BuiltinPattern,
  firstArgument,
  PY_REQUEST_KEYWORDS,
  PY_REQUEST_SOURCES,
  PY_SANITIZERS,
  structural,
} from "./types.js";
import { PY_ALLOWLIST_GUARDS } from "./pythonGuards.js";

/** A Python file that reads request input (the RE2 rules' `file_excludes`: the flow rules below judge it). */
export const PY_READS_REQUEST = String.raw`\brequest\.(?:args|form|values|files|cookies|headers|json|data|get_json|get_data|GET|POST|COOKIES|META|body|FILES|query_params|stream|query_string|path|full_path|url)\b|\(\s*request\s*\)`;

/** `subprocess.run(cmd, …)` and the other ways to run a command, given input (a string, or a list: `["sh", "-c", f"echo {x}"]`). */
export const pythonCommandFromRequest: BuiltinPattern = {
  id: "python-command-from-request",
  type: "structural",
  value: structural(
    ["python"],
    {
      any: firstArgument(
        [
          "subprocess.run",
          "subprocess.call",
          "subprocess.check_call",
          "subprocess.check_output",
          "subprocess.Popen",
          "subprocess.getoutput",
          "subprocess.getstatusoutput",
          "os.system",
          "os.popen",
        ],
        "CMD",
      ),
    },
    undefined,
    { sink: "CMD", sources: PY_REQUEST_SOURCES, sanitizers: PY_SANITIZERS, guards: PY_ALLOWLIST_GUARDS },
  ),
  message: "Command built from request input (it reaches the command within the function)",
  keywords: PY_REQUEST_KEYWORDS,
  file_requires: [String.raw`\b(?:subprocess|os)\.`],
};

/** eval()/exec()/compile() given input: the input runs as Python. */
export const pythonCodeFromRequest: BuiltinPattern = {
  id: "python-code-from-request",
  type: "structural",
  value: structural(["python"], { any: firstArgument(["eval", "exec", "compile"], "CODE") }, undefined, {
    sink: "CODE",
    sources: PY_REQUEST_SOURCES,
    sanitizers: PY_SANITIZERS,
    guards: PY_ALLOWLIST_GUARDS,
  }),
  message: "eval()/exec() of request input (it reaches the code within the function)",
  keywords: PY_REQUEST_KEYWORDS,
  file_requires: [String.raw`\b(?:eval|exec|compile)\s*\(`],
};

/** A Flask view: a function decorated with a route (`@app.route(…)`, `@bp.get(…)`). */
const FLASK_VIEW = {
  kind: "function_definition",
  inside: {
    kind: "decorated_definition",
    has: { kind: "decorator", regex: String.raw`^@[\w.]+\.(?:route|get|post|put|patch|delete)\s*\(` },
  },
  stopBy: "end",
};

/**
 * A content type browsers do not render as HTML (JSON, plain text, CSV, bytes to download), set
 * by `mimetype=` / `content_type=` or a `Content-Type` header in the arguments: OWASP's XSS
 * Prevention cheat sheet, "use the correct Content-Type" (a JSON body sent as text/html is XSS).
 */
const NON_HTML_CONTENT_TYPE = String.raw`(?i)(?:\bmimetype|\bcontent_type|["']content-type["'])\s*[=:]\s*["'](?:application/(?:json|[\w.+-]+\+json|octet-stream)|text/(?:plain|csv))\b`;

/** A response made with such a content type (Flask's make_response and Response, Django's HttpResponse). */
const NON_HTML_RESPONSE = {
  kind: "call",
  all: [
    { has: { field: "function", regex: String.raw`^(?:(?:flask\.)?(?:make_response|Response)|HttpResponse)$` } },
    { has: { field: "arguments", regex: NON_HTML_CONTENT_TYPE } },
  ],
};

/**
 * What a response carries that is not HTML: HTML-escaped text (a function whose name says it
 * escapes HTML: `escape_html`, `html_escape`, `escape_for_html`), a template rendered with
 * Jinja2's autoescape, JSON, a redirect, URL-quoted text, a response of a content type that is not HTML; in a `(body, status, headers)` tuple,
 * what follows the body; a cookie set on the response.
 */
const PY_HTML_SANITIZERS = [
  ...PY_SANITIZERS,
  {
    kind: "call",
    has: {
      field: "function",
      regex: String.raw`^(?:(?:flask\.)?(?:render_template|jsonify|redirect|url_for|send_file|send_from_directory)|(?:[\w.]+\.)?(?:\w*escape\w*html\w*|\w*html\w*escape\w*|quote|quote_plus))$`,
    },
  },
  // `all` checks in order: the parent first (one node), the position among its children only then
  // (counting siblings for every node of a file costs quadratic time in a long module).
  NON_HTML_RESPONSE,
  { all: [{ inside: { any: [{ kind: "tuple" }, { kind: "expression_list" }] } }, { nthChild: { position: "n+2" } }] },
  {
    all: [
      {
        inside: {
          kind: "argument_list",
          inside: { kind: "call", has: { field: "function", regex: String.raw`\.(?:set_cookie|delete_cookie)$` } },
        },
      },
      { nthChild: { position: "n+1" } },
    ],
  },
];

/** A Flask view's returned body, or a Django `HttpResponse`'s content, given input: reflected XSS. */
export const pythonResponseFromRequest: BuiltinPattern = {
  id: "python-response-from-request",
  type: "structural",
  value: structural(
    ["python"],
    {
      any: [
        { pattern: "return $BODY", inside: FLASK_VIEW },
        { any: firstArgument(["HttpResponse"], "BODY"), not: NON_HTML_RESPONSE },
      ],
    },
    undefined,
    { sink: "BODY", sources: PY_REQUEST_SOURCES, sanitizers: PY_HTML_SANITIZERS, guards: PY_ALLOWLIST_GUARDS },
  ),
  message: "Response body built from request input without escaping (reflected XSS)",
  keywords: PY_REQUEST_KEYWORDS,
  // A route decorator or an HttpResponse: `.get(` alone is in most Python files.
  file_requires: [String.raw`@[\w.]+\.(?:route|get|post|put|patch|delete)\s*\(|\bHttpResponse\s*\(`],
};

/** pickle (and its kin) and YAML's unsafe loaders given input: the data picks the objects built, and runs code. */
export const pythonDeserializeFromRequest: BuiltinPattern = {
  id: "python-deserialize-from-request",
  type: "structural",
  value: structural(
    ["python"],
    {
      any: [
        ...firstArgument(
          [
            ...["pickle", "cPickle", "_pickle", "dill", "cloudpickle", "marshal"].flatMap((m) =>
              ["loads", "load", "Unpickler"].map((f) => `${m}.${f}`),
            ),
            "jsonpickle.decode",
            "yaml.unsafe_load",
            "yaml.unsafe_load_all",
            "yaml.full_load",
          ],
          "DATA",
        ),
        // yaml.load without a safe loader (SafeLoader, CSafeLoader, BaseLoader build plain data only).
        {
          any: firstArgument(["yaml.load", "yaml.load_all"], "DATA"),
          not: { has: { kind: "argument_list", regex: String.raw`\b(?:C?SafeLoader|BaseLoader)\b` } },
        },
      ],
    },
    undefined,
    { sink: "DATA", sources: PY_REQUEST_SOURCES, sanitizers: PY_SANITIZERS },
  ),
  message: "Request input deserialized by pickle or an unsafe YAML loader (it reaches the data within the function)",
  keywords: PY_REQUEST_KEYWORDS,
  file_requires: [String.raw`\b(?:pickle|cPickle|dill|cloudpickle|marshal|jsonpickle|yaml)\b`],
};
