import { describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { catalogById } from "./catalogs/index.js";
import { renderPdf } from "./pdf.js";
import { DIGIT_CATALOG, sampleEvidence } from "../../test/fixtures.js";

describe("PDF report", () => {
  it("renders a multi-page PDF with the evidence", async () => {
    const pdf = await renderPdf(
      { organizationName: "Acme Corp" },
      sampleEvidence([catalogById("nist-ssdf")!, DIGIT_CATALOG]),
    );
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const pages = pdf.toString("latin1").match(/\/Type \/Page\b/g) ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(5);
  });

  it("has a scope and system description page after the cover, saying what is not described", async () => {
    const pdf = await renderPdf(
      {
        organizationName: "Acme Corp",
        scope: {
          systemDescription: "",
          reportScope: "The payments monorepo, production branches only.",
          keyId: "ab".repeat(32),
          publicKeyUrl: "https://verdict.example.com/.well-known/verdict-report-key.pem",
        },
      },
      sampleEvidence([catalogById("soc2")!]),
    );
    // poppler's pdftotext, as an auditor's tools read the page.
    const page2 = execFileSync("pdftotext", ["-f", "2", "-l", "2", "-layout", "-", "-"], { input: pdf }).toString();
    expect(page2).toContain("Scope and system description");
    expect(page2).toMatch(/Not described\. An organization admin sets it in the organization settings/);
    expect(page2).toContain("settings.system_description");
    expect(page2).toContain("The payments monorepo, production branches only.");
    expect(page2).toContain("ab".repeat(32));
    expect(page2.replace(/\s+/g, " ")).toContain("https://verdict.example.com/.well-known/verdict-report-key.pem");
    // Without a scope (an older caller), no such page.
    const without = await renderPdf({ organizationName: "Acme Corp" }, sampleEvidence([catalogById("soc2")!]));
    expect(execFileSync("pdftotext", ["-", "-"], { input: without }).toString()).not.toContain("Scope and system");
  });
});
