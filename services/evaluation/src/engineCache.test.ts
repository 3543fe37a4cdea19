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
  it("reuses an engine for the same organization and version, and compiles a new version", () => {
    const cache = new EngineCache(8);
    const a = cache.get("org_a", "v1", policies("foo"));
    expect(cache.get("org_a", "v1", policies("ignored"))).toBe(a);
    expect(cache.peek("org_a", "v1")).toBe(a);
    expect(cache.peek("org_b", "v1")).toBeUndefined();
    const b = cache.get("org_a", "v2", policies("bar"));
    expect(b).not.toBe(a);
    expect(b.policyIds).toEqual(["p"]);
    expect(b.engine.scan("x.txt", Buffer.from("bar"), { allowSuppression: true }).findings).toHaveLength(1);
  });

  it("forgets an organization's engines on request and evicts the least recently used", () => {
    const cache = new EngineCache(2);
    const a = cache.get("org_a", "v1", policies("a"));
    cache.get("org_b", "v1", policies("b"));
    cache.get("org_a", "v1", policies("a")); // org_a is now the most recent
    cache.get("org_c", "v1", policies("c")); // evicts org_b
    expect(cache.size).toBe(2);
    expect(cache.get("org_a", "v1", policies("a"))).toBe(a);
    cache.forget("org_a");
    expect(cache.get("org_a", "v1", policies("a"))).not.toBe(a);
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
