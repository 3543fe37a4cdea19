// The label parser of CodeQL's query tests (codeql.mjs): inline expectations, comments, comment
// blocks and `.expected` alert rows, and which CWEs a policy claims for a language.
// Run with `node --test bench/detection/*.test.mjs` (after `pnpm run build`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  claimIndex,
  languageOf,
  loadCodeqlCases,
  parseCodeqlLabels,
  scoreCodeql,
  selectAlertLines,
} from "./codeql.mjs";

const labels = (text, language, alerts) =>
  parseCodeqlLabels(text, language, alerts).map((c) => [c.line, c.end, c.positive, c.how]);

test("inline expectations: Alert, result=BAD and MISSING must flag; SPURIOUS and result=OK must not", () => {
  const py = [
    "x = read() # $ Source",
    "run(x) # $ Alert",
    "run(x) # $Alert=src",
    "run(x) # $ result=BAD",
    "run(x) # $ MISSING: Alert",
    "run(clean(x)) # $ SPURIOUS: Alert",
    "run(x) # $ Alert SPURIOUS: result=BAD",
    "run(x) # $ result=OK",
    "# $ Alert",
    "run(x)",
  ].join("\n");
  assert.deepEqual(labels(py, "python"), [
    [2, 2, true, "inline expectation"],
    [3, 3, true, "inline expectation"],
    [4, 4, true, "inline expectation"],
    [5, 5, true, "inline expectation"],
    [6, 6, false, "inline expectation"],
    [7, 7, false, "inline expectation"],
    [8, 8, false, "inline expectation"],
  ]);
  const go = 'x := q["a"] // $ Source[go/x]\nrun(x)      // $ Alert[go/x]\n';
  assert.deepEqual(labels(go, "go"), [[2, 2, true, "inline expectation"]]);
});

test("a query's own tag is must-flag; a label on a call's second line covers the call from its first", () => {
  const java = [
    "out.print(", // 1
    '    "x" + input); // $xss', // 2
    "run(x); // $hasInjection", // 3
    "String q = a", // 4
    "    + input; // $ Alert", // 5
    "run(y); // $ Source", // 6
  ].join("\n");
  assert.deepEqual(labels(java, "java"), [
    [1, 2, true, "inline expectation"],
    [3, 3, true, "inline expectation"],
    [4, 5, true, "inline expectation"],
  ]);
});

test("comments: NOT OK and BAD must flag, OK and GOOD must not; a URL or an interpolation is no comment", () => {
  const js = [
    "run(a); // NOT OK",
    "run(b); // BAD: built from input",
    "run('c'); // OK - a constant",
    "run('d'); // GOOD",
    "get('http://example.test/OK');",
    "run(e); // OKAY is not a verdict word",
  ].join("\n");
  assert.deepEqual(labels(js, "javascript"), [
    [1, 1, true, "comment"],
    [2, 2, true, "comment"],
    [3, 3, false, "comment"],
    [4, 4, false, "comment"],
  ]);
  assert.deepEqual(labels('system("#{OK}") # NOT OK\n', "ruby"), [[1, 1, true, "comment"]]);
});

test("a comment line of its own labels the code below it up to a blank line, the next label or the block's end", () => {
  const cs = [
    "// GOOD: bound parameters",
    "var q = Prepare(sql);",
    "// a remark",
    "q.Run(input);",
    "",
    "// BAD: concatenated",
    "Run(sql + input); // $ Alert",
    "",
    "// BAD (a case the query misses)",
    "//",
    "Run(other + input);",
    "",
    "if (x) {",
    "  // BAD",
    "  Run(a + input);",
    "  // GOOD",
    "  Run(b);",
    "}",
    "Run(c);",
  ].join("\n");
  assert.deepEqual(labels(cs, "csharp"), [
    [2, 4, false, "comment block"],
    [7, 7, true, "inline expectation"],
    [11, 11, true, "comment block"],
    [15, 15, true, "comment block"],
    [17, 17, false, "comment block"],
  ]);
});

test("the .expected file's #select rows are must-flag lines of files without inline labels", () => {
  const expected = [
    "edges",
    "| A.java:3:5:3:9 | x | A.java:9:1:9:4 | y | provenance |  |",
    "nodes",
    "| A.java:3:5:3:9 | x | semmle.label | x |",
    "subpaths",
    "#select",
    "| A.java:7:44:7:69 | ... + ... | A.java:3:5:3:9 | x | message $@. | A.java:3:5:3:9 | x | source |",
    "| sub/B.java:12:1:12:9 | call | sub/B.java:2:1:2:3 | y | message | sub/B.java:2:1:2:3 | y | source |",
    "| A.java:7:1:7:9 | call | A.java:3:5:3:9 | x | message | A.java:3:5:3:9 | x | source |",
  ].join("\n");
  const alerts = selectAlertLines(expected);
  assert.deepEqual(
    [...alerts.entries()],
    [
      ["A.java", [7, 7]],
      ["sub/B.java", [12]],
    ],
  );
  assert.deepEqual(labels("a\nb\nc\nd\ne\nf\ng // OK\n", "java", alerts.get("A.java")), [[7, 7, false, "comment"]]);
  assert.deepEqual(labels("a\nb\nc\nd\ne\nf\ng\n", "java", alerts.get("A.java")), [[7, 7, true, "expected alert"]]);
});

test("claims: a case counts only where a policy claims its CWE for its language, by the claimed rules", () => {
  const builtins = [
    { id: "cmd", claims: { cwe: { "CWE-78": ["*"] }, languages: ["python", "javascript"] } },
    { id: "ci", claims: { cwe: { "CWE-78": ["run-injection"] }, languages: ["github-actions"] } },
  ];
  const claim = claimIndex(builtins);
  assert.equal(claim(78, "go"), undefined);
  assert.equal(claim(89, "python"), undefined);
  assert.equal(claim(78, "python")({ policy_id: "cmd", rule_id: "any" }), true);
  assert.equal(claim(78, "typescript")({ policy_id: "cmd", rule_id: "any" }), true);
  assert.equal(claim(78, "github-actions")({ policy_id: "ci", rule_id: "unpinned" }), false);
  const content = "run(x) # $ Alert\nrun(y) # $ Alert\nrun('z') # OK\n";
  const cases = parseCodeqlLabels(content, "python").map((c) => ({
    ...c,
    file: "t.py",
    content,
    language: languageOf("t.py"),
    cwe: 78,
  }));
  const findings = [
    { policy_id: "cmd", rule_id: "r", line: 1 },
    { policy_id: "other", rule_id: "r", line: 2 },
    { policy_id: "cmd", rule_id: "r", line: 3 },
  ];
  let scans = 0;
  const { inScope, unclaimed } = scoreCodeql(cases, builtins, () => (scans++, findings));
  assert.equal(scans, 1);
  assert.deepEqual(
    inScope.map((c) => [c.line, c.positive, c.hits.length]),
    [
      [1, true, 1],
      [2, true, 0],
      [3, false, 1],
    ],
  );
  assert.deepEqual(
    scoreCodeql(
      cases.map((c) => ({ ...c, cwe: 89 })),
      builtins,
      () => findings,
    ).unclaimed.length,
    3,
  );
  assert.equal(unclaimed.length, 0);
});

test("the manifest's lengths are code points: a file with emoji matches, one of another length is reported", () => {
  const dir = mkdtempSync(join(tmpdir(), "codeql-"));
  try {
    const folder = "javascript/ql/test/query-tests/Security/CWE-079/ReflectedXss";
    mkdirSync(join(dir, folder), { recursive: true });
    const text = "app.use(doc, { title: '👋🌍' }); // $ Alert\n";
    writeFileSync(join(dir, folder, "a.js"), text);
    writeFileSync(join(dir, folder, "b.js"), text);
    const commit = "0".repeat(40);
    const manifest = {
      repo: "github/codeql",
      folders: [
        {
          language: "javascript",
          cwe: 79,
          path: folder,
          files: [
            { path: "a.js", commit, chars: [...text].length },
            { path: "b.js", commit, chars: [...text].length + 1 },
          ],
        },
      ],
    };
    const { problems } = loadCodeqlCases(dir, manifest);
    assert.deepEqual(problems, [
      `${folder}/b.js has ${[...text].length} characters, the manifest's version ${[...text].length + 1}`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
