import {
  type BuiltinPolicy,
  builtinSettings,
  docs,
  EVERY_RULE,
  firstArgument,
  INJECTION_FRAMEWORKS,
  paths,
  PY_DYNAMIC_ARG,
  PY_REQUEST_KEYWORDS,
  PY_REQUEST_SOURCES,
  PY_SANITIZERS,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";
import { PY_ALLOWLIST_GUARDS } from "./pythonGuards.js";
import { PY_READS_REQUEST, pythonCodeFromRequest } from "./pythonFlow.js";

/** A JavaScript argument that is not a constant: a name or call, a template with ${…}, a string joined with +. */
const JS_DYNAMIC_ARG = String.raw`(?:[A-Za-z_$][\w$.]*\s*(?:[)+,.\[(]|$)|\x60[^\x60]*\$\{|["'][^"'\n]*["']\s*\+)`;

export const dangerousEval: BuiltinPolicy = {
  id: "dangerous-eval",
  name: "Dangerous dynamic code execution",
  description:
    "Detects code that executes strings built at run time as code (constant strings are not reported): eval(), new Function(), string timers and the vm module (runInThisContext, runInNewContext, compileFunction, vm.Script) in JavaScript, eval()/exec() in Python, eval() in PHP and Ruby (and string instance_eval/class_eval), script engines in Java, and Jinja2 templates compiled from request input (render_template_string, Template, from_string: server-side template injection, Python).",
  severity: "warning",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [
    ...INJECTION_FRAMEWORKS,
    "owasp-asvs:V5.2.4",
    "owasp-top-10:A03",
    "cwe:CWE-95",
    "cwe:CWE-94",
    "cwe-top-25:CWE-94",
  ],
  patterns: [
    {
      id: "js-eval",
      type: "regex",
      // A constant string (eval("1 + 1")) runs nothing an attacker wrote; a name, a template with
      // ${…} or a concatenation may.
      value: String.raw`\beval\s*\(\s*(?:[A-Za-z_$][\w$.]*\s*(?:[)+,.\[(]|$)|\x60[^\x60]*\$\{|["'][^"'\n]*["']\s*\+)`,
      message: "eval() runs code built at run time: whoever controls the value runs code in the page or process",
      paths: paths("web"),
      // Not a method of another object (`knex.eval(…)`); window.eval is the global one.
      checks: ["not-member-call"],
    },
    {
      id: "js-new-function",
      type: "regex",
      value: String.raw`\bnew\s+Function\s*\(`,
      message: "Use of new Function() executes arbitrary code",
      paths: paths("web"),
    },
    {
      id: "js-vm-code",
      type: "regex",
      // Node's vm module compiles and runs the source text it is given (runInThisContext,
      // runInNewContext, runInContext, compileFunction, new vm.Script, new vm.SourceTextModule);
      // Node's docs: "The node:vm module is not a security mechanism. Do not use it to run
      // untrusted code." Reported when that source is not a constant.
      value: String.raw`(?:\bvm\.|\brequire\(\s*["'](?:node:)?vm["']\s*\)\.)(?:runInThisContext|runInNewContext|runInContext|compileFunction)\s*\(\s*${JS_DYNAMIC_ARG}|\bnew\s+vm\.(?:Script|SourceTextModule)\s*\(\s*${JS_DYNAMIC_ARG}`,
      message: "The vm module runs code built at run time: whoever controls the value runs code in the process",
      paths: paths("js"),
    },
    {
      id: "js-string-timer",
      type: "regex",
      value: String.raw`\b(?:setTimeout|setInterval)\s*\(\s*["'\x60]`,
      message: "setTimeout/setInterval with a string argument evaluates it as code",
      paths: paths("web"),
    },
    {
      id: "python-eval-exec",
      type: "regex",
      // Not methods (`model.eval()`, `cursor.exec(...)`), not definitions, and not constants.
      value: String.raw`\b(?:eval|exec)\s*\(\s*${PY_DYNAMIC_ARG}`,
      message: "eval()/exec() runs Python code built at run time",
      paths: paths("python"),
      line_allowlist: [String.raw`^\s*(?:async\s+)?def\s`],
      checks: ["not-member-call"],
      // Files reading request input: python-code-from-request.
      file_excludes: [PY_READS_REQUEST],
    },
    pythonCodeFromRequest,
    {
      id: "python-template-from-request",
      type: "structural",
      // Server-side template injection: a Jinja2 template compiled from request input runs
      // whatever expressions the input holds.
      value: structural(
        ["python"],
        { any: firstArgument(["render_template_string", "Template", "jinja2.Template", "$ENV.from_string"], "T") },
        undefined,
        { sink: "T", sources: PY_REQUEST_SOURCES, sanitizers: PY_SANITIZERS, guards: PY_ALLOWLIST_GUARDS },
      ),
      message: "Template compiled from request input (server-side template injection)",
      keywords: PY_REQUEST_KEYWORDS,
      file_requires: [String.raw`\b(?:render_template_string|Template|from_string)\s*\(`],
    },
    {
      id: "php-eval",
      type: "regex",
      value: String.raw`(?i)\b(?:eval|create_function)\s*\(`,
      message: "eval()/create_function() executes arbitrary PHP code",
      paths: paths("php"),
    },
    {
      id: "ruby-eval",
      type: "regex",
      value: String.raw`\beval\b[ \t]*\(?[ \t]*["'%@$A-Za-z_]`,
      message: "eval executes arbitrary Ruby code",
      paths: paths("ruby"),
    },
    {
      id: "ruby-instance-eval-string",
      type: "regex",
      // A string (or a variable holding one) rather than a block.
      value: String.raw`\.(?:instance|class|module)_eval(?:\s*\(\s*["'%@a-z_]|[ \t]+["'%])`,
      message: "instance_eval/class_eval/module_eval with a string executes arbitrary Ruby code",
      paths: paths("ruby"),
    },
    {
      id: "java-script-engine",
      type: "regex",
      value: String.raw`\.getEngineByName\s*\(\s*"(?i:js|javascript|nashorn|ecmascript|graal\.js|groovy|python|ruby)"\s*\)`,
      message: "A JSR-223 script engine evaluates strings as code",
      paths: paths("java"),
    },
  ],
  suggestions: [
    "Replace dynamic code execution with explicit logic, a lookup table, or JSON.parse / json.loads / ast.literal_eval for data.",
  ],
  claims: {
    cwe: { "CWE-94": EVERY_RULE, "CWE-95": EVERY_RULE },
    languages: ["java", "javascript", "php", "python", "ruby"],
  },
  documentation_url: docs("dangerous-eval"),
  settings: builtinSettings(),
};
