import { describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { catalogById } from "./catalogs/index.js";
import { renderPdf } from "./pdf.js";
import { DIGIT_CATALOG, deviationEvidence, sampleEvidence } from "../../test/fixtures.js";
import { pdfText, section } from "../../../../test/support/pdf.js";

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

  it("lists each finding still to act on with its milestone: remediation target, or the acceptance's expiry", async () => {
    const pdf = await renderPdf({ organizationName: "Acme Corp" }, deviationEvidence([catalogById("soc2")!]));
    const text = pdfText(pdf);
    const HEADINGS = [
      "Open violations by control",
      "Fixed in this period",
      "Suppressed in code, not fixed",
      "Triaged: accepted risks and false positives",
      "Bypass events",
    ];
    const part = (h: string) =>
      section(
        text,
        h,
        HEADINGS.filter((x) => x !== h),
      ).replace(/\s+/g, " ");
    // Open since 2 March, severity error: 30 days; suppressed since 10 March; accepted until 30 June.
    expect(part("Open violations by control")).toContain("Remediation target 2026-04-01");
    expect(part("Suppressed in code, not fixed")).toContain("Remediation target 2026-04-09");
    const triaged = part("Triaged: accepted risks and false positives");
    expect(triaged).toContain("Accepted risk until 2026-06-30");
    expect(triaged).toContain("Review by 2026-06-30");
    expect(part("Fixed in this period")).not.toContain("Remediation target");
    // The page rendered by poppler, as a reader sees it.
    const dir = mkdtempSync(join(tmpdir(), "pdf-milestones-"));
    try {
      writeFileSync(join(dir, "report.pdf"), pdf);
      const page = text.split("\f").findIndex((p) => p.includes("Triaged: accepted risks")) + 1;
      execFileSync(
        "pdftoppm",
        ["-f", String(page), "-l", String(page), "-r", "40", "-png", "-singlefile", "report.pdf", "page"],
        {
          cwd: dir,
        },
      );
      const png = readFileSync(join(dir, "page.png"));
      expect(png.subarray(1, 4).toString()).toBe("PNG");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
