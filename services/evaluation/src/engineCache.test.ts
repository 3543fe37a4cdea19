import { describe, expect, it } from "@jest/globals";
import { EngineCache } from "./engineCache.js";
import type { PolicyToRun } from "./domain/engine.js";

const policies = (value: string): PolicyToRun[] => [
  {
    id: "p",
    severity: "error",
    category: "security",
    suggestion: "",
    exclude_paths: [],
    patterns: [
      {
        value,
        message: "m",
        redact: false,
        redact_group: 0,
        rule_id: "r",
        keywords: [],
        min_entropy: 0,
        paths: [],
        allowlist: [],
        generic: false,
      },
    ],
  },
];

describe("EngineCache", () => {
  it("reuses an engine for the same version, and compiles a new version", () => {
    const cache = new EngineCache(8);
    const a = cache.get("v1", policies("foo"));
    expect(cache.get("v1", policies("ignored"))).toBe(a);
    expect(cache.peek("v1")).toBe(a);
    expect(cache.peek("v0")).toBeUndefined();
    const b = cache.get("v2", policies("bar"));
    expect(b).not.toBe(a);
    expect(b.policyIds).toEqual(["p"]);
    expect(b.engine.scan("x.txt", Buffer.from("bar"), { allowSuppression: true }).findings).toHaveLength(1);
  });

  it("forgets the versions an organization resolved to and evicts the least recently used", () => {
    const cache = new EngineCache(2);
    const a = cache.get("va", policies("a"));
    cache.remember("org_a", [], "va");
    cache.get("vb", policies("b"));
    cache.get("va", policies("a")); // va is now the most recent
    cache.get("vc", policies("c")); // evicts vb
    expect(cache.size).toBe(2);
    expect(cache.peek("vb")).toBeUndefined();
    expect(cache.get("va", policies("a"))).toBe(a);
    cache.forget("org_b");
    expect(cache.peek("va")).toBe(a);
    cache.forget("org_a");
    expect(cache.peek("va")).toBeUndefined();
    expect(cache.get("va", policies("a"))).not.toBe(a);
  });

  it("remembers the version each request shape resolved to, per organization, until forgotten", () => {
    const cache = new EngineCache(2);
    cache.remember("org_a", [], "v1");
    cache.remember("org_a", ["p", "q"], "v2");
    cache.remember("org_b", [], "v3");
    expect(cache.lastVersion("org_a", [])).toBe("v1");
    expect(cache.lastVersion("org_a", ["p", "q"])).toBe("v2");
    expect(cache.lastVersion("org_a", ["q", "p"])).toBeUndefined();
    cache.remember("org_a", [], "v4");
    expect(cache.lastVersion("org_a", [])).toBe("v4");
    cache.forget("org_a");
    expect(cache.lastVersion("org_a", [])).toBeUndefined();
    expect(cache.lastVersion("org_b", [])).toBe("v3");
  });
});
