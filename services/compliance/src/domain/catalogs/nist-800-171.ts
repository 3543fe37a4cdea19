// NIST SP 800-171 Rev. 2 (the revision CMMC 2.0 level 2 assesses): the requirements for
// protecting CUI that application code and its configuration speak to. Titles are our own
// short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const nist800171: Catalog = {
  id: "nist-800-171",
  name: "NIST SP 800-171",
  version: "Rev. 2",
  kind: "regulation",
  source_url: "https://csrc.nist.gov/pubs/sp/800/171/r2/upd1/final",
  controls: [
    ...family("3.1", [
      ["3.1.1", "System access limited to authorized users, processes and devices"],
      ["3.1.2", "Access limited to permitted transactions and functions"],
      ["3.1.3", "Flow of CUI controlled"],
      ["3.1.5", "Least privilege"],
      ["3.1.7", "Non-privileged users cannot run privileged functions"],
      ["3.1.13", "Remote access sessions protected with cryptography"],
    ]),
    ...family("3.3", [["3.3.1", "Audit logs created and retained"]]),
    ...family("3.4", [
      ["3.4.1", "Baseline configurations and inventories"],
      ["3.4.2", "Security configuration settings enforced"],
      ["3.4.3", "Changes tracked, reviewed and approved"],
      ["3.4.6", "Least functionality"],
      ["3.4.7", "Nonessential programs, functions, ports and services restricted"],
    ]),
    ...family("3.5", [
      ["3.5.1", "Users, processes and devices identified"],
      ["3.5.2", "Users, processes and devices authenticated"],
      ["3.5.3", "Multifactor authentication for privileged and network access"],
      ["3.5.10", "Only cryptographically protected passwords stored and transmitted"],
    ]),
    ...family("3.11", [
      ["3.11.2", "Systems and applications scanned for vulnerabilities"],
      ["3.11.3", "Vulnerabilities remediated according to risk"],
    ]),
    ...family("3.13", [
      ["3.13.1", "Communications monitored and protected at boundaries"],
      ["3.13.2", "Secure designs, development techniques and engineering principles"],
      ["3.13.8", "CUI protected with cryptography in transit"],
      ["3.13.10", "Cryptographic keys established and managed"],
      ["3.13.11", "FIPS-validated cryptography protects CUI"],
      ["3.13.13", "Mobile code controlled and monitored"],
      ["3.13.15", "Authenticity of communication sessions protected"],
      ["3.13.16", "CUI protected at rest"],
    ]),
    ...family("3.14", [
      ["3.14.1", "System flaws identified, reported and corrected promptly"],
      ["3.14.2", "Protection from malicious code"],
    ]),
  ],
};
