// Data flow in Java (flow.ts, constant.ts, collections.ts) through the engine: a structural rule
// whose sink is `exec($$$ARGS)` and whose source is `request.getParameter(…)`, on small methods
// that each exercise one way input does or does not reach the sink.
import { describe, expect, it } from "@jest/globals";
import { compileEngine, type PolicyToRun } from "./engine.js";

const rule = (flow: Record<string, unknown> = {}): PolicyToRun => ({
  id: "cmd",
  severity: "error",
  category: "security",
  suggestion: "",
  exclude_paths: [],
  patterns: [
    {
      type: "structural",
      value: JSON.stringify({
        languages: ["java"],
        rule: { pattern: "$R.exec($$$ARGS)" },
        flow: {
          sink: "$$$ARGS",
          sources: [{ kind: "method_invocation", has: { field: "name", regex: "^getParameter$" } }],
          sanitizers: [{ kind: "method_invocation", has: { field: "name", regex: "^parseInt$" } }],
          ...flow,
        },
      }),
      message: "command from input",
      redact: false,
      redact_group: 0,
      rule_id: "cmd-from-input",
      keywords: [],
      min_entropy: 0,
      paths: [],
      allowlist: [],
      generic: false,
    },
  ],
});

const engine = compileEngine([rule()]);
const withParameters = compileEngine([rule({ parameters: ["String"] })]);

/** Whether the rule reports in a servlet whose doGet body is `body` (and whose class also has `members`). */
const reports = (body: string, members = "", e = engine) =>
  e.scan(
    "src/Servlet.java",
    Buffer.from(
      `class Servlet {\n  void doGet(HttpServletRequest request) throws Exception {\n${body}\n  }\n${members}\n}\n`,
    ),
    { allowSuppression: false },
  ).findings.length > 0;

describe("Java data flow", () => {
  it("follows input through assignments, concatenation and builders", () => {
    expect(reports(`String p = request.getParameter("a"); Runtime.getRuntime().exec("ls " + p);`)).toBe(true);
    expect(
      reports(`StringBuilder b = new StringBuilder(); b.append(request.getParameter("a")); r.exec(b.toString());`),
    ).toBe(true);
    expect(reports(`String p = "fixed"; Runtime.getRuntime().exec("ls " + p);`)).toBe(false);
  });

  it("follows input into an array a call fills from its receiver", () => {
    const filled = (call: string) =>
      reports(`byte[] buf = new byte[64]; ${call}; r.exec(new String(buf));`, "", engine);
    expect(filled(`request.getParameter("a").getBytes().read(buf)`)).toBe(true);
    expect(filled(`request.getParameter("a").getBytes().readFully(buf)`)).toBe(true);
    expect(filled(`request.getParameter("a").getBytes().nextBytes(buf)`)).toBe(true);
    expect(filled(`request.getParameter("a").getBytes().copyInto(buf)`)).toBe(false);
    expect(filled(`new java.security.SecureRandom().nextBytes(buf)`)).toBe(false);
  });

  it("stops at a sanitizer, and at a later assignment that always overwrites", () => {
    expect(reports(`int n = Integer.parseInt(request.getParameter("n")); r.exec("ls " + n);`)).toBe(false);
    expect(reports(`String p = request.getParameter("a"); p = "fixed"; r.exec(p);`)).toBe(false);
    // A branch that may not run overwrites nothing.
    expect(reports(`String p = request.getParameter("a"); if (x) { p = "fixed"; } r.exec(p);`)).toBe(true);
    // What an assignment reads, it reads where it is.
    expect(reports(`String p = request.getParameter("a"); p = p.trim(); r.exec(p);`)).toBe(true);
  });

  it("ignores branches a constant condition never takes", () => {
    const input = `String p = request.getParameter("a"); int num = 86; String bar;`;
    expect(reports(`${input} if ((7 * 42) - num > 200) bar = "safe"; else bar = p; r.exec(bar);`)).toBe(false);
    expect(reports(`${input} if ((7 * 42) - num < 200) bar = "safe"; else bar = p; r.exec(bar);`)).toBe(true);
    expect(reports(`${input} bar = (7 * 18) + num > 300 ? "safe" : p; r.exec(bar);`)).toBe(true);
    expect(reports(`${input} bar = (7 * 18) + num > 200 ? "safe" : p; r.exec(bar);`)).toBe(false);
    const sw = (pick: string) =>
      `${input} char t = "ABC".charAt(${pick}); switch (t) { case 'A': bar = p; break; case 'B': bar = "bob"; break; case 'C': case 'D': bar = p; break; default: bar = "x"; break; } r.exec(bar);`;
    expect(reports(sw("1"))).toBe(false);
    expect(reports(sw("0"))).toBe(true);
    expect(reports(sw("2"))).toBe(true);
  });

  it("knows what a fresh map or list gives back for a constant key or index", () => {
    const map = `java.util.HashMap<String, Object> m = new java.util.HashMap<String, Object>(); m.put("keyA", "a"); m.put("keyB", request.getParameter("a"));`;
    expect(reports(`${map} r.exec((String) m.get("keyA"));`)).toBe(false);
    expect(reports(`${map} r.exec((String) m.get("keyB"));`)).toBe(true);
    const list = `java.util.List<String> l = new java.util.ArrayList<String>(); l.add("safe"); l.add(request.getParameter("a")); l.add("moresafe"); l.remove(0);`;
    expect(reports(`${list} r.exec(l.get(1));`)).toBe(false);
    expect(reports(`${list} r.exec(l.get(0));`)).toBe(true);
    // A list that came from elsewhere carries whatever was added to it.
    expect(reports(`java.util.List<String> l = other(); l.add(request.getParameter("a")); r.exec(l.get(5));`)).toBe(
      true,
    );
  });

  it("follows calls to methods of the same file into their returns", () => {
    const helper = (ret: string) =>
      `  private String pick(HttpServletRequest request, String param) { return ${ret}; }`;
    const call = `String p = request.getParameter("a"); String bar = new Test().pick(request, p); r.exec(bar);`;
    expect(reports(call, helper("param"))).toBe(true);
    expect(reports(call, helper(`"constant"`))).toBe(false);
    expect(reports(`String bar = pick(request, "x"); r.exec(bar);`, helper(`request.getParameter("b")`))).toBe(true);
  });

  it("counts String parameters as sources only when the rule says so", () => {
    const members = `  void run(String host, int port) throws Exception { r.exec("ping " + host); r.exec("ping " + port); }`;
    expect(reports("", members)).toBe(false);
    const found = withParameters
      .scan("src/S.java", Buffer.from(`class S {\n${members}\n}\n`), { allowSuppression: false })
      .findings.map((f) => f.line);
    expect(found).toEqual([2]);
  });
});
