// NIST SP 800-53 Rev. 5: the controls and enhancements of the AC, AU, CM, IA, RA, SA, SC, SI and
// SR families that application code, its configuration and its development process speak to.
// Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const nist80053: Catalog = {
  id: "nist-800-53",
  name: "NIST SP 800-53",
  version: "Rev. 5.1.1",
  kind: "regulation",
  source_url: "https://csrc.nist.gov/pubs/sp/800/53/r5/upd1/final",
  controls: [
    ...family("AC", [
      ["AC-2", "Account management"],
      ["AC-3", "Access enforcement"],
      ["AC-4", "Information flow enforcement"],
      ["AC-6", "Least privilege"],
      ["AC-6(10)", "Non-privileged users cannot run privileged functions"],
      ["AC-17(2)", "Remote access protected with encryption"],
    ]),
    ...family("AU", [
      ["AU-2", "Event logging"],
      ["AU-3", "Content of audit records"],
      ["AU-9", "Protection of audit information"],
      ["AU-12", "Audit record generation"],
    ]),
    ...family("CM", [
      ["CM-2", "Baseline configuration"],
      ["CM-3", "Configuration change control"],
      ["CM-4", "Impact analyses of changes"],
      ["CM-6", "Configuration settings"],
      ["CM-7", "Least functionality"],
      ["CM-8", "System component inventory"],
      ["CM-14", "Signed components"],
    ]),
    ...family("IA", [
      ["IA-2", "Identification and authentication of organizational users"],
      ["IA-5", "Authenticator management"],
      ["IA-5(1)", "Password-based authentication (protected storage and transmission)"],
      ["IA-5(2)", "Public key-based authentication"],
      ["IA-5(7)", "No embedded unencrypted static authenticators"],
      ["IA-7", "Cryptographic module authentication"],
      ["IA-9", "Service identification and authentication"],
    ]),
    ...family("RA", [["RA-5", "Vulnerability monitoring and scanning"]]),
    ...family("SA", [
      ["SA-3", "System development life cycle"],
      ["SA-8", "Security and privacy engineering principles"],
      ["SA-10", "Developer configuration management"],
      ["SA-11", "Developer testing and evaluation"],
      ["SA-11(1)", "Static code analysis"],
      ["SA-15", "Development process, standards and tools"],
      ["SA-22", "Unsupported system components"],
    ]),
    ...family("SC", [
      ["SC-7", "Boundary protection"],
      ["SC-8", "Transmission confidentiality and integrity"],
      ["SC-8(1)", "Cryptographic protection in transit"],
      ["SC-12", "Cryptographic key establishment and management"],
      ["SC-13", "Cryptographic protection"],
      ["SC-17", "Public key infrastructure certificates"],
      ["SC-18", "Mobile code"],
      ["SC-23", "Session authenticity"],
      ["SC-28", "Protection of information at rest"],
      ["SC-28(1)", "Cryptographic protection at rest"],
      ["SC-39", "Process isolation"],
    ]),
    ...family("SI", [
      ["SI-2", "Flaw remediation"],
      ["SI-7", "Software, firmware and information integrity"],
      ["SI-10", "Information input validation"],
      ["SI-11", "Error handling"],
      ["SI-16", "Memory protection"],
    ]),
    ...family("SR", [
      ["SR-3", "Supply chain controls and processes"],
      ["SR-11", "Component authenticity"],
    ]),
  ],
};
