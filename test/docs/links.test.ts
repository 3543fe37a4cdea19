// Every relative link and #anchor in the README, docs/*.md and the chart's README resolves: the
// file exists, and the anchor is a heading of that file (GitHub's slugs, duplicates numbered).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "@jest/globals";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DOCS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  "charts/verdict/README.md",
];

/** The text outside fenced code blocks (links and headings in code are not markdown). */
function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split("\n")
    .filter((line) => {
      if (line.startsWith("```")) fenced = !fenced;
      return !fenced && !line.startsWith("```");
    })
    .join("\n");
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = text!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replaceAll(" ", "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** [label](target) links, without the scheme-qualified ones (http:, mailto:). */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe("documentation links", () => {
  it("reads the README, every file in docs/ and the chart's README", () => {
    expect(DOCS).toEqual(expect.arrayContaining(["README.md", "docs/api.md", "charts/verdict/README.md"]));
  });

  it.each(DOCS)("every relative link and anchor in %s resolves", (doc) => {
    const text = readFileSync(join(ROOT, doc), "utf8");
    const broken: string[] = [];
    for (const target of links(text)) {
      const [path, anchor] = target.split("#", 2) as [string, string | undefined];
      const file = path === "" ? join(ROOT, doc) : resolve(ROOT, dirname(doc), decodeURIComponent(path));
      if (!existsSync(file)) {
        broken.push(`${target} (no ${relative(ROOT, file)})`);
        continue;
      }
      if (anchor !== undefined) {
        if (statSync(file).isDirectory() || !file.endsWith(".md"))
          broken.push(`${target} (an anchor into a non-markdown file)`);
        else if (!anchors(readFileSync(file, "utf8")).has(anchor)) broken.push(`${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
