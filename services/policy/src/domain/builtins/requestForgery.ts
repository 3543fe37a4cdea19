// Server-side request forgery (CWE-918) and open redirect (CWE-601): request input reaching the
// address a server fetches, or the address it sends the browser to (OWASP's SSRF Prevention and
// Unvalidated Redirects and Forwards cheat sheets: an address taken from a request reaches
// internal services, cloud metadata endpoints or a phishing site under the application's name).
import {
  type BuiltinPolicy,
  builtinSettings,
  docs,
  firstArgument,
  GO_REQUEST_INPUT,
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
import { PY_ALLOWLIST_GUARDS, PY_LOCAL_REDIRECT_GUARDS } from "./pythonGuards.js";
import { JAVA_REQUEST_KEYWORDS, JAVA_REQUEST_SOURCES, javaSanitizers } from "./javaFlow.js";

// One Go argument (up to a comma), with one level of nested parentheses.
const GO_ARG = String.raw`(?:[^,()]|\([^()]*\))*`;
// A Go argument that is not a string literal: a name, a call, a literal concatenated.
const GO_NOT_LITERAL = String.raw`(?:[A-Za-z_][\w.]*\s*[,)+]|[A-Za-z_][\w.]*\(|"[^"\n]*"\s*\+)`;

const PY_FETCH_CALLS = [
  "requests.get",
  "requests.post",
  "requests.put",
  "requests.patch",
  "requests.delete",
  "requests.head",
  "requests.options",
  "httpx.get",
  "httpx.post",
  "httpx.put",
  "httpx.delete",
  "httpx.patch",
  "httpx.head",
  "httpx.options",
  "urlopen",
  "urllib.request.urlopen",
  "urllib.request.Request",
  "urllib3.request",
];
const JS_FETCH_CALLS = [
  "fetch",
  "axios",
  "axios.get",
  "axios.post",
  "axios.put",
  "axios.patch",
  "axios.delete",
  "axios.head",
  "http.get",
  "http.request",
  "https.get",
  "https.request",
  "got",
  "got.get",
  "got.post",
  "needle.get",
  "superagent.get",
];

/**
 * Python strings built on a constant absolute prefix (`"https://host/" + x`, `"https://host/{}".format(x)`,
 * `f"https://host/{x}"`, `"https://host/%s" % x`): the input lands in the path or query of a
 * fixed origin, so the redirect cannot leave it (OWASP's Unvalidated Redirects cheat sheet). A
 * prefix without the host's closing `/` (`"https://host" + x` → `https://host.evil.test`) is no such prefix.
 */
const FIXED_ORIGIN = String.raw`https?://[^/"'{}%\s]+/`;
const PY_FIXED_ORIGIN = [
  {
    kind: "binary_operator",
    has: { field: "left", kind: "string", regex: String.raw`^[rRuU]?["']${FIXED_ORIGIN}` },
  },
  {
    kind: "call",
    has: {
      field: "function",
      kind: "attribute",
      all: [
        { has: { field: "object", kind: "string", regex: String.raw`^[rRuU]?["']${FIXED_ORIGIN}` } },
        { has: { field: "attribute", regex: "^format$" } },
      ],
    },
  },
  { kind: "string", regex: String.raw`^(?:[fF][rR]?|[rR][fF])["']${FIXED_ORIGIN}` },
];

export const serverSideRequestForgery: BuiltinPolicy = {
  id: "server-side-request-forgery",
  name: "Server-side request forgery",
  description:
    "Detects servers fetching addresses taken from request input: servlet request input reaching new URL, URI.create, HttpRequest.newBuilder / uri, RestTemplate getForObject / getForEntity / exchange or Jsoup.connect within the method (Java); Flask, Django and DRF request input reaching requests, httpx or urllib's urlopen within the function (Python); Express request input reaching fetch, axios, http(s).get / request or got within the function (JavaScript, TypeScript); http.Get, http.Post, http.NewRequest or http.Head given an address that is not a literal in a handler file that reads the request (Go). Not through a parse to a number.",
  severity: "error",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [...INJECTION_FRAMEWORKS, "owasp-asvs:V5.2.6", "owasp-top-10:A10", "cwe:CWE-918", "cwe-top-25:CWE-918"],
  patterns: [
    {
      id: "java-url-from-request",
      type: "structural",
      value: structural(
        ["java"],
        {
          any: [
            { pattern: "new $URL($$$ARGS)" },
            { pattern: "$T.create($$$ARGS)" },
            { pattern: "$T.newBuilder($$$ARGS)" },
            { pattern: "$B.uri($$$ARGS)" },
            { pattern: "$C.$FETCH($$$ARGS)" },
          ],
        },
        {
          URL: { regex: String.raw`^(?:java\.net\.)?(?:URL|URI)$` },
          T: { regex: String.raw`^(?:java\.net\.URI|URI|HttpRequest|java\.net\.http\.HttpRequest)$` },
          FETCH: { regex: "^(?:getForObject|getForEntity|postForObject|postForEntity|exchange|connect)$" },
        },
        { sink: "$$$ARGS", sources: JAVA_REQUEST_SOURCES, sanitizers: javaSanitizers() },
      ),
      message:
        "A server-side request goes to an address built from request input (it reaches the address within the method)",
      keywords: JAVA_REQUEST_KEYWORDS,
      file_requires: [
        String.raw`\bnew\s+(?:java\.net\.)?(?:URL|URI)\s*\(|\bURI\.create\s*\(|HttpRequest|RestTemplate|restTemplate|Jsoup`,
      ],
    },
    {
      id: "python-url-from-request",
      type: "structural",
      value: structural(
        ["python"],
        {
          any: [
            ...firstArgument(PY_FETCH_CALLS, "U"),
            // requests.request / httpx.request(method, url, …): the address is the second argument.
            ...["requests.request", "httpx.request"].flatMap((callee) => [
              { pattern: `${callee}($METHOD, $U)` },
              { pattern: `${callee}($METHOD, $U, $$$)` },
            ]),
          ],
        },
        undefined,
        {
          sink: "U",
          sources: PY_REQUEST_SOURCES,
          sanitizers: PY_SANITIZERS,
          guards: PY_ALLOWLIST_GUARDS,
        },
      ),
      message:
        "A server-side request goes to an address built from request input (it reaches the address within the function)",
      keywords: PY_REQUEST_KEYWORDS,
      file_requires: [String.raw`\b(?:requests|httpx|urllib3?)\b|\burlopen\s*\(`],
    },
    {
      id: "js-url-from-request",
      type: "structural",
      value: structural(["javascript", "typescript", "tsx"], { any: firstArgument(JS_FETCH_CALLS, "U") }, undefined, {
        sink: "U",
        sources: JS_REQUEST_SOURCES,
        sanitizers: JS_SANITIZERS.map((s) => ({
          ...s,
          // encodeURIComponent keeps a value inside one path segment, not out of an address.
          has: { ...s.has, regex: s.has.regex.replace("encodeURIComponent|", "") },
        })),
      }),
      message:
        "A server-side request goes to an address built from request input (it reaches the address within the function)",
      keywords: JS_REQUEST_KEYWORDS,
      file_requires: [String.raw`\b(?:fetch|axios|https?\.(?:get|request)|got|needle|superagent)\b`],
    },
    {
      id: "go-url-from-request",
      type: "regex",
      value: String.raw`\bhttp\.(?:Get\(|Head\(|Post\(|PostForm\(|NewRequest\(\s*${GO_ARG},|NewRequestWithContext\(\s*${GO_ARG},\s*${GO_ARG},)\s*${GO_NOT_LITERAL}`,
      message: "A server-side request goes to an address that is not a constant in a handler that reads request input",
      paths: paths("go"),
      file_requires: [GO_REQUEST_INPUT],
    },
  ],
  suggestions: [
    "Do not fetch addresses taken from requests: map the input to a known destination (an id in a table of allowed hosts), or parse the address, allow only https and an allow list of hosts, resolve it and refuse private, loopback and link-local addresses (cloud metadata) before connecting, without following redirects.",
  ],
  claims: {
    cwe: {
      "CWE-918": ["java-url-from-request", "python-url-from-request", "js-url-from-request", "go-url-from-request"],
    },
    languages: ["go", "java", "javascript", "python", "typescript"],
  },
  documentation_url: docs("server-side-request-forgery"),
  settings: builtinSettings(),
};

export const openRedirect: BuiltinPolicy = {
  id: "open-redirect",
  name: "Open redirect",
  description:
    "Detects redirects to addresses taken from request input: servlet request input reaching response.sendRedirect or a Location header within the method (Java); Flask and Django request input reaching redirect, HttpResponseRedirect or HttpResponsePermanentRedirect within the function (Python); Express request input reaching res.redirect or res.location within the function (JavaScript, TypeScript); http.Redirect given an address that is not a literal in a handler file that reads the request (Go). Not through a parse to a number.",
  severity: "warning",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [...INJECTION_FRAMEWORKS, "owasp-asvs:V5.1.5", "owasp-top-10:A01", "cwe:CWE-601"],
  patterns: [
    {
      id: "java-redirect-from-request",
      type: "structural",
      value: structural(
        ["java"],
        {
          any: [
            { pattern: "$R.sendRedirect($$$ARGS)" },
            { pattern: '$R.setHeader("Location", $$$ARGS)' },
            { pattern: '$R.addHeader("Location", $$$ARGS)' },
          ],
        },
        undefined,
        { sink: "$$$ARGS", sources: JAVA_REQUEST_SOURCES, sanitizers: javaSanitizers() },
      ),
      message:
        "The response redirects to an address built from request input (it reaches the redirect within the method)",
      keywords: JAVA_REQUEST_KEYWORDS,
      file_requires: [String.raw`sendRedirect\s*\(|"Location"`],
    },
    {
      id: "python-redirect-from-request",
      type: "structural",
      value: structural(
        ["python"],
        {
          any: firstArgument(
            ["redirect", "flask.redirect", "HttpResponseRedirect", "HttpResponsePermanentRedirect", "RedirectResponse"],
            "U",
          ),
        },
        undefined,
        {
          sink: "U",
          sources: PY_REQUEST_SOURCES,
          sanitizers: [...PY_SANITIZERS, ...PY_FIXED_ORIGIN],
          guards: [...PY_ALLOWLIST_GUARDS, ...PY_LOCAL_REDIRECT_GUARDS],
        },
      ),
      message:
        "The response redirects to an address built from request input (it reaches the redirect within the function)",
      keywords: PY_REQUEST_KEYWORDS,
      file_requires: [
        String.raw`\b(?:redirect|HttpResponseRedirect|HttpResponsePermanentRedirect|RedirectResponse)\s*\(`,
      ],
    },
    {
      id: "js-redirect-from-request",
      type: "structural",
      value: structural(
        ["javascript", "typescript", "tsx"],
        {
          any: [
            // res.redirect(status, url) first: the first rule that matches binds $U.
            { pattern: "res.redirect($STATUS, $U)" },
            ...firstArgument(["res.redirect", "res.location", "response.redirect", "ctx.redirect"], "U"),
          ],
        },
        undefined,
        { sink: "U", sources: JS_REQUEST_SOURCES, sanitizers: JS_SANITIZERS },
      ),
      message:
        "The response redirects to an address built from request input (it reaches the redirect within the function)",
      keywords: JS_REQUEST_KEYWORDS,
      file_requires: [String.raw`\.(?:redirect|location)\s*\(`],
    },
    {
      id: "go-redirect-from-request",
      type: "regex",
      value: String.raw`\bhttp\.Redirect\(\s*\w+\s*,\s*\w+\s*,\s*${GO_NOT_LITERAL}`,
      message: "The response redirects to an address that is not a constant in a handler that reads request input",
      paths: paths("go"),
      file_requires: [GO_REQUEST_INPUT],
    },
  ],
  suggestions: [
    "Redirect only to addresses you choose: map the input to a known page (an id), or accept only relative paths that start with a single / (not //, not a scheme) or hosts on an allow list (Django url_has_allowed_host_and_scheme), and otherwise redirect to a fixed page.",
  ],
  claims: {
    cwe: {
      "CWE-601": [
        "java-redirect-from-request",
        "python-redirect-from-request",
        "js-redirect-from-request",
        "go-redirect-from-request",
      ],
    },
    languages: ["go", "java", "javascript", "python", "typescript"],
  },
  documentation_url: docs("open-redirect"),
  settings: builtinSettings(),
};
