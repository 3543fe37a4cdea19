// Cloud Security Alliance Cloud Controls Matrix v4.0: the application and interface security
// domain in full, plus the cryptography, identity, infrastructure, data and vulnerability
// controls code speaks to. Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const csaCcm: Catalog = {
  id: "csa-ccm",
  name: "CSA Cloud Controls Matrix",
  version: "4.0",
  kind: "framework",
  source_url: "https://cloudsecurityalliance.org/research/cloud-controls-matrix",
  controls: [
    ...family("AIS", [
      ["AIS-01", "Application security policy and procedures"],
      ["AIS-02", "Application security baseline requirements"],
      ["AIS-03", "Application security metrics"],
      ["AIS-04", "Secure application design and development"],
      ["AIS-05", "Automated application security testing"],
      ["AIS-06", "Automated secure application deployment"],
      ["AIS-07", "Application vulnerability remediation"],
    ]),
    ...family("CEK", [
      ["CEK-03", "Data encryption at rest and in transit"],
      ["CEK-04", "Appropriate encryption algorithms"],
      ["CEK-10", "Key generation with approved random sources"],
      ["CEK-12", "Key rotation"],
      ["CEK-21", "Key inventory management"],
    ]),
    ...family("DSP", [
      ["DSP-07", "Data protection by design and default"],
      ["DSP-17", "Sensitive data protection"],
    ]),
    ...family("IAM", [
      ["IAM-02", "Strong password policy"],
      ["IAM-05", "Least privilege"],
      ["IAM-14", "Strong authentication"],
      ["IAM-15", "Secure password management"],
      ["IAM-16", "Authorization mechanisms"],
    ]),
    ...family("IVS", [
      ["IVS-03", "Network security"],
      ["IVS-04", "OS hardening and base controls"],
    ]),
    ...family("TVM", [["TVM-07", "Vulnerability identification"]]),
  ],
};
