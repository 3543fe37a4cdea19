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

  it("reports a sink input reaches by one path when another path to it is sanitized, and never a literal", () => {
    // The walk runs first without sanitizers (flow.ts): a source reached only through one must not be reported,
    // one reached another way too must.
    expect(
      reports(`String a = request.getParameter("a"); String n = "" + Integer.parseInt(a); r.exec("ls " + n);`),
    ).toBe(false);
    expect(
      reports(`String a = request.getParameter("a"); String n = Integer.parseInt(a) + a; r.exec("ls " + n);`),
    ).toBe(true);
    expect(reports(`request.getParameter("a"); r.exec("ls " + "-l");`)).toBe(false);
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

// The same in Python: sink `subprocess.run($CMD, …)`, source `request.form`, sanitizer `int(…)`.
const python = compileEngine([
  {
    ...rule(),
    patterns: [
      {
        ...rule().patterns[0]!,
        value: JSON.stringify({
          languages: ["python"],
          rule: { any: [{ pattern: "subprocess.run($CMD)" }, { pattern: "subprocess.run($CMD, $$$)" }] },
          flow: {
            sink: "CMD",
            sources: [{ kind: "attribute", regex: "^request\\.form$" }],
            sanitizers: [{ kind: "call", has: { field: "function", regex: "^int$" } }],
          },
        }),
      },
    ],
  },
]);

/** Whether the rule reports in a Flask view whose body is `body` (lines, indented here). */
const reportsPy = (body: string) =>
  python.scan(
    "app/views.py",
    Buffer.from(
      `def view():\n    param = request.form.get("p")\n${body
        .split("\n")
        .map((l) => `    ${l}`)
        .join("\n")}\n`,
    ),
    { allowSuppression: false },
  ).findings.length > 0;

describe("Python data flow", () => {
  it("follows input through f-strings, lists a call fills and names", () => {
    expect(reportsPy(`subprocess.run(f"echo {param}", shell=True)`)).toBe(true);
    expect(reportsPy(`args = ["sh", "-c"]\nargs.append(f"echo {param}")\nsubprocess.run(args)`)).toBe(true);
    expect(reportsPy(`for name in request.form.keys():\n    bar = name\nsubprocess.run(bar, shell=True)`)).toBe(true);
    expect(reportsPy(`args = ["sh", "-c"]\nargs.append("echo hi")\nsubprocess.run(args)`)).toBe(false);
    expect(reportsPy(`subprocess.run(f"echo {int(param)}", shell=True)`)).toBe(false);
    // A module's function given input earlier does not make the module carry it.
    expect(reportsPy(`a = shlex.join([param])\nsubprocess.run(shlex.join(["ls"]), shell=True)`)).toBe(false);
  });

  it("ignores branches a constant condition never takes: if/elif/else, conditional expressions, match", () => {
    const branch = (condition: string) =>
      reportsPy(
        `num = 86\nif ${condition}:\n    bar = "safe"\nelse:\n    bar = param\nsubprocess.run(bar, shell=True)`,
      );
    expect(branch("7 * 42 - num > 200")).toBe(false);
    expect(branch("7 * 42 - num < 200")).toBe(true);
    expect(branch("param > 200")).toBe(true);
    expect(reportsPy(`num = 106\nbar = "safe" if 7 * 18 + num > 200 else param\nsubprocess.run(bar, shell=True)`)).toBe(
      false,
    );
    expect(reportsPy(`num = 106\nbar = "safe" if num > 200 else param\nsubprocess.run(bar, shell=True)`)).toBe(true);
    expect(
      reportsPy(`if 2 > 1:\n    bar = "a"\nelif param:\n    bar = param\nelse:\n    bar = param\nsubprocess.run(bar)`),
    ).toBe(false);
    expect(
      reportsPy(`if 1 > 2:\n    bar = "a"\nelif param:\n    bar = "b"\nelse:\n    bar = param\nsubprocess.run(bar)`),
    ).toBe(true);
    const match = (index: number) =>
      reportsPy(
        `guess = "ABC"[${index}]\nmatch guess:\n    case 'A':\n        bar = param\n    case 'B':\n        bar = 'bob'\n    case 'C' | 'D':\n        bar = param\n    case _:\n        bar = 'x'\nsubprocess.run(bar, shell=True)`,
      );
    expect(match(0)).toBe(true);
    expect(match(1)).toBe(false);
    expect(match(2)).toBe(true);
  });

  it("knows what a fresh dict, list or configparser gives back for a constant key or index", () => {
    const dict = (key: string) =>
      reportsPy(
        `m = {}\nm["keyA"] = "a"\nm["keyB"] = param\nbar = "safe"\nbar = m["keyB"]\nbar = m[${key}]\nsubprocess.run(bar, shell=True)`,
      );
    expect(dict(`"keyA"`)).toBe(false);
    expect(dict(`"keyB"`)).toBe(true);
    expect(dict(`param`)).toBe(true);
    expect(reportsPy(`m = {}\nm["k"] = param\nsubprocess.run(m.get("other", "ls"))`)).toBe(false);
    expect(reportsPy(`m = {}\nm["k"] = param\nsubprocess.run(m.get("k"))`)).toBe(true);
    const list = (index: number) =>
      reportsPy(
        `lst = []\nlst.append("safe")\nlst.append(param)\nlst.append("more")\nlst.pop(0)\nbar = lst[${index}]\nsubprocess.run(bar, shell=True)`,
      );
    expect(list(0)).toBe(true);
    expect(list(1)).toBe(false);
    const conf = (key: string) =>
      reportsPy(
        `conf = configparser.ConfigParser()\nconf.add_section("s")\nconf.set("s", "keyA", "a")\nconf.set("s", "keyB", param)\nbar = conf.get("s", "${key}")\nsubprocess.run(bar, shell=True)`,
      );
    expect(conf("keyA")).toBe(false);
    expect(conf("keyB")).toBe(true);
  });
});
