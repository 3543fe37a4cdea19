// A PDF's text as a reader sees it, by poppler's pdftotext (scripts/install-test-tools.sh): the
// compliance report is checked by what it says, not by how pdfkit happens to encode it.
import { execFileSync } from "node:child_process";

/** The text of every page, in reading order (pdftotext -layout), pages separated by form feeds. */
export function pdfText(pdf: Buffer): string {
  return execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", "-", "-"], { input: pdf, encoding: "utf8" });
}

/**
 * The text of a report from the heading `from` up to the next of `until` (or the end): one
 * section of one framework's pages.
 */
export function section(text: string, from: string, until: string[]): string {
  const start = text.indexOf(from);
  if (start < 0) throw new Error(`no section "${from}" in the PDF`);
  const rest = text.slice(start + from.length);
  const ends = until.map((u) => rest.indexOf(u)).filter((i) => i >= 0);
  return rest.slice(0, ends.length ? Math.min(...ends) : undefined);
}
