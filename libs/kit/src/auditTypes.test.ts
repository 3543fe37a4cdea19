import { describe, expect, it } from "@jest/globals";
import { fieldChanges } from "./auditTypes.js";

describe("fieldChanges", () => {
  it("compares only the keys named, so an unnamed (secret) field never appears", () => {
    const before = { name: "a", secret: "s1", url: "https://x" };
    const after = { name: "b", secret: "s2", url: "https://x" };
    expect(fieldChanges(before, after, ["name", "url"])).toEqual({ name: { before: "a", after: "b" } });
  });

  it("compares values whatever the key order", () => {
    expect(fieldChanges({ x: { a: 1, b: [1, 2] } }, { x: { b: [1, 2], a: 1 } }, ["x"])).toEqual({});
    expect(fieldChanges({ x: [1, 2] }, { x: [2, 1] }, ["x"])).toEqual({ x: { before: [1, 2], after: [2, 1] } });
  });

  it("treats absent and undefined as null", () => {
    expect(fieldChanges(null, { name: "a" }, ["name", "other"])).toEqual({ name: { before: null, after: "a" } });
    expect(fieldChanges({ name: undefined }, {}, ["name"])).toEqual({});
  });
});
