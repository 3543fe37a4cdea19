import { describe, expect, it } from "@jest/globals";
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
});
