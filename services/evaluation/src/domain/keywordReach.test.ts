// Where a keyword-gated rule's second pass looks: the leading literals of a pattern, the set's
// capped entries, and the engine's findings with keyword windows against the whole-file search.
import { describe, expect, it } from "@jest/globals";
import RE2 from "re2";
import { policy } from "../../test/engineFixtures.js";
import { compileEngine, type PatternToRun, type PolicyToRun } from "./engine.js";
import { leadingLiterals, startsAtKeyword } from "./keywordReach.js";
import { cappedRepeats } from "./ruleSet.js";

describe("the literals every match begins with", () => {
  it("reads them through word boundaries, groups, flags and alternatives", () => {
    const cases: [string, string[] | undefined][] = [
      [String.raw`\b(uk[1-9][0-9]{0,9}_[A-Za-z0-9_-]{40})(?:[^A-Za-z0-9_-]|$)`, ["uk"]],
      [String.raw`(?i:\blob)[\w.\- \t]{0,20}?=`, ["lob"]],
      [String.raw`\b((?:dev-|sales-|read-)[a-f0-9]{64}v3)`, ["dev-", "sales-", "read-"]],
      [String.raw`\b((?:sc|ext)_[A-Za-z0-9]{5,30})`, ["sc_", "ext_"]],
      [String.raw`\b(sk-(?:proj|admin)-[A-Za-z0-9]{40,}|sk-[A-Za-z0-9]{20})`, ["sk-proj-", "sk-admin-", "sk-"]],
      [String.raw`(?i)\bAccountKey\s*=`, ["AccountKey"]],
      [String.raw`(?P<t>xoxb-)[0-9]+`, ["xoxb-"]],
      [String.raw`\bdp\.(?:pt|st)\.[A-Za-z0-9]{40}`, ["dp.pt.", "dp.st."]],
      [String.raw`pscale_tkn_[A-Za-z0-9_=.-]{32,64}`, ["pscale_tkn_"]],
      ["a|b.", ["a", "b"]],
      // A quantifier takes the character before it: optional or repeated, the literal ends there.
      ["ab?c", ["a"]],
      ["ab*c", ["a"]],
      ["ab{0,2}c", ["a"]],
      ["ab+c", ["ab"]],
      ["ab{2}c", ["ab"]],
      ["(?:ab)+c", ["ab"]],
    ];
    expect(cases.map(([pattern]) => [pattern, leadingLiterals(pattern)])).toEqual(cases);
  });

  it("gives none where a match may begin with no literal", () => {
    for (const pattern of [
      String.raw`(?:^|[^A-Za-z0-9_./-])(ico-[A-Za-z0-9]{32})`,
      String.raw`(?:\bbot|\b)([0-9]{8,10}:[A-Za-z0-9_-]{35})`,
      String.raw`[\w.-]{0,50}?(?i:password)`,
      "(?:ab)?c",
      "(?:ab)*c",
      String.raw`\x41bc`,
      String.raw`\dabc`,
      ".abc",
      "^abc",
      "",
      "ab)",
    ])
      expect([pattern, leadingLiterals(pattern)]).toEqual([pattern, undefined]);
  });

  it("starts at a keyword when every literal, lower-cased, starts with one of them", () => {
    expect(startsAtKeyword(String.raw`\b(uk[1-9]_[a-z]{40})`, ["uk"])).toBe(true);
    expect(startsAtKeyword(String.raw`(?i)\bAccountKey\s*=`, ["accountkey"])).toBe(true);
    expect(startsAtKeyword(String.raw`\b((?:sc|ext)_[a-z]{5})`, ["sc_", "ext_"])).toBe(true);
    // `shpss_` starts with no keyword: a file with `shpat_` somewhere may hold a `shpss_` token elsewhere.
    expect(startsAtKeyword(String.raw`\b(shp(?:at|ss)_[a-f0-9]{32})`, ["shpat_"])).toBe(false);
    expect(startsAtKeyword(String.raw`(?i:vault_token|token)=(s\.[a-z]{24})`, ["s."])).toBe(false);
    expect(startsAtKeyword("ab", [""])).toBe(false);
  });
});

describe("the set's capped entries", () => {
  it("open every counted repeat above 16 from at most 16, and leave the others and literal braces", () => {
    expect(cappedRepeats(String.raw`\b(uk[1-9][0-9]{0,9}_[A-Za-z0-9_-]{40})`)).toBe(
      String.raw`\b(uk[1-9][0-9]{0,9}_[A-Za-z0-9_-]{16,})`,
    );
    expect(cappedRepeats("a{0,50}b{8,64}c{20,}d{4,6}e{16}")).toBe("a{0,}b{8,}c{16,}d{4,6}e{16}");
    expect(cappedRepeats(String.raw`\{40}x\\{40}`)).toBe(String.raw`\{40}x\\{16,}`);
  });

  it("match wherever the pattern does", () => {
    const pattern = String.raw`\b(uk[1-9][0-9]{0,9}_[A-Za-z0-9_-]{40})(?:[^A-Za-z0-9_-]|$)`;
    const token = "uk12_" + "Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc8Vb7Nm6P";
    const capped = new RE2(cappedRepeats(pattern), "u");
    expect(new RE2(pattern, "u").test(token)).toBe(true);
    expect(capped.test(token)).toBe(true);
    expect(capped.test("uk12_short")).toBe(false);
  });
});

// Rules the engine reads in keyword windows, each against the same engine searching whole files.
const token = (prefix: string, n: number, seed: number) =>
  prefix + Array.from({ length: n }, (_, i) => "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz"[(i * 7 + seed) % 32]).join("");
const anchored: Partial<PatternToRun> = {
  value: String.raw`\b(uk[1-9][0-9]{0,9}_[A-Za-z0-9_-]{40})(?:[^A-Za-z0-9_-]|$)`,
  keywords: ["uk"],
  redact: true,
  redact_group: 1,
};
const named: Partial<PatternToRun> = {
  value: String.raw`\b([a-f0-9]{32})(?:[^A-Za-z0-9_-]|$)`,
  keywords: ["acme"],
  redact: true,
  redact_group: 1,
  context: { keywords: ["acme"], distance: 0, separators: "", lines: 1 },
};
const library: PolicyToRun[] = [policy("uptime", [anchored]), policy("acme", [named])];
const windows = compileEngine(library);
const whole = compileEngine(library, { wholeFiles: true });
const found = (engine: typeof windows, content: string) =>
  engine.scan("a.txt", Buffer.from(content), { allowSuppression: true }).findings.map((f) => ({
    rule: f.rule_id,
    line: f.line,
    column: f.column,
    snippet: f.code_snippet,
  }));

describe("the second pass in keyword windows", () => {
  const hex = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
  const texts = {
    "a token at the start of the file": `${token("uk1_", 40, 1)} is it`,
    "tokens side by side": `${token("uk1_", 40, 2)},${token("uk22_", 40, 3)} ${token("UK3_", 40, 4)}`,
    "a token inside a longer word": `xuk1_${token("", 40, 5)} duk1_${token("", 40, 6)}`,
    "keywords everywhere (the whole file is searched instead)": `${"uk ".repeat(400)}${token("uk7_", 40, 7)}`,
    "a token one character short or long": `${token("uk1_", 39, 8)} ${token("uk1_", 41, 9)}`,
    "the provider named before the value": `ACME_KEY=${hex}\nacme token - '${hex}'\n`,
    "the provider named on the line before": `acme:\n  token: ${hex}\n`,
    "the provider too far away": `acme ${"x".repeat(60)} ${hex}`,
    "the provider inside another word": `response = "${hex}"`,
    "the value on a line of its own, the provider two lines up": `acme\n\n${hex}`,
    "many mentions, one value": `${"acme, ".repeat(50)}acme=${hex} acme=${hex.toUpperCase()}`,
    "a value cut by the end of the file": `acme=${hex.slice(0, 20)}`,
    "CRLF lines": `acme_key=${hex}\r\nACME=${hex}\r\n`,
  };

  it("finds exactly what the whole-file search finds", () => {
    for (const [name, content] of Object.entries(texts))
      expect([name, found(windows, content)]).toEqual([name, found(whole, content)]);
  });

  it("finds the tokens and the named values (the comparison is not of two empty lists)", () => {
    // `UK3_`: the keyword check is caseless, the pattern is not.
    expect(found(windows, texts["tokens side by side"]).map((f) => f.column)).toEqual([1, 46]);
    expect(found(windows, texts["a token at the start of the file"])).toHaveLength(1);
    expect(found(windows, texts["keywords everywhere (the whole file is searched instead)"])).toHaveLength(1);
    expect(found(windows, texts["the provider named before the value"]).map((f) => f.line)).toEqual([1, 2]);
    expect(found(windows, texts["the provider named on the line before"]).map((f) => f.line)).toEqual([2]);
    expect(found(windows, texts["many mentions, one value"])).toHaveLength(1);
    for (const quiet of [
      "a token inside a longer word",
      "a token one character short or long",
      "the provider too far away",
      "the provider inside another word",
      "the value on a line of its own, the provider two lines up",
    ] as const)
      expect([quiet, found(windows, texts[quiet])]).toEqual([quiet, []]);
  });
});
