import { describe, expect, it } from "@jest/globals";
import { MAX_FILE_BYTES } from "./files.js";
import { composeRounds, newPath, type Addition } from "./history.js";

/** Additions as a slice holds them: their lines one after another in one text. */
function sliceOf(list: { commit: number; path: string; lines: [number, Buffer][] }[]) {
  const parts: Buffer[] = [];
  let at = 0;
  const additions: Addition[] = list.map(({ commit, path, lines }) => {
    const start = at;
    for (const [, text] of lines) {
      parts.push(text, Buffer.from("\n"));
      at += text.length + 1;
    }
    return { commit, path, lines: lines.map(([n]) => n), start, end: at };
  });
  return { additions, text: Buffer.concat(parts) };
}

describe("history texts", () => {
  it("join a path's added lines of several commits into one text per round, each line mapped to its commit and line", () => {
    const slice = sliceOf([
      { commit: 0, path: "a.js", lines: [[3, Buffer.from("x = 1")]] },
      { commit: 1, path: "b.js", lines: [[1, Buffer.from("y")]] },
      {
        commit: 2,
        path: "a.js",
        lines: [
          [7, Buffer.from("z = 2")],
          [8, Buffer.from("w")],
        ],
      },
    ]);
    const [round, ...more] = composeRounds(slice);
    expect(more).toEqual([]);
    const a = round!.find((c) => c.path === "a.js")!;
    expect(a.content.toString()).toBe("x = 1\nz = 2\nw\n");
    expect(a.origin).toEqual([
      { addition: 0, line: 3 },
      { addition: 2, line: 7 },
      { addition: 2, line: 8 },
    ]);
  });

  it("put a path's lines past 1 MiB in the next round, so a round never names a path twice", () => {
    const long = Buffer.from("k".repeat(600_000));
    const rounds = composeRounds(
      sliceOf([
        { commit: 0, path: "big.txt", lines: [[1, long]] },
        { commit: 1, path: "big.txt", lines: [[1, long]] },
        { commit: 1, path: "small.txt", lines: [[1, Buffer.from("s")]] },
      ]),
    );
    expect(rounds.map((r) => r.map((c) => c.path))).toEqual([["big.txt", "small.txt"], ["big.txt"]]);
    for (const r of rounds) for (const c of r) expect(c.content.length).toBeLessThanOrEqual(MAX_FILE_BYTES);
    expect(rounds[1]![0]!.content.toString()).toBe(long.toString() + "\n");
  });

  it("cut a single line longer than 1 MiB (it counts whole: the next line goes in the next round)", () => {
    const huge = Buffer.from("h".repeat(MAX_FILE_BYTES + 10));
    const rounds = composeRounds(
      sliceOf([
        {
          commit: 0,
          path: "min.js",
          lines: [
            [1, Buffer.from("a")],
            [2, huge],
            [3, Buffer.from("b")],
          ],
        },
      ]),
    );
    expect(rounds.map((r) => r.map((c) => [c.content.length, c.origin.map((o) => o.line)]))).toEqual([
      [[2, [1]]],
      [[MAX_FILE_BYTES / 4 + 1, [2]]],
      [[2, [3]]],
    ]);
  });
});

describe("the path of a diff's +++ line", () => {
  it("reads git's plain, tab-ended and C-quoted names", () => {
    expect(newPath("b/src/app.js")).toBe("src/app.js");
    expect(newPath("b/my file.js\t")).toBe("my file.js");
    expect(newPath("b/café.js")).toBe("café.js");
    expect(newPath('"b/tab\\there.js"')).toBe("tab\there.js");
    expect(newPath('"b/quo\\"te \\\\ end.js"')).toBe('quo"te \\ end.js');
    expect(newPath('"b/caf\\303\\251\\n.js"')).toBe("café\n.js");
    expect(newPath("/dev/null")).toBeNull();
  });
});
