// CSRF protection switched off (CWE-352): a framework's anti-forgery check disabled for the whole
// application or exempted for a view, so another site can make a logged-in browser send
// state-changing requests (OWASP's Cross-Site Request Forgery Prevention Cheat Sheet: keep the
// framework's built-in token check on).
import {
  type BuiltinPolicy,
  builtinSettings,
  CONFIGURATION_FRAMEWORKS,
  docs,
  paths,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";

export const csrfProtectionDisabled: BuiltinPolicy = {
  id: "csrf-protection-disabled",
  name: "CSRF protection disabled",
  description:
    "Detects a framework's CSRF protection switched off: Spring Security's csrf().disable(), csrf(AbstractHttpConfigurer::disable) and csrf(c -> c.disable()) (Java); Django's @csrf_exempt and Flask-WTF's WTF_CSRF_ENABLED / WTF_CSRF_CHECK_DEFAULT = False (Python).",
  severity: "warning",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [
    ...CONFIGURATION_FRAMEWORKS,
    "nist-ssdf:PW.5.1",
    "owasp-asvs:V4.2.2",
    "owasp-top-10:A01",
    "cwe:CWE-352",
    "cwe-top-25:CWE-352",
  ],
  patterns: [
    {
      id: "java-spring-csrf-disabled",
      type: "structural",
      value: structural(["java"], {
        any: [
          { pattern: "$HTTP.csrf().disable()" },
          { pattern: "$HTTP.csrf(AbstractHttpConfigurer::disable)" },
          {
            pattern: "$HTTP.csrf($LAMBDA)",
            has: {
              field: "arguments",
              has: { kind: "lambda_expression", has: { pattern: "$C.disable()", stopBy: "end" } },
            },
          },
        ],
      }),
      message: "Spring Security's CSRF protection is switched off",
      keywords: ["csrf"],
    },
    {
      id: "python-csrf-exempt",
      type: "regex",
      value: String.raw`^[ \t]*@(?:[\w.]+\.)?csrf_exempt\b`,
      message: "The view is exempt from Django's CSRF protection",
      paths: paths("python"),
    },
    {
      id: "python-flask-wtf-csrf-disabled",
      type: "regex",
      value: String.raw`\bWTF_CSRF_(?:ENABLED|CHECK_DEFAULT)["']?\]?\s*[=:]\s*False\b`,
      message: "Flask-WTF's CSRF protection is switched off",
      paths: paths("python"),
    },
  ],
  suggestions: [
    "Keep the framework's CSRF protection on for every state-changing endpoint that a browser reaches with cookies; an API authenticated only by a header token (not a cookie) may switch it off, with SameSite cookies and the reason in a comment and a verdict-ignore marker.",
  ],
  claims: {
    cwe: { "CWE-352": ["java-spring-csrf-disabled", "python-csrf-exempt", "python-flask-wtf-csrf-disabled"] },
    languages: ["java", "python"],
  },
  documentation_url: docs("csrf-protection-disabled"),
  settings: builtinSettings(),
};
