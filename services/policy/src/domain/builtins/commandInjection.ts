import { builtinSettings, docs, INJECTION_FRAMEWORKS, paths, SECURITY_CATEGORY, type BuiltinPolicy } from "./types.js";

// A call's argument list, one level of nested parentheses deep; may span lines.
const ARGS = String.raw`(?:[^()]|\([^()]*\))*`;

export const commandInjection: BuiltinPolicy = {
  id: "command-injection",
  name: "OS command injection",
  description:
    "Detects shell commands built from variables: child_process.exec with concatenation or template literals and spawn with shell: true (Node.js), subprocess with shell=True and os.system (Python), sh -c (Go, Java), Runtime.exec with concatenation (Java), shell functions fed request input (PHP) and interpolated backticks/system (Ruby).",
  severity: "error",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [
    ...INJECTION_FRAMEWORKS,
    "owasp-asvs:V5.3.8",
    "owasp-top-10:A03",
    "cwe:CWE-78",
    "cwe-top-25:CWE-78",
  ],
  patterns: [
    {
      id: "js-child-process-exec",
      type: "regex",
      value: String.raw`\b(?:exec|execSync)\s*\(\s*(?:\x60[^\x60]*\$\{|["'][^"'\n]*["']\s*\+|[A-Za-z_$][\w$.]*\s*\+)`,
      message: "child_process.exec runs a command built from variables through a shell",
      keywords: ["child_process"],
      paths: paths("js"),
    },
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
      value: String.raw`\bsubprocess\.(?:run|call|check_call|check_output|Popen)\s*\(${ARGS}\bshell\s*=\s*True\b`,
      message: "subprocess with shell=True runs the command through a shell",
      paths: paths("python"),
    },
    {
      id: "python-os-system",
      type: "regex",
      // Not a constant string: a variable, an f-string, or a literal that is formatted or concatenated.
      value: String.raw`\bos\.(?:system|popen)\s*\(\s*(?:[A-Za-z_]|["'][^"'\n]*["']\s*(?:[%+]|\.format\s*\())`,
      message: "os.system/os.popen runs a command built from variables through a shell",
      paths: paths("python"),
    },
    {
      id: "go-exec-shell",
      type: "regex",
      value: String.raw`\bexec\.Command(?:Context)?\s*\((?:\s*[A-Za-z_][\w.]*\s*,)?\s*"(?:/usr)?(?:/bin/)?(?:ba|z|da)?sh"\s*,\s*"-c"\s*,\s*(?:[A-Za-z_]|"[^"\n]*"\s*\+)`,
      message: "exec.Command(\"sh\", \"-c\", ...) runs a command built from variables through a shell",
      paths: paths("go"),
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
      message: "ProcessBuilder(\"sh\", \"-c\", ...) runs a command built from variables through a shell",
      paths: paths("java"),
    },
    {
      id: "php-command-user-input",
      type: "regex",
      value: String.raw`(?i)(?:\b(?:shell_exec|system|passthru|exec|popen|proc_open|pcntl_exec)\s*\([^;\n]*|\x60[^\x60\n]*)\$_(?:GET|POST|REQUEST|COOKIE|SERVER|FILES)\b`,
      message: "A shell command is built from request input ($_GET, $_POST…)",
      paths: paths("php"),
    },
    {
      id: "ruby-shell-interpolation",
      type: "regex",
      value: String.raw`\x60[^\x60\n]*#\{[^}\n]+\}|%x[({\[][^\n]*#\{|\b(?:system|exec|spawn|IO\.popen|Open3\.(?:popen[23e]?|capture2e?|capture3))\s*\(?\s*"[^"\n]*#\{`,
      message: "A shell command is built with string interpolation",
      paths: paths("ruby"),
    },
  ],
  suggestions: [
    "Run the program directly with an argument list and no shell (execFile/spawn without shell, subprocess.run([...]), exec.Command(name, args...), ProcessBuilder(list)), and validate inputs against an allow list; if a shell is unavoidable, quote every argument (shlex.quote, escapeshellarg, Shellwords.escape).",
  ],
  documentation_url: docs("command-injection"),
  settings: builtinSettings(),
};
