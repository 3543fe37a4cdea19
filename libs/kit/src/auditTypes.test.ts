import { describe, expect, it } from "@jest/globals";
import { canonicalJson, fieldChanges } from "./auditTypes.js";

describe("fieldChanges", () => {
  it("compares only the keys named, so an unnamed (secret) field never appears", () => {
    const before = { name: "a", secret: "s1", url: "https://x" };
    const after = { name: "b", secret: "s2", url: "https://x" };
    expect(fieldChanges(before, after, ["name", "url"])).toEqual({ name: { before: "a", after: "b" } });
  });

  it("treats absent and undefined as null", () => {
    expect(fieldChanges(null, { name: "a" }, ["name", "other"])).toEqual({ name: { before: null, after: "a" } });
    expect(fieldChanges({ name: undefined }, {}, ["name"])).toEqual({});
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });
});
