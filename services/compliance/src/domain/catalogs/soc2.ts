// AICPA 2017 Trust Services Criteria (with the 2022 revised points of focus): the common criteria
// CC1.1–CC9.2 that every SOC 2 examination covers. Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const soc2: Catalog = {
  id: "soc2",
  name: "SOC 2 Trust Services Criteria",
  version: "2017 (2022 revised points of focus)",
  kind: "framework",
  source_url:
    "https://www.aicpa-cima.com/resources/download/2017-trust-services-criteria-with-revised-points-of-focus-2022",
  controls: [
    ...family("CC1", [
      ["CC1.1", "Commitment to integrity and ethical values"],
      ["CC1.2", "Board independence and oversight of internal control"],
      ["CC1.3", "Structures, reporting lines and authorities established"],
      ["CC1.4", "Commitment to attract, develop and retain competent people"],
      ["CC1.5", "Individuals held accountable for internal control responsibilities"],
    ]),
    ...family("CC2", [
      ["CC2.1", "Relevant, quality information used to support internal control"],
      ["CC2.2", "Internal communication of objectives and responsibilities"],
      ["CC2.3", "Communication with external parties"],
    ]),
    ...family("CC3", [
      ["CC3.1", "Objectives specified clearly enough to identify risks"],
      ["CC3.2", "Risks to objectives identified and analyzed"],
      ["CC3.3", "Potential for fraud considered in risk assessment"],
      ["CC3.4", "Changes that could affect internal control identified and assessed"],
    ]),
    ...family("CC4", [
      ["CC4.1", "Ongoing and separate evaluations of controls"],
      ["CC4.2", "Control deficiencies communicated and corrected"],
    ]),
    ...family("CC5", [
      ["CC5.1", "Control activities selected to mitigate risks"],
      ["CC5.2", "General controls over technology selected and developed"],
      ["CC5.3", "Control activities deployed through policies and procedures"],
    ]),
    ...family("CC6", [
      ["CC6.1", "Logical access security over protected information assets"],
      ["CC6.2", "User registration and authorization before access is granted"],
      ["CC6.3", "Access granted, changed and removed by role and least privilege"],
      ["CC6.4", "Physical access to facilities and assets restricted"],
      ["CC6.5", "Data and software protected when assets are disposed of"],
      ["CC6.6", "Protection against threats from outside the system boundaries"],
      ["CC6.7", "Transmission, movement and removal of information restricted and protected"],
      ["CC6.8", "Unauthorized or malicious software prevented or detected"],
    ]),
    ...family("CC7", [
      ["CC7.1", "Detection and monitoring of configuration changes and new vulnerabilities"],
      ["CC7.2", "Monitoring of system components for anomalies"],
      ["CC7.3", "Security events evaluated to determine whether they are incidents"],
      ["CC7.4", "Response to identified security incidents"],
      ["CC7.5", "Recovery from identified security incidents"],
    ]),
    ...family("CC8", [["CC8.1", "Changes to infrastructure, data and software authorized, tested and approved"]]),
    ...family("CC9", [
      ["CC9.1", "Risk mitigation for business disruptions"],
      ["CC9.2", "Risk management of vendors and business partners"],
    ]),
  ],
};
