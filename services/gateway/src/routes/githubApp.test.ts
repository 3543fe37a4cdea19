import { createHash } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import { manifestFormPage } from "./githubApp.js";

describe("the page that posts a GitHub App manifest", () => {
  const hostile = JSON.stringify({ name: `"><script>alert(1)</script>`, url: "https://x.test/?a=1&b='2'" });
  const { html, csp } = manifestFormPage("https://ghe.acme.test/settings/apps/new?state=s&x=1", hostile);

  it("carries the manifest whole through HTML escaping, and nothing of it as markup", () => {
    expect(html).not.toContain("<script>alert");
    const value = /name="manifest" value="([^"]*)"/.exec(html)![1]!;
    const decoded = value
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, "&");
    expect(decoded).toBe(hostile);
    expect(html).toContain('action="https://ghe.acme.test/settings/apps/new?state=s&amp;x=1"');
  });

  it("allows its one script by hash and a form to that GitHub only", () => {
    const script = /<script>([^<]*)<\/script>/.exec(html)![1]!;
    const hash = createHash("sha256").update(script).digest("base64");
    expect(csp).toBe(
      `default-src 'none'; script-src 'sha256-${hash}'; form-action https://ghe.acme.test; base-uri 'none'; frame-ancestors 'none'`,
    );
  });
});
