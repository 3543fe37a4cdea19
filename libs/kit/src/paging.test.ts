import { describe, expect, it } from "@jest/globals";
import { newId } from "./ids.js";
import { encodeCursor, parsePageWindow } from "./paging.js";

describe("a list's page window", () => {
  it("takes a cursor of its own id kind and real instants, naming each bad field", () => {
    const id = newId("aud");
    expect(parsePageWindow({ cursor: encodeCursor(id), since: "2026-01-31" }, "aud")).toEqual({
      window: { beforeId: id, since: "2026-01-31T00:00:00.000Z" },
      problems: [],
    });
    const bad = parsePageWindow({ cursor: encodeCursor(newId("eval")), until: "2026-01-31T12:00" }, "aud");
    expect(bad.problems.map((p) => p.field)).toEqual(["until", "cursor"]);
  });
});
