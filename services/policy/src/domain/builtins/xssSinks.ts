import {
  type BuiltinPolicy,
  builtinSettings,
  docs,
  EVERY_RULE,
  firstArgument,
  INJECTION_FRAMEWORKS,
  JS_REQUEST_KEYWORDS,
  JS_REQUEST_SOURCES,
  JS_SANITIZERS,
  paths,
  PY_DYNAMIC_ARG,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";
import { JAVA_HTML_SANITIZERS, JAVA_REQUEST_KEYWORDS, JAVA_REQUEST_SOURCES } from "./javaFlow.js";
import { CSHARP_XSS } from "./csharpRules.js";
import { TEMPLATE_XSS } from "./templateRules.js";
import { PHP_HTML_SANITIZERS, PHP_REQUEST_KEYWORDS, PHP_REQUEST_SOURCES } from "./phpFlow.js";
import { pythonResponseFromRequest } from "./pythonFlow.js";
import { GO_RESPONSE_FROM_REQUEST } from "./goXss.js";
import { JS_MARKDOWN_SAFE_RECEIVERS, JS_MARKDOWN_SANITIZERS } from "./jsMarkdown.js";

// A value that is not a constant string: an identifier or call, a template with ${}, or a literal being concatenated.
const DYNAMIC_VALUE = String.raw`(?:[A-Za-z_$(]|\x60[^\x60]*\$\{|["'][^"'\n]*["']\s*\+)`;
// Sanitizers that make an HTML sink acceptable.
const SANITIZED = String.raw`(?i)\b(?:DOMPurify\.sanitize|sanitize(?:Html)?|purify|escapeHtml|xss)\s*\(`;

const SHORT_ECHO = { kind: "php_tag", regex: "^<\\?=" };

export const xssSinks: BuiltinPolicy = {
  id: "xss-sinks",
  name: "Cross-site scripting sinks",
  description:
    "Detects dynamic values written into HTML without escaping: innerHTML/outerHTML/insertAdjacentHTML and document.write, React's dangerouslySetInnerHTML, Vue's v-html, Angular's bypassSecurityTrust*, echo of request input in PHP, Express responses (res.send/write/end), Go handlers' responses (w.Write, io.WriteString, and fmt.Fprint* unless their text starts the body with something other than markup) and Java servlet responses (response.getWriter().print/println/write/format/printf) written from request input that no escaping function cleaned (markdown rendered by markdown-it without html: true, or through a sanitizing plugin, is clean), mark_safe/Markup/SafeText of dynamic values (not of names the file only assigns string constants) and |safe in Python templates, html_safe/raw in Rails, Html.Raw of anything but a literal in Razor views (C#), URL attributes (href, src, action) whose value starts with a template variable and unquoted attribute values from template variables (Jinja, Django, Twig, Handlebars), and template escaping switched off (escapeMarkup, noEscape, Mustache.escape).",
  severity: "warning",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [
    ...INJECTION_FRAMEWORKS,
    "owasp-asvs:V5.3.3",
    "owasp-asvs:V5.2.1",
    "owasp-top-10:A03",
    "cwe:CWE-79",
    "cwe-top-25:CWE-79",
  ],
  patterns: [
    {
      id: "js-inner-html",
      type: "regex",
      value: String.raw`\.(?:inner|outer)HTML\s*\+?=\s*${DYNAMIC_VALUE}[^\n]*`,
      message: "A dynamic value assigned to innerHTML/outerHTML is parsed as HTML",
      paths: paths("web"),
      allowlist: [SANITIZED],
    },
    {
      id: "js-insert-adjacent-html",
      type: "regex",
      value: String.raw`\.insertAdjacentHTML\s*\(\s*["'][\w-]+["']\s*,\s*${DYNAMIC_VALUE}[^\n]*`,
      message: "A dynamic value passed to insertAdjacentHTML is parsed as HTML",
      paths: paths("web"),
      allowlist: [SANITIZED],
    },
    {
      id: "template-escaping-disabled",
      type: "regex",
      // Mustache/Handlebars/Select2 escaping switched off for everything a template renders.
      value: String.raw`\.escapeMarkup\s*=\s*false\b|\bnoEscape\s*:\s*true\b|\bMustache\.escape\s*=\s*(?:function\s*\(\s*(\w+)\s*\)\s*\{\s*return\s+\w+\s*;?\s*\}|\(?\s*\w+\s*\)?\s*=>\s*\w+\b)`,
      message: "HTML escaping of template output is switched off for every value",
      paths: paths("web"),
    },
    {
      id: "python-jinja2-autoescape-off",
      type: "regex",
      // jinja2.Environment(autoescape=False): every template renders values unescaped. (Jinja's
      // default is off too, but an Environment without the argument is often a text renderer.)
      value: String.raw`\bEnvironment\s*\((?:[^()]|\([^()]*\))*\bautoescape\s*=\s*False\b`,
      message: "Jinja2 Environment with autoescape=False renders every value unescaped",
      paths: paths("python"),
    },
    {
      id: "go-template-unescaped",
      type: "regex",
      // template.HTML/JS/URL(…) of a variable or concatenation marks it trusted: html/template
      // then writes it unescaped.
      value: String.raw`\btemplate\.(?:HTML|HTMLAttr|JS|JSStr|URL|CSS|Srcset)\s*\(\s*(?:[A-Za-z_][\w.]*\s*(?:[),+\[]|\()|"[^"\n]*"\s*\+)`,
      message: "html/template's escaping bypassed: template.HTML/JS/URL of a value built at run time",
      paths: paths("go"),
      // Constants (const banner = "<b>…</b>") are as safe as literals.
      checks: ["go-splices-variable"],
    },
    {
      id: "go-html-response-format",
      type: "regex",
      // HTML markup formatted with values straight into an http.ResponseWriter.
      value: String.raw`\bfmt\.Fprintf\s*\(\s*(?:w|rw|res|resp|writer|response)\s*,\s*"[^"\n]*<[A-Za-z][^"\n]*%[sv]`,
      message: "HTML written to the response with fmt.Fprintf and unescaped values (use html/template)",
      paths: paths("go"),
      // Values escaped with html.EscapeString, and constants, are fine.
      checks: ["go-splices-variable"],
    },
    GO_RESPONSE_FROM_REQUEST,
    {
      id: "js-document-write",
      type: "regex",
      value: String.raw`\bdocument\.write(?:ln)?\s*\(`,
      message: "document.write writes unescaped HTML into the page",
      paths: paths("web"),
      // A single string constant writes nothing a visitor controls.
      line_allowlist: [String.raw`\bdocument\.write(?:ln)?\s*\(\s*(?:"[^"\n]*"|'[^'\n]*'|\x60[^\x60$\n]*\x60)\s*\)`],
    },
    {
      id: "react-dangerously-set-inner-html",
      type: "regex",
      value: String.raw`\bdangerouslySetInnerHTML\s*=\s*\{\s*\{\s*__html\s*:[^\n]*`,
      message: "dangerouslySetInnerHTML renders unescaped HTML",
      paths: paths("web"),
      allowlist: [SANITIZED],
      // A string constant as the HTML.
      match_allowlist: [String.raw`__html\s*:\s*(?:"[^"\n]*"|'[^'\n]*'|\x60[^\x60$\n]*\x60)\s*\}\s*\}`],
    },
    {
      id: "vue-v-html",
      type: "regex",
      value: String.raw`\bv-html\s*=\s*["']`,
      message: "v-html renders unescaped HTML",
      paths: [String.raw`(?i)\.(?:vue|html?)$`],
    },
    {
      id: "angular-bypass-security-trust",
      type: "regex",
      value: String.raw`\.bypassSecurityTrust(?:Html|Script|Style|Url|ResourceUrl)\s*\(`,
      message: "bypassSecurityTrust* switches off Angular's sanitization for this value",
      paths: paths("js"),
    },
    {
      id: "js-response-from-request",
      type: "structural",
      // Express's res.send of a string answers text/html: request input in it, unescaped, is
      // reflected XSS.
      value: structural(
        ["javascript", "typescript", "tsx"],
        { any: firstArgument(["res.send", "res.write", "res.end", "response.send", "response.write"], "BODY") },
        undefined,
        {
          sink: "BODY",
          sources: JS_REQUEST_SOURCES,
          sanitizers: [...JS_SANITIZERS, ...JS_MARKDOWN_SANITIZERS],
          safeReceivers: JS_MARKDOWN_SAFE_RECEIVERS,
        },
      ),
      message: "Response body written from request input without escaping (reflected XSS)",
      keywords: JS_REQUEST_KEYWORDS,
      file_requires: [String.raw`\b(?:res|response)\.(?:send|write|end)\s*\(`],
    },
    pythonResponseFromRequest,
    {
      id: "java-response-from-request",
      type: "structural",
      // response.getWriter().print/println/write/format/printf/append(…) given servlet request
      // input within the method, not HTML-escaped on the way.
      value: structural(
        ["java"],
        { pattern: "$RESPONSE.getWriter().$WRITE($$$ARGS)" },
        { WRITE: { regex: "^(?:print|println|write|format|printf|append)$" } },
        { sink: "$$$ARGS", sources: JAVA_REQUEST_SOURCES, sanitizers: JAVA_HTML_SANITIZERS },
      ),
      message: "Request input is written into the HTTP response without HTML escaping (reflected XSS)",
      keywords: JAVA_REQUEST_KEYWORDS,
      file_requires: [String.raw`getWriter\s*\(`],
    },
    {
      id: "php-echo-user-input",
      type: "structural",
      // echo, print or <?= of a value that request input reaches within the function, through
      // assignments, concatenation and interpolation; not through htmlspecialchars and the like.
      value: structural(
        ["php"],
        {
          any: [
            { kind: "echo_statement", pattern: "$ARGS" },
            { kind: "print_intrinsic", pattern: "$ARGS" },
            // <?= at the file's start, or after HTML (the tag ends the text before it).
            {
              kind: "expression_statement",
              follows: { any: [SHORT_ECHO, { kind: "text_interpolation", has: SHORT_ECHO }] },
              pattern: "$ARGS",
            },
          ],
        },
        undefined,
        { sink: "ARGS", sources: PHP_REQUEST_SOURCES, sanitizers: PHP_HTML_SANITIZERS },
      ),
      message: "Request input echoed into the page without escaping",
      keywords: PHP_REQUEST_KEYWORDS,
    },
    {
      id: "python-mark-safe",
      type: "regex",
      value: String.raw`\b(?:mark_safe|Markup|Safe(?:String|Text|Unicode|Bytes))\s*\(\s*${PY_DYNAMIC_ARG}`,
      message: "mark_safe/Markup of a dynamic value disables template escaping",
      paths: paths("python"),
      // A name the file only ever assigns string constants to is no dynamic value.
      checks: ["python-dynamic-argument"],
    },
    {
      id: "template-unescaped-output",
      type: "regex",
      // Jinja/Django `|safe`, Twig `|raw`, autoescape switched off.
      value: String.raw`\{\{[^}\n]*\|\s*(?:safe|raw)\s*\}\}|\{%\s*autoescape\s+(?:false|off)\s*%\}`,
      message: "Template output with escaping switched off",
      paths: [String.raw`(?i)\.(?:html?|jinja2?|j2|djhtml|njk|twig)$`],
    },
    {
      id: "ruby-html-safe",
      type: "regex",
      value: String.raw`\.html_safe\b|\braw\s*\(?\s*[@a-z_]|<%==`,
      message: "html_safe/raw marks a string as safe HTML, bypassing Rails escaping",
      paths: paths("ruby"),
    },
    ...CSHARP_XSS,
    ...TEMPLATE_XSS,
  ],
  suggestions: [
    "Insert text with textContent / innerText or the framework's escaped interpolation ({{ }}, {x}); when HTML is really needed, sanitize it with a vetted sanitizer (DOMPurify, bleach, Rails sanitize) right at the sink.",
  ],
  claims: {
    cwe: { "CWE-79": EVERY_RULE },
    languages: ["csharp", "go", "java", "javascript", "php", "python", "ruby", "typescript"],
  },
  documentation_url: docs("xss-sinks"),
  settings: builtinSettings(),
};
