// Data flow in Go and the guards of flow.ts through the engine: a structural rule whose sink is
// `os.ReadFile($P)`, whose source is `r.FormValue(…)`, with `filepath.Base` as a sanitizer, a failed
// `strings.Contains(p, "..")` and a passed `strings.HasPrefix` of a cleaned path as guards, on
// small handlers that each exercise one way a check does or does not decide the way to the sink.
import { describe, expect, it } from "@jest/globals";
import { compileEngine } from "./engine.js";

const call = (pattern: string) => ({ pattern: { context: `func f() { ${pattern} }`, selector: "call_expression" } });
const calls = (names: string) => ({ kind: "call_expression", has: { field: "function", regex: `^(?:${names})$` } });

const flow = {
  sink: "P",
  sources: [calls(String.raw`\w+\.FormValue`)],
  sanitizers: [calls(String.raw`filepath\.Base`)],
  guards: [
    { rule: call('strings.Contains($V, "..")'), value: "V", safe: false },
    {
      rule: call("strings.HasPrefix($V, $B)"),
      value: "V",
      safe: true,
      normalized: [calls(String.raw`filepath\.(?:Clean|Join)`)],
    },
  ],
};
const value = JSON.stringify({ languages: ["go"], rule: call("os.ReadFile($P)"), flow });
const pattern = { type: "structural" as const, value, rule_id: "file-from-input", message: "file name from input" };
const options = {
  redact: false,
  redact_group: 0,
  keywords: [],
  min_entropy: 0,
  paths: [],
  allowlist: [],
  generic: false,
};
const engine = compileEngine([
  {
    ...{ id: "files", severity: "error" as const, category: "security", suggestion: "", exclude_paths: [] },
    patterns: [{ ...pattern, ...options }],
  },
]);

/** The lines of the handler body `body` (after its first line, `p := r.FormValue("p")`) the rule reports. */
const reported = (body: string) =>
  engine
    .scan(
      "srv/h.go",
      Buffer.from(
        `package srv\n\nfunc h(w http.ResponseWriter, r *http.Request) {\n\tp := r.FormValue("p")\n${body}\n}\n`,
      ),
      { allowSuppression: false },
    )
    .findings.map((f) => f.line - 4);

describe("Go data flow", () => {
  it("follows input through := and = of several values, element by element", () => {
    expect(reported(`\ta, b := "index.html", p\n\tos.ReadFile(a)\n\tos.ReadFile(b)`)).toEqual([3]);
    expect(reported(`\tdata, err := os.ReadFile(p)\n\t_, _ = data, err`)).toEqual([1]);
    expect(reported(`\tvar name string = "/" + p\n\tos.ReadFile(name)`)).toEqual([2]);
    expect(reported(`\tos.ReadFile(filepath.Base(p))`)).toEqual([]);
  });

  it("drops what a statement of the sink's block overwrote, even when it was written before the block", () => {
    expect(reported(`\tif len(p) > 3 {\n\t\tp = "index.html"\n\t\tos.ReadFile(p)\n\t}`)).toEqual([]);
    // Overwritten only on a way the sink is not on: the input reaches it.
    expect(reported(`\tif len(p) > 3 {\n\t\tp = "index.html"\n\t}\n\tos.ReadFile(p)`)).toEqual([4]);
    // An update is no overwrite.
    expect(reported(`\tif len(p) > 3 {\n\t\tp += ".html"\n\t\tos.ReadFile(p)\n\t}`)).toEqual([3]);
  });

  it("gives a call's error result (err) no input, and fills a buffer a reader reads into", () => {
    expect(reported(`\tn, err := fmt.Sscan(p)\n\tos.ReadFile(fmt.Sprint(err))\n\tos.ReadFile(fmt.Sprint(n))`)).toEqual([
      3,
    ]);
    expect(
      reported(`\tbuf := make([]byte, 9)\n\tstrings.NewReader("fixed").Read(buf)\n\tos.ReadFile(string(buf))`),
    ).toEqual([]);
    expect(
      reported(`\tsrc := strings.NewReader(p)\n\tbuf := make([]byte, 9)\n\tsrc.Read(buf)\n\tos.ReadFile(string(buf))`),
    ).toEqual([4]);
  });
});

describe("flow guards", () => {
  it("clears a name in the branch its check took, negated or combined with &&", () => {
    expect(reported(`\tif !strings.Contains(p, "..") {\n\t\tos.ReadFile(p)\n\t}`)).toEqual([]);
    expect(reported(`\tif strings.Contains(p, "..") {\n\t\tos.ReadFile(p)\n\t}`)).toEqual([2]);
    expect(reported(`\tif strings.Contains(p, "..") {\n\t\treturn\n\t} else {\n\t\tos.ReadFile(p)\n\t}`)).toEqual([]);
    expect(reported(`\tif p != "" && !strings.Contains(p, "..") {\n\t\tos.ReadFile(p)\n\t}`)).toEqual([]);
    // !(a && b) holding says nothing of a alone.
    expect(reported(`\tif !(strings.Contains(p, "..") && p != "") {\n\t\tos.ReadFile(p)\n\t}`)).toEqual([2]);
    // A check of another name clears nothing.
    expect(reported(`\tq := p\n\tif !strings.Contains(q, "..") {\n\t\tos.ReadFile(p)\n\t}`)).toEqual([3]);
  });

  it("clears a name after a check that exits when it failed, alone or in an ||", () => {
    const exit = (condition: string, then: string) =>
      reported(`\tif ${condition} {\n\t\t${then}\n\t}\n\tos.ReadFile(p)`);
    expect(exit(`strings.Contains(p, "..")`, "return")).toEqual([]);
    expect(exit(`p == "" || strings.Contains(p, "..")`, `panic("bad name")`)).toEqual([]);
    // The branch logs and goes on: the file is read whatever the check said.
    expect(exit(`strings.Contains(p, "..")`, `log.Print("bad name")`)).toEqual([4]);
  });

  it("follows a name the check's result was assigned to", () => {
    expect(reported(`\tbad := strings.Contains(p, "..")\n\tif !bad {\n\t\tos.ReadFile(p)\n\t}`)).toEqual([]);
    expect(reported(`\tif bad := strings.Contains(p, ".."); bad {\n\t\tos.ReadFile(p)\n\t}`)).toEqual([2]);
  });

  it("takes a prefix check only on a name that holds a normalized path", () => {
    expect(
      reported(
        `\tfull := filepath.Join("/srv", p)\n\tif strings.HasPrefix(full, "/srv/") {\n\t\tos.ReadFile(full)\n\t}`,
      ),
    ).toEqual([]);
    expect(reported(`\tif strings.HasPrefix(p, "/srv/") {\n\t\tos.ReadFile(p)\n\t}`)).toEqual([2]);
  });

  it("clears a name a branching statement checks on one way and reassigns on the other", () => {
    // The check's failing way is safe, its holding way assigns a constant: either way p is clean.
    expect(reported(`\tif strings.Contains(p, "..") {\n\t\tp = "index.html"\n\t}\n\tos.ReadFile(p)`)).toEqual([]);
    expect(
      reported(
        `\tif !strings.Contains(p, "..") {\n\t\tlog.Print(p)\n\t} else {\n\t\tp = "index.html"\n\t}\n\tos.ReadFile(p)`,
      ),
    ).toEqual([]);
    // An else-if chain: every way checks or assigns.
    expect(
      reported(
        `\tif strings.Contains(p, "..") {\n\t\tp = "a"\n\t} else if len(p) > 9 {\n\t\tp = "b"\n\t}\n\tos.ReadFile(p)`,
      ),
    ).toEqual([]);
    // A way that neither checks nor assigns passes the input on.
    expect(reported(`\tif strings.Contains(p, "..") {\n\t\tlog.Print("bad")\n\t}\n\tos.ReadFile(p)`)).toEqual([4]);
    expect(reported(`\tif len(p) > 9 {\n\t\tp = "a"\n\t}\n\tos.ReadFile(p)`)).toEqual([4]);
    // Reassigned from input on that way: the new value carries it.
    expect(reported(`\tif strings.Contains(p, "..") {\n\t\tp = r.FormValue("q")\n\t}\n\tos.ReadFile(p)`)).toEqual([4]);
    // The statement must come between the assignment and the use.
    expect(reported(`\tos.ReadFile(p)\n\tif strings.Contains(p, "..") {\n\t\tp = "a"\n\t}`)).toEqual([1]);
  });
});
