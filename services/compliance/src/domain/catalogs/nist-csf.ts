// NIST Cybersecurity Framework 2.0: the subcategories that software development and code speak
// to (the framework's governance, recovery and physical outcomes are out of scope for code
// checks). Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const nistCsf: Catalog = {
  id: "nist-csf",
  name: "NIST Cybersecurity Framework",
  version: "2.0",
  kind: "framework",
  source_url: "https://www.nist.gov/cyberframework",
  controls: [
    ...family("ID", [
      ["ID.AM-02", "Inventories of software, services and systems maintained"],
      ["ID.AM-08", "Systems, software and data managed across their life cycles"],
      ["ID.RA-01", "Vulnerabilities in assets identified, validated and recorded"],
      ["ID.RA-05", "Threats, vulnerabilities and impacts used to prioritize risk"],
      ["ID.RA-06", "Risk responses chosen, planned and tracked"],
      ["ID.RA-09", "Authenticity and integrity of software assessed before use"],
      ["ID.IM-02", "Improvements identified from security tests and exercises"],
    ]),
    ...family("PR", [
      ["PR.AA-01", "Identities and credentials of users, services and hardware managed"],
      ["PR.AA-03", "Users, services and hardware authenticated"],
      ["PR.AA-05", "Access permissions enforced with least privilege and separation of duties"],
      ["PR.DS-01", "Data at rest protected"],
      ["PR.DS-02", "Data in transit protected"],
      ["PR.DS-10", "Data in use protected"],
      ["PR.PS-01", "Configuration management practices applied"],
      ["PR.PS-02", "Software maintained, replaced and removed according to risk"],
      ["PR.PS-05", "Unauthorized software prevented from installing and running"],
      ["PR.PS-06", "Secure software development practices integrated and monitored"],
      ["PR.IR-01", "Networks and environments protected from unauthorized logical access"],
    ]),
    ...family("DE", [["DE.CM-09", "Software, runtime environments and their data monitored for adverse events"]]),
  ],
};
