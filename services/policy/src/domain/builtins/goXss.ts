// Reflected XSS in Go (CWE-79): request input written into an http.ResponseWriter unescaped.
// A handler's `w.Write`, `fmt.Fprint*` or `io.WriteString` to the response sends what it is given
// as the body, and Go sniffs an unset Content-Type from it (net/http's DetectContentType), so
// markup in it is HTML; html/template or html.EscapeString is the fix (OWASP's XSS Prevention
// Cheat Sheet: encode output for its context).
import { goCall, GO_HTML_SANITIZERS, GO_REQUEST_KEYWORDS, GO_XSS_SOURCES } from "./goFlow.js";
import { type BuiltinPattern, structural } from "./types.js";

/** The names handlers give their http.ResponseWriter. */
const WRITER = String.raw`^(?:w|rw|wr|res|resp|response|writer)$`;

export const GO_RESPONSE_FROM_REQUEST: BuiltinPattern = {
  id: "go-response-from-request",
  type: "structural",
  value: structural(
    ["go"],
    {
      any: [
        goCall("$W.Write($$$ARGS)"),
        goCall("io.WriteString($W, $$$ARGS)"),
        ...["Fprintf", "Fprint", "Fprintln"].map((f) => ({
          ...goCall(`fmt.${f}($W, $$$ARGS)`),
          // Text before any value: the body starts with it, and Go's sniffing (DetectContentType)
          // answers text/plain for a body that does not start with markup.
          not: { has: { field: "arguments", has: { nthChild: 2, regex: String.raw`^"[^<\s%]` } } },
        })),
      ],
    },
    { W: { regex: WRITER } },
    { sink: "$$$ARGS", sources: GO_XSS_SOURCES, sanitizers: GO_HTML_SANITIZERS },
  ),
  message: "Request input is written into the HTTP response without HTML escaping (reflected XSS)",
  keywords: GO_REQUEST_KEYWORDS,
  file_requires: [String.raw`\.Write\s*\(|\bfmt\.Fprint|\bio\.WriteString\s*\(`],
};
