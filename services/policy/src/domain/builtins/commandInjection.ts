import {
  type BuiltinPolicy,
  builtinSettings,
  CSHARP_READS_NAME,
  docs,
  EVERY_RULE,
  GO_REQUEST_INPUT,
  INJECTION_FRAMEWORKS,
  KOTLIN_READS_NAME,
  KOTLIN_TEMPLATE,
  paths,
  PY_DYNAMIC_ARG,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";
import { RUBY_COMMAND_SANITIZERS, RUBY_REQUEST_KEYWORDS, RUBY_REQUEST_SOURCES, rubyCall } from "./rubyFlow.js";
import { RUBY_ALLOWLIST_GUARDS, RUBY_ARGV_ARGUMENTS } from "./rubyGuards.js";
import { PHP_COMMAND_SANITIZERS, PHP_REQUEST_KEYWORDS, PHP_REQUEST_SOURCES, phpCall } from "./phpFlow.js";
import { JAVA_COMMAND_SANITIZERS, JAVA_REQUEST_KEYWORDS, JAVA_REQUEST_SOURCES } from "./javaFlow.js";
import { PY_READS_REQUEST, pythonCommandFromRequest } from "./pythonFlow.js";
import { JS_PROGRAM_FROM_REQUEST } from "./jsCommand.js";

// A call's argument list, one level of nested parentheses deep; may span lines.
const ARGS = String.raw`(?:[^()]|\([^()]*\))*`;
// The start of an argument that is not a constant: a template with ${…}, a string literal that is
// concatenated, or a name that is not UPPER_CASE (constants are, by convention).
const NOT_CONSTANT = String.raw`(?:\x60[^\x60]*\$\{|["'][^"'\n]*["']\s*\+|[A-Za-z_$][\w$.]*\s*\+|[a-z_$][\w$.]*|[A-Z][\w$.]*[a-z][\w$.]*)`;
// Where Go programs read input an attacker may control: the command line, the environment, an
// HTTP request.
const GO_UNTRUSTED = String.raw`\bos\.(?:Args|Getenv|LookupEnv)\b|${GO_REQUEST_INPUT}|\bbufio\.NewReader\(\s*os\.Stdin`;

export const commandInjection: BuiltinPolicy = {
  id: "command-injection",
  name: "OS command injection",
  description:
    "Detects shell commands built from variables: child_process.exec with concatenation or template literals or a variable and spawn with shell: true (Node.js), subprocess with shell=True and os.system (Python), sh -c and exec.Command with variable programs or arguments in code reading untrusted input (Go), Runtime.exec, new ProcessBuilder and ProcessBuilder.command given servlet request input (Java: through assignments, lists, builders and the file's own methods; not through a parse to a number or ESAPI encodeForOS), sh -c (Java, Kotlin), Runtime.exec with concatenation (Java, Kotlin) or a string template (Kotlin), Process.Start with a program or arguments read from a variable (C#), shell functions and backticks that request input reaches within the function (PHP), system/exec/spawn/IO.popen/Open3 that request input reaches within the method and interpolated backticks/system (Ruby).",
  severity: "error",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [...INJECTION_FRAMEWORKS, "owasp-asvs:V5.3.8", "owasp-top-10:A03", "cwe:CWE-78", "cwe-top-25:CWE-78"],
  patterns: [
    {
      id: "js-child-process-exec",
      type: "regex",
      // exec/execSync of child_process (a shell runs the string) with anything but a constant: a
      // template with ${…}, a concatenation, or a variable (UPPER_CASE names are constants).
      value: String.raw`\b(?:child_?process\.|childProcess\.|require\(\s*["'](?:node:)?child_process["']\s*\)\.)?(?:exec|execSync)\s*\(\s*${NOT_CONSTANT}`,
      message: "child_process.exec runs a command built from variables through a shell",
      keywords: ["child_process"],
      paths: paths("js"),
      // A bare exec( is child_process's only where the file takes exec from it.
      checks: ["not-member-call"],
      file_requires: [
        String.raw`\{[^}]*\bexec(?:Sync)?\b[^}]*\}\s*(?:=\s*require\(|from)\s*["'](?:node:)?child_process["']`,
        String.raw`\b(?:child_?process|childProcess)\.exec|["'](?:node:)?child_process["']\s*\)\.exec`,
      ],
    },
    {
      id: "js-child-process-exec-method",
      type: "regex",
      // x.exec(variable) where x is the child_process module (checked), not a RegExp.
      value: String.raw`\b([A-Za-z_$][\w$]*)\.(?:exec|execSync)\s*\(\s*${NOT_CONSTANT}`,
      message: "child_process.exec runs a command built from variables through a shell",
      redact_group: 1,
      keywords: ["child_process"],
      paths: paths("js"),
      checks: ["js-child-process-receiver"],
    },
    JS_PROGRAM_FROM_REQUEST,
    {
      id: "js-spawn-shell",
      type: "regex",
      value: String.raw`\b(?:spawn|spawnSync|execFile|execFileSync)\s*\(${ARGS}\bshell\s*:\s*true\b`,
      message: "spawn/execFile with shell: true passes its arguments through a shell",
      keywords: ["child_process"],
      paths: paths("js"),
    },
    {
      id: "python-subprocess-shell",
      type: "regex",
      // subprocess with a command that is not a plain literal (a variable, an f-string, a
      // formatted or concatenated string) and any true shell= value (True, 1, 'True', a name…).
      value: String.raw`\bsubprocess\.(?:run|call|check_call|check_output|Popen)\s*\(\s*${PY_DYNAMIC_ARG}${ARGS}\bshell\s*=\s*[^,)\s][^,)\n]*\s*[,)]`,
      message: "subprocess runs a command built from variables through a shell (shell=True)",
      paths: paths("python"),
      // shell= values that are false: no shell.
      match_allowlist: [String.raw`\bshell\s*=\s*(?:False|None|0|\[\s*\]|\{\s*\}|''|"")\s*[,)]$`],
      // Files reading request input: python-command-from-request.
      file_excludes: [PY_READS_REQUEST],
    },
    {
      id: "python-shell-helpers",
      type: "regex",
      // Helpers that always run their string through a shell.
      value: String.raw`\b(?:subprocess\.(?:getoutput|getstatusoutput)|commands\.(?:getoutput|getstatusoutput)|popen2\.(?:popen[234]|Popen[34]))\s*\(\s*${PY_DYNAMIC_ARG}`,
      message: "A shell helper (getoutput, popen) runs a command built from variables",
      paths: paths("python"),
      file_excludes: [PY_READS_REQUEST],
    },
    {
      id: "python-os-system",
      type: "regex",
      // Not a constant string: a variable, an f-string, or a literal that is formatted or concatenated.
      value: String.raw`\bos\.(?:system|popen[234]?)\s*\(\s*(?:[A-Za-z_]|["'][^"'\n]*["']\s*(?:[%+]|\.format\s*\())`,
      message: "os.system/os.popen runs a command built from variables through a shell",
      paths: paths("python"),
      file_excludes: [PY_READS_REQUEST],
    },
    pythonCommandFromRequest,
    {
      id: "go-exec-shell",
      type: "regex",
      value: String.raw`\bexec\.Command(?:Context)?\s*\((?:\s*[A-Za-z_][\w.]*\s*,)?\s*"(?:/usr)?(?:/bin/)?(?:ba|z|da)?sh"\s*,\s*"-c"\s*,\s*(?:[A-Za-z_]|"[^"\n]*"\s*\+)`,
      message: 'exec.Command("sh", "-c", ...) runs a command built from variables through a shell',
      paths: paths("go"),
    },
    {
      id: "go-exec-untrusted",
      type: "regex",
      // exec.Command / CommandContext (also x/sys/execabs) whose program or an argument is not a
      // string literal, in a file that reads untrusted input.
      value: String.raw`\bexec\.(?:Command\(|CommandContext\(\s*(?:[^,()]|\([^()]*\))*,)\s*(?:(?:"[^"\n]*"|\x60[^\x60]*\x60)\s*,\s*)*(?:[A-Za-z_][\w.]*|"[^"\n]*"\s*\+)`,
      message:
        "exec.Command runs a program or arguments taken from variables in code that reads untrusted input (command line, environment, HTTP request)",
      paths: paths("go"),
      file_requires: [GO_UNTRUSTED],
    },
    {
      id: "java-runtime-exec",
      type: "regex",
      value: String.raw`\bRuntime\.getRuntime\s*\(\s*\)\s*\.exec\s*\(\s*(?:[A-Za-z_]|"[^"\n]*"\s*\+)`,
      message: "Runtime.exec runs a command built from variables",
      paths: paths("java"),
    },
    {
      id: "java-process-builder-shell",
      type: "regex",
      value: String.raw`\bnew\s+ProcessBuilder\s*\(\s*(?:(?:Arrays\.asList|List\.of)\s*\(\s*)?"(?:/usr)?(?:/bin/)?(?:ba|z)?sh"\s*,\s*"-c"\s*,\s*(?:[A-Za-z_]|"[^"\n]*"\s*\+)`,
      message: 'ProcessBuilder("sh", "-c", ...) runs a command built from variables through a shell',
      paths: paths("java"),
    },
    {
      id: "java-command-from-request",
      type: "structural",
      // Runtime.exec, new ProcessBuilder(…) or ProcessBuilder.command(…) given a command, an
      // argument or an environment entry that servlet request input reaches within the method.
      value: structural(
        ["java"],
        {
          any: [
            { pattern: "$R.exec($$$ARGS)" },
            { pattern: "new ProcessBuilder($$$ARGS)" },
            { pattern: "$P.command($$$ARGS)" },
          ],
        },
        undefined,
        { sink: "$$$ARGS", sources: JAVA_REQUEST_SOURCES, sanitizers: JAVA_COMMAND_SANITIZERS },
      ),
      message: "An OS command is built from request input (it reaches the command within the method)",
      keywords: JAVA_REQUEST_KEYWORDS,
      file_requires: [String.raw`\.exec\s*\(|ProcessBuilder`],
    },
    {
      id: "kotlin-runtime-exec-template",
      type: "structural",
      // Concatenation is java-runtime-exec's (its paths include .kt); a string template is Kotlin's own.
      value: structural(["kotlin"], { pattern: "Runtime.getRuntime().exec($CMD)" }, { CMD: KOTLIN_TEMPLATE }),
      message: "Runtime.exec runs a command built with a string template",
      keywords: ["exec"],
    },
    {
      id: "kotlin-process-builder-shell",
      type: "structural",
      value: structural(
        ["kotlin"],
        { pattern: 'ProcessBuilder($SHELL, "-c", $CMD)' },
        { SHELL: { regex: String.raw`^"(?:/usr)?(?:/bin/)?(?:ba|z|k|da)?sh"$` }, CMD: KOTLIN_READS_NAME },
      ),
      message: 'ProcessBuilder("sh", "-c", ...) runs a command built from variables through a shell',
      keywords: ["processbuilder"],
    },
    {
      id: "csharp-process-start",
      type: "structural",
      // Process.Start(program) or Process.Start(program, arguments) where the program (alone) or
      // the arguments read a variable; ProcessStartInfo objects are not followed.
      value: structural(
        ["csharp"],
        { any: [{ pattern: "Process.Start($CMD)" }, { pattern: "Process.Start($PROGRAM, $CMD)" }] },
        { CMD: CSHARP_READS_NAME },
      ),
      message: "Process.Start runs a program or arguments taken from a variable",
      keywords: ["process"],
    },
    {
      id: "csharp-process-start-info",
      type: "structural",
      // A ProcessStartInfo whose program (FileName) or arguments (Arguments) read a variable: set
      // through its constructor, an object initializer or an assignment to the property, in a file
      // that uses ProcessStartInfo (Process.Start(info) then runs it).
      value: structural(
        ["csharp"],
        {
          any: [
            { pattern: "new ProcessStartInfo($CMD)" },
            { pattern: "new ProcessStartInfo($PROGRAM, $CMD)" },
            {
              kind: "assignment_expression",
              any: [
                {
                  has: {
                    field: "left",
                    kind: "member_access_expression",
                    regex: String.raw`\.(?:FileName|Arguments)$`,
                  },
                },
                {
                  has: { field: "left", kind: "identifier", regex: "^(?:FileName|Arguments)$" },
                  inside: {
                    kind: "initializer_expression",
                    inside: {
                      kind: "object_creation_expression",
                      has: { field: "type", regex: String.raw`^(?:System\.Diagnostics\.)?ProcessStartInfo$` },
                    },
                  },
                },
              ],
              has: { field: "right", pattern: "$CMD" },
            },
          ],
        },
        // The value read at run time: a name itself, or an expression that reads one.
        { CMD: { any: [{ kind: "identifier" }, CSHARP_READS_NAME] } },
      ),
      message: "A ProcessStartInfo's program or arguments are taken from a variable",
      keywords: ["processstartinfo"],
      file_requires: [String.raw`\bProcessStartInfo\b`],
    },
    {
      id: "php-command-user-input",
      type: "structural",
      // A shell function or a backtick command that request input ($_GET…) reaches within the
      // function, through assignments and concatenation; not through escapeshellarg or intval.
      value: structural(
        ["php"],
        {
          any: [
            phpCall("shell_exec|system|passthru|exec|popen|proc_open|pcntl_exec"),
            { kind: "shell_command_expression", pattern: "$ARGS" },
          ],
        },
        undefined,
        { sink: "ARGS", sources: PHP_REQUEST_SOURCES, sanitizers: PHP_COMMAND_SANITIZERS },
      ),
      message: "A shell command is built from request input ($_GET, $_POST…)",
      keywords: PHP_REQUEST_KEYWORDS,
    },
    {
      id: "ruby-command-from-request",
      type: "structural",
      // system/exec/spawn, IO.popen and Open3 given a command or an argument that request input
      // (params, cookies, request.*) reaches within the method; a command that starts with an
      // interpolated string is ruby-shell-interpolation's. Kernel's system/exec/spawn with more
      // than one argument run the program named first with the others as its arguments, no
      // shell (Ruby's Kernel#exec docs): there, only the first is the command.
      value: structural(
        ["ruby"],
        {
          any: [
            {
              ...rubyCall("system|exec|spawn"),
              not: { has: { field: "receiver", pattern: "$_" } },
              has: { field: "arguments", has: { nthChild: 1, pattern: "$SINK" } },
            },
            {
              ...rubyCall("system|exec|spawn", "Kernel|Process"),
              has: { field: "arguments", has: { nthChild: 1, pattern: "$SINK" } },
            },
            {
              ...rubyCall(
                "popen|popen2|popen2e|popen3|capture2|capture2e|capture3|pipeline|pipeline_r|pipeline_w",
                "IO|Open3",
              ),
              has: { field: "arguments", pattern: "$SINK" },
            },
          ],
        },
        undefined,
        {
          sink: "SINK",
          sources: RUBY_REQUEST_SOURCES,
          sanitizers: [...RUBY_COMMAND_SANITIZERS, RUBY_ARGV_ARGUMENTS],
          guards: RUBY_ALLOWLIST_GUARDS,
        },
      ),
      message: "An OS command is built from request input (it reaches the command within the method)",
      keywords: RUBY_REQUEST_KEYWORDS,
    },
    {
      id: "ruby-shell-interpolation",
      type: "regex",
      value: String.raw`\x60[^\x60\n]*#\{[^}\n]+\}|%x[({\[][^\n]*#\{|\b(?:system|exec|spawn|IO\.popen|Open3\.(?:popen[23e]?|capture2e?|capture3))\s*\(?\s*"[^"\n]*#\{`,
      message: "A shell command is built with string interpolation",
      paths: paths("ruby"),
      // A line whose every interpolation is shell-escaped (`#{x.shellescape}`,
      // `#{Shellwords.escape(x)}`): the fix this policy suggests. A trailing comment may follow.
      line_allowlist: [
        String.raw`^[^#]*(?:#\{[^}]*(?:\.shellescape|Shellwords\.(?:escape|shellescape)\([^()]*\))\}[^#]*)+(?:#[^{][^\n]*)?$`,
      ],
    },
  ],
  suggestions: [
    "Run the program directly with an argument list and no shell (execFile/spawn without shell, subprocess.run([...]), exec.Command(name, args...), ProcessBuilder(list)), and validate inputs against an allow list; if a shell is unavoidable, quote every argument (shlex.quote, escapeshellarg, Shellwords.escape).",
  ],
  claims: {
    cwe: { "CWE-78": EVERY_RULE },
    languages: ["csharp", "go", "java", "javascript", "kotlin", "php", "python", "ruby"],
  },
  documentation_url: docs("command-injection"),
  settings: builtinSettings(),
};
