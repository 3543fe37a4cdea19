// Java request input and sanitizers, as the flow conditions of structural rules (the evaluation
// service's flow.ts follows them through assignments, concatenation, collections and builders,
// calls to methods of the same file, and constant branches).

/** Servlet request input: `request.getParameter(…)`, `getHeader`, `getCookies`, `getQueryString`, the body's stream or reader, the path. */
export const JAVA_REQUEST_SOURCES = [
  {
    kind: "method_invocation",
    all: [
      {
        has: {
          field: "name",
          regex: String.raw`^get(?:Parameter|ParameterValues|ParameterMap|ParameterNames|Header|Headers|HeaderNames|Cookies|QueryString|InputStream|Reader|PathInfo|RequestURI|RequestURL|Part|Parts)$`,
        },
      },
      { has: { field: "object", regex: String.raw`^(?:request|req|httpRequest|servletRequest|httpServletRequest)$` } },
    ],
  },
];

/** Words (lower-case) a file reading servlet request input contains: the gate before it is parsed. */
export const JAVA_REQUEST_KEYWORDS = [
  "getparameter",
  "getheader",
  "getcookies",
  "getquerystring",
  "getinputstream",
  "getreader",
  "getpathinfo",
  "getrequestur",
  "getpart",
];

/** A call to a method named by `names` (an RE2 alternation): a sanitizer of flow conditions. */
const calls = (names: string) => ({ kind: "method_invocation", has: { field: "name", regex: `^(?:${names})$` } });

// Numbers and identifiers parsed from input carry no injection.
const NUMERIC = String.raw`parseInt|parseLong|parseDouble|parseFloat|parseBoolean|valueOf|fromString`;

/** Sanitizers of a flow condition: a number parsed from the input, or one of the calls named by `names` (an RE2 alternation). */
export const javaSanitizers = (names?: string) => [calls(names ? `${NUMERIC}|${names}` : NUMERIC)];

export const JAVA_SQL_SANITIZERS = [calls(`${NUMERIC}|encodeForSQL`)];
export const JAVA_COMMAND_SANITIZERS = [calls(`${NUMERIC}|encodeForOS`)];
export const JAVA_HTML_SANITIZERS = [
  calls(
    `${NUMERIC}|encodeForHTML|encodeForHTMLAttribute|encodeForJavaScript|encodeForXML|encodeForXMLAttribute|htmlEscape|escapeHtml|escapeHtml3|escapeHtml4|escapeXml|escapeXml10|escapeXml11|escapeEcmaScript|forHtml|forHtmlContent|forHtmlAttribute|forJavaScript|forXml`,
  ),
];
