// OWASP Software Assurance Maturity Model 2.0: the two streams of each of the 15 security
// practices, identified as <business function>-<practice>-<stream>. Our own wording.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const owaspSamm: Catalog = {
  id: "owasp-samm",
  name: "OWASP Software Assurance Maturity Model (SAMM)",
  version: "2.0",
  kind: "framework",
  source_url: "https://owaspsamm.org/model/",
  controls: [
    ...family("Governance", [
      ["G-SM-A", "Strategy and metrics: create and promote"],
      ["G-SM-B", "Strategy and metrics: measure and improve"],
      ["G-PC-A", "Policy and compliance: policies and standards"],
      ["G-PC-B", "Policy and compliance: compliance management"],
      ["G-EG-A", "Education and guidance: training and awareness"],
      ["G-EG-B", "Education and guidance: organization and culture"],
    ]),
    ...family("Design", [
      ["D-TA-A", "Threat assessment: application risk profile"],
      ["D-TA-B", "Threat assessment: threat modeling"],
      ["D-SR-A", "Security requirements: software requirements"],
      ["D-SR-B", "Security requirements: supplier security"],
      ["D-SA-A", "Secure architecture: architecture design"],
      ["D-SA-B", "Secure architecture: technology management"],
    ]),
    ...family("Implementation", [
      ["I-SB-A", "Secure build: build process"],
      ["I-SB-B", "Secure build: software dependencies"],
      ["I-SD-A", "Secure deployment: deployment process"],
      ["I-SD-B", "Secure deployment: secret management"],
      ["I-DM-A", "Defect management: defect tracking"],
      ["I-DM-B", "Defect management: metrics and feedback"],
    ]),
    ...family("Verification", [
      ["V-AA-A", "Architecture assessment: architecture validation"],
      ["V-AA-B", "Architecture assessment: architecture mitigation"],
      ["V-RT-A", "Requirements-driven testing: control verification"],
      ["V-RT-B", "Requirements-driven testing: misuse and abuse testing"],
      ["V-ST-A", "Security testing: scalable baseline (automated tools)"],
      ["V-ST-B", "Security testing: deep understanding (expert review)"],
    ]),
    ...family("Operations", [
      ["O-IM-A", "Incident management: incident detection"],
      ["O-IM-B", "Incident management: incident response"],
      ["O-EM-A", "Environment management: configuration hardening"],
      ["O-EM-B", "Environment management: patching and updating"],
      ["O-OM-A", "Operational management: data protection"],
      ["O-OM-B", "Operational management: system decommissioning and legacy management"],
    ]),
  ],
};
