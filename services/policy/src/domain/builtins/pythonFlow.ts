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
    { sink: "CMD", sources: PY_REQUEST_SOURCES, sanitizers: PY_SANITIZERS },
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
 * What a response carries that is not HTML: HTML-escaped text (a function whose name says it
 * escapes HTML: `escape_html`, `html_escape`, `escape_for_html`), a template rendered with
 * Jinja2's autoescape, JSON, a redirect, URL-quoted text; in a `(body, status, headers)` tuple,
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
      any: [{ pattern: "return $BODY", inside: FLASK_VIEW }, ...firstArgument(["HttpResponse"], "BODY")],
    },
    undefined,
    { sink: "BODY", sources: PY_REQUEST_SOURCES, sanitizers: PY_HTML_SANITIZERS },
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
