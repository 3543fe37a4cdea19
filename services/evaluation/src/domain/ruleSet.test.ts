import { describe, expect, it } from "@jest/globals";
import RE2 from "re2";
import { compileSet, type SetEntry, type SetRule } from "./ruleSet.js";

const rule = (value: string, keywords: string[] = [], entry: SetEntry = "pattern"): SetRule => ({
  re: new RE2(value, "gmu"),
  pattern: { value, keywords },
  entry,
});

describe("the first pass split in two sets", () => {
  const rules = [
    rule("AKIA[0-9A-Z]{16}"),
    rule("password\\s*=\\s*\\S{8,64}", ["password"], "keywords"),
    rule("eval\\s*\\(.*req\\."),
    rule("token[:=][a-z0-9]{20,80}", ["token"], "keywords"),
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
      keywords: new Set(["password"]),
    });
  });
});

describe("the set's entries", () => {
  const rules = [
    rule("token[:=][a-z0-9]{20,80}", ["token", "auth"], "keywords"),
    rule("auth_[a-z0-9]{40}", ["auth"], "keywords"),
    rule("uk[1-9]_[A-Za-z0-9]{40}", ["uk"], "capped"),
  ];
  const set = compileSet(rules);

  it("say which keywords a file has, an entry per keyword shared by the rules that have it", () => {
    expect(set(Buffer.from("AUTH = 1"))).toEqual({ rules: [0, 1], bySet: true, keywords: new Set(["auth"]) });
    expect(set(Buffer.from("token"))).toEqual({ rules: [0], bySet: true, keywords: new Set(["token"]) });
    expect(set(Buffer.from("nothing"))).toEqual({ rules: [], bySet: true, keywords: new Set() });
  });

  it("look for a capped rule's pattern with its large repeats opened, not for its keyword", () => {
    expect(set(Buffer.from("uk1_" + "Zx9Qw8Er7Ty6Ui5O"))).toEqual({ rules: [2], bySet: true, keywords: new Set() });
    // The keyword alone, or a token shorter than the cap: not a candidate.
    expect(set(Buffer.from("uk1_ Zx9Qw8Er7Ty6Ui5O duke"))).toEqual({ rules: [], bySet: true, keywords: new Set() });
    expect(set(Buffer.from("uk1_Zx9Qw8Er7Ty6Ui5"))).toEqual({ rules: [], bySet: true, keywords: new Set() });
  });
});
