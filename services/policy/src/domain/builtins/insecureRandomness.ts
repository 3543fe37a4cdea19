import {
  type BuiltinPolicy,
  builtinSettings,
  CRYPTO_FRAMEWORKS,
  docs,
  EVERY_RULE,
  paths,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";

/** A value of a predictable generator in Java: java.util.Random, Math.random, ThreadLocalRandom, commons-lang's RandomStringUtils. */
const JAVA_PREDICTABLE_RANDOM = [
  { kind: "object_creation_expression", has: { field: "type", regex: String.raw`^(?:java\.util\.)?Random$` } },
  ...[
    [String.raw`(?:java\.lang\.)?Math`, "random"],
    [String.raw`(?:java\.util\.concurrent\.)?ThreadLocalRandom`, "current"],
    [String.raw`(?:[\w.]+\.)?RandomStringUtils`, String.raw`random\w*`],
  ].map(([object, name]) => ({
    kind: "method_invocation",
    all: [{ has: { field: "object", regex: `^${object}$` } }, { has: { field: "name", regex: `^${name}$` } }],
  })),
];

/** A value of Python's random module (a Mersenne Twister; random.SystemRandom is not matched). */
const PYTHON_PREDICTABLE_RANDOM = [
  {
    kind: "call",
    has: {
      field: "function",
      regex: String.raw`^random\.(?:random|randint|randrange|choice|choices|getrandbits|sample|shuffle|uniform|randbytes|normalvariate|gauss|triangular|betavariate|expovariate|gammavariate|lognormvariate|vonmisesvariate|paretovariate|weibullvariate|binomialvariate)$`,
    },
  },
];

// Something that must be unpredictable, earlier on the same line.
const SECRET_NAME = String.raw`(?i:token|secret|passw(?:or)?d|pwd|session|nonce|salt|otp|csrf|api_?key|reset_?code|verification_?code)`;

export const insecureRandomness: BuiltinPolicy = {
  id: "insecure-randomness",
  name: "Insecure randomness for secrets",
  description:
    "Detects tokens, passwords, session ids, nonces and salts generated with a predictable random number generator: Math.random (JavaScript), random (Python), java.util.Random (Java), math/rand (Go), rand/mt_rand/uniqid (PHP), rand/Random (Ruby), System.Random (C#), and Node's crypto.pseudoRandomBytes; in Java and Python also such a value reaching a cookie or a session attribute within the function.",
  severity: "warning",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [...CRYPTO_FRAMEWORKS, "owasp-asvs:V6.3.1", "cwe:CWE-330", "cwe:CWE-338", "csa-ccm:CEK-10"],
  patterns: [
    {
      id: "js-pseudo-random-bytes",
      type: "regex",
      value: String.raw`\bpseudoRandomBytes\b`,
      message: "crypto.pseudoRandomBytes is not cryptographically secure (deprecated); use crypto.randomBytes",
      paths: paths("js"),
    },
    {
      id: "js-insecure-random-secret",
      type: "regex",
      value: String.raw`${SECRET_NAME}[^\n]*\bMath\.random\s*\(`,
      message: "Math.random() is predictable; it must not generate tokens, passwords or ids",
      keywords: ["math.random"],
      paths: paths("web"),
    },
    {
      id: "python-insecure-random-secret",
      type: "regex",
      value: String.raw`${SECRET_NAME}[^\n]*\brandom\.(?:random|randint|randrange|choice|choices|getrandbits|sample|shuffle|uniform|randbytes)\s*\(`,
      message: "The random module is predictable; use the secrets module for tokens and passwords",
      paths: paths("python"),
    },
    {
      id: "java-insecure-random-secret",
      type: "regex",
      value: String.raw`(?:${SECRET_NAME}|(?i:key))[^\n]*(?:\bnew\s+Random\s*\(|\bMath\.random\s*\(|\bThreadLocalRandom\.current\s*\(|\bRandomStringUtils\.random\w*\s*\()`,
      message: "java.util.Random / Math.random is predictable; use SecureRandom for tokens and keys",
      paths: paths("java"),
    },
    {
      id: "java-predictable-random-in-session",
      type: "structural",
      // A cookie's or session attribute's value is a credential (a session id, a "remember me"
      // token): a predictable generator's value must not reach it within the method.
      value: structural(
        ["java"],
        { any: [{ pattern: "new $TYPE($$$ARGS)" }, { pattern: "$SESSION.setAttribute($$$ARGS)" }] },
        { TYPE: { regex: String.raw`^(?:javax\.servlet\.http\.|jakarta\.servlet\.http\.)?Cookie$` } },
        { sink: "$$$ARGS", sources: JAVA_PREDICTABLE_RANDOM },
      ),
      message:
        "A cookie or session value comes from java.util.Random / Math.random, which are predictable; use SecureRandom",
      keywords: ["random"],
      file_requires: [String.raw`\bCookie\b|\.setAttribute\s*\(`],
    },
    {
      id: "python-predictable-random-in-session",
      type: "structural",
      // As java-predictable-random-in-session: a value stored in the session (Flask's `session`,
      // Django's `request.session`, any store named so) or set as a cookie is a credential.
      value: structural(
        ["python"],
        { any: [{ pattern: "$STORE[$KEY] = $$$VALUE" }, { pattern: "$RESPONSE.set_cookie($$$VALUE)" }] },
        { STORE: { regex: String.raw`(?i)session$` } },
        { sink: "$$$VALUE", sources: PYTHON_PREDICTABLE_RANDOM },
      ),
      message: "A cookie or session value comes from the random module, which is predictable; use the secrets module",
      keywords: ["random"],
      file_requires: [String.raw`(?i)session\s*\[|\.set_cookie\s*\(`],
    },
    {
      id: "go-insecure-random-secret",
      type: "regex",
      value: String.raw`(?:${SECRET_NAME}|(?i:key))[^\n]*\brand\.(?:Int|Intn|Int31|Int31n|Int63|Int63n|IntN|N|Uint32|Uint64|Read|Perm|Shuffle|Float64)\b`,
      message: "math/rand is predictable; use crypto/rand for tokens and keys",
      keywords: ["math/rand"],
      paths: paths("go"),
    },
    {
      id: "php-insecure-random-secret",
      type: "regex",
      value: String.raw`${SECRET_NAME}[^\n]*\b(?:rand|mt_rand|uniqid|lcg_value|str_shuffle|array_rand)\s*\(`,
      message: "rand/mt_rand/uniqid are predictable; use random_bytes or random_int for tokens",
      paths: paths("php"),
    },
    {
      id: "ruby-insecure-random-secret",
      type: "regex",
      value: String.raw`${SECRET_NAME}[^\n]*(?:\bKernel\.rand\b|\brand\s*\(|\bRandom\.(?:rand|new)\b|\.(?:sample|shuffle)\b)`,
      message: "rand/Random are predictable; use SecureRandom for tokens and passwords",
      paths: paths("ruby"),
    },
    {
      id: "csharp-insecure-random-secret",
      type: "regex",
      // A token, password or key made (on its line) from System.Random, in a file that creates one.
      value: String.raw`${SECRET_NAME}[^\n]*(?:\bnew\s+(?:System\.)?Random\s*\(|\b\w*(?i:rand|rng|random)\w*\.Next(?:Bytes|Double|Int64)?\s*\(|\bRandom\.Shared\.)`,
      message: "System.Random is predictable; use RandomNumberGenerator for tokens, passwords and keys",
      paths: [String.raw`(?i)\.cs$`],
      file_requires: [String.raw`\bnew\s+(?:System\.)?Random\s*\(|\bRandom\.Shared\b`],
    },
  ],
  suggestions: [
    "Generate secrets with the platform's CSPRNG: crypto.randomBytes / crypto.randomUUID (Node.js), secrets.token_urlsafe (Python), SecureRandom (Java, Ruby), crypto/rand (Go), random_bytes / random_int (PHP), RandomNumberGenerator (C#).",
  ],
  claims: {
    cwe: { "CWE-330": EVERY_RULE, "CWE-338": EVERY_RULE },
    languages: ["csharp", "go", "java", "javascript", "php", "python", "ruby"],
  },
  documentation_url: docs("insecure-randomness"),
  settings: builtinSettings(),
};
