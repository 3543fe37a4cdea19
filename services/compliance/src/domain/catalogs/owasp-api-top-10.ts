// OWASP API Security Top 10 (2023). Titles are our own short wording.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const owaspApiTop10: Catalog = {
  id: "owasp-api-top-10",
  name: "OWASP API Security Top 10",
  version: "2023",
  kind: "framework",
  source_url: "https://owasp.org/API-Security/editions/2023/en/0x11-t10/",
  controls: family("API Top 10", [
    ["API1", "Broken object level authorization"],
    ["API2", "Broken authentication"],
    ["API3", "Broken object property level authorization"],
    ["API4", "Unrestricted resource consumption"],
    ["API5", "Broken function level authorization"],
    ["API6", "Unrestricted access to sensitive business flows"],
    ["API7", "Server-side request forgery"],
    ["API8", "Security misconfiguration"],
    ["API9", "Improper inventory management"],
    ["API10", "Unsafe consumption of third-party APIs"],
  ]),
};
