// PCI DSS v4.0.1: the requirements about secure configuration (2.2), protecting keys and stored
// account data (3), strong cryptography in transit (4.2), secure software (6), least privilege (7)
// and authentication (8) that code and its configuration speak to. Titles are our own summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const pciDss: Catalog = {
  id: "pci-dss",
  name: "PCI DSS",
  version: "4.0.1",
  kind: "regulation",
  source_url: "https://www.pcisecuritystandards.org/document_library/",
  controls: [
    ...family("2", [
      ["2.2.1", "Configuration standards developed and applied to system components"],
      ["2.2.2", "Vendor default accounts managed"],
      ["2.2.4", "Only necessary services, protocols and functions enabled"],
      ["2.2.5", "Insecure services and protocols justified and secured"],
      ["2.2.6", "System security parameters configured to prevent misuse"],
      ["2.2.7", "Non-console administrative access encrypted"],
    ]),
    ...family("3", [
      ["3.5.1", "PAN rendered unreadable wherever stored"],
      ["3.6.1", "Cryptographic keys protected against disclosure and misuse"],
      ["3.7.1", "Key management: generation of strong keys"],
    ]),
    ...family("4", [
      ["4.2.1", "Strong cryptography and trusted, validated certificates protect PAN in transit"],
      ["4.2.1.1", "Inventory of trusted keys and certificates maintained"],
    ]),
    ...family("6", [
      ["6.2.1", "Bespoke and custom software developed securely"],
      ["6.2.2", "Developers trained in secure software development"],
      ["6.2.3", "Bespoke software reviewed before release to find and fix vulnerabilities"],
      ["6.2.3.1", "Manual code reviews approved by independent reviewers"],
      ["6.2.4", "Engineering techniques prevent or mitigate common software attacks"],
      ["6.3.1", "Security vulnerabilities identified and risk-ranked"],
      ["6.3.2", "Inventory of bespoke and third-party software components"],
      ["6.3.3", "Security patches installed promptly"],
      ["6.4.1", "Public-facing web applications protected against attacks"],
      ["6.4.2", "Automated solution detects and prevents web attacks"],
      ["6.4.3", "Payment page scripts authorized and integrity-checked"],
      ["6.5.1", "Changes to system components follow change control"],
      ["6.5.2", "Security requirements confirmed after significant changes"],
      ["6.5.3", "Pre-production environments separated from production"],
      ["6.5.4", "Roles and functions separated between environments"],
      ["6.5.5", "Live PANs not used in pre-production"],
      ["6.5.6", "Test data and test accounts removed before production"],
    ]),
    ...family("7", [
      ["7.2.1", "Access control model defined"],
      ["7.2.2", "Access assigned by least privilege"],
      ["7.2.5", "System and application accounts given least privilege"],
    ]),
    ...family("8", [
      ["8.2.2", "Shared or generic accounts used only when necessary"],
      ["8.3.1", "User access authenticated"],
      ["8.3.2", "Authentication factors unreadable in transit and storage"],
      ["8.3.6", "Password length and complexity"],
      ["8.6.1", "Interactive use of system and application accounts managed"],
      ["8.6.2", "System and application account passwords not hard coded in scripts, configuration or source"],
      ["8.6.3", "System and application account passwords protected against misuse"],
    ]),
  ],
};
