// CIS Critical Security Controls v8.1: the safeguards about data protection in code, secure
// configuration, accounts, vulnerability management and application software security (control
// 16 in full). Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const cisControls: Catalog = {
  id: "cis-controls",
  name: "CIS Critical Security Controls",
  version: "8.1",
  kind: "framework",
  source_url: "https://www.cisecurity.org/controls/v8-1",
  controls: [
    ...family("3", [
      ["3.3", "Data access control lists configured"],
      ["3.10", "Sensitive data encrypted in transit"],
      ["3.11", "Sensitive data encrypted at rest"],
    ]),
    ...family("4", [
      ["4.1", "Secure configuration process maintained"],
      ["4.7", "Default accounts managed"],
      ["4.8", "Unnecessary services uninstalled or disabled"],
    ]),
    ...family("5", [
      ["5.2", "Unique passwords used"],
      ["5.4", "Administrator privileges restricted to dedicated accounts"],
    ]),
    ...family("7", [
      ["7.1", "Vulnerability management process maintained"],
      ["7.2", "Remediation process maintained"],
    ]),
    ...family("16", [
      ["16.1", "Secure application development process maintained"],
      ["16.2", "Process to accept and address software vulnerabilities"],
      ["16.3", "Root cause analysis of security vulnerabilities"],
      ["16.4", "Inventory of third-party software components"],
      ["16.5", "Up-to-date, trusted third-party components"],
      ["16.6", "Severity rating system for application vulnerabilities"],
      ["16.7", "Standard hardening templates for application infrastructure"],
      ["16.8", "Production and non-production systems separated"],
      ["16.9", "Developers trained in application security"],
      ["16.10", "Secure design principles applied"],
      ["16.11", "Vetted modules used for security components"],
      ["16.12", "Code-level security checks implemented"],
      ["16.13", "Application penetration testing"],
      ["16.14", "Threat modeling"],
    ]),
  ],
};
