// docs/development.md tells people to run `pnpm docs:config` after changing a configuration
// variable: the command, read from that page, runs (build included) and rewrites
// docs/configuration.md to exactly the committed file (medium tier: it builds and spawns pnpm).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";

const root = new URL("../../../", import.meta.url);
const devDoc = readFileSync(new URL("docs/development.md", root), "utf8");
const configDoc = new URL("docs/configuration.md", root);

describe("pnpm docs:config (docs/development.md)", () => {
  it("runs and leaves docs/configuration.md unchanged", () => {
    const line = devDoc.split("\n").find((l) => /^pnpm docs:config\b/.test(l));
    expect(line).toBeDefined();
    const command = line!.replace(/#.*$/, "").trim();
    expect(command).toBe("pnpm docs:config");
    const before = readFileSync(configDoc, "utf8");
    let after: string | undefined;
    try {
      const out = execFileSync("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", command], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 110_000,
      });
      expect(out).toContain("wrote ");
      after = readFileSync(configDoc, "utf8");
    } finally {
      // Whatever it wrote, the working tree is left as it was.
      if (readFileSync(configDoc, "utf8") !== before) writeFileSync(configDoc, before);
    }
    expect(after).toBe(before);
  });
});
