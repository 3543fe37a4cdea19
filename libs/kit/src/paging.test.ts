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
    // The offset's colon is optional, as the schema the OpenAPI document states says (the fuzzer
    // sent -1130 and got 400 for a schema-valid request).
    expect(parsePageWindow({ since: "2330-10-30T23:01:26.928-1130", until: "2026-01-31T12:00+05:30" }, "aud")).toEqual({
      window: { since: "2330-10-31T10:31:26.928Z", until: "2026-01-31T06:30:00.000Z" },
      problems: [],
    });
    const bad = parsePageWindow({ cursor: encodeCursor(newId("eval")), until: "2026-01-31T12:00" }, "aud");
    expect(bad.problems.map((p) => p.field)).toEqual(["until", "cursor"]);
  });
});
