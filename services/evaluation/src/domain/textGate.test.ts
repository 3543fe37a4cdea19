import { describe, expect, it } from "@jest/globals";
import { textGate } from "./textGate.js";

describe("textGate", () => {
  const texts = [
    { path: "src/config.ts", content: Buffer.from('const key = "AKIAZ7VQ3X4M2N8P5R6T"; // Grüße\n') },
    { path: "deploy/Dockerfile", content: Buffer.from("FROM debian\nUSER root\n") },
  ];
  const admits = textGate(texts);

  it("admits a rule one of whose keywords is in a text, in any ASCII case, short or not ASCII", () => {
    expect(admits({ keywords: ["akia"], paths: [] })).toBe(true);
    expect(admits({ keywords: ["nothing-here", "USER"], paths: [] })).toBe(true);
    expect(admits({ keywords: ["fr"], paths: [] })).toBe(true);
    expect(admits({ keywords: ["grüße"], paths: [] })).toBe(true);
  });

  it("refuses a rule none of whose keywords is in any text, even when each of its trigrams is", () => {
    expect(admits({ keywords: ["ghp_", "xoxb-"], paths: [] })).toBe(false);
    // "key", "ey " ... all in the first text, "key root" in none.
    expect(admits({ keywords: ["key root"], paths: [] })).toBe(false);
    expect(admits({ keywords: ["zq"], paths: [] })).toBe(false);
  });

  it("admits a rule with path conditions only when one matches a text's path, and its keywords too", () => {
    expect(admits({ keywords: [], paths: ["(^|/)Dockerfile$"] })).toBe(true);
    expect(admits({ keywords: [], paths: ["\\.tf$"] })).toBe(false);
    expect(admits({ keywords: ["user"], paths: ["(^|/)Dockerfile$"] })).toBe(true);
    expect(admits({ keywords: ["ghp_"], paths: ["(^|/)Dockerfile$"] })).toBe(false);
  });
});
