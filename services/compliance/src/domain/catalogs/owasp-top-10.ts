// OWASP Top 10 (2021): the ten web application risk categories. Titles are our own short wording.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const owaspTop10: Catalog = {
  id: "owasp-top-10",
  name: "OWASP Top 10",
  version: "2021",
  kind: "framework",
  source_url: "https://owasp.org/Top10/",
  controls: family("Top 10", [
    ["A01", "Broken access control"],
    ["A02", "Cryptographic failures"],
    ["A03", "Injection (including cross-site scripting)"],
    ["A04", "Insecure design"],
    ["A05", "Security misconfiguration"],
    ["A06", "Vulnerable and outdated components"],
    ["A07", "Identification and authentication failures"],
    ["A08", "Software and data integrity failures"],
    ["A09", "Security logging and monitoring failures"],
    ["A10", "Server-side request forgery"],
  ]),
};
