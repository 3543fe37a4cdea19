// The secrets dev set's labelling and scoring (secrets-devset.mjs), on small made-up inputs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EXAMPLE_TOKENS } from "./devset-examples.mjs";
import { CREDENTIAL_FILES } from "./devset-files.mjs";
import { ggshieldCases, kicsSecretCases, labelUnits, lineOf, scoreTool, valueCases } from "./secrets-devset.mjs";

test("kicsSecretCases labels the lines KICS expects, files negative*, and skips unexpected positives", () => {
  const files = new Map([
    ["positive1.yaml", "a: 1\npassword: hunter22\ntoken: abc\n"],
    ["positive2.tf", "body = <<EOT\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\nEOT\n"],
    ["positive3.yaml", "nothing expected here\n"],
    ["negative1.yaml", "password: ${PASSWORD}\n"],
    ["README.md", "not a test file\n"],
  ]);
  const expected = [
    { queryName: "Passwords And Secrets - Generic Password", line: 2, fileName: "positive1.yaml" },
    { queryName: "Passwords And Secrets - Generic Token", line: 3, fileName: "positive1.yaml" },
    // The same line twice (two queries) is one positive, under the first query's name.
    { queryName: "Passwords And Secrets - Generic Secret", line: 2, fileName: "positive1.yaml" },
    // A PEM key named by its first body line: moved to the BEGIN line.
    { queryName: "Passwords And Secrets - Asymmetric private key", line: 3, fileName: "positive2.tf" },
  ];
  const cases = kicsSecretCases(expected, files);
  assert.deepEqual(
    cases.map((c) => [c.id, c.positives]),
    [
      ["kics/negative1.yaml", []],
      [
        "kics/positive1.yaml",
        [
          { line: 2, group: "Generic Password" },
          { line: 3, group: "Generic Token" },
        ],
      ],
      ["kics/positive2.tf", [{ line: 2, group: "Asymmetric private key" }]],
    ],
  );
  assert.deepEqual(
    labelUnits(cases).map((u) => [u.case.path, u.positive, u.line ?? null, u.group]),
    [
      ["negative1.yaml", false, null, "negative"],
      ["positive1.yaml", true, 2, "Generic Password"],
      ["positive1.yaml", true, 3, "Generic Token"],
      ["positive2.tf", true, 2, "Asymmetric private key"],
    ],
  );
});

test("valueCases labels the line each listed secret starts on and refuses a secret not in the file", () => {
  assert.equal(lineOf("a\nb\npassword = s3cret\n", "s3cret"), 3);
  assert.equal(lineOf("a\n", "missing"), 0);
  const [c] = valueCases("files", [
    { id: "n", group: ".netrc", path: ".netrc", content: "machine h\n  login u\n  password Xy7z\n", secrets: ["Xy7z"] },
  ]);
  assert.deepEqual(c.positives, [{ line: 3, group: ".netrc" }]);
  assert.throws(() => valueCases("files", [{ id: "x", group: "g", path: "p", content: "", secrets: ["gone"] }]));
});

test("every hand-written case labels only values it holds, with the page it comes from", () => {
  for (const list of [CREDENTIAL_FILES, EXAMPLE_TOKENS]) {
    const cases = valueCases("t", list);
    assert.ok(cases.some((c) => c.positives.length) && cases.some((c) => !c.positives.length));
    for (const c of list) assert.match(c.doc, /^https:\/\//, c.id);
    assert.equal(new Set(list.map((c) => c.id)).size, list.length);
  }
});

test("scoreTool: a positive is found on its line, a negative flagged anywhere; provider rules counted apart", () => {
  const cases = valueCases("t", [
    { id: "a", group: "g1", path: "a", content: "x\nkey1\nkey2\n", secrets: ["key1", "key2"] },
    { id: "b", group: "g2", path: "b", content: "clean\n", secrets: [] },
    { id: "c", group: "g2", path: "c", content: "also clean\n", secrets: [] },
  ]);
  const hits = new Map([
    // key1 found by a provider rule, key2 only by the catch-all, a finding on line 1 counts for neither.
    [
      "t/a",
      [
        { line: 1, endLine: 1, rule: "aws" },
        { line: 2, endLine: 2, rule: "aws" },
        { line: 3, endLine: 3, rule: "catch-all" },
      ],
    ],
    ["t/b", [{ line: 1, endLine: 1, rule: "catch-all" }]],
    ["t/c", []],
  ]);
  const score = scoreTool(labelUnits(cases), (c) => hits.get(c.id), new Set(["catch-all"]));
  assert.deepEqual(score.total, { positives: 2, found: 2, negatives: 2, flagged: 1 });
  assert.equal(score.specific, 1);
  // A multi-line finding (gitleaks' StartLine..EndLine) covers the lines inside it.
  const spanning = scoreTool(
    labelUnits(cases),
    (c) => (c.id === "t/a" ? [{ line: 1, endLine: 3, rule: "private-key" }] : []),
    new Set(),
  );
  assert.deepEqual(spanning.total, { positives: 2, found: 2, negatives: 2, flagged: 0 });
});

test("ggshieldCases labels the credential matches of GitGuardian's recorded answers, once per document", () => {
  const exchange = (documents, answers, uri = "https://api.gitguardian.com/v1/multiscan?all_secrets=True") => ({
    request: { method: "POST", uri, body: JSON.stringify(documents.map((document) => ({ filename: "f", document }))) },
    response: { body: { string: JSON.stringify(answers) } },
  });
  const secretDoc = "@@ -0,0 +1,2 @@\n+user=owly\n+password=368ac3edf9e850d1\n";
  const cassettes = [
    {
      interactions: [
        { request: { method: "GET", uri: "https://api.gitguardian.com/v1/metadata", body: null }, response: {} },
        exchange(
          [secretDoc, "no secret here\n"],
          [
            {
              policy_break_count: 1,
              policy_breaks: [
                {
                  type: "Username Password",
                  matches: [
                    { type: "username", match: "owly", line_start: 2, line_end: 2 },
                    { type: "password", match: "368ac3edf9e850d1", line_start: 3, line_end: 3 },
                  ],
                },
              ],
            },
            { policy_break_count: 0, policy_breaks: [] },
          ],
        ),
      ],
    },
    // The same document in another cassette is one case.
    { interactions: [exchange([secretDoc], [{ policy_break_count: 0, policy_breaks: [] }])] },
    // A request whose body is not JSON is skipped.
    { interactions: [{ request: { method: "POST", uri: "https://x/v1/scan", body: "{" }, response: {} }] },
  ];
  assert.deepEqual(
    ggshieldCases(cassettes).map((c) => [c.content, c.positives]),
    [
      [secretDoc, [{ line: 3, group: "Username Password" }]],
      ["no secret here\n", []],
    ],
  );
});
