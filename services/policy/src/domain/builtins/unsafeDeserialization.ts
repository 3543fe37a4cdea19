import {
  type BuiltinPolicy,
  builtinSettings,
  docs,
  EVERY_RULE,
  INJECTION_FRAMEWORKS,
  paths,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";
import { CSHARP_DESERIALIZATION } from "./csharpRules.js";
import { PHP_REQUEST_KEYWORDS, PHP_REQUEST_SOURCES, phpCall } from "./phpFlow.js";
import { PY_READS_REQUEST, pythonDeserializeFromRequest } from "./pythonFlow.js";
import { RUBY_DESERIALIZE_FROM_REQUEST } from "./rubyDeserialization.js";

export const unsafeDeserialization: BuiltinPolicy = {
  id: "unsafe-deserialization",
  name: "Unsafe deserialization",
  description:
    "Detects deserializers that can instantiate arbitrary types or run code when fed untrusted data: pickle, marshal, shelve, jsonpickle, torch.load without weights_only=True and yaml.load without a safe loader (Python), ObjectInputStream, XMLDecoder, Jackson default typing and SnakeYAML's default constructor (Java), unserialize of request input (PHP), Marshal.load and YAML.load, and request input reaching JSON.load, Oj and Ox in object mode, Hash.from_trusted_xml, Plist.parse_xml with Marshal or Psych's to_ruby (Ruby), BinaryFormatter and the other formatters Microsoft calls insecure and Json.NET TypeNameHandling other than None (C#) and node-serialize (Node.js).",
  severity: "error",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [
    ...INJECTION_FRAMEWORKS,
    "owasp-asvs:V5.5.1",
    "owasp-asvs:V5.5.3",
    "owasp-top-10:A08",
    "cwe:CWE-502",
    "cwe-top-25:CWE-502",
  ],
  patterns: [
    {
      id: "python-pickle-load",
      type: "regex",
      value: String.raw`\b(?:pickle|cPickle|_pickle|dill|cloudpickle|marshal)\.(?:loads?|Unpickler)\s*\(|\bjsonpickle\.(?:unpickler\.)?(?:decode\s*\(|Unpickler\s*\(\s*\)\s*\.restore\s*\()|\b(?:pd|pandas)\.read_pickle\s*\(|\bshelve\.open\s*\(`,
      message: "pickle deserialization runs arbitrary code from the data",
      paths: paths("python"),
      // Files reading request input: python-deserialize-from-request.
      file_excludes: [PY_READS_REQUEST],
      // A file the program names itself (a literal path) is its own data, not input.
      line_allowlist: [
        String.raw`\bpickle\.load\s*\(\s*open\s*\(\s*[rRbBuU]?["'][^"'\n]*["']\s*(?:,\s*(?:mode\s*=\s*)?["']rb["']\s*)?\)\s*\)`,
      ],
    },
    {
      id: "python-yaml-load",
      type: "regex",
      // yaml.load(x) without a Loader, an explicitly unsafe loader, or unsafe_load.
      value: String.raw`\byaml\.load(?:_all)?\s*\(\s*(?:[^,()\n]|\([^()\n]*\))+\)|\byaml\.unsafe_load(?:_all)?\s*\(|\byaml\.load(?:_all)?\s*\((?:[^()\n]|\([^()\n]*\))*\bLoader\s*=\s*(?:yaml\.)?(?:Unsafe|Full)?Loader\b|\byaml\.load(?:_all)?\s*\([^()\n]*,\s*(?:yaml\.)?(?:Unsafe|Full)?Loader\s*\)`,
      message: "yaml.load without SafeLoader can construct arbitrary Python objects",
      paths: paths("python"),
      file_excludes: [PY_READS_REQUEST],
    },
    pythonDeserializeFromRequest,
    {
      id: "python-torch-load",
      type: "regex",
      // torch.load unpickles the file unless weights_only=True (the default only since PyTorch 2.6).
      value: String.raw`\btorch\.load\s*\((?:[^()]|\([^()]*\))*\)`,
      message: "torch.load without weights_only=True unpickles the file: a crafted model runs code",
      paths: paths("python"),
      match_allowlist: [String.raw`\bweights_only\s*=\s*True\b`],
    },
    {
      id: "java-object-input-stream",
      type: "regex",
      value: String.raw`\bnew\s+ObjectInputStream\s*\(`,
      message: "Java native deserialization (ObjectInputStream) of data that may be untrusted",
      paths: paths("java"),
    },
    {
      id: "java-xml-decoder",
      type: "regex",
      value: String.raw`\bnew\s+XMLDecoder\s*\(`,
      message: "XMLDecoder executes the method calls described in its input",
      paths: paths("java"),
    },
    {
      id: "java-jackson-default-typing",
      type: "regex",
      value: String.raw`\.(?:enableDefaultTyping|activateDefaultTyping)\s*\(|@JsonTypeInfo\s*\(\s*use\s*=\s*JsonTypeInfo\.Id\.(?:CLASS|MINIMAL_CLASS)\b`,
      message: "Jackson polymorphic typing by class name lets the input choose which classes to instantiate",
      paths: paths("java"),
    },
    {
      id: "java-snakeyaml-constructor",
      type: "regex",
      value: String.raw`\bnew\s+Yaml\s*\(\s*\)`,
      message: "SnakeYAML's default constructor (before 2.0) can instantiate arbitrary classes",
      keywords: ["snakeyaml"],
      paths: paths("java"),
    },
    {
      id: "php-unserialize-user-input",
      type: "structural",
      // unserialize() of a value that request input reaches within the function.
      value: structural(["php"], phpCall("unserialize"), undefined, {
        sink: "ARGS",
        sources: PHP_REQUEST_SOURCES,
      }),
      message: "unserialize() of request input enables PHP object injection",
      keywords: PHP_REQUEST_KEYWORDS,
    },
    {
      id: "ruby-marshal-load",
      type: "regex",
      value: String.raw`\bMarshal\.(?:load|restore)\b`,
      message: "Marshal.load can instantiate arbitrary objects from its input",
      paths: paths("ruby"),
    },
    {
      id: "ruby-yaml-load",
      type: "regex",
      value: String.raw`\b(?:YAML|Psych)\.(?:load|unsafe_load|load_file|unsafe_load_file|load_stream)\b`,
      message: "YAML.load (Psych < 4) / unsafe_load can instantiate arbitrary objects; use YAML.safe_load",
      paths: paths("ruby"),
      // The safe_yaml gem's YAML.load(data, safe: true) loads plain data only.
      line_allowlist: [String.raw`\b(?:YAML|Psych)\.load\s*\([^\n]*\bsafe:\s*true\b`],
    },
    RUBY_DESERIALIZE_FROM_REQUEST,
    {
      id: "js-node-serialize",
      type: "regex",
      value: String.raw`\bunserialize\s*\(`,
      message: "node-serialize's unserialize executes functions embedded in its input",
      keywords: ["node-serialize", "serialize-javascript", "funcster"],
      paths: paths("js"),
    },
    ...CSHARP_DESERIALIZATION,
  ],
  suggestions: [
    "Deserialize untrusted input only into plain data (JSON, yaml.safe_load, YAML.safe_load, json_decode), or bind it to explicit types with an allow list (ObjectInputFilter, Jackson without default typing, System.Text.Json or Json.NET with TypeNameHandling.None instead of BinaryFormatter); sign data that must round-trip through clients.",
  ],
  claims: { cwe: { "CWE-502": EVERY_RULE }, languages: ["csharp", "java", "javascript", "php", "python", "ruby"] },
  documentation_url: docs("unsafe-deserialization"),
  settings: builtinSettings(),
};
