import { describe, expect, it } from "@jest/globals";
import RE2 from "re2";
import { compileSet, type SetRule } from "./ruleSet.js";

const rule = (value: string, keywords: string[] = [], keywordEntry = false): SetRule => ({
  re: new RE2(value, "gmu"),
  pattern: { value, keywords },
  keywordEntry,
});

describe("the first pass split in two sets", () => {
  const rules = [
    rule("AKIA[0-9A-Z]{16}"),
    rule("password\\s*=\\s*\\S{8,64}", ["password"], true),
    rule("eval\\s*\\(.*req\\."),
    rule("token[:=][a-z0-9]{20,80}", ["token"], true),
    rule("ghp_[A-Za-z0-9]{36}"),
  ];
  const one = compileSet(rules);
  const two = compileSet(rules, { split: true });

  it("answers as one set: the same rules, in ascending order, found by the sets", () => {
    for (const text of [
      "nothing here",
      'const k = "AKIAZ7VQ3X4M2N8P5R6T"; PASSWORD = hunter22',
      "eval(req.query.x); token=abc",
      "Token: x\nghp_" + "a".repeat(36) + "\npassword = x",
    ]) {
      const content = Buffer.from(text);
      expect(two(content)).toEqual(one(content));
    }
    expect(two(Buffer.from("eval(req.body) ghp_" + "b".repeat(36) + " password=x AKIAZ7VQ3X4M2N8P5R6T"))).toEqual({
      rules: [0, 1, 2, 4],
      bySet: true,
    });
  });
});
