// ISO/IEC 27001:2022 Annex A: the organizational and technological controls that concern access
// to and protection of code, authentication information, cryptography, configuration and secure
// development (A.5.x, A.8.x). Titles are our own short summaries, not the standard's text.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const iso27001: Catalog = {
  id: "iso-27001",
  name: "ISO/IEC 27001 Annex A",
  version: "2022",
  kind: "framework",
  source_url: "https://www.iso.org/standard/27001",
  controls: [
    ...family("A.5", [
      ["A.5.14", "Information transfer protected"],
      ["A.5.15", "Access control rules"],
      ["A.5.17", "Authentication information managed"],
    ]),
    ...family("A.8", [
      ["A.8.2", "Privileged access rights restricted"],
      ["A.8.3", "Information access restricted"],
      ["A.8.4", "Access to source code managed"],
      ["A.8.5", "Secure authentication"],
      ["A.8.8", "Technical vulnerabilities managed"],
      ["A.8.9", "Configuration management"],
      ["A.8.12", "Data leakage prevented"],
      ["A.8.20", "Network security"],
      ["A.8.24", "Cryptography used effectively, with key management"],
      ["A.8.25", "Secure development life cycle"],
      ["A.8.26", "Application security requirements"],
      ["A.8.27", "Secure system architecture and engineering principles"],
      ["A.8.28", "Secure coding"],
      ["A.8.29", "Security testing in development and acceptance"],
      ["A.8.30", "Outsourced development supervised"],
      ["A.8.31", "Development, test and production environments separated"],
      ["A.8.32", "Change management"],
      ["A.8.33", "Test information protected"],
    ]),
  ],
};
