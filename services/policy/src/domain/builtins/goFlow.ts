// Go request input, sanitizers and guards, as the flow conditions of structural rules (the
// evaluation service's flow.ts follows them through assignments, `:=` of several values,
// concatenation and calls within the function, and reads the `if` conditions guards are in).

/**
 * An ast-grep rule for a Go call written as a pattern: ast-grep's Go parser reads a bare
 * `pkg.Func($A)` as a type conversion, so the pattern is given inside a function body and the call
 * selected from it (ast-grep's documentation for Go).
 */
export const goCall = (pattern: string) => ({
  pattern: { context: `func f() { ${pattern} }`, selector: "call_expression" },
});

/** The calls of `names` (an RE2 alternation of `pkg.Func` or `recv.Method` names). */
const calls = (names: string) => ({ kind: "call_expression", has: { field: "function", regex: `^(?:${names})$` } });

/**
 * net/http request input, read from a request of any name (`r.URL.Query()`, `r.FormValue("x")`,
 * `r.PostFormValue`, `r.PathValue` (Go 1.22's patterns), `r.Header.Get`, `r.Cookie`, `r.URL.Path`, `r.Form`, `r.Body`), gorilla/mux's
 * `mux.Vars(r)`, chi's `chi.URLParam` and gin's or echo's context (`c.Param`, `c.Query`, …).
 * A multipart file's name is not input here: Go passes it through filepath.Base (mime/multipart).
 */
const INPUT_CALLS = String.raw`\w+\.URL\.Query|\w+\.(?:Post)?FormValue|\w+\.PathValue|\w+\.Header\.(?:Get|Values)|mux\.Vars|chi\.URLParam|(?:c|ctx)\.(?:Param|Query|DefaultQuery|PostForm|DefaultPostForm|QueryParam|FormValue|GetHeader)`;
const INPUT_FIELDS = {
  kind: "selector_expression",
  regex: String.raw`^\w+\.(?:URL\.(?:Path|RawQuery|RawPath)|Form|PostForm|Body|RequestURI)$`,
};
export const GO_REQUEST_SOURCES = [calls(String.raw`${INPUT_CALLS}|\w+\.Cookie`), INPUT_FIELDS];

/**
 * Request input for reflected XSS: as above, and an uploaded file's name and content
 * (`r.FormFile`, `r.MultipartReader`); not cookies, which another site cannot set in the browser
 * it makes send the request.
 */
export const GO_XSS_SOURCES = [calls(String.raw`${INPUT_CALLS}|\w+\.FormFile|\w+\.MultipartReader`), INPUT_FIELDS];

/** Words (lower-case) a file reading Go request input contains: the gate before it is parsed. */
export const GO_REQUEST_KEYWORDS = [
  ".url.",
  "formvalue",
  ".pathvalue(",
  ".header.",
  ".cookie(",
  "mux.vars",
  "chi.urlparam",
  ".form",
  ".multipartreader(",
  ".body",
  ".requesturi",
  ".param(",
  ".query(",
  ".defaultquery(",
  ".postform",
  ".queryparam(",
  ".getheader(",
];

/** Numbers and UUIDs parsed from input carry no injection. */
export const GO_SANITIZERS = [
  calls(String.raw`strconv\.(?:Atoi|ParseInt|ParseUint|ParseFloat|ParseBool)|uuid\.(?:Parse|MustParse)`),
];

/**
 * Names that hold no `..` element (the package docs): the last element of a path
 * (`filepath.Base`, `path.Base`), a path rooted before it is cleaned (`filepath.Clean("/" + p)`:
 * Clean drops the `..` that would climb above the root, as net/http's Dir does), and every `..`
 * removed (`strings.ReplaceAll(p, "..", "")` leaves no two dots side by side). `path.Clean` works
 * on slashes only, so a Windows `..\` survives it: not a sanitizer.
 */
export const GO_PATH_SANITIZERS = [
  ...GO_SANITIZERS,
  calls(String.raw`filepath\.Base|path\.Base`),
  goCall('filepath.Clean("/" + $X)'),
  goCall('strings.ReplaceAll($X, "..", "")'),
  goCall('strings.Replace($X, "..", "", -1)'),
];

/**
 * Checks that keep a path inside a directory where they decided the branch the file operation is
 * in (OWASP's Path Traversal page and Input Validation Cheat Sheet: reject `..`, or resolve the path
 * and check its prefix): no `..` in the name (`strings.Contains(p, "..")` or a regular expression
 * of two escaped dots failed), `filepath.IsLocal(p)` (Go 1.20: not absolute, no `..` element), or
 * a prefix checked on a path normalized first (`filepath.Clean`, `Abs`, `Join`, `EvalSymlinks`):
 * a prefix check on the raw input passes `/base/../../etc/passwd`, so it is no guard.
 */
export const GO_PATH_GUARDS = [
  { rule: goCall('strings.Contains($V, "..")'), value: "V", safe: false },
  {
    rule: goCall("regexp.MatchString($RE, $V)"),
    constraints: { RE: { regex: String.raw`\\{1,2}\.\\{1,2}\.|\[\.\]\[\.\]` } },
    value: "V",
    safe: false,
  },
  { rule: goCall("filepath.IsLocal($V)"), value: "V", safe: true },
  {
    rule: goCall("strings.HasPrefix($V, $BASE)"),
    value: "V",
    safe: true,
    normalized: [calls(String.raw`filepath\.(?:Clean|Abs|Join|EvalSymlinks)`)],
  },
];

/**
 * What HTML can be written from: escaped (`html.EscapeString`, html/template's
 * `HTMLEscapeString`, `JSEscapeString`, `url.QueryEscape`), JSON (`json.Marshal` escapes `<`, `>`
 * and `&`, its docs: "so that the JSON will be safe to embed inside HTML <script> tags"), numbers.
 */
export const GO_HTML_SANITIZERS = [
  ...GO_SANITIZERS,
  calls(
    String.raw`html\.EscapeString|template\.(?:HTMLEscapeString|JSEscapeString|HTMLEscaper|JSEscaper|URLQueryEscaper)|url\.(?:QueryEscape|PathEscape)|json\.Marshal|strconv\.(?:Itoa|FormatInt|FormatFloat|FormatBool)`,
  ),
];
