// Cookies sent without their protective flags: without Secure (CWE-614) a browser also sends the
// cookie over plain HTTP, where it can be read on the network; without HttpOnly (CWE-1004) page
// scripts (and so an XSS) can read it. OWASP's Session Management Cheat Sheet asks for both on
// session cookies. The rules report flags switched off explicitly, in code or in the framework's
// settings; a default left as it is is not reported.
import {
  type BuiltinPolicy,
  builtinSettings,
  docs,
  paths,
  SECURITY_CATEGORY,
  structural,
  TRANSPORT_FRAMEWORKS,
} from "./types.js";

/** A JavaScript `key: false` property inside the options of res.cookie, express-session or cookie-session. */
const jsFlagOff = (key: string) => ({
  kind: "pair",
  all: [{ has: { field: "key", regex: `^["']?${key}["']?$` } }, { has: { field: "value", kind: "false" } }],
  inside: {
    kind: "call_expression",
    has: { field: "function", regex: String.raw`(?:^|\.)(?:cookie|session|cookieSession)$` },
    stopBy: "end",
  },
});

/** A Python `key=False` argument of a response's set_cookie. */
const pySetCookieFlagOff = (key: string) => ({
  kind: "keyword_argument",
  all: [{ has: { field: "name", regex: `^${key}$` } }, { has: { field: "value", regex: "^False$" } }],
  inside: { kind: "call", has: { field: "function", regex: String.raw`\.set_cookie$` }, stopBy: "end" },
});

export const insecureCookie: BuiltinPolicy = {
  id: "insecure-cookie",
  name: "Cookie without Secure or HttpOnly",
  description:
    "Detects cookies whose Secure or HttpOnly flag is switched off: Cookie.setSecure(false) and setHttpOnly(false) (Java); secure: false and httpOnly: false in the options of res.cookie, express-session or cookie-session (JavaScript, TypeScript); set_cookie(..., secure=False / httponly=False) and Django or Flask settings SESSION_COOKIE_SECURE, CSRF_COOKIE_SECURE, REMEMBER_COOKIE_SECURE or SESSION_COOKIE_HTTPONLY set to False (Python). Flags left at a framework default are not reported.",
  severity: "warning",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [
    ...TRANSPORT_FRAMEWORKS,
    "owasp-asvs:V3.4.1",
    "owasp-asvs:V3.4.2",
    "owasp-top-10:A05",
    "cwe:CWE-614",
    "cwe:CWE-1004",
  ],
  patterns: [
    {
      id: "java-cookie-not-secure",
      type: "structural",
      value: structural(["java"], { pattern: "$COOKIE.setSecure(false)" }),
      message: "The cookie is sent without the Secure flag, also over plain HTTP",
      keywords: ["setsecure"],
    },
    {
      id: "java-cookie-not-httponly",
      type: "structural",
      value: structural(["java"], { pattern: "$COOKIE.setHttpOnly(false)" }),
      message: "The cookie is readable by page scripts (HttpOnly switched off)",
      keywords: ["sethttponly"],
    },
    {
      id: "js-cookie-not-secure",
      type: "structural",
      value: structural(["javascript", "typescript", "tsx"], jsFlagOff("secure")),
      message: "The cookie is sent without the Secure flag, also over plain HTTP (secure: false)",
      keywords: ["secure"],
      file_requires: [String.raw`\bsecure["']?\s*:\s*false\b`],
    },
    {
      id: "js-cookie-not-httponly",
      type: "structural",
      value: structural(["javascript", "typescript", "tsx"], jsFlagOff("httpOnly")),
      message: "The cookie is readable by page scripts (httpOnly: false)",
      keywords: ["httponly"],
      file_requires: [String.raw`\bhttpOnly["']?\s*:\s*false\b`],
    },
    {
      id: "python-cookie-not-secure",
      type: "structural",
      value: structural(["python"], pySetCookieFlagOff("secure")),
      message: "The cookie is sent without the Secure flag, also over plain HTTP (secure=False)",
      keywords: ["set_cookie"],
    },
    {
      id: "python-cookie-not-httponly",
      type: "structural",
      value: structural(["python"], pySetCookieFlagOff("httponly")),
      message: "The cookie is readable by page scripts (httponly=False)",
      keywords: ["set_cookie"],
    },
    {
      id: "python-session-cookie-not-secure",
      type: "regex",
      // Django settings (SESSION_COOKIE_SECURE = False) and Flask config (app.config["…"] = False, update(…=False)).
      value: String.raw`\b(?:SESSION_COOKIE_SECURE|CSRF_COOKIE_SECURE|REMEMBER_COOKIE_SECURE)["']?\]?\s*[=:]\s*False\b`,
      message: "Session or CSRF cookies are sent without the Secure flag, also over plain HTTP",
      paths: paths("python"),
    },
    {
      id: "python-session-cookie-not-httponly",
      type: "regex",
      value: String.raw`\b(?:SESSION_COOKIE_HTTPONLY|REMEMBER_COOKIE_HTTPONLY)["']?\]?\s*[=:]\s*False\b`,
      message: "Session cookies are readable by page scripts (HttpOnly switched off)",
      paths: paths("python"),
    },
  ],
  suggestions: [
    "Mark session and authentication cookies Secure and HttpOnly (setSecure(true), { secure: true, httpOnly: true }, set_cookie(..., secure=True, httponly=True), SESSION_COOKIE_SECURE = True), and add SameSite; for local development over HTTP, switch Secure off through configuration of that environment only.",
  ],
  claims: {
    cwe: {
      "CWE-614": [
        "java-cookie-not-secure",
        "js-cookie-not-secure",
        "python-cookie-not-secure",
        "python-session-cookie-not-secure",
      ],
      "CWE-1004": [
        "java-cookie-not-httponly",
        "js-cookie-not-httponly",
        "python-cookie-not-httponly",
        "python-session-cookie-not-httponly",
      ],
    },
    languages: ["java", "javascript", "python", "typescript"],
  },
  documentation_url: docs("insecure-cookie"),
  settings: builtinSettings(),
};
