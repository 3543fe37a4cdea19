// CMMC 2.0 (32 CFR part 170), level 2: the practices, identified as in the DoD assessment guide,
// for the NIST SP 800-171 Rev. 2 requirements of our `nist-800-171` catalog. Level 1 practices
// keep their level 1 ids. Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const cmmc: Catalog = {
  id: "cmmc",
  name: "Cybersecurity Maturity Model Certification (CMMC)",
  version: "2.0 (Level 2)",
  kind: "regulation",
  source_url: "https://dodcio.defense.gov/CMMC/",
  controls: [
    ...family("AC", [
      ["AC.L1-b.1.i", "Authorized access control"],
      ["AC.L1-b.1.ii", "Transaction and function control"],
      ["AC.L2-3.1.3", "Control CUI flow"],
      ["AC.L2-3.1.5", "Least privilege"],
      ["AC.L2-3.1.7", "Privileged functions restricted"],
      ["AC.L2-3.1.13", "Remote access confidentiality"],
    ]),
    ...family("AU", [["AU.L2-3.3.1", "System auditing"]]),
    ...family("CM", [
      ["CM.L2-3.4.1", "System baselining"],
      ["CM.L2-3.4.2", "Security configuration enforcement"],
      ["CM.L2-3.4.3", "System change management"],
      ["CM.L2-3.4.6", "Least functionality"],
      ["CM.L2-3.4.7", "Nonessential functionality restricted"],
    ]),
    ...family("IA", [
      ["IA.L1-b.1.v", "Identification"],
      ["IA.L1-b.1.vi", "Authentication"],
      ["IA.L2-3.5.3", "Multifactor authentication"],
      ["IA.L2-3.5.10", "Cryptographically protected passwords"],
    ]),
    ...family("RA", [
      ["RA.L2-3.11.2", "Vulnerability scan"],
      ["RA.L2-3.11.3", "Vulnerability remediation"],
    ]),
    ...family("SC", [
      ["SC.L1-b.1.x", "Boundary protection"],
      ["SC.L2-3.13.2", "Security engineering"],
      ["SC.L2-3.13.8", "Data in transit"],
      ["SC.L2-3.13.10", "Key management"],
      ["SC.L2-3.13.11", "CUI encryption"],
      ["SC.L2-3.13.13", "Mobile code"],
      ["SC.L2-3.13.15", "Communications authenticity"],
      ["SC.L2-3.13.16", "Data at rest"],
    ]),
    ...family("SI", [
      ["SI.L1-b.1.xii", "Flaw remediation"],
      ["SI.L1-b.1.xiii", "Malicious code protection"],
    ]),
  ],
};
