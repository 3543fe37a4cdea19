// Markdown rendered to HTML by a renderer that keeps the input's HTML out, as sanitizers of the
// JavaScript XSS flow rules (the evaluation service's flow.ts). Renderers that pass HTML through
// (marked, showdown, snarkdown, markdown-it with `html: true`) are not: their docs say to sanitize
// the output.

/**
 * A unified / remark / rehype or markdown-it pipeline that uses a sanitizing plugin
 * (`rehype-sanitize`, remark's `sanitize`, `markdown-it-sanitizer`): what it renders is the
 * plugin's allow-list of HTML.
 */
export const JS_MARKDOWN_SANITIZERS = [
  {
    kind: "call_expression",
    has: { field: "function", regex: String.raw`\.use\(\s*(?:require\(\s*["'\x60])?[\w@/.$-]*(?i:sanitiz)` },
  },
];

/**
 * markdown-it escapes the HTML in its source unless it is created with `html: true` (its docs: the
 * option is off by default; the `commonmark` preset turns it on), and its link validation drops
 * `javascript:` URLs: `md.render(x)` / `md.renderInline(x)` of such a renderer is clean.
 */
export const JS_MARKDOWN_SAFE_RECEIVERS = [
  {
    rule: {
      kind: "call_expression",
      has: {
        field: "function",
        kind: "member_expression",
        all: [
          { has: { field: "object", kind: "identifier", pattern: "$MD" } },
          { has: { field: "property", regex: "^(?:render|renderInline)$" } },
        ],
      },
    },
    receiver: "MD",
    made: [
      {
        regex: String.raw`^(?:new\s+)?(?:markdownit|markdownIt|MarkdownIt)\s*\(|^require\(\s*["']markdown-it["']\s*\)\s*\(`,
        not: { regex: String.raw`\bhtml\s*:\s*true|["']commonmark["']` },
      },
    ],
  },
];
