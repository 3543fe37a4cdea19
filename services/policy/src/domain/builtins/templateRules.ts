// Template rules of xss-sinks, spread into its patterns. From OWASP's XSS Prevention Cheat Sheet:
// HTML escaping does not make a value safe in a URL attribute (a `javascript:` URL survives it),
// and an unquoted attribute value can be broken out of with a space; both need the value
// validated as an http(s) URL or quoted.
import type { BuiltinPattern } from "./types.js";

// Jinja, Django, Nunjucks, Twig, Handlebars and Mustache templates (Angular component templates
// sanitize URL bindings themselves and are left out).
const TEMPLATES = [
  String.raw`(?i)\.(?:jinja2?|j2|djhtml|njk|twig|hbs|handlebars|mustache)$`,
  String.raw`(?i)(?:^|/)templates/[^/]*\.html?$`,
];

export const TEMPLATE_XSS: BuiltinPattern[] = [
  {
    id: "template-url-attribute-variable",
    type: "regex",
    // A quoted href/src/action (and the like) whose value starts with a template variable:
    // the variable chooses the URL's scheme. url_for(), static() and {% url %} build the app's own URLs.
    value: String.raw`(?i)\b(?:href|src|action|formaction|data|poster|xlink:href)[ \t]*=[ \t]*["'][ \t]*\{\{[ \t]*[A-Za-z_][^}\n]*\}\}`,
    message: "A template variable chooses a URL attribute's whole value: escaping does not stop javascript: URLs",
    paths: TEMPLATES,
    match_allowlist: [String.raw`\{\{[ \t]*(?:url_for|url|static|asset|path|STATIC_URL|MEDIA_URL)\b`],
  },
  {
    id: "template-unquoted-attribute",
    type: "regex",
    // An attribute whose value is a template variable with no quotes around it.
    value: String.raw`(?i)<[a-z][^>\n]*\s[a-z:-]+[ \t]*=[ \t]*\{\{[^}\n]*\}\}`,
    message: "An unquoted attribute value from a template variable: a space in it starts a new attribute",
    paths: TEMPLATES,
  },
];
