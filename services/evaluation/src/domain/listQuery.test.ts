import { describe, expect, it } from "@jest/globals";
import { newId } from "@verdict/kit";
import { decodeCursor, encodeCursor, parseListInput } from "./listQuery.js";

describe("list cursors", () => {
  it("round-trip the last id as base64url JSON", () => {
    const id = newId("eval");
    const cursor = encodeCursor(id);
    expect(JSON.parse(Buffer.from(cursor, "base64url").toString())).toEqual({ v: 1, id });
    expect(decodeCursor(cursor)).toBe(id);
  });

  it("reject anything that is not one of ours", () => {
    const b64 = (s: string) => Buffer.from(s).toString("base64url");
    for (const bad of [
      "",
      "!!",
      "abc",
      b64("[]"),
      b64('{"v":2,"id":"eval_01jabcdefghjkmnpqrstvwxyz0"}'),
      b64('{"v":1,"id":"key_01jabcdefghjkmnpqrstvwxyz0"}'),
      b64('{"v":1}'),
    ]) {
      expect(decodeCursor(bad)).toBeUndefined();
    }
  });
});

describe("list input", () => {
  it("defaults the page size and normalizes timestamps to stored form", () => {
    const { query, problems } = parseListInput({
      limit: 0,
      since: "2026-01-31",
      until: "2026-02-01T01:30:00+01:00",
      passed: false,
      repository: "",
    });
    expect(problems).toEqual([]);
    expect(query).toEqual({
      limit: 20,
      since: "2026-01-31T00:00:00.000Z",
      until: "2026-02-01T00:30:00.000Z",
      passed: false,
    });
  });

  it("reports every problem at once with its field", () => {
    const { problems } = parseListInput({
      limit: 500,
      status: "done",
      since: "2026-13-45",
      until: "soon",
      cursor: "zz",
    });
    expect(problems.map((p) => `${p.field}:${p.code}`)).toEqual([
      "limit:MAX_SIZE_EXCEEDED",
      "status:INVALID_ENUM",
      "since:INVALID_FORMAT",
      "until:INVALID_FORMAT",
      "cursor:INVALID_FORMAT",
    ]);
    expect(problems[0]).toMatchObject({ max: 100 });
  });
});
